// elsewhere_thread: the body runs, on another processor than the starting
// thread's when there is one, and once running the thread may use every
// processor the process may.

#include "cli/elsewhere_thread.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <vector>

#include <sched.h>

namespace {

using urlsift::cli::elsewhere_thread;

cpu_set_t own_affinity() {
    cpu_set_t set;
    CPU_ZERO(&set);
    REQUIRE(::sched_getaffinity(0, sizeof set, &set) == 0);
    return set;
}

}  // namespace

TEST_CASE("elsewhere_thread: runs its body and then may run anywhere the process may", "[threads]") {
    const cpu_set_t parent = own_affinity();
    std::atomic<int> ran{0};
    cpu_set_t seen;
    CPU_ZERO(&seen);
    {
        elsewhere_thread t([&] {
            seen = own_affinity();
            ++ran;
        });
        t.join();
    }
    CHECK(ran == 1);
    // Narrowed at its birth only: a thread left on the other processors
    // could never share the parent's.
    CHECK(CPU_EQUAL(&seen, &parent));
}

TEST_CASE("elsewhere_thread: moved into a vector, each joined once when it goes", "[threads]") {
    std::atomic<int> ran{0};
    {
        std::vector<elsewhere_thread> pool;
        for (int i = 0; i < 4; ++i) pool.emplace_back([&] { ++ran; });
        pool.front().join();  // joined early: the destructor leaves it
    }
    CHECK(ran == 4);
}
