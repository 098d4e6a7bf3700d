// What every benchmark program shares, its CUDA and its OpenMP version alike (host C++
// only, so nvcc and g++ both compile it): the command line `PROGRAM [SIZE [RUNS]]`, the
// timing rule (one untimed warm-up run, because a program's first launch under cucpu
// compiles its module, then the median of RUNS timed runs), deterministic input data, the
// result check against a serial reference, and the one line each program prints:
//
//     BENCH name=reduce impl=cuda size=33554432 ms=12.345 check=ok
//
// bench/run.sh reads these lines; a failed check also exits 1 and says on stderr which
// value was wrong, so a wrong result is never a quiet number in a table.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace bench {

struct Options {
    long size;  // what SIZE counts is the program's own (elements, matrix order, bodies...)
    int runs;   // timed runs; the median is reported
};

// PROGRAM [SIZE [RUNS]]. SIZE must be a positive multiple of `size_multiple` (the block
// or tile the kernels assume), so no program needs a ragged last block.
inline Options parse_options(int argc, char** argv, long default_size, long size_multiple = 1) {
    Options options{default_size, 5};
    if (argc > 3 || (argc > 1 && std::string(argv[1]) == "--help")) {
        std::fprintf(stderr, "usage: %s [SIZE [RUNS]]   (default SIZE %ld, RUNS 5)\n", argv[0], default_size);
        std::exit(2);
    }
    if (argc > 1) options.size = std::atol(argv[1]);
    if (argc > 2) options.runs = std::atoi(argv[2]);
    if (options.size <= 0 || options.size % size_multiple != 0 || options.runs <= 0) {
        std::fprintf(stderr, "%s: SIZE must be a positive multiple of %ld and RUNS positive\n", argv[0],
                     size_multiple);
        std::exit(2);
    }
    return options;
}

inline double elapsed_ms(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One warm-up call of `run`, then `runs` timed calls; the median in milliseconds. `run` is
// the kernel work only: launches plus cudaDeviceSynchronize, or one OpenMP parallel region.
template <class Run>
double median_ms(int runs, Run&& run) {
    run();
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run();
        times.push_back(elapsed_ms(start));
    }
    std::sort(times.begin(), times.end());
    const std::size_t middle = times.size() / 2;
    return times.size() % 2 ? times[middle] : (times[middle - 1] + times[middle]) / 2;
}

// Input data: a hash of the index, so both versions (and the reference) see the same
// values however the work is split, and no generator state is shared between threads.
inline std::uint32_t hash(std::uint64_t index, std::uint32_t seed) {
    std::uint64_t x = index * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 1;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::uint32_t>(x ^ (x >> 31));
}

// A float in [0, 1) with 24 random bits.
inline float uniform(std::uint64_t index, std::uint32_t seed) { return (hash(index, seed) >> 8) * (1.0f / 16777216.0f); }

// Compares results with a serial reference: counts the misses and remembers the first.
class Check {
   public:
    // |got - want| <= tolerance * max(|want|, scale): relative, except near zero where
    // `scale` (the size of the terms that summed to want) sets what "close" means.
    void near(const char* what, long index, double got, double want, double tolerance, double scale = 1.0) {
        const double allowed = tolerance * std::max(std::fabs(want), scale);
        if (!(std::fabs(got - want) <= allowed)) miss(what, index, got, want);
    }
    void equal(const char* what, long index, long long got, long long want) {
        if (got != want) miss(what, index, static_cast<double>(got), static_cast<double>(want));
    }
    bool ok() const { return misses_ == 0; }
    long misses() const { return misses_; }
    const std::string& first_miss() const { return first_; }

   private:
    void miss(const char* what, long index, double got, double want) {
        if (misses_++ == 0) {
            char text[256];
            std::snprintf(text, sizeof text, "%s[%ld] = %.9g, the serial reference gives %.9g", what, index, got, want);
            first_ = text;
        }
    }
    long misses_ = 0;
    std::string first_;
};

// Prints the BENCH line (`key` is ms, us or per_s) and returns the program's exit code:
// 0, or 1 after saying on stderr what the check found.
inline int report(const char* name, const char* impl, long size, const char* key, double value, const Check& check) {
    std::printf("BENCH name=%s impl=%s size=%ld %s=%.3f check=%s\n", name, impl, size, key, value,
                check.ok() ? "ok" : "FAIL");
    std::fflush(stdout);
    if (check.ok()) return 0;
    std::fprintf(stderr, "%s (%s): RESULT CHECK FAILED: %ld wrong value(s); first: %s\n", name, impl, check.misses(),
                 check.first_miss().c_str());
    return 1;
}

inline int report_ms(const char* name, const char* impl, long size, double ms, const Check& check) {
    return report(name, impl, size, "ms", ms, check);
}

// The indices a result is checked at: all of them for small results, else `samples`
// spread by the hash (the quadratic workloads' references would take minutes in full).
inline std::vector<long> check_indices(long count, long samples, std::uint32_t seed) {
    std::vector<long> indices;
    if (count <= samples) {
        for (long i = 0; i < count; ++i) indices.push_back(i);
    } else {
        for (long i = 0; i < samples; ++i) indices.push_back(static_cast<long>(hash(i, seed) % count));
    }
    return indices;
}

}  // namespace bench
