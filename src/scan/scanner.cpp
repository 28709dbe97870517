// The streaming scanner: Appendix E delimiting, the `URL:` prefix and `<...>`
// wrappers of 003_*.txt, and the calls into Appendix F completion. This is
// the one translation unit of the hot path; its stages are the headers
// beside it:
//
//   window.hpp        the visible bytes, what is carried between feeds, lines and quoting
//   anchors.hpp       where a reference can start (SIMD, no rules)
//   words.hpp         words of prose settled without building a candidate
//   bare.hpp          runs: scheme URLs, `URL:`, abbreviated URLs, trailing punctuation
//   continuation.hpp  URLs broken across lines outside brackets
//   angle.hpp         `<...>`: the walk to `>`, the `URL:` prefix, what they hold
//   emit.hpp          candidate -> found_reference with its surroundings -> sink
//   brackets.hpp      `<...>` that could become a wrapper, read once
//
// How the text is walked:
//
//     ordinary prose ... ordinary prose <ftp://ds.internic.\n net/rfc/> ...
//     \_ skipped 16 or 32 bytes at a time _/^ anchor: `<`, `:`, `.`, `@`
//
// Only bytes that can anchor a reference stop the skip. From an anchor the
// scanner looks at the run around it (the characters between two
// delimiters) or at the `<...>` it opens, and a rule returns its verdict.
// A verdict that needs bytes not fed yet stops the scan at the start of the
// candidate; the bytes from there on are carried to the next feed, so a
// candidate is always examined whole and the result does not depend on
// where chunks end.

#include <urlsift/resolution.hpp>
#include <urlsift/scanner.hpp>

#include "scan/angle.hpp"
#include "scan/bare.hpp"
#include "scan/emit.hpp"
#include "scan/window.hpp"
#include "scan/words.hpp"

#include <algorithm>
#include <utility>

namespace urlsift {

std::string_view to_string(wrapper_kind w) noexcept {
    switch (w) {
    case wrapper_kind::none: return "none";
    case wrapper_kind::angle: return "angle";
    case wrapper_kind::quote: return "quote";
    case wrapper_kind::url_prefix: return "url-prefix";
    }
    return "none";
}

std::string_view to_string(reference_form f) noexcept {
    switch (f) {
    case reference_form::absolute: return "absolute";
    case reference_form::relative: return "relative";
    case reference_form::abbreviated: return "abbreviated";
    }
    return "absolute";
}

namespace {

using namespace detail;

/// Where a scan stopped: the carried bytes start at `index`, and the run
/// holding t[index] started at absolute `run_start`.
struct scan_stop {
    std::size_t index = 0;
    std::uint64_t run_start = 0;
};

scan_options checked(scan_options o) {
    if (o.max_url_length < 16) o.max_url_length = 16;
    return o;
}

}  // namespace

struct scanner::impl {
    scan_options opt;
    scan_window window;
    carried_input input;
    emitter out;
    candidate cand;            ///< reused: no allocation per candidate once warm
    /// Start of the run that holds the first carried byte (the input's
    /// offset when a run starts there).
    std::uint64_t run_start_carried = 0;
    /// Inside a run that was cut at `max_url_length`: skip to its end.
    bool skipping = false;
    bool finished = false;
    /// Whether `.` and `@` anchor too (Appendix F heuristics on).
    bool abbrev_anchors;

    impl(scan_options o, reference_sink sink)
        : opt(checked(std::move(o))), out(opt, std::move(sink)), abbrev_anchors(opt.abbrev.kinds != abbrev_none) {}

    void feed(std::string_view chunk) {
        if (finished || out.stopped()) return;
        input.feed(
            chunk, [this](std::string_view text, std::uint64_t offset, bool end) { return run_scan(text, offset, end); },
            [this] { return out.stopped(); });
    }

    void reset() noexcept {
        window.reset();
        input.reset();
        out.reset();
        cand.clear();
        run_start_carried = 0;
        skipping = false;
        finished = false;
    }

    void finish() {
        if (finished) return;
        if (out.stopped()) input.drop();
        else input.finish([this](std::string_view text, std::uint64_t offset, bool end) { return run_scan(text, offset, end); });
        finished = true;
    }

    /// Scans `text` (at absolute `offset`) and commits what is final.
    /// Returns the index where the carried bytes start.
    std::size_t run_scan(std::string_view text, std::uint64_t offset, bool end) {
        window.begin(text, offset, end);
        scan_stop stop = scan();
        if (out.stopped()) stop = {text.size(), offset + text.size()};
        window.commit(stop.index);
        out.commit(window, stop.index);
        run_start_carried = std::min(stop.run_start, offset + stop.index);
        return stop.index;
    }

    scan_stop scan() {
        scan_parts parts{window, opt, cand, out};
        const std::string_view t = window.t;
        const std::size_t n = t.size();
        const std::uint64_t base = window.base;
        std::size_t i = 0;
        std::uint64_t i_run_start = run_start_carried;
        if (skipping) {
            const std::size_t e = window.run_end(0);
            if (e == npos) return {window.complete_end(n), i_run_start};
            skipping = false;
            i = e;
            i_run_start = base + e;
        }
        anchor_cursor anchors(reinterpret_cast<const unsigned char*>(t.data()), n, abbrev_anchors);
        while (!out.stopped()) {
            const std::size_t a = anchors.next(i);
            if (a >= n) return stop_trailing(i, i_run_start);
            const bool run_starts_here = i_run_start == base + i;
            if (run_starts_here && a + 2 < n && ends_plain_word(window, a)) {
                i = a + 1;
                i_run_start = base + i;
                continue;
            }
            if (run_starts_here && t[a] == '.') {
                if (const std::size_t word_end = dotted_word_without_site(window, i, a); word_end != npos) {
                    i = word_end;
                    i_run_start = base + i;
                    continue;
                }
            }
            if (t[a] == '<') {
                std::size_t next = 0;
                const angle_verdict v = scan_angle(parts, a, next);
                if (v == angle_verdict::need_more) return {a, base + a};
                if (v != angle_verdict::reference) out.angle_decided(window, base + a, v == angle_verdict::could_wrap);
                i = next;
                i_run_start = base + next;
                continue;
            }
            const std::uint64_t rs = window.run_start(a, i, i_run_start);
            const verdict v = scan_run(parts, rs, a);
            if (v.needs_more()) return {v.at, rs};
            if (v.skip_rest) {
                skipping = true;
                return {window.complete_end(n), rs};
            }
            i = v.at;
            // `i` is a run boundary unless the run was too long to judge
            // whole, or a reference ended at a closing bracket inside it.
            i_run_start = window.run_continues_at(i) && !v.new_run ? rs : base + i;
        }
        return {n, base + n};
    }

    /// No anchor in t[i..]: stop before the last run, which later bytes
    /// could still turn into a reference.
    scan_stop stop_trailing(std::size_t i, std::uint64_t i_run_start) const {
        const std::string_view t = window.t;
        const std::size_t n = t.size();
        const std::uint64_t base = window.base;
        if (window.at_end) return {n, base + n};
        // A UTF-8 sequence cut by the end of the buffer may be a letter of
        // the last run: look back from before it.
        const std::size_t whole = std::max(window.complete_end(n), i);
        const std::uint64_t rs = window.run_start(whole, i, i_run_start);
        if (rs >= base && base + n - rs <= opt.max_url_length) {
            std::size_t s = window.index_of(rs);
            if (s > 0 && t[s - 1] == '"') --s; // keep a quote wrapper's `"` with its URL
            return {s, rs};
        }
        return {window.long_run_stop(n), rs};
    }
};

// ------------------------------------------------------------------- scanner

scanner::scanner(scan_options options, reference_sink sink)
    : impl_(std::make_unique<impl>(std::move(options), std::move(sink))) {}
scanner::scanner(scanner&&) noexcept = default;
scanner& scanner::operator=(scanner&&) noexcept = default;
scanner::~scanner() = default;

bool scanner::feed(std::string_view chunk) {
    impl_->feed(chunk);
    return !impl_->out.stopped();
}

bool scanner::finish() {
    impl_->finish();
    return !impl_->out.stopped();
}

void scanner::reset() { impl_->reset(); }

std::uint64_t scanner::committed_offset() const noexcept { return impl_->input.offset(); }
std::uint64_t scanner::fed_offset() const noexcept { return impl_->input.fed(); }

std::vector<found_reference> scan(std::string_view text, const scan_options& options, const resolver* base) {
    std::vector<found_reference> out;
    scanner s(options, [&out, base](found_reference& r) {
        if (base != nullptr) resolve_reference(r, *base);
        out.push_back(r);
        return true;
    });
    s.feed(text);
    s.finish();
    return out;
}

}  // namespace urlsift
