#pragma once
// The last step of the scanner: a delimited candidate becomes a
// found_reference, with its position, its readings (Appendix E's hyphen
// rule) and the text around it, and goes to the sink. Included by
// scanner.cpp only.

#include <urlsift/abbrev.hpp>
#include <urlsift/found_reference.hpp>
#include <urlsift/scanner.hpp>

#include "scan/brackets.hpp"
#include "scan/candidate.hpp"
#include "scan/recent_urls.hpp"
#include "scan/window.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace urlsift::detail {

/// What emitting a candidate came to.
enum class emitted { none, need_more, reported };

class emitter {
public:
    emitter(const scan_options& options, reference_sink sink) : opt_(options), sink_(std::move(sink)) {}

    /// The candidate's pieces joined: whitespace and quote marks between
    /// them removed. Valid until the next candidate.
    const std::string& join(const scan_window& w, const candidate& c) {
        ref_.cleaned.clear();
        for (const auto& p : c.pieces) ref_.cleaned.append(w.t.substr(w.index_of(p.offset), static_cast<std::size_t>(p.length)));
        return ref_.cleaned;
    }

    /// Reports the candidate, whose joined text join() has made; `match` is
    /// its Appendix F completion, if any. `need_more` when the bytes around
    /// it are not all fed yet: nothing has changed then.
    emitted emit(scan_window& w, candidate& c, const abbrev_completion* match) {
        found_reference& r = ref_;
        r.offset = c.pieces.front().offset;
        r.length = c.end() - r.offset;
        r.outer = {c.outer_start, c.outer_end - c.outer_start};
        r.wrapper = c.wrapper;
        r.raw.assign(w.t.substr(w.index_of(r.offset), static_cast<std::size_t>(r.length)));
        if (opt_.surroundings && !read_surroundings(w)) return emitted::need_more;
        const auto [line, line_start] = w.line_of(w.index_of(r.offset));
        r.line = line;
        r.column = r.offset - line_start + 1;
        r.form = c.form;
        r.joined = c.pieces.size() > 1;
        r.truncated = c.truncated;
        r.pieces.swap(c.pieces); // the candidate is built afresh next time
        readings(c, match);
        if (r.form == reference_form::absolute && opt_.skip_named_urls && opt_.abbrev.kinds != abbrev_none)
            recent_.remember(r.url, r.line);
        last_outer_end_ = c.outer_end;
        if (c.wrapper == wrapper_kind::angle) w.wrapper_reported(c.outer_end);
        if (!sink_(r)) stopped_ = true;
        return emitted::reported;
    }

    /// The `<` at absolute `at` was decided as no wrapper; `could_wrap` when
    /// a change of its content could make it one.
    void angle_decided(const scan_window& w, std::uint64_t at, bool could_wrap) {
        if (!opt_.surroundings) return;
        brackets_.read_to(w.t, w.base, at);
        brackets_.read_angle(could_wrap);
    }

    /// The bytes before t[stop] are final.
    void commit(const scan_window& w, std::size_t stop) {
        if (opt_.surroundings) brackets_.read_to(w.t, w.base, w.base + stop);
    }

    /// The span of a reading too long to take: across lines, too long to
    /// be an abbreviated URL, or a URL's cut text that is no reference
    /// (reference_surroundings::in_longer_reading).
    void longer_reading(std::uint64_t from, std::uint64_t to) noexcept {
        if (to > longer_.offset + longer_.length) longer_ = {from, to - from};
    }

    /// Does the abbreviated `token` at absolute `at` name a URL written
    /// with its scheme just before (recent_urls)?
    bool names_recent_url(scan_window& w, std::string_view token, std::uint64_t at) const {
        return recent_.named_by(token, w.line_of(w.index_of(at)).first);
    }

    /// The Appendix F judgement `match` of the word at absolute `at`, `length`
    /// bytes, made before its candidate was delimited (settled_without_site);
    /// nullopt forgets it.
    void note_judged(std::uint64_t at, std::uint64_t length, std::optional<abbrev_completion> match) noexcept {
        judged_span_ = {at, length};
        judged_ = match;
    }

    /// That judgement, when `piece`, a candidate's only piece, is that word.
    std::optional<abbrev_completion> judged(const byte_range& piece) const noexcept {
        if (!judged_ || piece != judged_span_) return std::nullopt;
        return judged_;
    }

    /// End of the last reported `outer` span: spans never overlap.
    std::uint64_t last_outer_end() const noexcept { return last_outer_end_; }
    bool stopped() const noexcept { return stopped_; }

    /// Forgets the input. `ref_` and `alt_` are scratch, every field of
    /// them set again before the sink sees them, and keep their memory.
    void reset() noexcept {
        brackets_ = bracket_reading{};
        recent_.clear();
        last_outer_end_ = 0;
        longer_ = {};
        judged_.reset();
        stopped_ = false;
    }

private:
    /// Sets `url` and `alternatives` and applies the hyphen policy.
    void readings(const candidate& c, const abbrev_completion* match) {
        found_reference& r = ref_;
        r.alternatives.clear();
        // Appendix F: the scheme in front of the text as it was completed,
        // before the hyphen policy may change `cleaned`.
        const bool completed = match != nullptr && r.form == reference_form::abbreviated;
        if (completed) {
            r.url.assign(match->scheme);
            r.url.append(r.cleaned);
        }
        // The other reading of hyphens at line breaks (Appendix E).
        alt_.clear();
        if (!c.hyphens.empty()) {
            std::size_t from = 0;
            for (const std::size_t h : c.hyphens) {
                alt_.append(r.cleaned, from, h - from);
                from = h + 1;
            }
            alt_.append(r.cleaned, from, std::string::npos);
            if (opt_.hyphen == hyphen_policy::drop) std::swap(alt_, r.cleaned);
        }
        if (completed) {
            if (!alt_.empty()) {
                // The reading without the hyphens, completed on its own;
                // `drop` has moved it into `cleaned` above.
                const bool drop = opt_.hyphen == hyphen_policy::drop;
                const std::string& unhyphenated = drop ? r.cleaned : alt_;
                const auto other = abbreviated_completion(unhyphenated, {}, opt_.abbrev);
                std::string& reading = r.alternatives.emplace_back(other ? other->scheme : std::string_view());
                reading.append(unhyphenated);
                if (drop) std::swap(r.url, reading);
            }
        } else {
            // Resolution against a base is a later stage (resolve_reference).
            r.url = r.cleaned;
            if (!alt_.empty()) r.alternatives.push_back(alt_);
        }
    }

    /// How far past a reference its surroundings are looked for, so that a
    /// reference waits for a few bytes at most.
    static constexpr std::size_t reach = 64;

    /// Fills `around` from the bytes around the reference; false when some
    /// of them are not fed yet.
    bool read_surroundings(scan_window& w) {
        found_reference& r = ref_;
        reference_surroundings& s = r.around;
        const std::string_view t = w.t;
        const std::uint64_t end = r.offset + r.length;
        const std::uint64_t outer_end = r.outer.offset + r.outer.length;
        const std::uint64_t fed_end = w.end_offset();
        const auto byte = [&](std::uint64_t k) { return t[w.index_of(k)]; };
        // After it: the byte after its span, the first that is no sentence
        // punctuation, and whether a line break follows.
        if (outer_end >= fed_end && !w.at_end) return false;
        s.after = outer_end < fed_end ? byte(outer_end) : '\n';
        std::uint64_t k = end;
        while (k < fed_end && k - end < reach && is_trailing_ascii(static_cast<unsigned char>(byte(k)))) ++k;
        if (k >= fed_end && !w.at_end) return false;
        // Past the reach, the answer that leaves the text as written.
        s.after_punctuation = k - end >= reach ? '>' : k < fed_end ? byte(k) : '\n';
        // As the continuation rule looks: blanks, perhaps a CR, then the LF.
        k = end < fed_end ? w.base + w.skip_indent(w.index_of(end)) : end;
        if (k < fed_end && byte(k) == '\r') ++k;
        if (k >= fed_end && !w.at_end) return false;
        s.line_break_after = k < fed_end && byte(k) == '\n';
        // Before it.
        s.before = r.outer.offset == 0 ? '\n' : static_cast<char>(w.byte_at(r.outer.offset - 1));
        s.before_punctuation = w.before_punctuation_at(r.offset);
        // Its lines: quote depths, and the brackets it may sit in.
        brackets_.read_to(t, w.base, r.outer.offset);
        if (r.wrapper == wrapper_kind::angle) brackets_.read_angle(false);
        brackets_.read_to(t, w.base, r.offset);
        s.in_brackets = brackets_.in_brackets();
        s.quote_depth = brackets_.line_depth();
        const auto* nl = static_cast<const char*>(memrchr(r.raw.data(), '\n', r.raw.size()));
        s.quote_depth_end = nl == nullptr ? s.quote_depth
                                          : quote_depth_of(std::string_view(r.raw).substr(
                                                static_cast<std::size_t>(nl - r.raw.data()) + 1));
        s.in_longer_reading = r.offset >= longer_.offset && r.offset < longer_.offset + longer_.length;
        return true;
    }

    const scan_options& opt_;
    reference_sink sink_;
    found_reference ref_;       ///< reused: no allocation per reference once warm
    std::string alt_;
    bracket_reading brackets_;
    recent_urls recent_;
    std::uint64_t last_outer_end_ = 0;
    byte_range longer_;
    byte_range judged_span_;
    std::optional<abbrev_completion> judged_;
    bool stopped_ = false;
};

/// What every delimiting rule works on: the visible text, the options, the
/// candidate being built, and where it goes when it is a reference.
struct scan_parts {
    scan_window& w;
    const scan_options& opt;
    candidate& cand;
    emitter& out;
};

}  // namespace urlsift::detail
