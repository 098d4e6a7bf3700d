// What a not-yet-implemented driver function does (the generated stubs call it): says
// once on stderr which function the program called and returns CUDA_ERROR_NOT_SUPPORTED.
// No CUDA headers here: the stubs are declared without parameters.
#pragma once

extern "C" int cucpu_report_missing_driver_function(const char* name);
