#pragma once
// Shared by the resolver benchmarks: loads the reference list, times a
// callback over every reference, prints one machine-readable line.

#include <chrono>
#include <ctime>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

struct ref_list {
    std::string storage;
    std::vector<std::string_view> refs;
};

inline ref_list load_refs(const char* path) {
    ref_list list;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path);
        std::exit(2);
    }
    list.storage.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::string_view all = list.storage;
    while (!all.empty()) {
        const auto nl = all.find('\n');
        const auto line = all.substr(0, nl);
        list.refs.push_back(line);
        if (nl == std::string_view::npos) break;
        all.remove_prefix(nl + 1);
    }
    return list;
}

inline double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Runs `fn(ref)` (returning the length of the resolved URL, or -1 on
/// failure) over all references `passes` times and reports the fastest pass.
template <class Fn>
int run(const char* name, int argc, char** argv, Fn&& setup) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s REFS-FILE BASE-URL [PASSES]\n", name);
        return 2;
    }
    const ref_list list = load_refs(argv[1]);
    const int passes = argc > 3 ? std::atoi(argv[3]) : 3;
    auto fn = setup(std::string_view(argv[2]));
    double best = 1e300, best_cpu = 1e300;
    std::size_t ok = 0, bytes = 0;
    for (int p = 0; p < passes; ++p) {
        ok = 0;
        bytes = 0;
        const double c0 = cpu_seconds();
        const auto t0 = std::chrono::steady_clock::now();
        for (const auto ref : list.refs) {
            const long n = fn(ref);
            if (n >= 0) {
                ++ok;
                bytes += static_cast<std::size_t>(n);
            }
        }
        const auto t1 = std::chrono::steady_clock::now();
        const double c = cpu_seconds() - c0;
        const double s = std::chrono::duration<double>(t1 - t0).count();
        if (s < best) best = s;
        if (c < best_cpu) best_cpu = c;
    }
    const auto n = static_cast<double>(list.refs.size());
    std::printf("%s refs=%zu resolved=%zu bytes=%zu seconds=%.6f refs_per_s=%.0f cpu_seconds=%.6f cpu_refs_per_s=%.0f\n",
                name, list.refs.size(), ok, bytes, best, n / best, best_cpu, n / best_cpu);
    return 0;
}

}  // namespace bench
