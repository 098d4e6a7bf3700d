// The fill-reducing orderings of cusolverSp: reverse Cuthill-McKee (our own), approximate
// minimum degree (Eigen's AMD, MPL-2.0), nested dissection (METIS, Apache-2.0); and the row
// permutation that makes a diagonal zero-free (a maximum matching of rows to columns).
#include "libs/cusolver/sparse_orderings.h"

#include <metis.h>

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <algorithm>
#include <numeric>

namespace cucpu::cusolver::sparse {
namespace {

// A matrix's pattern as an undirected graph (A + A^T without the diagonal), zero-based, each
// vertex's neighbours sorted: what RCM and METIS order.
struct Graph {
  std::vector<int> start;  // n + 1 offsets into `adjacent`
  std::vector<int> adjacent;
};

Graph symmetric_graph(int n, int base, const int* row_ptr, const int* col_ind) {
  std::vector<std::vector<int>> lists(n);
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k) {
      const int j = col_ind[k] - base;
      if (j == i || j < 0 || j >= n) continue;
      lists[i].push_back(j);
      lists[j].push_back(i);
    }
  Graph graph;
  graph.start.reserve(n + 1);
  graph.start.push_back(0);
  for (auto& list : lists) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    graph.adjacent.insert(graph.adjacent.end(), list.begin(), list.end());
    graph.start.push_back(static_cast<int>(graph.adjacent.size()));
  }
  return graph;
}

// Reverse Cuthill-McKee: per connected component, a breadth-first search from a pseudo-peripheral
// vertex (found by repeated searches from the farthest, least-connected vertex), visiting each
// vertex's neighbours by increasing degree; the order reversed.
std::vector<int> reverse_cuthill_mckee(const Graph& graph) {
  const int n = static_cast<int>(graph.start.size()) - 1;
  auto degree = [&](int v) { return graph.start[v + 1] - graph.start[v]; };
  std::vector<int> order, level(n, -1);
  std::vector<char> placed(n, 0);
  order.reserve(n);
  // Breadth-first from `root` over unplaced vertices, appending to `out`; returns the last level's
  // vertex of least degree and, through `depth`, the number of levels.
  auto search = [&](int root, std::vector<int>& out, int& depth, bool sort_by_degree) {
    const size_t first = out.size();
    out.push_back(root);
    level[root] = 0;
    for (size_t head = first; head < out.size(); ++head) {
      const int v = out[head];
      const size_t added = out.size();
      for (int k = graph.start[v]; k < graph.start[v + 1]; ++k) {
        const int w = graph.adjacent[k];
        if (placed[w] || level[w] >= 0) continue;
        level[w] = level[v] + 1;
        out.push_back(w);
      }
      if (sort_by_degree)
        std::stable_sort(out.begin() + added, out.end(), [&](int a, int b) { return degree(a) < degree(b); });
    }
    depth = level[out.back()];
    int farthest = out.back();
    for (size_t k = first; k < out.size(); ++k)
      if (level[out[k]] == depth && degree(out[k]) < degree(farthest)) farthest = out[k];
    return farthest;
  };
  for (int seed = 0; seed < n; ++seed) {
    if (placed[seed]) continue;
    int root = seed, depth = -1;
    for (int tries = 0; tries < 8; ++tries) {  // a few searches find a pseudo-peripheral vertex
      std::vector<int> visited;
      int new_depth = 0;
      const int farthest = search(root, visited, new_depth, false);
      for (int v : visited) level[v] = -1;
      if (new_depth <= depth) break;
      depth = new_depth;
      root = farthest;
    }
    const size_t first = order.size();
    int ignored = 0;
    search(root, order, ignored, true);
    for (size_t k = first; k < order.size(); ++k) placed[order[k]] = 1;
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// Approximate minimum degree, Eigen's (on the pattern of A + A^T).
std::vector<int> approximate_minimum_degree(int n, int base, const int* row_ptr, const int* col_ind) {
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k)
      if (col_ind[k] - base >= 0 && col_ind[k] - base < n) entries.emplace_back(i, col_ind[k] - base, 1.0);
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> pattern(n, n);
  pattern.setFromTriplets(entries.begin(), entries.end());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> permutation;
  Eigen::AMDOrdering<int>()(pattern, permutation);
  // Eigen's ordering maps a new position to the old index (SimplicialCholesky inverts it to twist A).
  return std::vector<int>(permutation.indices().data(), permutation.indices().data() + n);
}

// Nested dissection, METIS's.
std::vector<int> nested_dissection(const Graph& graph) {
  idx_t n = static_cast<idx_t>(graph.start.size()) - 1;
  std::vector<int> order(n);
  if (n == 0) return order;
  std::vector<idx_t> start(graph.start.begin(), graph.start.end());
  std::vector<idx_t> adjacent(graph.adjacent.begin(), graph.adjacent.end());
  adjacent.push_back(0);  // METIS reads adjacent[0] even for a graph without edges
  std::vector<idx_t> perm(n), iperm(n);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  if (METIS_NodeND(&n, start.data(), adjacent.data(), nullptr, options, perm.data(), iperm.data()) != METIS_OK) {
    std::iota(order.begin(), order.end(), 0);  // METIS failed: leave the matrix as it is
    return order;
  }
  // METIS: row i of the reordered matrix is row perm[i] of A.
  std::copy(perm.begin(), perm.end(), order.begin());
  return order;
}

}  // namespace

std::vector<int> fill_reducing_order(Ordering ordering, int n, int base, const int* row_ptr, const int* col_ind) {
  switch (ordering) {
    case Ordering::reverse_cuthill_mckee:
      return reverse_cuthill_mckee(symmetric_graph(n, base, row_ptr, col_ind));
    case Ordering::approximate_minimum_degree:
    case Ordering::minimum_degree:
      return approximate_minimum_degree(n, base, row_ptr, col_ind);
    case Ordering::nested_dissection:
      return nested_dissection(symmetric_graph(n, base, row_ptr, col_ind));
    case Ordering::none:
      break;
  }
  std::vector<int> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  return identity;
}

std::vector<int> zero_free_diagonal(int n, int base, const int* row_ptr, const int* col_ind,
                                    const std::vector<bool>& nonzero, int& matched) {
  // The rows of each column (the pattern's transpose).
  std::vector<int> start(n + 1, 0), rows;
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k)
      if (nonzero[k] && col_ind[k] - base >= 0 && col_ind[k] - base < n) ++start[col_ind[k] - base + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  rows.resize(start[n]);
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k)
      if (nonzero[k] && col_ind[k] - base >= 0 && col_ind[k] - base < n) rows[fill[col_ind[k] - base]++] = i;
  // Augmenting paths from each column in turn (depth first, MC21's method), kept on an explicit
  // stack: column_of_row[i] is the column row i is matched to.
  std::vector<int> row_of_column(n, -1), column_of_row(n, -1), visited(n, -1), next(n), path;
  matched = 0;
  for (int root = 0; root < n; ++root) {
    path.assign(1, root);
    next[root] = start[root];
    while (!path.empty()) {
      const int j = path.back();
      int found = -1;
      while (next[j] < start[j + 1] && found < 0) {
        const int i = rows[next[j]++];
        if (visited[i] == root) continue;
        visited[i] = root;
        found = i;
      }
      if (found < 0) {
        path.pop_back();
        continue;
      }
      if (column_of_row[found] < 0) {  // a free row: flip the path's matches
        for (int k = static_cast<int>(path.size()) - 1, i = found; k >= 0; --k) {
          const int column = path[k], previous = row_of_column[column];
          row_of_column[column] = i;
          column_of_row[i] = column;
          i = previous;
        }
        ++matched;
        break;
      }
      const int further = column_of_row[found];
      next[further] = start[further];
      path.push_back(further);
    }
  }
  // Columns left unmatched take the rows left over, in order.
  std::vector<int> p(row_of_column);
  int free_row = 0;
  for (int& row : p) {
    if (row >= 0) continue;
    while (column_of_row[free_row] >= 0) ++free_row;
    row = free_row++;
  }
  return p;
}

}  // namespace cucpu::cusolver::sparse
