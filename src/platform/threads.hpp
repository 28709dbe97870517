#pragma once
// The report's worker threads, and how they wait.
//
// Device `placement`: Linux may queue a new thread behind its parent, on
// the parent's processor, until the load balancer of an idle one pulls it
// over. On the two-processor virtual machine of the benchmarks a thread
// started by a busy parent first ran 0.7 to 1.5 ms later at the median,
// 3 ms at worst: that much of the second processor lost at the start of a
// report that takes 100 ms on two threads. Allowed at its birth on every
// processor the process may use but the parent's, the thread is placed on
// another one at once (80 us at the median there); its first act is to
// allow them all again, so that from then on it runs wherever the
// scheduler puts it. Without the device it is started as any thread.

#include <atomic>
#include <functional>

#include <pthread.h>

namespace urlsift::platform {

class worker_thread {
public:
    /// Runs `body` on a new thread; throws std::system_error when none can
    /// be made. An exception out of `body` ends the process, as with
    /// std::thread.
    explicit worker_thread(std::function<void()> body);
    worker_thread(worker_thread&& other) noexcept;
    worker_thread& operator=(worker_thread&&) = delete;
    worker_thread(const worker_thread&) = delete;
    worker_thread& operator=(const worker_thread&) = delete;
    /// Joined first: a thread must not outlive its handle.
    ~worker_thread();

    /// Waits for the thread to end.
    void join() noexcept;
    pthread_t native_handle() const noexcept { return thread_; }

private:
    pthread_t thread_{};
    bool joinable_ = false;
};

/// Device `descriptor-table`: gives the calling thread a descriptor table
/// of its own (unshare(2), CLONE_FILES), a copy of the process's. A worker
/// opens, reads and closes every file of its share on its own; with the
/// table shared, each open and close takes the table's lock, which the
/// other workers contend for, and each read counts a reference to the open
/// file. Where it cannot be done (a sandbox that forbids it, another
/// system, the device off) the table stays shared, which is only slower.
void own_descriptor_table() noexcept;

/// Whether `flag` is set, waiting for it a little on the processor first
/// (device `spin`: up to 2 ms). A worker that ends its reading waits for
/// the others only as long as their last inputs take, and a thread put to
/// sleep there may wake a long while after it is called.
bool spin_until(const std::atomic<bool>& flag);

}  // namespace urlsift::platform
