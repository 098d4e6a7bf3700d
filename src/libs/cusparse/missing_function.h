// What the generated cuSPARSE stubs call (scripts/gen_stubs.py cusparse): a missing function
// returns CUSPARSE_STATUS_NOT_SUPPORTED; one that returns a value instead (the legacy
// descriptor getters) returns zero.
#pragma once

extern "C" {
int cucpu_report_missing_cusparse_function(const char* name);
void cucpu_report_missing_cusparse_value(const char* name);
}
