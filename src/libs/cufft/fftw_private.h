// The FFTW API of cuFFT's private copy of FFTW (make_private_fftw.sh): FFTW's own
// declarations, with every name prefixed cucpu_ (cucpu_fftwf_execute_dft, cucpu_fftw_plan).
// Only transform.cpp includes it.
#pragma once

#include <fftw3.h>

#define CUCPU_FFTW_DOUBLE(name) FFTW_CONCAT(cucpu_fftw_, name)
#define CUCPU_FFTW_SINGLE(name) FFTW_CONCAT(cucpu_fftwf_, name)

extern "C" {
FFTW_DEFINE_API(CUCPU_FFTW_DOUBLE, double, fftw_complex)
FFTW_DEFINE_API(CUCPU_FFTW_SINGLE, float, fftwf_complex)
}
