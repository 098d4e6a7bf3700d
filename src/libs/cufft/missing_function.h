// What the generated cuFFT and cuFFTW stubs call (scripts/gen_stubs.py cufft, cufftw): a
// missing cuFFT function returns CUFFT_NOT_SUPPORTED; a missing cuFFTW one, which returns a
// plan, a number or nothing, returns zero (a null plan).
#pragma once

extern "C" {
int cucpu_report_missing_cufft_function(const char* name);
void cucpu_report_missing_cufft_value(const char* name);
}
