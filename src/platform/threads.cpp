#include "platform/threads.hpp"

#include "platform/devices.hpp"

#include <chrono>
#include <cstddef>
#include <exception>
#include <memory>
#include <system_error>

#if defined(__linux__)
#include <sched.h>
#endif

namespace urlsift::platform {

namespace {

/// What the new thread is given.
struct start {
    std::function<void()> body;
#if defined(__linux__)
    cpu_set_t anywhere{};  ///< the processors the starting thread may use
#endif
    bool narrowed = false; ///< the thread was born on fewer than those
};

void* run(void* arg) noexcept {
    const std::unique_ptr<start> s(static_cast<start*>(arg));
#if defined(__linux__)
    // Failing leaves it on the other processors, which is only less even.
    if (s->narrowed) (void)::sched_setaffinity(0, sizeof s->anywhere, &s->anywhere);
#endif
    try {
        s->body();
    } catch (...) {
        std::terminate();
    }
    return nullptr;
}

/// Attributes that start a thread off the calling thread's processor
/// (device `placement`); false when they are not made.
bool elsewhere(pthread_attr_t& attr, start& s) {
#if defined(__linux__)
    if (!device_on(device::placement)) return false;
    CPU_ZERO(&s.anywhere);
    if (::sched_getaffinity(0, sizeof s.anywhere, &s.anywhere) != 0) return false;
    const int cpu = ::sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
    const auto here = static_cast<std::size_t>(cpu);
    if (!CPU_ISSET(here, &s.anywhere) || CPU_COUNT(&s.anywhere) < 2) return false;
    cpu_set_t others = s.anywhere;
    CPU_CLR(here, &others);
    return ::pthread_attr_setaffinity_np(&attr, sizeof others, &others) == 0;
#else
    (void)attr;
    (void)s;
    return false;
#endif
}

}  // namespace

worker_thread::worker_thread(std::function<void()> body) {
    auto s = std::make_unique<start>();
    s->body = std::move(body);
    pthread_attr_t attr;
    if (const int e = ::pthread_attr_init(&attr); e != 0) throw std::system_error(e, std::generic_category(), "thread");
    s->narrowed = elsewhere(attr, *s);
    int e = ::pthread_create(&thread_, &attr, run, s.get());
    ::pthread_attr_destroy(&attr);
    // A sandbox may forbid setting the affinity: start it as any thread.
    if (e != 0 && s->narrowed) {
        s->narrowed = false;
        e = ::pthread_create(&thread_, nullptr, run, s.get());
    }
    if (e != 0) throw std::system_error(e, std::generic_category(), "thread");
    s.release();  // the thread's now
    joinable_ = true;
}

worker_thread::worker_thread(worker_thread&& other) noexcept : thread_(other.thread_), joinable_(other.joinable_) {
    other.joinable_ = false;
}

worker_thread::~worker_thread() { join(); }

void worker_thread::join() noexcept {
    if (!joinable_) return;
    (void)::pthread_join(thread_, nullptr);
    joinable_ = false;
}

void own_descriptor_table() noexcept {
#if defined(__linux__)
    if (device_on(device::descriptor_table)) (void)::unshare(CLONE_FILES);
#endif
}

bool spin_until(const std::atomic<bool>& flag) {
#if defined(__x86_64__) || defined(__i386__)
    if (device_on(device::spin)) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
        while (!flag.load(std::memory_order_acquire)) {
            for (int i = 0; i < 64; ++i) __builtin_ia32_pause();
            if (std::chrono::steady_clock::now() > until) return false;
        }
        return true;
    }
#endif
    return flag.load(std::memory_order_acquire);
}

}  // namespace urlsift::platform
