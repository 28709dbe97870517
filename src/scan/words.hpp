#pragma once
// Words of prose that are settled without the full rules: a sentence's
// last word, a `Note:`, a file name or dotted code path whose last label is
// no top-level domain (Appendix F). Prose is full of them, so these run
// before any candidate is built. Included by scanner.cpp only.

#include <urlsift/abbrev.hpp>

#include "abbrev/tld_table.hpp"
#include "scan/window.hpp"
#include "text/ascii.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>

namespace urlsift::detail {

/// What a byte is to a word that may hold a host (Section 4.3.1): the
/// scanner's per-byte loops over dotted words read this table.
enum host_byte : std::uint8_t {
    host_label = 1, ///< letter, digit or `-`
    host_dot = 2,   ///< `.`
    host_end = 4,   ///< `/ ? #`: the host ends before it
    host_other = 8, ///< `@ : ' *`, a closing bracket or a non-ASCII byte: the word needs the full rules
};

constexpr std::array<std::uint8_t, 256> make_host_bytes() noexcept {
    std::array<std::uint8_t, 256> t{};
    for (int c = 0; c < 256; ++c) {
        const auto b = static_cast<unsigned char>(c);
        if (is_alnum(static_cast<char>(b)) || b == '-')
            t[b] = host_label;
        else if (b == '.')
            t[b] = host_dot;
        else if (b == '/' || b == '?' || b == '#')
            t[b] = host_end;
        else if (b >= 0x80 || b == '@' || b == ':' || b == '\'' || b == '*' || b == ')' || b == ']' || b == '}')
            t[b] = host_other;
    }
    return t;
}

inline constexpr std::array<std::uint8_t, 256> host_bytes = make_host_bytes();

static_assert([] {
    for (unsigned b = 0; b < 0x80; ++b)
        if ((ascii_roles[b] == char_role::close) != (b == ')' || b == ']' || b == '}')) return false;
    return true;
}(), "host_other must hold the ASCII closing brackets");

constexpr std::uint8_t host_byte_of(char c) noexcept { return host_bytes[static_cast<unsigned char>(c)]; }

/// Whether `s` holds a `.` or `@` (std::string_view::find_first_of calls
/// memchr once per byte here).
constexpr bool has_dot_or_at(std::string_view s) noexcept {
    for (const char c : s)
        if (c == '.' || c == '@') return true;
    return false;
}

/// False when complete_abbreviated cannot match any reading of `word`
/// (`libs/fusion/test/x.cpp`, a path in prose): its text before the first
/// `/ ? #` has no `.`, `@` or `:`, so the host has one label (Section 4.3.1
/// and the TLD rule want two) and no `@` makes it a mail address. What the
/// scanner would take from the word (cut at a bracket, trailing punctuation
/// trimmed, continued on the next line) starts with that same text, so the
/// answer holds for it too.
constexpr bool may_hold_site(std::string_view word) noexcept {
    for (const char c : word) {
        if (c == '/' || c == '?' || c == '#') return false;
        if (c == '.' || c == '@' || c == ':') return true;
    }
    return true;
}

/// Whether a URL ending at t[e] (a break character) may go on on the next
/// line: only blanks lie between it and the line's end (the continuation
/// rule's first test), or the visible bytes end first.
inline bool may_continue_at(const scan_window& w, std::size_t e) noexcept {
    const std::size_t k = w.skip_indent(e);
    return k >= w.size() || w.t[k] == '\r' || w.t[k] == '\n';
}

/// True when the anchor t[a] (the first in its run, and t[a + 1]
/// visible) only ends a word that cannot be a reference, so scan_run
/// would find nothing and resume at a + 1. Prose is full of these:
///
///     "the end. Next"   a `.` followed by a blank: once trailing
///                       punctuation is trimmed, the word holds no `.`
///                       or `@` (Appendix F) and no `:` (no scheme)
///     "Note: the"       a `:` followed by a blank: the scheme part
///                       would be empty, so only `URL:` (Appendix E)
///                       could make something of it
inline bool ends_plain_word(const scan_window& w, std::size_t a) noexcept {
    const auto next = static_cast<unsigned char>(w.t[a + 1]);
    if (next >= 0x80 || ascii_roles[next] != char_role::space) return false;
    const char c = w.t[a];
    if (c == '.') return true;
    if (c != ':' || a < 3) return false;
    return !starts_with_url_prefix(w.t.substr(a - 3, 4));
}

/// Whether the word that holds t[a] has a `/` in t[from, a) (from at or
/// before its start): its host, which ends there, is then one label.
/// Only the ASCII bytes just before t[a] are looked at.
inline bool path_before(std::string_view t, std::size_t from, std::size_t a) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(t.data());
    const std::size_t start = back_over_ascii_run(p, from, a);
    return std::memchr(p + start, '/', a - start) != nullptr;
}

/// The end of the word when the `.` at t[a], the first anchor of its run
/// (which starts at t[from] or later), is in a word that cannot hold a
/// site, else npos: after it come only ASCII labels joined by dots, then
/// sentence punctuation or closing brackets up to the end of the run, and
/// the host is one label or its last label is no known top-level domain
/// (Appendix F; may_complete_host). Prose is full of these: `foo.c`,
/// `e.g.`, `cron.daily)`, `Makefile.am:`, version numbers (`BSL-1.0`,
/// `2.1`: no top-level domain is a number, and a dotted quad is completed
/// only with a port or a path, which would not end the run here), a path
/// (`src/Makefile.am`: the host ends at the `/`) and a word that ends a
/// sentence before other punctuation (`etc.,`).
///
/// Nothing else in the run can change that: it has no `:`, `@` or `.`
/// before the anchor, so no scheme or mail address; a `:` among the final
/// punctuation ends no scheme URL (nothing follows it in the run). A run
/// that may go on in the next chunk or on the next line is left to
/// scan_run.
inline std::size_t dotted_word_without_site(const scan_window& w, std::size_t from, std::size_t a) {
    const std::string_view t = w.t;
    const std::size_t n = t.size();
    std::size_t k = a + 1, label = k;
    for (;;) {
        label = k;
        while (k < n && host_byte_of(t[k]) == host_label) ++k;
        if (k + 1 < n && t[k] == '.' && is_alnum(t[k + 1])) {
            ++k;
            continue;
        }
        break;
    }
    const std::string_view last(t.data() + label, k - label);
    std::size_t e = k;
    while (e < n && is_trailing_ascii(static_cast<unsigned char>(t[e]))) ++e;
    if (e >= n) return npos;
    const auto stop = static_cast<unsigned char>(t[e]);
    if (stop >= 0x80 || !is_ascii_run_stop(stop)) return npos;
    if (!last.empty() && is_known_tld(last) && !path_before(t, from, a)) return npos;
    if (is_break_char(t[e - 1]) && may_continue_at(w, e)) return npos;
    return e;
}

/// True when the word t[s, re) (t[s, e) without its trailing
/// punctuation) is certain to be no abbreviated URL: its host has one
/// label (`libs/fusion/x.cpp`), its last label is no known top-level
/// domain (`cron.daily`, `BSL-1.0`, `3.1`, `src/x.cc`), or it is a bare
/// name that complete_abbreviated turns down (`Makefile.in`). Taken
/// early, and only where scan_bare would hand complete_abbreviated a
/// token whose host is exactly t[s, h) (Section 4.3.1: the host ends at
/// `/ ? #` or the end of the token):
///  - ASCII without `@` or `:` before h (no mail address, userinfo or
///    port) and without `'`, `*` or closing brackets (trim_trailing and
///    a bracket that ends the reference cut no more than the trailing
///    punctuation);
///  - when the host runs to the end of the word, the run cannot go on
///    on the next line (the continuation rule: it does not end in a break
///    character, or text follows on the same line).
///
/// When the full rules ran and completed the word, `judged` holds their
/// answer, so that the candidate t[s, e) need not be judged again.
inline bool settled_without_site(scan_window& w, const abbrev_options& abbrev, std::size_t s, std::size_t e,
                                 std::size_t re, std::optional<abbrev_completion>& judged) {
    const std::string_view t = w.t;
    // t[e, re) is ASCII sentence punctuation, which trim_trailing takes
    // off again (`path.c:`), so only t[s, e) is looked at.
    std::size_t last_dot = npos;
    std::size_t h = s;
    for (; h < e; ++h) {
        const std::uint8_t k = host_byte_of(t[h]);
        if (k <= host_label) continue;
        if (k == host_dot) last_dot = h;
        else if (k == host_end) break;
        else if (k == host_other) return false;
    }
    // One label and no `@`: neither a domain nor a mail address, however
    // the word goes on (has_dot_or_at and may_hold_site say the same).
    if (last_dot == npos) return true;
    if (h == e && is_break_char(t[re - 1]) && may_continue_at(w, re)) return false;
    if (!may_complete_host(t.substr(s, h - s))) return true;
    // A bare name with a known TLD (`Makefile.in`, `README.md`): the
    // token scan_bare would report is t[s, e) itself, so the full rules
    // can judge it now.
    if (h != e) return false;
    judged = abbreviated_completion(t.substr(s, e - s), w.before_on_line(s), abbrev);
    return !judged;
}

}  // namespace urlsift::detail
