// The tables of cuRAND's Sobol generators (sobol_tables.cpp): direction vectors and scramble
// constants for every dimension NVIDIA's generators take, made when first asked for and kept
// for the life of the process, as curandGetDirectionVectors32/64 and
// curandGetScrambleConstants32/64 hand them out.
#pragma once

#include <curand.h>

namespace cucpu::curand {

// The most dimensions curandSetQuasiRandomGeneratorDimensions takes.
constexpr unsigned sobol_dimensions = 20000;

// sobol_dimensions entries each: CURAND_[SCRAMBLED_]DIRECTION_VECTORS_{32,64}_JOEKUO6.
const curandDirectionVectors32_t* sobol_vectors32(bool scrambled);
const curandDirectionVectors64_t* sobol_vectors64(bool scrambled);
const unsigned* sobol_scramble_constants32();
const unsigned long long* sobol_scramble_constants64();

}  // namespace cucpu::curand
