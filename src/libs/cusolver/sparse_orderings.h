// Orderings of a sparse matrix's rows and columns (sparse_orderings.cpp).
#pragma once

#include <vector>

namespace cucpu::cusolver::sparse {

// The csrlsv* solvers' `reorder` codes 0 to 3, and symmdq's ordering.
enum class Ordering {
  none,
  reverse_cuthill_mckee,
  approximate_minimum_degree,
  nested_dissection,
  // cuSOLVER's symmdq (minimum degree by quotient graph): approximate minimum degree, the
  // quotient-graph method's refinement, serves for it (orderings differ between
  // implementations anyway: each only aims at less fill).
  minimum_degree,
};

// p such that A(p, p) is the reordered matrix; A is n x n, CSR with index base `base`, and
// ordered by the pattern of A + A^T.
std::vector<int> fill_reducing_order(Ordering ordering, int n, int base, const int* row_ptr, const int* col_ind);

// A row permutation p such that A(p, :) has as many nonzero diagonal entries as any row
// permutation can give (a maximum matching of rows to columns; entries whose value is zero
// do not count), and that number.
std::vector<int> zero_free_diagonal(int n, int base, const int* row_ptr, const int* col_ind,
                                    const std::vector<bool>& nonzero, int& matched);

}  // namespace cucpu::cusolver::sparse
