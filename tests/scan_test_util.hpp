#pragma once
// Helpers for scanner tests: run a text whole, split at every offset and one
// byte at a time, and compare every field of every reference.

#include <urlsift/scanner.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::test {

/// Every field of a reference on one line, for comparisons with readable diffs.
inline std::string describe(const found_reference& r) {
    std::ostringstream out;
    out << r.line << ':' << r.column << " @" << r.offset << '+' << r.length << " outer " << r.outer.offset << '+'
        << r.outer.length << ' ' << to_string(r.wrapper) << ' ' << to_string(r.form) << (r.joined ? " joined" : "")
        << (r.truncated ? " truncated" : "") << " raw[" << r.raw << "] cleaned[" << r.cleaned << "] url[" << r.url
        << "] alts[";
    for (const auto& a : r.alternatives) out << a << ';';
    out << "] pieces[";
    for (const auto& p : r.pieces) out << p.offset << '+' << p.length << ';';
    const auto& a = r.around;
    out << "] around[" << int{a.before} << ' ' << int{a.before_punctuation} << ' ' << int{a.after} << ' '
        << int{a.after_punctuation} << " depth " << a.quote_depth << '-' << a.quote_depth_end
        << (a.in_brackets ? " in-brackets" : "") << (a.line_break_after ? " break-after" : "")
        << (a.in_longer_reading ? " in-longer-reading" : "") << ']';
    return out.str();
}

struct chunked_run {
    std::vector<std::string> refs;       ///< describe() of each reference
    std::vector<std::uint64_t> outer_at; ///< outer.offset of each, in order
    bool committed_ok = true;            ///< no reference started before committed_offset()
};

/// Text that leaves a scanner in the middle of everything when it is fed
/// and not finished: lines counted, quoted lines, a URL remembered, a
/// reference reported, a `<` open and bytes carried.
inline constexpr std::string_view unfinished_text =
    "Before:\n> ftp://ftp.example.org/pub/ and\n>> see <http://example.org/a/\n>>   b and \"www.example";

/// Feeds `text` in the chunks that `cuts` (increasing offsets) delimit, each
/// through an exact-size heap copy so sanitizers see over-reads. With
/// `after_reset`, the scanner has first read unfinished_text twice, once
/// until its sink said stop and once to the end unfinished, and been reset
/// after each: what it reports must be what a new scanner reports.
inline chunked_run scan_in_chunks(std::string_view text, const scan_options& options,
                                  const std::vector<std::size_t>& cuts, bool after_reset = false) {
    chunked_run run;
    std::uint64_t committed = 0;
    enum class sink_mode { stop, take, record } mode = after_reset ? sink_mode::stop : sink_mode::record;
    scanner s(options, [&](const found_reference& r) {
        if (mode != sink_mode::record) return mode == sink_mode::take;
        run.refs.push_back(describe(r));
        run.outer_at.push_back(r.outer.offset);
        if (r.outer.offset < committed || r.offset < committed) run.committed_ok = false;
        return true;
    });
    if (after_reset) {
        s.feed(unfinished_text);
        s.reset();
        mode = sink_mode::take;
        s.feed(unfinished_text);
        s.reset();
        mode = sink_mode::record;
    }
    std::size_t from = 0;
    auto feed = [&](std::size_t to) {
        const std::size_t n = to - from;
        auto copy = std::make_unique<char[]>(n == 0 ? 1 : n);
        if (n != 0) std::memcpy(copy.get(), text.data() + from, n);
        s.feed(std::string_view(copy.get(), n));
        if (s.committed_offset() < committed || s.committed_offset() > to) run.committed_ok = false;
        committed = s.committed_offset();
        from = to;
    };
    for (std::size_t cut : cuts) feed(cut);
    feed(text.size());
    s.finish();
    return run;
}

inline std::vector<std::string> scan_whole(std::string_view text, const scan_options& options = {}) {
    return scan_in_chunks(text, options, {}).refs;
}

/// Scans `text` whole, whole again by a scanner reset after other input,
/// split in two at every offset, and one byte at a time; every run must
/// report exactly the same references, their surroundings included.
inline void check_chunk_invariance(std::string_view text, scan_options options = {}) {
    options.surroundings = true;
    const chunked_run whole = scan_in_chunks(text, options, {});
    REQUIRE(whole.committed_ok);
    {
        const chunked_run reused = scan_in_chunks(text, options, {}, true);
        INFO("after reset()");
        REQUIRE(reused.refs == whole.refs);
        REQUIRE(reused.committed_ok);
    }
    for (std::size_t cut = 1; cut < text.size(); ++cut) {
        const chunked_run split = scan_in_chunks(text, options, {cut});
        INFO("split at " << cut);
        REQUIRE(split.refs == whole.refs);
        REQUIRE(split.committed_ok);
    }
    std::vector<std::size_t> every;
    for (std::size_t k = 1; k < text.size(); ++k) every.push_back(k);
    const chunked_run bytes = scan_in_chunks(text, options, every);
    INFO("one byte at a time");
    REQUIRE(bytes.refs == whole.refs);
    REQUIRE(bytes.committed_ok);
}

/// The references' `url` fields, scanned whole and checked for chunk invariance.
inline std::vector<std::string> urls_of(std::string_view text, const scan_options& options = {}) {
    check_chunk_invariance(text, options);
    std::vector<std::string> urls;
    for (const auto& r : scan(text, options)) urls.push_back(r.url);
    return urls;
}

/// Options that report scheme URLs and wrapped references only.
inline scan_options scheme_only() {
    scan_options o;
    o.abbrev.kinds = abbrev_none;
    return o;
}

}  // namespace urlsift::test
