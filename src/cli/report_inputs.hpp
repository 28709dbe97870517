#pragma once
// `urlsift report`'s inputs: files read and scanned into a report, on one
// thread or many, text or web archives (WARC and WET).

#include "cli/input_kind.hpp"
#include "cli/scan_settings.hpp"
#include "cli/walk.hpp"

#include <urlsift/report.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/scanner.hpp>
#include <urlsift/text_source.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace urlsift::cli {

/// What every worker needs to read an input: its own copies, so that the
/// workers share nothing while they scan.
struct read_settings {
    scan_options scan;
    std::optional<resolver> base;
    std::optional<input_bases> bases; ///< the base of each input: set before a run
    resolve_options resolve;
    bool canonicalize = false; ///< apply the resolver mode/normalization to absolute URLs without a base
    text_options text;
    bool warc = true;          ///< read an input that starts as a WARC file does as one
    input_setting input = input_setting::unset; ///< --input, as extract reads it
    std::uint64_t exact_url_limit = default_exact_url_limit; ///< --exact-urls
    memory_cap memory{}; ///< --max-memory
};

/// What a run shares with whoever watches it: counters for a progress
/// line, and a flag that stops it. All lock-free, so that a signal handler
/// may set `stop`. The lister's counters, the readers' and the flag each
/// have a cache line: the flag is read a few times for every file and
/// written once, and a line written for every file by another core would
/// make each of those reads wait.
struct run_progress {
    alignas(64) std::atomic<std::uint64_t> inputs_listed{0}; ///< inputs listed so far
    std::atomic<bool> listed{false};                          ///< every input is listed
    alignas(64) std::atomic<std::uint64_t> inputs_done{0};
    std::atomic<std::uint64_t> bytes_scanned{0};
    /// Set to stop the run: each input being read ends where it is (marked
    /// failed, "interrupted"), no other is started, and `aggregate` returns
    /// the report of what was read.
    alignas(64) std::atomic<bool> stop{false};
};

/// Lists a run's inputs in input order, handing each to `add`, which
/// returns false when the run is stopped and the listing should end.
using input_lister = std::function<void(const std::function<bool(listed_file)>& add)>;

/// Aggregates the inputs `list` gives on `jobs` threads into the report one
/// sequential run in input order would give.
report aggregate(const input_lister& list, const read_settings& s, unsigned jobs, run_progress& progress);

}  // namespace urlsift::cli
