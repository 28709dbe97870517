#include "cli/elsewhere_thread.hpp"

#include <cstddef>
#include <exception>
#include <memory>
#include <system_error>

#include <sched.h>

namespace urlsift::cli {

namespace {

/// What the new thread is given.
struct start {
    std::function<void()> body;
    cpu_set_t anywhere;    ///< the processors the starting thread may use
    bool narrowed = false; ///< the thread was born on fewer than those
};

void* run(void* arg) noexcept {
    const std::unique_ptr<start> s(static_cast<start*>(arg));
    // Failing leaves it on the other processors, which is only less even.
    if (s->narrowed) (void)::sched_setaffinity(0, sizeof s->anywhere, &s->anywhere);
    try {
        s->body();
    } catch (...) {
        std::terminate();
    }
    return nullptr;
}

/// Attributes that let a thread start on the processors `anywhere` holds
/// but the calling thread's, when there are any; false when there are none
/// or the attributes cannot be made.
bool elsewhere(pthread_attr_t& attr, const cpu_set_t& anywhere) {
    const int cpu = ::sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
    const auto here = static_cast<std::size_t>(cpu);
    if (!CPU_ISSET(here, &anywhere) || CPU_COUNT(&anywhere) < 2) return false;
    cpu_set_t others = anywhere;
    CPU_CLR(here, &others);
    return ::pthread_attr_setaffinity_np(&attr, sizeof others, &others) == 0;
}

}  // namespace

elsewhere_thread::elsewhere_thread(std::function<void()> body) {
    auto s = std::make_unique<start>();
    s->body = std::move(body);
    CPU_ZERO(&s->anywhere);
    pthread_attr_t attr;
    if (const int e = ::pthread_attr_init(&attr); e != 0) throw std::system_error(e, std::generic_category(), "thread");
    s->narrowed = ::sched_getaffinity(0, sizeof s->anywhere, &s->anywhere) == 0 && elsewhere(attr, s->anywhere);
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

elsewhere_thread::elsewhere_thread(elsewhere_thread&& other) noexcept
    : thread_(other.thread_), joinable_(other.joinable_) {
    other.joinable_ = false;
}

elsewhere_thread::~elsewhere_thread() { join(); }

void elsewhere_thread::join() noexcept {
    if (!joinable_) return;
    (void)::pthread_join(thread_, nullptr);
    joinable_ = false;
}

}  // namespace urlsift::cli
