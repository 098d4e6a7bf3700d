// The NVIDIA library a cucpu stand-in forwards to (libnvrtc.so.13, libnvJitLink.so.13):
// found by the environment variable that names it, else in the toolkit (CUDA_PATH,
// CUDA_HOME, /usr/local/cuda), never the stand-in itself (which the loader found first).
// Null, said once on stderr, when there is none.
#pragma once

#include <cstddef>

namespace cucpu::libs {

// `soname` "libnvrtc.so.13", `variable` "CUCPU_NVRTC", `probe` a function both export;
// `self` any address inside the calling library.
void* open_nvidia_library(const char* soname, const char* variable, const char* probe, const void* self);

// `name` in `library` (dlsym), or null.
void* nvidia_function(void* library, const char* name);

// Fills the generated trampolines' table (scripts/gen_forwarders.py): slot i the function
// `names[i]` of `library`, or `fallback` where there is none (no library, no such name).
void fill_forwarding_table(void** table, const char* const* names, size_t count, void* library, void* fallback);

}  // namespace cucpu::libs
