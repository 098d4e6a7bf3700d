// scan's OpenMP twin (scan.cu): the same three steps. Blocks of 256 values are scanned in
// parallel, each by Hillis-Steele on two local arrays (8 steps); the block totals are
// scanned recursively the same way; then each block adds the scanned total before it.
#include <memory>

#include "common.h"

constexpr int kBlock = 256;

static long block_count(long n) { return (n + kBlock - 1) / kBlock; }

static void scan_blocks(const unsigned* in, unsigned* out, unsigned* block_totals, long n) {
#pragma omp parallel for schedule(static)
    for (long b = 0; b < block_count(n); ++b) {
        unsigned buffer[2][kBlock];
        int current = 0;
        for (int tid = 0; tid < kBlock; ++tid) {
            const long i = b * kBlock + tid;
            buffer[0][tid] = i < n ? in[i] : 0u;
        }
        for (int offset = 1; offset < kBlock; offset <<= 1) {
            for (int tid = 0; tid < kBlock; ++tid) {
                const unsigned value = buffer[current][tid];
                buffer[1 - current][tid] = tid >= offset ? value + buffer[current][tid - offset] : value;
            }
            current = 1 - current;
        }
        for (int tid = 0; tid < kBlock && b * kBlock + tid < n; ++tid) out[b * kBlock + tid] = buffer[current][tid];
        block_totals[b] = buffer[current][kBlock - 1];
    }
}

static void add_block_offsets(unsigned* out, const unsigned* scanned_totals, long n) {
#pragma omp parallel for schedule(static)
    for (long b = 1; b < block_count(n); ++b)
        for (long i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) out[i] += scanned_totals[b - 1];
}

static void inclusive_scan(const unsigned* in, unsigned* out, long n, const std::vector<unsigned*>& totals,
                           int level) {
    const long blocks = block_count(n);
    scan_blocks(in, out, totals[level], n);
    if (blocks == 1) return;
    inclusive_scan(totals[level], totals[level], blocks, totals, level + 1);
    add_block_offsets(out, totals[level], n);
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25);
    const long n = options.size;
    std::vector<unsigned> in(n), out(n);
    for (long i = 0; i < n; ++i) in[i] = bench::hash(i, 8) % 8;
    std::vector<std::vector<unsigned>> total_buffers;
    std::vector<unsigned*> totals;
    for (long count = n; ; count = block_count(count)) {
        total_buffers.emplace_back(block_count(count));
        if (block_count(count) == 1) break;
    }
    for (auto& buffer : total_buffers) totals.push_back(buffer.data());

    const double ms = bench::median_ms(options.runs, [&] { inclusive_scan(in.data(), out.data(), n, totals, 0); });

    bench::Check check;
    unsigned long long want = 0;
    for (long i = 0; i < n; ++i) {
        want += in[i];
        check.equal("scan", i, out[i], want);
    }
    return bench::report_ms("scan", "openmp", n, ms, check);
}
