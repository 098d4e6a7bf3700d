// The math libraries' generated stubs (scripts/gen_stubs.py) report through here: once per
// function, on stderr, with what the call returns instead.
#pragma once

namespace cucpu::libs {

void report_missing_function(const char* name, const char* returns);

}  // namespace cucpu::libs
