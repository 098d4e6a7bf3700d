// histogram's OpenMP twin (histogram.cu): the same blocks of 4096 bytes, in parallel, each
// counted into a private local histogram, then added to the global one bin by bin with an
// atomic add. Inside a block plain increments do what the shared-memory atomics do: a
// block is one thread here, as it is one worker under cucpu.
#include <algorithm>

#include "common.h"

constexpr int kBins = 256;
constexpr long kPerBlock = 4096;

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25);
    const long n = options.size, blocks = (n + kPerBlock - 1) / kPerBlock;
    std::vector<unsigned char> data(n);
    for (long i = 0; i < n; ++i) data[i] = bench::hash(i, 9) >> 24;
    std::vector<unsigned> bins(kBins);
    const unsigned char* bytes = data.data();
    unsigned* global = bins.data();

    const double ms = bench::median_ms(options.runs, [&] {
        std::fill(bins.begin(), bins.end(), 0u);
#pragma omp parallel for schedule(static)
        for (long b = 0; b < blocks; ++b) {
            unsigned local[kBins] = {};
            for (long i = b * kPerBlock; i < std::min(n, (b + 1) * kPerBlock); ++i) ++local[bytes[i]];
            for (int bin = 0; bin < kBins; ++bin) {
#pragma omp atomic
                global[bin] += local[bin];
            }
        }
    });

    std::vector<long> want(kBins);
    for (long i = 0; i < n; ++i) ++want[data[i]];
    bench::Check check;
    for (int bin = 0; bin < kBins; ++bin) check.equal("bins", bin, bins[bin], want[bin]);
    return bench::report_ms("histogram", "openmp", n, ms, check);
}
