#pragma once
// How a long `report` run is going, on standard error, and Ctrl-C as a way
// to end it early with the report so far.

#include "cli/report_inputs.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace urlsift::cli {

/// A line on standard error that tells how a run is going: inputs done of
/// all (of those listed so far, with a `+`, while a walk goes on),
/// megabytes scanned, the rate, and the time left (from the share of
/// inputs done, once all are listed). On a terminal it is redrawn in place twice a second and
/// erased at the end; elsewhere (`--progress` into a log) a new line is
/// written every five seconds. Drawn by a thread of its own from the run's
/// counters, until the object goes away.
class progress_line {
public:
    progress_line(const run_progress& progress, bool terminal);
    ~progress_line();
    progress_line(const progress_line&) = delete;
    progress_line& operator=(const progress_line&) = delete;

    /// The line as it reads `elapsed` into the run (no control characters).
    static std::string describe(std::uint64_t done, std::uint64_t inputs, std::uint64_t bytes,
                                std::chrono::duration<double> elapsed, bool listing = false);

private:
    void draw(bool last);

    const run_progress& progress_;
    bool terminal_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::mutex m_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread drawer_;
};

/// While it lives, the first SIGINT (Ctrl-C) sets `progress.stop`, so the
/// run ends and its report so far is written; a second one ends the
/// program as usual.
class stop_on_interrupt {
public:
    explicit stop_on_interrupt(run_progress& progress);
    ~stop_on_interrupt();
    stop_on_interrupt(const stop_on_interrupt&) = delete;
    stop_on_interrupt& operator=(const stop_on_interrupt&) = delete;
};

}  // namespace urlsift::cli
