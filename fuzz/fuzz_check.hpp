#pragma once
// The one check the fuzz targets use: a property that fails names itself
// on stderr and aborts, which libFuzzer and the replayer report as a crash.

#include <cstdio>
#include <cstdlib>

#define URLSIFT_FUZZ_CHECK(cond)                                                              \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            std::fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
            std::abort();                                                                     \
        }                                                                                     \
    } while (false)
