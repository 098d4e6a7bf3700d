// cublasLt's epilogues: what follows the product D = alpha op(A) op(B) + beta C, element by
// element in float as the GPU's epilogue works (epilogue.cpp). Bias (a vector along D's rows,
// or its columns for a row-major D), ReLU and GELU (tanh approximation); their auxiliary
// outputs (ReLU's bit mask, one bit per element, columns aux_ld bits apart; GELU's input);
// the gradients DRELU and DGELU, which read those back and scale D by the activation's
// derivative; and the bias gradients of A and B (BGRADA, BGRADB: the sums of op(A)'s rows and
// op(B)'s columns over k, written where the bias pointer points).
#pragma once

#include <cublasLt.h>

#include <cstdint>

#include "libs/cublas/mixed_gemm.h"
#include "libs/cublaslt/descriptors.h"

namespace cucpu::cublaslt {

// The epilogue bits of cublasLtEpilogue_t's values.
inline constexpr uint32_t kRelu = 2, kBias = 4, kReluGradient = 8, kBiasGradient = 16, kGelu = 32, kGeluGradient = 64,
                          kAux = 128, kBiasGradientA = 256, kBiasGradientB = 512;

// Whether cucpu runs `epilogue` (DRELU_BGRAD and DGELU_BGRAD: the H200 offers no algorithm for
// a float D, and cucpu none at all).
bool supported_epilogue(uint32_t epilogue);
// Whether the epilogue reads or writes the bias pointer (a bias, or a bias gradient).
inline bool uses_bias_pointer(uint32_t epilogue) {
  return epilogue & (kBias | kBiasGradient | kBiasGradientA | kBiasGradientB);
}
// ReLU's mask: read by DRELU, written by RELU_AUX.
inline bool uses_relu_mask(uint32_t epilogue) { return (epilogue & kAux) && (epilogue & (kRelu | kReluGradient)); }

// Where the epilogue's vectors and auxiliary matrix are, for one batch entry.
struct EpilogueOperands {
  uint32_t epilogue;
  cudaDataType d_type;
  int64_t ldd;
  const void* bias;  // the bias, or where a bias gradient goes
  cudaDataType bias_type;
  bool bias_per_column;  // row-major D: a bias per row of D is one per column of D^T
  void* aux;
  cudaDataType aux_type;
  int64_t aux_ld;  // in bits for ReLU's mask, else in elements
};

// Applies the epilogue to D (column-major, product.m x product.n), the product's A and B
// given for the bias gradients.
void apply_epilogue(const cublas::MixedGemm& product, const EpilogueOperands& operands, void* D, const void* A,
                    const void* B);

}  // namespace cucpu::cublaslt
