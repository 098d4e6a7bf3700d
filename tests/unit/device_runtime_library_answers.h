// What the query kernel of device_runtime_library_kernels.cu saw, shared with
// device_runtime_library_test.cpp: each call's cudaError_t and its outputs.
#pragma once

struct Answers {
  int device_count_error, device_count;
  int attribute_error, max_threads_per_block;
  int bad_device_error, last_error, cleared_error;
  int get_device_error, device;
  int limit_error;
  unsigned long long stack_bytes;
  int stream_create_error, event_create_error, launch_error, memcpy_error, event_record_error, wait_event_error;
  int event_destroy_error, stream_destroy_error, bad_stream_destroy_error;
  int cache_config_error, cache_config;
  int func_attributes_error, func_max_threads_per_block, func_local_bytes;
  int occupancy_error, occupancy_blocks;
};
