// What a not-yet-implemented runtime function does (the generated stubs call it):
// says once on stderr which function the program called, records
// cudaErrorNotSupported as the thread's last error and returns it.
// No CUDA headers here: the stubs are declared without parameters.
#pragma once

extern "C" int cucpu_report_missing_function(const char* name);
