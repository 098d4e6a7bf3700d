#include "libs/cublaslt/epilogue.h"

#include <cmath>

#include "libs/cublas/element_types.h"

namespace cucpu::cublaslt {
namespace {

using cublas::load_element;
using cublas::store_element;

constexpr double kGeluScale = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluCubic = 0.044715;

// The GELU cuBLAS applies: the tanh approximation; and its derivative.
double gelu(double x) { return 0.5 * x * (1 + std::tanh(kGeluScale * (x + kGeluCubic * x * x * x))); }
double gelu_derivative(double x) {
  const double t = std::tanh(kGeluScale * (x + kGeluCubic * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * kGeluScale * (1 + 3 * kGeluCubic * x * x);
}

// Values the epilogue stores in a narrow type were computed in float.
double in_float(double value, cudaDataType type) {
  return type == CUDA_R_32F || type == CUDA_R_16F || type == CUDA_R_16BF ? static_cast<float>(value) : value;
}

bool mask_bit(const void* mask, int64_t ld_bits, int64_t i, int64_t j) {
  const int64_t bit = i + j * ld_bits;
  return (static_cast<const uint8_t*>(mask)[bit / 8] >> (bit % 8)) & 1;
}

void set_mask_bit(void* mask, int64_t ld_bits, int64_t i, int64_t j, bool on) {
  const int64_t bit = i + j * ld_bits;
  uint8_t& byte = static_cast<uint8_t*>(mask)[bit / 8];
  byte = static_cast<uint8_t>(on ? byte | (1u << (bit % 8)) : byte & ~(1u << (bit % 8)));
}

// BGRADA: the sums of op(A)'s rows; BGRADB: of op(B)'s columns (A and B are not conjugated:
// the sums of real types, the only ones the epilogues take).
void bias_gradient(const cublas::MixedGemm& g, const EpilogueOperands& e, const void* A, const void* B) {
  const bool of_a = e.epilogue & kBiasGradientA;
  const int64_t count = of_a ? g.m : g.n;
  for (int64_t v = 0; v < count; ++v) {
    double sum = 0;
    for (int64_t p = 0; p < g.k; ++p) {
      if (of_a)
        sum += load_element<double>(A, g.a_type, g.transa == CUBLAS_OP_N ? v + p * g.lda : p + v * g.lda);
      else
        sum += load_element<double>(B, g.b_type, g.transb == CUBLAS_OP_N ? p + v * g.ldb : v + p * g.ldb);
      sum = in_float(sum, e.bias_type);
    }
    store_element<double>(const_cast<void*>(e.bias), e.bias_type, v, sum);
  }
}

}  // namespace

bool supported_epilogue(uint32_t epilogue) {
  switch (epilogue) {
    case CUBLASLT_EPILOGUE_DEFAULT:
    case CUBLASLT_EPILOGUE_RELU:
    case CUBLASLT_EPILOGUE_RELU_AUX:
    case CUBLASLT_EPILOGUE_BIAS:
    case CUBLASLT_EPILOGUE_RELU_BIAS:
    case CUBLASLT_EPILOGUE_RELU_AUX_BIAS:
    case CUBLASLT_EPILOGUE_DRELU:
    case CUBLASLT_EPILOGUE_GELU:
    case CUBLASLT_EPILOGUE_GELU_AUX:
    case CUBLASLT_EPILOGUE_GELU_BIAS:
    case CUBLASLT_EPILOGUE_GELU_AUX_BIAS:
    case CUBLASLT_EPILOGUE_DGELU:
    case CUBLASLT_EPILOGUE_BGRADA:
    case CUBLASLT_EPILOGUE_BGRADB:
      return true;
  }
  return false;
}

void apply_epilogue(const cublas::MixedGemm& g, const EpilogueOperands& e, void* D, const void* A, const void* B) {
  if (e.epilogue == CUBLASLT_EPILOGUE_DEFAULT) return;
  if (e.epilogue & (kBiasGradientA | kBiasGradientB)) {
    bias_gradient(g, e, A, B);
    return;
  }
  for (int64_t j = 0; j < g.n; ++j)
    for (int64_t i = 0; i < g.m; ++i) {
      const size_t at = i + j * e.ldd;
      double value = load_element<double>(D, e.d_type, at);
      if (e.epilogue & kReluGradient) {
        if (!mask_bit(e.aux, e.aux_ld, i, j)) value = 0;
      } else if (e.epilogue & kGeluGradient) {
        value *= gelu_derivative(load_element<double>(e.aux, e.aux_type, i + j * e.aux_ld));
      } else {
        if (e.epilogue & kBias) value += load_element<double>(e.bias, e.bias_type, e.bias_per_column ? j : i);
        value = in_float(value, e.d_type);
        if ((e.epilogue & kAux) && (e.epilogue & kGelu))
          store_element<double>(e.aux, e.aux_type, i + j * e.aux_ld, value);
        if ((e.epilogue & kAux) && (e.epilogue & kRelu)) set_mask_bit(e.aux, e.aux_ld, i, j, value > 0);
        if (e.epilogue & kRelu) value = value > 0 ? value : 0;
        if (e.epilogue & kGelu) value = gelu(value);
      }
      store_element<double>(D, e.d_type, at, in_float(value, e.d_type));
    }
}

}  // namespace cucpu::cublaslt
