// launch_latency's OpenMP reference (launch_latency.cu): what entering and leaving an
// (almost) empty parallel region costs, SIZE regions in a row; one thread of each adds 1
// to a counter, so the check can count them. Prints microseconds per region as
// launch_sync; asynchronous launches have no OpenMP counterpart.
#include "common.h"

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 20000);
    const long regions = options.size;
    unsigned long long counter = 0;

    const double ms = bench::median_ms(options.runs, [&] {
        for (long k = 0; k < regions; ++k) {
#pragma omp parallel
            {
#pragma omp master
                counter += 1;
            }
        }
    });

    bench::Check check;
    check.equal("regions", 0, counter, static_cast<long long>(options.runs + 1) * regions);
    return bench::report("launch_sync", "openmp", regions, "us", ms * 1000.0 / regions, check);
}
