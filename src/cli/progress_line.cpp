// The progress line of `report` and its Ctrl-C handling.

#include "cli/progress_line.hpp"

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace urlsift::cli {

namespace {

/// "1:05:09" or "4:07".
std::string clock_time(double seconds) {
    const auto s = static_cast<std::uint64_t>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", static_cast<unsigned long long>(s / 3600),
                      static_cast<unsigned long long>(s / 60 % 60), static_cast<unsigned long long>(s % 60));
    else
        std::snprintf(buf, sizeof buf, "%llu:%02llu", static_cast<unsigned long long>(s / 60),
                      static_cast<unsigned long long>(s % 60));
    return buf;
}

/// Written only by the signal handler's installer and read by the handler.
std::atomic<run_progress*> interrupted_run{nullptr};

extern "C" void on_interrupt(int) {
    if (run_progress* p = interrupted_run.load()) p->stop = true;
}

}  // namespace

std::string progress_line::describe(std::uint64_t done, std::uint64_t inputs, std::uint64_t bytes,
                                    std::chrono::duration<double> elapsed, bool listing) {
    const double seconds = elapsed.count();
    const double mb = static_cast<double>(bytes) / 1e6;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%llu/%llu%s files, %.1f MB, %.1f MB/s", static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(inputs), listing ? "+" : "", mb, seconds > 0 ? mb / seconds : 0.0);
    std::string line = buf;
    if (!listing && done > 0 && done < inputs)
        line += ", about " + clock_time(seconds * static_cast<double>(inputs - done) / static_cast<double>(done)) + " left";
    return line;
}

progress_line::progress_line(const run_progress& progress, bool terminal) : progress_(progress), terminal_(terminal) {
    drawer_ = std::thread([this] {
        const auto every = terminal_ ? std::chrono::milliseconds(500) : std::chrono::milliseconds(5000);
        std::unique_lock lock(m_);
        while (!wake_.wait_for(lock, every, [this] { return done_; })) draw(false);
    });
}

progress_line::~progress_line() {
    {
        const std::lock_guard lock(m_);
        done_ = true;
    }
    wake_.notify_all();
    drawer_.join();
    draw(true);
}

void progress_line::draw(bool last) {
    std::string line = "urlsift report: " + describe(progress_.inputs_done, progress_.inputs_listed,
                                                     progress_.bytes_scanned, std::chrono::steady_clock::now() - start_,
                                                     !progress_.listed);
    // A terminal's line is redrawn in place and erased at the end; a log
    // keeps each line, the last one too.
    if (terminal_) line = last ? "\r\x1b[K" : "\r\x1b[K" + line;
    else line += '\n';
    // One write a line, so that it does not interleave with messages.
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, line.data(), line.size());
}

stop_on_interrupt::stop_on_interrupt(run_progress& progress) {
    interrupted_run = &progress;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = static_cast<int>(SA_RESETHAND); // a second Ctrl-C ends the program
    ::sigaction(SIGINT, &sa, nullptr);
}

stop_on_interrupt::~stop_on_interrupt() {
    std::signal(SIGINT, SIG_DFL);
    interrupted_run = nullptr;
}

}  // namespace urlsift::cli
