// What the generated cuRAND stubs call (scripts/gen_stubs.py curand), and what cuRAND's own
// entry points call for what they do not do yet: CURAND_STATUS_ARCH_MISMATCH ("the GPU does
// not support the requested feature"), curand.h's closest status to "not supported".
#pragma once

extern "C" {
int cucpu_report_missing_curand_function(const char* name);
void cucpu_report_missing_curand_value(const char* name);
}
