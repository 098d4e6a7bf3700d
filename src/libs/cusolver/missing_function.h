// What the generated cuSOLVER stubs call (scripts/gen_stubs.py cusolver): a missing function
// returns CUSOLVER_STATUS_NOT_SUPPORTED; one that returns a value instead returns zero.
#pragma once

extern "C" {
int cucpu_report_missing_cusolver_function(const char* name);
void cucpu_report_missing_cusolver_value(const char* name);
}
