#pragma once
// Appendix E: a URL broken across lines. Outside brackets a line break
// ends a URL, except right after a hyphen, and except where the URL ends in
// a character writers break after and the next line's first word reads as
// the rest of a URL (docs/scanning.md). Included by scanner.cpp only.

#include <urlsift/abbrev.hpp>

#include "uri/schemes.hpp"
#include "scan/window.hpp"
#include "text/ascii.hpp"

#include <algorithm>

namespace urlsift::detail {

/// Whether a URL with a registered scheme starts anywhere in `word`
/// (`mailto:x`, or `mailto:` ending a longer run, `URLsmailto:x`): the
/// scanner reports a reference from there, which a rewrite may change.
inline bool holds_scheme_start(std::string_view word) {
    for (std::size_t colon = word.find(':'); colon != std::string_view::npos; colon = word.find(':', colon + 1)) {
        std::size_t from = colon;
        while (from > 0 && colon - from < max_scheme_length && is_scheme_char(static_cast<unsigned char>(word[from - 1])))
            --from;
        const std::string_view rest = word.substr(colon + 1);
        // As the scanner chooses (choose_scheme): a name cut out of a longer
        // run, or glued to an identifier, counts only before `//`.
        const bool slashes = rest.starts_with("//");
        if (!slashes && from > 0 && word[from - 1] == '_') continue;
        while (from < colon && !is_alpha(word[from])) ++from;
        for (std::size_t b = from; b < colon; ++b) {
            if (colon - b > max_registered_scheme_length || (b > from && !slashes)) continue;
            const std::string_view name = word.substr(b, colon - b);
            if (classify_registered_scheme(name, rest) != scheme_kind::none) return true;
        }
    }
    return false;
}

/// Whether `word`, the first word of a line, is an abbreviated URL on
/// its own under the options. It is taken as scan_abbreviated takes it:
/// without the brackets, quotes and marks before it (`~example.org/x`)
/// and the possessive and sentence punctuation after it (`example.org's`). The text before it on its
/// line (blanks, a quote prefix, those marks) names no word, so none is
/// passed: a mark such as `#` there could only stop a completion.
inline bool completes_alone(std::string_view word, const abbrev_options& abbrev) {
    if (abbrev.kinds == abbrev_none) return false;
    while (!word.empty()) {
        bool incomplete = false;
        const char_info c = char_at(word, 0, incomplete);
        if (c.cp < 0x80 ? is_alnum(word[0]) : c.role == char_role::url) break;
        word.remove_prefix(c.len);
    }
    // As trim_trailing does: a possessive `'s` first, then sentence punctuation.
    if (word.size() > 2 && word[word.size() - 2] == '\'' && (word.back() == 's' || word.back() == 'S') &&
        std::count(word.begin(), word.end(), '\'') == 1)
        word.remove_suffix(2);
    while (!word.empty() && std::string_view(".,;:!?'\")]").find(word.back()) != std::string_view::npos)
        word.remove_suffix(1);
    if (find_first_of_bytes(word, ".@") == std::string_view::npos) return false;
    return abbreviated_completion(word, {}, abbrev).has_value();
}

/// Whether the URL text `u` ends in a path segment that is a file name
/// (`/docs/dr_233.htm`): a name, a dot and an extension of one to four
/// letters or digits, after a `/` of the path (not the `//` before a host,
/// where `ds.internic` is a name cut short). A longer tail after the dot
/// (`draft-url-URLs.example`) is a name broken at its dot.
inline bool ends_in_file_name(std::string_view u) noexcept {
    const std::size_t slash = u.rfind('/');
    if (slash == std::string_view::npos || slash == 0 || u[slash - 1] == '/') return false;
    const std::string_view segment = u.substr(slash + 1);
    const std::size_t dot = segment.rfind('.');
    if (dot == std::string_view::npos || dot == 0) return false;
    const std::string_view extension = segment.substr(dot + 1);
    return !extension.empty() && extension.size() <= 4 &&
           std::all_of(extension.begin(), extension.end(), [](char c) { return is_alnum(c); });
}

/// Whether `word` starts with a date, year first: `2013/10/21`,
/// `2024-01-05`, `1999.12.31`.
constexpr bool starts_with_date(std::string_view word) noexcept {
    std::size_t k = 0;
    while (k < word.size() && k < 4 && is_digit(word[k])) ++k;
    if (k != 4 || k >= word.size()) return false;
    const char sep = word[k];
    if (sep != '-' && sep != '/' && sep != '.') return false;
    for (int part = 0; part < 2; ++part) {
        const std::size_t from = ++k;
        while (k < word.size() && k - from < 2 && is_digit(word[k])) ++k;
        if (k == from) return false;
        if (part == 0 && (k >= word.size() || word[k] != sep)) return false;
    }
    return k == word.size() || !is_digit(word[k]);
}

/// Whether the word ending at t[e] is followed by the word `at` between
/// blanks: `jdoe at example.edu` spells out an address, and a word that
/// starts one is no URL's continuation. -1 when the bytes that decide are
/// not fed yet.
inline int followed_by_spelled_at(const scan_window& w, std::size_t e) noexcept {
    const std::string_view t = w.t;
    constexpr std::size_t most_blanks = 8;
    std::size_t k = e;
    while (k < t.size() && k - e < most_blanks && (t[k] == ' ' || t[k] == '\t')) ++k;
    if (k + 3 > t.size()) return w.at_end ? 0 : -1;
    if (k == e || k - e >= most_blanks) return 0;
    const bool at = (t[k] == 'a' || t[k] == 'A') && (t[k + 1] == 't' || t[k + 1] == 'T');
    return at && (t[k + 2] == ' ' || t[k + 2] == '\t') ? 1 : 0;
}

/// Where a URL ending at t[e] goes on, if it does.
struct continued {
    bool need_more = false;   ///< the bytes that decide are not fed yet
    std::size_t at = 0;       ///< where it goes on; 0 when it ends at e
    bool hyphen = false;      ///< joined by the hyphen rule
    std::size_t dropped = 0;  ///< bytes of a typesetter's hyphen before e, not part of the URL
};

/// The length of a typesetter's hyphen ending t[.., e): U+2010 HYPHEN,
/// which groff writes where it breaks a word at a line end, or U+00AD SOFT
/// HYPHEN; 0 for anything else. Neither is ever part of a URL at a break.
/// (A soft hyphen is no URL character, so a run ends before it; the
/// scanner looks for one after the run too.)
inline std::size_t typeset_hyphen_before(std::string_view t, std::size_t e) noexcept {
    if (e >= 3 && t.substr(e - 3, 3) == "\xE2\x80\x90") return 3;
    if (e >= 2 && t.substr(e - 2, 2) == "\xC2\xAD") return 2;
    return 0;
}

/// The first word of the next line, when the URL starting at t[s] and
/// ending at t[e] is followed by a line break (after blanks) and a line
/// quoted as deep as its own (`url_depth`, found at the first break).
struct next_word {
    bool need_more = false; ///< the bytes that decide are not fed yet
    std::size_t at = 0;     ///< where the word starts; 0 when there is none
    std::string_view word;
};

inline next_word word_after_break(scan_window& w, std::size_t s, std::size_t e, int& url_depth,
                                  std::size_t max_length) {
    const std::string_view t = w.t;
    const std::size_t n = t.size();
    const next_word more{!w.at_end, 0, {}};
    std::size_t k = w.skip_indent(e);
    if (k >= n) return more;
    if (t[k] == '\r' && ++k >= n) return more;
    if (t[k] != '\n') return {};
    ++k;
    if (url_depth < 0) url_depth = w.depth_at(s);
    if (url_depth > 0) {
        // A mail quote prefix as deep as the URL's own line is skipped.
        const quote_prefix q = w.read_quote_prefix(w.base + k);
        if (!q.complete) return {true, 0, {}};
        if (q.depth != url_depth) return {};
        k += q.length;
    } else {
        k = w.skip_indent(k);
    }
    if (k >= n) return more;
    const std::size_t te = w.run_end(k, k + max_length + 1);
    if (te == npos) return {true, 0, {}};
    if (te == k) return {};
    return {false, k, t.substr(k, te - k)};
}

/// groff's UTF-8 output writes a URL between U+27E8 and U+27E9 (`⟨`, `⟩`,
/// its `.UR` macro and `\[la]`, `\[ra]`) and breaks a long one before a `/`
/// or a `.`: `⟨http://www` + `.fefe.de/dietlibc/⟩`.
inline constexpr std::string_view left_math_angle = "\xE2\x9F\xA8", right_math_angle = "\xE2\x9F\xA9";

/// At t[e], the end of a piece of the URL starting at t[s]: does it go on
/// on the next line? `url_depth` is the quote depth of its first line (-1
/// until a line break asks for it).
inline continued continuation(scan_window& w, const abbrev_options& abbrev, std::size_t max_length, std::size_t s,
                              std::size_t e, int& url_depth) {
    // Appendix E: inside angle brackets a line break was inserted to break
    // a long URL. groff's brackets are angle brackets too, when the next
    // line's first word closes them.
    if (w.base + s >= left_math_angle.size() && w.bytes_are(w.base + s - left_math_angle.size(), left_math_angle)) {
        const next_word next = word_after_break(w, s, e, url_depth, max_length);
        if (next.need_more) return {true, 0, false};
        if (next.at != 0 && w.bytes_are(w.base + next.at + next.word.size(), right_math_angle))
            return {false, next.at, false};
    }
    const char last = w.t[e - 1];
    // A shell's line continuation inside a word (`...gserviceaccount.co\`
    // + `m --level=x`): the backslash and the line break go, and the word
    // goes on with the next line's first byte. After a blank there, the
    // word ended at the backslash; before a capital, so did a sentence
    // (Markdown's hard line break).
    if (last == '\\' && e - s > 1) {
        std::size_t k = e;
        if (k < w.size() && w.t[k] == '\r') ++k;
        if (k + 1 >= w.size()) return {!w.at_end, 0, false};
        if (w.t[k] != '\n') return {};
        const char first = w.t[k + 1];
        if (!is_lower(first) && !is_digit(first) && std::string_view("/~%_-.?&=#").find(first) == std::string_view::npos)
            return {};
        return {false, k + 1, false, 1};
    }
    std::size_t typeset = typeset_hyphen_before(w.t, e);
    // A soft hyphen is no URL character: the run ended before it.
    std::size_t after = e;
    if (typeset == 0 && e < w.size() && static_cast<unsigned char>(w.t[e]) == 0xC2) {
        if (e + 1 >= w.size()) return {!w.at_end, 0, false};
        if (static_cast<unsigned char>(w.t[e + 1]) == 0xAD) after = e + 2;
    }
    if (!is_break_char(last) && typeset == 0 && after == e) return {};
    const next_word next = word_after_break(w, s, after, url_depth, max_length);
    if (next.need_more) return {true, 0, false};
    if (next.at == 0) return {};
    const std::string_view word = next.word;
    const char first = word[0];
    const int spelled = followed_by_spelled_at(w, next.at + word.size());
    if (spelled < 0) return {true, 0, false};
    if (spelled > 0) return {};
    if (static_cast<unsigned char>(first) < 0x80 && !is_alnum(first) && first != '/' && first != '~' && first != '%' &&
        first != '_')
        return {};
    // A new URL on the next line is not a continuation, nor is the date
    // that starts a changelog's entry (`2013/10/21: [impl] ...`).
    if (word.find("://") != std::string_view::npos || starts_with_nocase(word, "www.") || starts_with_url_prefix(word) ||
        starts_with_date(word))
        return {};
    // A word broken by the typesetter: the hyphen is its, not the URL's
    // (`https://argcom‐` + `plete.readthedocs.org/`).
    if ((typeset != 0 && e - s > typeset) || after != e) return {false, next.at, false, typeset};
    // Neither is an abbreviated one the options would complete: completing
    // it writes a scheme there, and the reading must not change with that.
    if (holds_scheme_start(word) || completes_alone(word, abbrev)) return {};
    // Appendix E: ignore the whitespace around a break after a hyphen.
    if (last == '-' && e - s > 1) return {false, next.at, true};
    // After a period the next line usually starts a sentence: only a
    // lower-case or digit start continues (`ds.internic.` + `net/rfc/`).
    if (last == '.' && !(is_lower(first) || is_digit(first))) return {};
    // A file name in the path with a period after it ends a sentence:
    // `.../dr_233.htm.` + `tests/tsprintf.c: Fix ...` in a ChangeLog.
    if (last == '.' && ends_in_file_name(w.t.substr(s, e - 1 - s))) return {};
    // An absolute path (`/etc/hosts`) is a word of its own; no URL goes on
    // with a second "/" after the break.
    if (first == '/') return {};
    // Other breaks: the next word must itself look like URL text. A capital
    // starts a sentence (`README.md explains it`) unless the word is a path.
    bool dotted_name = false;
    for (std::size_t j = 0; j < word.size(); ++j) {
        const char c = word[j];
        if (c == '/' || c == '?' || c == '=' || c == '#' || c == '%') return {false, next.at, false};
        if (c == '.' && j + 1 < word.size() && is_alnum(word[j + 1])) dotted_name = true;
    }
    if (dotted_name && !is_upper(first)) return {false, next.at, false};
    return {};
}

}  // namespace urlsift::detail
