// The platform layer: worker_thread's body runs, on another processor than
// the starting thread's when there is one, and once running the thread may
// use every processor the process may; table memory keeps its bytes as it
// grows; URLSIFT_PORTABLE turns the devices off.

#include "platform/devices.hpp"
#include "platform/table_memory.hpp"
#include "platform/threads.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <sched.h>

namespace {

using urlsift::platform::worker_thread;

cpu_set_t own_affinity() {
    cpu_set_t set;
    CPU_ZERO(&set);
    REQUIRE(::sched_getaffinity(0, sizeof set, &set) == 0);
    return set;
}

}  // namespace

TEST_CASE("worker_thread: runs its body and then may run anywhere the process may", "[threads]") {
    const cpu_set_t parent = own_affinity();
    std::atomic<int> ran{0};
    cpu_set_t seen;
    CPU_ZERO(&seen);
    {
        worker_thread t([&] {
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

TEST_CASE("worker_thread: moved into a vector, each joined once when it goes", "[threads]") {
    std::atomic<int> ran{0};
    {
        std::vector<worker_thread> pool;
        for (int i = 0; i < 4; ++i) pool.emplace_back([&] { ++ran; });
        pool.front().join();  // joined early: the destructor leaves it
    }
    CHECK(ran == 4);
}

TEST_CASE("platform table memory keeps what it holds as it grows past the mapped size", "[threads]") {
    // 1 MiB to 16 MiB: from the heap, then mapped apart where the device is on.
    std::size_t bytes = std::size_t{1} << 20;
    auto* p = static_cast<unsigned char*>(urlsift::platform::allocate_table_bytes(bytes));
    for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(i * 7 + 3);
    for (int step = 0; step < 4; ++step) {
        const std::size_t more = bytes * 2;
        p = static_cast<unsigned char*>(urlsift::platform::reallocate_table_bytes(p, bytes, bytes, more));
        for (std::size_t i = bytes; i < more; ++i) p[i] = static_cast<unsigned char>(i * 7 + 3);
        bytes = more;
    }
    bool kept = true;
    for (std::size_t i = 0; i < bytes; ++i) kept = kept && p[i] == static_cast<unsigned char>(i * 7 + 3);
    CHECK(kept);
    urlsift::platform::deallocate_table_bytes(p, bytes);
}

TEST_CASE("URLSIFT_PORTABLE turns the platform devices off", "[threads]") {
    using urlsift::platform::device;
    using urlsift::platform::device_on;
    const char* env = std::getenv("URLSIFT_PORTABLE");
    if (env == nullptr || std::string_view(env) != "all") return;
    for (const device d : {device::syscalls, device::disk_reads, device::placement, device::descriptor_table,
                           device::spin, device::huge_pages})
        CHECK_FALSE(device_on(d));
}
