#pragma once
// A thread that starts on another processor than the thread that starts it.
//
// Linux may queue a new thread behind its parent, on the parent's
// processor, until the load balancer of an idle one pulls it over. On the
// two-processor virtual machine of the benchmarks a thread started by a
// busy parent first ran 0.7 to 1.5 ms later at the median, 3 ms at worst:
// that much of the second processor lost at the start of a report that
// takes 100 ms on two threads. Allowed at its birth on every processor the
// process may use but the parent's, the thread is placed on another one at
// once (80 us at the median there); its first act is to allow them all
// again, so that from then on it runs wherever the scheduler puts it.

#include <functional>

#include <pthread.h>

namespace urlsift::cli {

class elsewhere_thread {
public:
    /// Runs `body` on a new thread; throws std::system_error when none can
    /// be made. An exception out of `body` ends the process, as with
    /// std::thread.
    explicit elsewhere_thread(std::function<void()> body);
    elsewhere_thread(elsewhere_thread&& other) noexcept;
    elsewhere_thread& operator=(elsewhere_thread&&) = delete;
    elsewhere_thread(const elsewhere_thread&) = delete;
    elsewhere_thread& operator=(const elsewhere_thread&) = delete;
    /// Joined first: a thread must not outlive its handle.
    ~elsewhere_thread();

    /// Waits for the thread to end.
    void join() noexcept;
    pthread_t native_handle() const noexcept { return thread_; }

private:
    pthread_t thread_{};
    bool joinable_ = false;
};

}  // namespace urlsift::cli
