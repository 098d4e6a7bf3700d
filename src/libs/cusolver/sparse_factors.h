// The state cusolverSp's low-level factorizations (cusolverSp_LOWLEVEL_PREVIEW.h) keep between
// calls: csrcholInfo(Host), csrqrInfo(Host) and csrluInfoHost. csrqrInfo is also csrqrsvBatched's
// (sparse_solvers_api.cpp).
#pragma once

#include <cusolverSp_LOWLEVEL_PREVIEW.h>

#include <any>

namespace cucpu::cusolver::sparse {

struct FactorState {
  int m = 0, n = 0, nnz = 0;  // of the analysed pattern
  // Which calls have come (Analysis, BufferInfo, QR's Setup, Factor): each step needs some.
  bool analysed = false, sized = false, set_up = false, factored = false;
  // The factorization of the element type that sized it: a std::shared_ptr to one of
  // sparse_factors_api.cpp's types, shared with the work a device call queues.
  std::any numbers;
};

}  // namespace cucpu::cusolver::sparse

struct csrqrInfo : cucpu::cusolver::sparse::FactorState {
  bool batch_analysed = false;  // by cusolverSpXcsrqrAnalysisBatched
};
struct csrqrInfoHost : cucpu::cusolver::sparse::FactorState {};
struct csrcholInfo : cucpu::cusolver::sparse::FactorState {};
struct csrcholInfoHost : cucpu::cusolver::sparse::FactorState {};
struct csrluInfoHost : cucpu::cusolver::sparse::FactorState {};
