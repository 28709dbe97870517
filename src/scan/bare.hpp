#pragma once
// References outside brackets (Appendix E): scheme URLs anywhere in a run,
// the `URL:` prefix, and the abbreviated URLs of Appendix F; their pieces
// across line breaks, and the punctuation that ends a sentence rather than
// a URL. Included by scanner.cpp only.
//
// A "run" is the text between two delimiters (blanks, `<`, `>`, `"`, ...).
// From an anchor in a run (`:`, `.`, `@`) scan_run looks at the run whole.

#include <urlsift/abbrev.hpp>

#include "abbrev/lexicon.hpp"
#include "scan/continuation.hpp"
#include "scan/emit.hpp"
#include "scan/words.hpp"
#include "text/char_ref.hpp"
#include "uri/site.hpp"

#include <algorithm>
#include <array>

namespace urlsift::detail {

// ------------------------------------------------------------ brackets
/// Index of an opening bracket in the partner counts, or -1.
constexpr int bracket_index(std::int32_t cp) noexcept {
    switch (cp) {
    case '(': return 0;
    case '[': return 1;
    case '{': return 2;
    case 0xFF08: return 3;
    case 0xFF3B: return 4;
    case 0xFF5B: return 5;
    default: return -1;
    }
}

using bracket_counts = std::array<int, 6>;

/// The first closing bracket in t[p, e) without an opening partner
/// (counting from earlier pieces in `open_count`), or npos.
inline std::size_t unbalanced_closer(std::string_view t, std::size_t p, std::size_t e, bracket_counts& open_count) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
    for (std::size_t i = p; i < e;) {
        // Only brackets count: skip to the next one, 16 bytes at a time.
        i = forward_to<bracket_bytes>(bytes, i, e, t.size());
        if (i >= e) break;
        const auto b = bytes[i];
        std::int32_t cp = b;
        std::size_t len = 1;
        char_role role;
        if (b < 0x80) {
            role = ascii_role(b);
        } else {
            bool incomplete = false;
            const char_info c = char_at(t, i, incomplete);
            cp = c.cp;
            len = c.len;
            role = c.role;
        }
        if (role == char_role::open) {
            const int k = bracket_index(cp);
            if (k >= 0) ++open_count[static_cast<std::size_t>(k)];
        } else if (role == char_role::close) {
            const int k = bracket_index(opening_partner(cp));
            if (k >= 0) {
                if (open_count[static_cast<std::size_t>(k)] == 0) return i;
                --open_count[static_cast<std::size_t>(k)];
            }
        }
        i += len;
    }
    return npos;
}

/// True when the closing bracket `close` ending at t[end] has an opening
/// partner earlier in the candidate.
inline bool balanced(const scan_window& w, const candidate& c, std::int32_t close, std::size_t end) {
    const std::int32_t open = opening_partner(close);
    long depth = 0;
    for (const auto& pc : c.pieces) {
        std::size_t i = w.index_of(pc.offset);
        const std::size_t stop = std::min<std::size_t>(i + static_cast<std::size_t>(pc.length), end);
        while (i < stop) {
            bool incomplete = false;
            const char_info ch = char_at(w.t, i, incomplete);
            if (ch.cp == open) ++depth;
            else if (ch.cp == close) --depth;
            i += ch.len;
        }
    }
    // The closer at the end is counted: balanced when opens >= closes.
    return depth >= 0;
}

// ------------------------------------------------------ the end of a URL
/// A possessive `'s` after a URL (`http://x/abc's page`) when the URL has
/// no other apostrophe.
inline void trim_possessive(const scan_window& w, candidate& c) {
    auto& last = c.pieces.back();
    const std::size_t from = w.index_of(last.offset);
    const std::size_t end = from + static_cast<std::size_t>(last.length);
    if (end - from <= 2 || w.t[end - 2] != '\'' || (w.t[end - 1] != 's' && w.t[end - 1] != 'S')) return;
    std::size_t quotes = 0;
    for (const auto& pc : c.pieces) {
        const auto piece = w.t.substr(w.index_of(pc.offset), static_cast<std::size_t>(pc.length));
        quotes += static_cast<std::size_t>(std::count(piece.begin(), piece.end(), '\''));
    }
    if (quotes == 1) last.length -= 2;
}

/// AsciiDoc's `https://example.org/doc[link text]`: a `[` after the host
/// whose `]` is not in the rest of the reference (the text goes on past a
/// blank) opens link text, not part of the URL. (Section 2.4.3 makes `[`
/// unwise outside an IPv6 host; `?a[]=1` and `wiki/Blur_[band]` close
/// theirs and keep them.) Every piece is looked at, so that a reference
/// joined across lines is cut where the same text on one line would be.
inline void cut_link_text(const scan_window& w, candidate& c) {
    if (c.pieces.empty() || c.form != reference_form::absolute) return;
    const auto text_of = [&](std::size_t i) {
        return w.t.substr(w.index_of(c.pieces[i].offset), static_cast<std::size_t>(c.pieces[i].length));
    };
    const auto closed_after = [&](std::size_t i, std::size_t k) {
        if (text_of(i).find(']', k) != std::string_view::npos) return true;
        for (std::size_t j = i + 1; j < c.pieces.size(); ++j)
            if (text_of(j).find(']') != std::string_view::npos) return true;
        return false;
    };
    for (std::size_t i = 0; i < c.pieces.size(); ++i) {
        const std::string_view piece = text_of(i);
        const std::size_t skip = i == 0 ? c.scheme_length + 1 : 0;
        for (std::size_t k = piece.find('[', skip); k != std::string_view::npos; k = piece.find('[', k + 1)) {
            // `http://[::1]/`, `http://u@[::1]/`: an IP literal host.
            if (k >= 2 && (piece.substr(k - 2, 2) == "//" || piece[k - 1] == '@')) continue;
            if (closed_after(i, k)) continue;
            if (i == 0 && k <= skip) return;
            c.pieces[i].length = k;
            c.pieces.resize(k == 0 ? i : i + 1);
            return;
        }
    }
}

/// Whether `s` starts with an HTML character reference for a character
/// that delimits a URL in text: `&quot;`, `&apos;`, `&lt;`, `&gt;`, or a
/// numeric one for `"`, `'`, `<`, `>` (`&#39;`, `&#x22;`).
inline bool starts_escaped_delimiter(std::string_view s) noexcept {
    std::uint32_t cp = 0;
    return read_char_ref(s, cp) != 0 && (cp == '"' || cp == '\'' || cp == '<' || cp == '>');
}

/// A URL in a string literal of a program or a JSON document (`printf("see
/// https://x/\n")`, `"Prints https://x\n\nconsole.log(y)"`): a backslash
/// escape ends it. The backslash is excluded from URLs (Section 2.4.3,
/// "unwise"); these are the escapes C, JSON and the languages after them
/// write (a newline, a tab, a quote, a backslash, a code unit). Not `\/`,
/// which JSON writes for a slash of the URL itself, nor an escaped `_` or
/// `*` (Markdown's), nor a lone one (a Windows-style path).
inline bool starts_string_escape(std::string_view s) noexcept {
    return s.size() >= 2 && s[0] == '\\' && std::string_view("ntr\\\"'0ux").find(s[1]) != std::string_view::npos;
}

/// Ends the reference before the first escape in it: a character reference
/// for one of Appendix E's delimiters, in HTML source read as text
/// (`&quot;https://x/&quot;`, `curl &#39;http://x/&#39;`), or a string escape.
inline void cut_escape(const scan_window& w, candidate& c) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(w.t.data());
    for (std::size_t i = 0; i < c.pieces.size(); ++i) {
        auto& pc = c.pieces[i];
        const std::size_t from = w.index_of(pc.offset);
        const std::string_view piece = w.t.substr(from, static_cast<std::size_t>(pc.length));
        // Nearly every piece holds neither byte: one pass settles it.
        const auto next = [&](std::size_t at) {
            const std::size_t k = forward_to<escape_bytes>(bytes, from + at, from + piece.size(), w.t.size()) - from;
            return k < piece.size() ? k : std::string_view::npos;
        };
        for (std::size_t k = next(0); k != std::string_view::npos; k = next(k + 1)) {
            // A string escape's second byte may be past the piece: a line's last.
            const bool escape = piece[k] == '&' ? starts_escaped_delimiter(piece.substr(k))
                                                : starts_string_escape(w.t.substr(from + k, 2));
            if (!escape) continue;
            pc.length = k;
            c.pieces.resize(k == 0 ? i : i + 1);
            return;
        }
    }
}

/// URLs listed without blanks, as OpenSSL's configuration writes them
/// (`OCSP;URI:http://ocsp.example.com/,caIssuers;URI:http://ca.example.com/`):
/// a `,` in the path of a URL, followed by another URL (its
/// scheme and `://` right after the comma, or after a label ending in `;`,
/// `:` or `=`), ends the first one. Returns the run index of that comma,
/// where scanning goes on, or npos. A comma in the query (`?u=a,http://b`)
/// is data of the query and stays. The comma and the scheme after it are
/// looked for on the first line of the URL.
inline std::size_t cut_list_item(const scan_window& w, candidate& c) {
    if (c.pieces.empty() || c.form != reference_form::absolute) return npos;
    auto& first = c.pieces.front();
    const std::size_t from = w.index_of(first.offset);
    const std::string_view piece = w.t.substr(from, static_cast<std::size_t>(first.length));
    const std::size_t body = c.scheme_length + 1;
    // Nearly every URL has no comma: one memchr settles it.
    std::size_t k = piece.find(',', body);
    if (k == std::string_view::npos) return npos;
    const std::size_t mark = find_first_of_bytes(piece.substr(body), "?#");
    const std::size_t query = mark == std::string_view::npos ? piece.size() : body + mark;
    for (; k < query; k = piece.find(',', k + 1)) {
        const std::string_view rest = piece.substr(k + 1);
        const std::size_t slashes = rest.find("://");
        if (slashes == std::string_view::npos) return npos;
        std::size_t start = slashes;
        while (start > 0 && is_scheme_char(static_cast<unsigned char>(rest[start - 1]))) --start;
        if (start == slashes || !is_alpha(rest[start])) continue;
        const std::string_view label = rest.substr(0, start);
        if (!label.empty() && (label.find('/') != std::string_view::npos || std::string_view(";:=").find(label.back()) == std::string_view::npos))
            continue;
        first.length = k;
        c.pieces.resize(1);
        return from + k;
    }
    return npos;
}

/// Appendix E: sentence punctuation after a bare URL is not part of it,
/// nor is a closing bracket without an opening partner inside the URL
/// (so `wiki/Mercury_(planet)` keeps its parenthesis), nor an emphasis
/// mark that opened before it (`*http://x/*`).
inline void trim_trailing(const scan_window& w, candidate& c) {
    if (c.pieces.empty()) return;
    const std::size_t scheme_len = c.scheme_length;
    const bool emphasis = w.byte_at(c.pieces.front().offset - 1) == '*';
    trim_possessive(w, c);
    // `curl http://x/a\` at a line's end continues a shell command (or a C
    // string); the backslash, an unwise character (Section 2.4), is not part
    // of the URL.
    if (auto& last = c.pieces.back(); last.length > 1 && w.byte_at(last.offset + last.length - 1) == '\\') {
        const int after = w.byte_at(last.offset + last.length);
        if (after == '\n' || after == '\r' || (after < 0 && w.at_end)) last.length -= 1;
    }
    while (!c.pieces.empty()) {
        auto& last = c.pieces.back();
        const std::size_t from = w.index_of(last.offset);
        std::size_t end = from + static_cast<std::size_t>(last.length);
        while (end > from) {
            const char_info ch = char_before(w.t, end);
            if (ch.role == char_role::trailing) {
                // Keep `mailto:` and the like from losing the colon after the scheme.
                if (c.pieces.size() == 1 && end - ch.len - from <= scheme_len) break;
                end -= ch.len;
                continue;
            }
            if (emphasis && ch.cp == '*' && c.pieces.size() == 1 && end - 1 - from > scheme_len) {
                end -= 1;
                continue;
            }
            if (ch.role == char_role::close && !balanced(w, c, ch.cp, end)) {
                end -= ch.len;
                continue;
            }
            break;
        }
        last.length = end - from;
        if (last.length != 0) break;
        c.pieces.pop_back();
    }
    // A hyphen that ends the reference is no longer at a line break inside it.
    const std::size_t total = c.total();
    while (!c.hyphens.empty() && c.hyphens.back() + 1 >= total) c.hyphens.pop_back();
}

/// `http://` alone, `mailto:` alone, `http://.x`: a scheme with no usable
/// scheme-specific part after it.
inline bool lacks_scheme_specific_part(const scan_window& w, const candidate& c, std::size_t s) {
    const std::size_t scheme_len = c.scheme_length;
    const std::string_view t = w.t;
    const std::size_t total = c.total();
    std::size_t need = scheme_len + 1;
    if (total >= scheme_len + 3 && t[s + scheme_len + 1] == '/' && s + scheme_len + 2 < t.size() &&
        t[s + scheme_len + 2] == '/')
        need = scheme_len + 3;
    if (total <= need) return true;
    if (need != scheme_len + 3) return false;
    // A host starts with a letter, digit, `[` or `%`: `http://.x`, `http://#` are no URLs.
    const char h = c.pieces.size() == 1 || c.pieces[0].length > need ? t[w.index_of(c.pieces[0].offset) + need]
                                                                       : t[w.index_of(c.pieces[1].offset)];
    const bool file = starts_with_nocase(t.substr(s, scheme_len), "file");
    return h == '.' || h == '-' || h == '#' || h == '?' || (h == '/' && !file);
}

/// A host written as a placeholder or a pattern: a shell's `$host`, a
/// template's `${req.url}` or `{{host}}`, printf's `%s`, a wildcard's `*`.
/// Section 3.2.2: a host name is letters, digits, `-` and `.`, and a `%`
/// in a host only escapes an octet.
inline bool names_no_host(std::string_view host) noexcept {
    if (find_first_of_bytes(host, "${*") != std::string_view::npos) return true;
    for (std::size_t k = host.find('%'); k != std::string_view::npos; k = host.find('%', k + 1))
        if (k + 2 >= host.size() || hex_value(host[k + 1]) < 0 || hex_value(host[k + 2]) < 0) return true;
    return false;
}

/// `ssh://[user@]host[:port]/`, `http://user:pass@server:port/`: the syntax
/// of a URL written with placeholders, as manuals give it, is no URL.
/// Section 3.2 (with RFC 3986 3.2.2): brackets in a site hold an IP
/// literal and nothing else, a port is digits, and a host is no
/// placeholder (names_no_host).
inline bool is_syntax_template(std::string_view url, std::size_t scheme_len) noexcept {
    // A URL cut at the length limit may end before its scheme does.
    if (url.size() < scheme_len + 3 || url.substr(scheme_len, 3) != "://") return false;
    // Most sites hold no bracket, colon, `$`, `%`, `{` or `*`: one look at
    // the site settles them (this runs for every scheme URL). A `]` with no
    // `[` before it is left to the rules that read the host.
    // site_bytes: 1 ends the site, 2 marks one to look at.
    static constexpr auto site_bytes = [] {
        std::array<unsigned char, 256> a{};
        for (const char b : std::string_view("/?#")) a[static_cast<unsigned char>(b)] = 1;
        for (const char b : std::string_view(":[$%{*")) a[static_cast<unsigned char>(b)] = 2;
        return a;
    }();
    const std::string_view rest = url.substr(scheme_len + 3);
    std::size_t end = 0;
    unsigned marked = 0;
    for (; end < rest.size(); ++end) {
        const unsigned kind = site_bytes[static_cast<unsigned char>(rest[end])];
        if (kind == 1) break;
        marked |= kind;
    }
    if (marked == 0) return false;
    const site_parts parts = split_site(rest.substr(0, end));
    if (!parts.host_ok() || names_no_host(parts.host)) return true;
    if (parts.userinfo && parts.userinfo->find_first_of("[]") != std::string_view::npos) return true;
    if (!parts.host.starts_with('[') && parts.host.find_first_of("[]") != std::string_view::npos) return true;
    // A port of letters is a placeholder; several colons are an IPv6
    // address written without its brackets, which some finders take.
    if (parts.port && parts.host.find(':') == std::string_view::npos) {
        const port_number n = read_port(*parts.port);
        if (!n.ok() && !n.out_of_range) return true;
    }
    return false;
}

/// False when the site of the absolute candidate `c`, one piece read in
/// place, holds none of the bytes is_syntax_template looks at: the site
/// ends (`/ ? #`, or the piece does) before any `: [ $ % { *`. Most URLs
/// are settled so, in one pass over the window's bytes.
inline bool site_may_be_template(const scan_window& w, const candidate& c) noexcept {
    if (c.pieces.size() != 1) return true;
    const std::size_t from = w.index_of(c.pieces.front().offset);
    const std::size_t end = from + static_cast<std::size_t>(c.pieces.front().length);
    const std::size_t site = from + c.scheme_length + 3;
    if (site > end || w.t.substr(from + c.scheme_length, 3) != "://") return true;
    const auto* bytes = reinterpret_cast<const unsigned char*>(w.t.data());
    const std::size_t k = forward_to<site_end_or_mark_bytes>(bytes, site, end, w.t.size());
    return k < end && w.t[k] != '/' && w.t[k] != '?' && w.t[k] != '#';
}

/// Whether the word starting at absolute `at` is the second half of a word
/// the typesetter broke at the end of the line before (`ex‐` + `ample.org`,
/// groff's U+2010 or a soft hyphen after a letter or digit). Alone it is
/// no abbreviated URL: the word it ends was not one. Looks back a bounded
/// distance, which the window always keeps visible.
inline bool ends_typeset_word(const scan_window& w, std::uint64_t at) noexcept {
    constexpr std::uint64_t reach = 48;  // indent, CR LF, hyphen and a letter: within context_size
    const std::uint64_t stop = at > reach ? at - reach : 0;
    std::uint64_t k = at;
    while (k > stop && (w.byte_at(k - 1) == ' ' || w.byte_at(k - 1) == '\t')) --k;
    if (k == stop || w.byte_at(k - 1) != '\n') return false;
    --k;
    if (k > stop && w.byte_at(k - 1) == '\r') --k;
    // The last bytes of the line, and the one rule for what a typesetter's
    // hyphen is (continuation.hpp). A byte no longer visible reads as 0.
    char tail[3] = {};
    for (std::size_t i = 0; i < 3 && k >= stop + 3 - i; ++i) tail[i] = static_cast<char>(std::max(0, w.byte_at(k - 3 + i)));
    const std::size_t hyphen = typeset_hyphen_before(std::string_view(tail, 3), 3);
    if (hyphen == 0 || k < stop + hyphen + 1) return false;
    k -= hyphen;
    const int b = w.byte_at(k - 1);
    return b >= 0x80 || (b >= 0 && is_alnum(static_cast<char>(b)));
}

// ------------------------------------------------------------- emitting
/// Whether the name ending at absolute `end` is followed on its line by an
/// `=` (`pad.ch = pad_ch(info)`, `if (pad.ch == ' ')`, `x.org != y`,
/// `'x.org' => 1`): a variable's member or a key, set or compared in code
/// or configuration. -1 when the bytes that decide are not fed yet.
inline int followed_by_assignment(const scan_window& w, std::uint64_t end) noexcept {
    constexpr std::uint64_t most_blanks = 8;
    std::uint64_t k = end;
    while (k - end < most_blanks && (w.byte_at(k) == ' ' || w.byte_at(k) == '\t')) ++k;
    if (w.byte_at(k) == '!') ++k;
    if (k >= w.end_offset()) return w.at_end ? 0 : -1;
    return w.byte_at(k) == '=' ? 1 : 0;
}

/// Does the name at t[index], ending at absolute `end` after `line` on its
/// line, stand in the file list of a change log entry (GNU Coding
/// Standards, "Style of Change Logs"): an indented `* ` (or `- `, the
/// bullet Debian's changelogs nest under it), then names joined by `, `,
/// each ended by `,`, `:` or ` (`? `\t* make-all.com: Remove.`,
/// `\t* sinfo.ads, einfo.ads: ...`, `\t* setup.com (mpw): ...`,
/// `  * debhelper.in/libc.install:` name files (a VMS command file, Ada
/// specs, a file under a directory named like a host), not sites. -1 when
/// the bytes that decide are not fed yet.
inline int names_changelog_file(scan_window& w, text_before line, std::size_t index, std::uint64_t end) noexcept {
    if (line.line_start) {
        // The bullet within the bytes of a line's start the window keeps
        // for a longer line, so that both read the same lines as lists.
        const std::string_view before = line.text;
        std::size_t i = changelog_list_start(before.substr(0, lexicon::field_reach));
        if (i == 0) return 0;
        // The names before this one in the same list: any word but a blank
        // or a comma, so that a name the rewriter completed before this one
        // (`http://x.org/a`, `<http://x.org/a>`) leaves the list a list.
        for (; i < before.size(); i += 2) {
            const std::size_t name = i;
            while (i < before.size() && before[i] != ' ' && before[i] != '\t' && before[i] != ',') ++i;
            if (i == name || before.substr(i, 2) != ", ") return 0;
        }
    } else if (!w.lists_names_before(index)) {
        return 0;
    }
    if (end + 1 >= w.end_offset() && !w.at_end) return -1;
    const int next = w.byte_at(end);
    return next == ':' || next == ',' || (next == ' ' && w.byte_at(end + 1) == '(') ? 1 : 0;
}

/// Does the name ending at absolute `end`, alone after blanks at its
/// line's start (`before`, at least one), stand in a diffstat (`git diff
/// --stat`, diffstat(1)): blanks that pad it to the longest name's width,
/// `|`, blanks, then a count of lines changed or `Bin` for a binary file?
/// ` gen.tab/packtab.c | 34 +++++-----` names a file (fribidi's changelog).
/// -1 when the bytes that decide are not fed yet.
inline int names_diffstat_file(const scan_window& w, text_before line, std::uint64_t end) noexcept {
    const std::string_view before = line.text;
    // Indented: a table row at the margin (`example.org | 3 |`) is no diffstat.
    if (!line.line_start || before.empty()) return 0;
    for (const char ch : before)
        if (ch != ' ' && ch != '\t') return 0;
    std::uint64_t k = end;
    const auto skip_spaces = [&](std::uint64_t most) {
        const std::uint64_t from = k;
        while (k - from < most && w.byte_at(k) == ' ') ++k;
        return k - from;
    };
    const auto unseen = [&](std::uint64_t at) { return at >= w.end_offset() && !w.at_end; };
    if (skip_spaces(context_size) == 0 || w.byte_at(k) != '|') return unseen(k) ? -1 : 0;
    ++k;
    if (skip_spaces(8) == 0) return unseen(k) ? -1 : 0;
    const int first = w.byte_at(k);
    if (first >= '0' && first <= '9') return 1;
    if (first != 'B') return unseen(k) ? -1 : 0;
    if (unseen(k + 2)) return -1;
    return w.bytes_are(k, "Bin") ? 1 : 0;
}

/// Is the text from absolute `from` to `to` quoted as a value: `"x"`,
/// `'x'`, `` `x' ``, `“x”` or `‘x’` with nothing between the marks and it?
/// Or marked as code: `` `x` `` (Markdown's code span; reStructuredText's
/// ``` ``x`` ``` and `` :func:`x` `` end with the same marks).
inline bool quoted_as_value(const scan_window& w, std::uint64_t from, std::uint64_t to) noexcept {
    constexpr std::pair<std::string_view, std::string_view> pairs[] = {
        {"\"", "\""}, {"'", "'"}, {"`", "'"}, {"`", "`"}, {"\u201C", "\u201D"}, {"\u2018", "\u2019"},
    };
    for (const auto& [open, close] : pairs)
        if (from >= open.size() && w.bytes_are(from - open.size(), open) && w.bytes_are(to, close)) return true;
    return false;
}

/// Reports the bare candidate (pieces set): `none` when it is no
/// reference after all (a word Appendix F does not complete, prose after
/// `URL:`).
inline emitted emit_bare(scan_parts& p) {
    scan_window& w = p.w;
    candidate& c = p.cand;
    const std::string& cleaned = p.out.join(w, c);
    std::optional<abbrev_completion> match;
    if (c.form == reference_form::abbreviated) {
        // Appendix F candidates hold a `.` or `@` once trailing punctuation is gone.
        if (!has_dot_or_at(cleaned)) return emitted::none;
        if (ends_typeset_word(w, c.pieces.front().offset)) return emitted::none;
        // A view of the window's buffer, valid until the next call of before():
        // nothing below makes one.
        const text_before before = w.before_on_line(w.index_of(c.pieces.front().offset));
        match = c.pieces.size() == 1 ? p.out.judged(c.pieces.front()) : std::nullopt;
        if (!match) match = abbreviated_completion(cleaned, before, p.opt.abbrev);
        if (!match) return emitted::none;
        if (const int assigned = followed_by_assignment(w, c.end()); assigned != 0)
            return assigned < 0 ? emitted::need_more : emitted::none;
        if (match->kind == abbrev_kind::domain) {
            // A host name alone in quotes is a value under discussion
            // (`("monet.example.com")`), not a link. A path
            // (`'foo.club/wat'`) or a service prefix (`"www.w3.org"`) still
            // makes a site, and a quoted address is still written to
            // (`"bug-wget@gnu.org"`).
            if (cleaned.find_first_of(":/?#") == std::string::npos &&
                quoted_as_value(w, c.pieces.front().offset, c.end()))
                return emitted::none;
            // In a change log's file list or a diffstat, with a path or
            // not, a file.
            if (const int listed = names_changelog_file(w, before, w.index_of(c.pieces.front().offset), c.end());
                listed != 0)
                return listed < 0 ? emitted::need_more : emitted::none;
            if (const int listed = names_diffstat_file(w, before, c.end()); listed != 0)
                return listed < 0 ? emitted::need_more : emitted::none;
        }
        if (match->kind != abbrev_kind::email && p.out.names_recent_url(w, cleaned, c.pieces.front().offset))
            return emitted::none;
    } else if (c.form == reference_form::relative) {
        // After `URL:`: a mail address completes (Appendix F), and so does
        // an abbreviated URL (`Web URL: www.LL.com` names the site, as
        // `<www.acme.com>` does); markup is no reference.
        const angle_content kind = classify_angle(cleaned);
        if (kind == angle_content::address || (kind == angle_content::reference && !starts_like_a_path(cleaned))) {
            match = abbreviated_completion(cleaned, w.before_on_line(w.index_of(c.outer_start)), p.opt.abbrev);
            if (match) c.form = reference_form::abbreviated;
        } else if (kind != angle_content::reference) {
            // `URL: is optional` is prose; only reference-shaped text follows the prefix.
            return emitted::none;
        }
    }
    if (c.form == reference_form::absolute &&
        ((site_may_be_template(w, c) && is_syntax_template(cleaned, c.scheme_length)) || breaks_its_scheme(cleaned)))
        return emitted::none;
    // `Content-Class: urn:content-classes:message` names a class of
    // message, no resource to visit.
    if (c.form == reference_form::absolute && starts_with_nocase(cleaned, "urn:") &&
        lexicon::is_class_header(lexicon::header_field_name(w.before_on_line(w.index_of(c.outer_start)))))
        return emitted::none;
    c.outer_end = c.end();
    if (c.wrapper == wrapper_kind::none) {
        // Appendix E: `"http://x/"`: the quotes wrap it. A `"` that closed
        // the previous reference does not open this one.
        const std::uint64_t first = c.pieces.front().offset;
        const std::size_t e = w.index_of(c.end());
        if (w.byte_at(first - 1) == '"' && e < w.size() && w.t[e] == '"' && !c.truncated &&
            first - 1 >= p.out.last_outer_end()) {
            c.wrapper = wrapper_kind::quote;
            c.outer_start = first - 1;
            c.outer_end = c.end() + 1;
        }
    }
    return p.out.emit(w, c, match ? &*match : nullptr);
}

/// Appendix E gives no length limit, but memory must have one: the
/// reference is reported cut after `room` more bytes of t[from..], marked
/// `truncated`, and the rest of its run is skipped.
inline verdict report_truncated(scan_parts& p, std::size_t from, std::size_t room) {
    scan_window& w = p.w;
    // Cut at a character boundary.
    std::size_t cut = from + room;
    while (cut > from && (static_cast<unsigned char>(w.t[cut]) & 0xC0) == 0x80) --cut;
    if (cut > from) p.cand.pieces.push_back({w.base + from, cut - from});
    p.cand.truncated = true;
    const std::uint64_t start = p.cand.pieces.empty() ? w.base + from : p.cand.pieces.front().offset;
    const emitted result = emit_bare(p);
    if (result == emitted::need_more) return verdict::more(0);
    if (result == emitted::none) {
        // The cut text is no reference, and the run is scanned on as
        // usual. A reference found in the cut text is part of a reading
        // too long to take: made shorter, it could make that reading fit
        // the limit next time (`ws://R'[a://w:/ra`, one byte over: read
        // whole, `[` opens link text after `ws://R`).
        p.out.longer_reading(start, w.base + cut);
        return verdict::nothing();
    }
    const std::size_t e = w.run_end(cut);
    if (e != npos) return verdict::reported(e);
    verdict v = verdict::reported(w.size());
    v.skip_rest = true;
    return v;
}

// ------------------------------------------------------- bare references
/// A bare reference (or one after `URL:`) starting at t[s], of the form
/// and wrapper set in the candidate: its pieces run to the end of the run,
/// continue across line breaks where the continuation rule allows, and
/// lose trailing punctuation. `outer` is where its wrapper starts.
/// need_more leaves the stop to the caller.
inline verdict scan_bare(scan_parts& p, std::size_t s, std::size_t scheme_len, reference_form form,
                         wrapper_kind wrapper, std::size_t outer) {
    scan_window& w = p.w;
    candidate& c = p.cand;
    c.clear();
    c.scheme_length = scheme_len;
    c.form = form;
    c.wrapper = wrapper;
    c.outer_start = w.base + outer;
    const std::size_t limit = p.opt.max_url_length;
    std::size_t total = 0; // bytes in pieces so far
    std::size_t from = s;
    int url_depth = -1;
    bracket_counts open_count{};
    bool closed = false;
    std::size_t end_of_run = 0;
    // The url_byte_class bytes the pieces hold: the rules below that look
    // for brackets, escapes or commas run only where there are some.
    unsigned classes = 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(w.t.data());
    for (;;) {
        std::size_t e = w.run_end(from, from + (limit - total) + 1);
        if (e == npos) return verdict::more(0);
        const unsigned here = url_byte_classes(bytes, from, e, w.t.size());
        classes |= here;
        // A closing bracket with no partner inside the URL ends it, even
        // with text right after it: `（http://x/）をご覧ください`.
        if (const std::size_t x = (here & url_bracket) != 0 ? unbalanced_closer(w.t, from, e, open_count) : npos;
            x != npos) {
            e = x;
            closed = true;
        }
        if (total + (e - from) > limit) {
            // A word that long is no abbreviation; the lines it would have
            // continued on are read on their own.
            if (form == reference_form::abbreviated) {
                if (!c.pieces.empty()) p.out.longer_reading(c.pieces.front().offset, w.base + e);
                return verdict::nothing();
            }
            return report_truncated(p, from, limit - total);
        }
        end_of_run = e;
        if (e == from) break;
        c.pieces.push_back({w.base + from, e - from});
        total += e - from;
        if (closed) break;
        // Appendix E: a line break right after a hyphen is not the end;
        // other breaks continue only when the next line looks like the
        // rest of a URL (docs/scanning.md).
        const continued next = continuation(w, p.opt.abbrev, limit, s, e, url_depth);
        if (next.need_more) return verdict::more(0);
        if (next.at == 0) break;
        if (next.hyphen) c.hyphens.push_back(total - 1);
        c.pieces.back().length -= next.dropped;
        total -= next.dropped;
        from = next.at;
    }
    if (const std::size_t cut = (classes & url_comma) != 0 ? cut_list_item(w, c) : npos; cut != npos) {
        end_of_run = cut;  // the next URL of the list is scanned from here
        closed = true;
    }
    if ((classes & url_bracket) != 0) cut_link_text(w, c);
    if ((classes & url_escape) != 0) cut_escape(w, c);
    trim_trailing(w, c);
    if (c.pieces.empty()) return verdict::nothing();
    if (form == reference_form::absolute && lacks_scheme_specific_part(w, c, s)) return verdict::nothing();
    // A word that completes to nothing is not a reference; the lines it
    // would have continued on are scanned on their own.
    switch (emit_bare(p)) {
    case emitted::need_more: return verdict::more(0);
    case emitted::none: return verdict::nothing();
    case emitted::reported: break;
    }
    // Only a reported reference that ended at a bracket starts a new run there.
    return verdict::reported(end_of_run, closed);
}

// ------------------------------------------------------------- schemes
/// The start of the scheme name ending just before the colon t[colon], or
/// npos. The name is the whole run of scheme characters before the colon
/// (looking into the context), less any leading non-letters.
inline std::size_t scheme_start(scan_window& w, std::size_t colon) {
    const std::string_view b = w.before(colon, max_scheme_length + 1);
    std::size_t k = b.size();
    while (k > 0 && is_scheme_char(static_cast<unsigned char>(b[k - 1]))) --k;
    if (b.size() - k > max_scheme_length) return npos;
    while (k < b.size() && !is_alpha(b[k])) ++k;
    const std::size_t len = b.size() - k;
    if (len == 0 || len > colon) return npos;
    return colon - len;
}

/// Whether `rest` (what follows a colon) starts with `//`.
inline bool starts_with_slashes(std::string_view rest) noexcept { return rest.starts_with("//"); }

/// The registered schemes that end just before the colon t[colon] inside
/// the run of scheme characters t[s0, colon), shortest-start first: calls
/// `f(start)` for each until it returns true. Longer names are in no
/// registered entry. Only before `//`: a scheme cut out of the end of a
/// word without them is the word's tail (`vim:set` is no `im:` URL,
/// `scd:ccid:x` no `cid:` one).
template <class F>
bool for_registered_suffixes(std::string_view t, std::size_t s0, std::size_t colon, F&& f) {
    const std::string_view rest = t.substr(colon + 1, 2);
    if (!starts_with_slashes(rest)) return false;
    for (std::size_t k = std::max(s0 + 1, colon - std::min(colon, max_registered_scheme_length)); k + 2 <= colon; ++k) {
        if (!is_alpha(t[k])) continue;
        const std::string_view name = t.substr(k, colon - k);
        if (classify_registered_scheme(name, rest) != scheme_kind::none && f(k)) return true;
    }
    return false;
}

/// The scheme that the colon t[colon] ends, given the run of scheme
/// characters t[s0, colon): the whole run if it is a scheme, else its
/// longest suffix that is a registered one (`randomtexthttp://x`,
/// `can...http://x`), else npos. A run `glued` to an identifier before it
/// (`type_info:x`) is the end of that word unless `//` follows.
inline std::size_t choose_scheme(std::string_view t, std::size_t s0, std::size_t colon, bool glued) {
    const std::string_view whole = t.substr(s0, colon - s0);
    const std::string_view rest = t.substr(colon + 1, 2);
    if (glued && !starts_with_slashes(rest)) return npos;
    // A compound scheme (`git+ssh`, `svn+ssh`) names itself whole.
    const bool compound = whole.find('+') != std::string_view::npos;
    const auto any = [](std::size_t) { return true; };
    bool registered = false;
    if (classify_scheme(whole, rest, registered) != scheme_kind::none &&
        (registered || compound || !for_registered_suffixes(t, s0, colon, any)))
        return s0;
    std::size_t found = npos;
    for_registered_suffixes(t, s0, colon, [&found](std::size_t k) {
        found = k;
        return true;
    });
    return found;
}

// ------------------------------------------------------------ URL: prefix
/// The reference written after `URL:` (at t[u]) starts at t[from].
inline verdict scan_prefixed(scan_parts& p, std::size_t u, std::size_t from) {
    const std::string_view t = p.w.t;
    const std::size_t n = t.size();
    // A scheme at its start makes it absolute; otherwise it is a
    // reference relative to the base.
    std::size_t c = from;
    while (c < n && c - from <= max_scheme_length && is_scheme_char(static_cast<unsigned char>(t[c]))) ++c;
    if (c >= n && !p.w.at_end) return verdict::more(0);
    if (c < n && t[c] == ':' && c > from) {
        if (c + 3 > n && !p.w.at_end) return verdict::more(0);
        if (classify_scheme(t.substr(from, c - from), t.substr(c + 1, std::min<std::size_t>(2, n - c - 1))) !=
            scheme_kind::none)
            return scan_bare(p, from, c - from, reference_form::absolute, wrapper_kind::url_prefix, u);
    }
    // Appendix E spells the prefix `URL:`. In lower case it is mostly a key
    // in code or configuration (`url: location.href,` in JavaScript), and
    // what follows it is a link only with a scheme.
    if (t.substr(u, 3) != "URL") return verdict::nothing();
    // An opening bracket or a quote starts text of its own, read as such:
    // `URL: (https://x/)` holds an absolute URL, not a path `(https:`.
    if (is_leading_punctuation(t[from]) || t[from] == '"' || t[from] == '\'') return verdict::nothing();
    return scan_bare(p, from, 0, reference_form::relative, wrapper_kind::url_prefix, u);
}

/// Appendix E: `URL:` at t[u] marks a URL, written right after it or after
/// blanks (perhaps one line break). When what follows is another `URL:`
/// (`URL: URL:../g`), that one is the prefix and this one marks nothing, so
/// that a reference written after it reads the same as it is rewritten.
inline verdict scan_url_prefix(scan_parts& p, std::size_t u) {
    const scan_window& w = p.w;
    const std::string_view t = w.t;
    const std::size_t from = u + 4;
    const auto another_prefix = [&](std::size_t k) { return starts_with_url_prefix(t.substr(k)); };
    if (from + 4 > t.size() && !w.at_end) return verdict::more(0);
    if (from < t.size() && static_cast<unsigned char>(t[from]) < 0x80 &&
        is_run_role(ascii_role(static_cast<unsigned char>(t[from])))) {
        if (another_prefix(from)) return verdict::nothing();
        return scan_prefixed(p, u, from);
    }
    // `URL: http://x/`: blanks, perhaps one line break, then the reference.
    std::size_t k = from, breaks = 0;
    while (k < t.size() && k - from <= max_indent) {
        if (t[k] == ' ' || t[k] == '\t' || t[k] == '\r') {
            ++k;
        } else if (t[k] == '\n' && breaks == 0) {
            ++breaks;
            ++k;
        } else {
            break;
        }
    }
    if (k >= t.size()) return w.at_end ? verdict::nothing() : verdict::more(0);
    if (k == from || k - from > max_indent) return verdict::nothing();
    if (k + 4 > t.size() && !w.at_end) return verdict::more(0);
    if (another_prefix(k)) return verdict::nothing();
    bool more = false;
    const char_info c = w.at(k, more);
    if (more) return verdict::more(0);
    // Sentence punctuation after `URL: ` is prose, but `./` and `../` start
    // a relative path (`URL: ../g`).
    if (!is_run_role(c.role)) return verdict::nothing();
    if (c.role == char_role::trailing) {
        if (t[k] != '.') return verdict::nothing();
        const std::size_t slash = k + (k + 1 < t.size() && t[k + 1] == '.' ? 2 : 1);
        if (slash >= t.size()) return w.at_end ? verdict::nothing() : verdict::more(0);
        if (t[slash] != '/') return verdict::nothing();
    }
    return scan_prefixed(p, u, k);
}

/// Where the address starts in `key=local@host` (`emailAddress=a@b.org`,
/// an OpenSSL subject field) or `email:local@host` (subjectAltName): the
/// key names a field, the address is its value. 0 when `word` is not so.
/// Only keys that say mail take `:`, as `user:pass@host` is a login.
inline std::size_t address_after_key(std::string_view word) noexcept {
    const std::size_t at = word.find('@');
    if (at == std::string_view::npos) return 0;
    const std::size_t sep = find_first_of_bytes(word, "=:");
    if (sep == 0 || sep == std::string_view::npos || sep + 1 >= at) return 0;
    const std::string_view key = word.substr(0, sep);
    for (const char c : key)
        if (!is_alnum(c) && c != '_' && c != '-') return 0;
    if (word[sep] == ':' && !iequals(key, "email") && !iequals(key, "e-mail") && !iequals(key, "mail")) return 0;
    // `--emails='a@b.org, c@d.org'`: a quote opens the value.
    const std::size_t value = sep + 1 + (word[sep + 1] == '\'' || word[sep + 1] == '"' ? 1 : 0);
    return value < at ? value : 0;
}

// ------------------------------------------------------ abbreviated URLs
/// An abbreviated URL candidate (Appendix F): the word t[r0, re); `a` is
/// the anchor that led here, a byte of the run.
inline verdict scan_abbreviated(scan_parts& p, std::size_t r0, std::size_t re, std::size_t a) {
    scan_window& w = p.w;
    const std::string_view t = w.t;
    // Leading brackets, quotes and emphasis marks are not part of the word;
    // a `/` among them makes it a path (`/?a.th`), as one right before its
    // first letter does (a glued token) and one after it (path_before).
    std::size_t s = r0;
    while (s < re) {
        const auto b = static_cast<unsigned char>(t[s]);
        if (b >= 0x80) {
            bool more = false;
            const char_info c = w.at(s, more);
            if (c.role == char_role::url) break;
            s += c.len;
            continue;
        }
        if (is_alnum(static_cast<char>(b))) break;
        if (b == '/') return verdict::nothing();
        ++s;
    }
    if (s >= re) return verdict::nothing();
    s += address_after_key(t.substr(s, re - s));
    // Appendix F candidates hold a `.` or `@` before any trailing
    // punctuation: a sentence's last word ("end.") is not one.
    std::size_t e = re;
    while (e > s && static_cast<unsigned char>(t[e - 1]) < 0x80 &&
           ascii_role(static_cast<unsigned char>(t[e - 1])) == char_role::trailing)
        --e;
    // Most words that reach here are file names, paths and version
    // numbers: one pass over the host settles them.
    std::optional<abbrev_completion> judged;
    if (settled_without_site(w, p.opt.abbrev, s, e, re, judged)) return verdict::nothing();
    const bool anchor_inside = a >= s && a < e && (t[a] == '.' || t[a] == '@');
    if (!anchor_inside && !has_dot_or_at(t.substr(s, e - s))) return verdict::nothing();
    if (!may_hold_site(t.substr(s, e - s))) return verdict::nothing();
    p.out.note_judged(w.base + s, e - s, judged);
    const verdict v = scan_bare(p, s, 0, reference_form::abbreviated, wrapper_kind::none, s);
    p.out.note_judged(0, 0, std::nullopt);
    return v;
}

// ------------------------------------------------------------------ runs
/// Where the carried bytes start when a candidate in the run starting at
/// t[r0] needs more input: the run (with a quote before it), if the run
/// may still be a word for Appendix F, else only what can still matter.
struct run_view {
    std::size_t r0 = 0;       ///< start of the run (0 when it began before t)
    bool word = false;        ///< short enough to be a word that Appendix F may complete
    std::size_t cand_stop = 0;
};

/// The colon t[colon] in the run: a scheme URL from its scheme name on
/// (`(http://x)`, `redirect=http://x`), if one starts there.
inline verdict scan_scheme_at(scan_parts& p, const run_view& run, std::size_t colon) {
    const std::string_view t = p.w.t;
    const std::size_t s0 = scheme_start(p.w, colon);
    if (s0 == npos) return verdict::nothing();
    std::size_t url_stop = s0 > 0 && t[s0 - 1] == '"' ? s0 - 1 : s0;
    // While the run may still turn out to be a word for Appendix F, the
    // carried bytes start with the run.
    if (run.word) url_stop = std::min(url_stop, run.cand_stop);
    if (colon + 3 > t.size() && !p.w.at_end) return verdict::more(url_stop);
    const std::size_t s = choose_scheme(t, s0, colon, p.w.byte_at(p.w.base + s0 - 1) == '_');
    // Appendix E: `URL:` is the prefix, not a scheme.
    if (s == npos || starts_with_url_prefix(t.substr(s, colon - s + 1))) return verdict::nothing();
    // Right after `%` or `\` a name is code, not a scheme: printf's
    // `%s://%s/`, a regular expression's `\d+://`.
    if (const int before = p.w.byte_at(p.w.base + s - 1); before == '%' || before == '\\') return verdict::nothing();
    const verdict v = scan_bare(p, s, colon - s, reference_form::absolute, wrapper_kind::none, s);
    return v.needs_more() ? verdict::more(url_stop) : v;
}

/// The run starting at absolute `rs` that holds the anchor t[a], looked at
/// whole: `URL:` at its start, a scheme URL anywhere in it (`(http://x)`,
/// `redirect=http://x`), else an abbreviated URL.
inline verdict scan_run(scan_parts& p, std::uint64_t rs, std::size_t a) {
    scan_window& w = p.w;
    const std::string_view t = w.t;
    const std::size_t n = t.size();
    const std::size_t limit = p.opt.max_url_length;
    run_view run;
    const bool visible = rs >= w.base;
    run.r0 = visible ? w.index_of(rs) : 0;
    run.word = visible && a - run.r0 <= limit;
    run.cand_stop = run.r0 > 0 && run.word && t[run.r0 - 1] == '"' ? run.r0 - 1 : run.r0;

    // Appendix E: the prefix `URL:` marks a URL and is not part of it.
    if (run.word) {
        std::size_t u = run.r0;
        if (u < n && (t[u] == '(' || t[u] == '[')) ++u;
        if (starts_with_url_prefix(t.substr(u))) {
            const verdict v = scan_url_prefix(p, u);
            if (v.needs_more()) return verdict::more(run.cand_stop);
            if (v.found()) return v;
        }
    }

    const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
    std::size_t c = a;
    while (true) {
        if (c >= n) {
            if (w.at_end) break;
            // The run may still end here.
            return verdict::more(run.word && n - run.r0 <= limit ? run.cand_stop : w.long_run_stop(n));
        }
        if (c - a > limit) return verdict::nothing(c); // too long to judge whole; scanning goes on inside it
        const auto b = static_cast<unsigned char>(t[c]);
        if (b >= 0x80) {
            bool more = false;
            const char_info ci = w.at(c, more);
            if (more) return verdict::more(run.word && c - run.r0 <= limit ? run.cand_stop : w.long_run_stop(c));
            if (!is_run_role(ci.role)) break;
            c += ci.len;
            continue;
        }
        if (!is_run_role(ascii_role(b))) break;
        if (b != ':') {
            // On to the next byte that needs a look; the bound keeps the
            // length check above seeing the same index.
            c = forward_to<colon_or_stop_bytes>(bytes, c + 1, std::min(n, a + limit + 1), n);
            continue;
        }
        const verdict v = scan_scheme_at(p, run, c);
        if (v.needs_more() || v.found()) return v;
        // Nothing usable after the scheme (`http://.`): look further on.
        ++c;
    }
    const std::size_t re = c;
    if (run.word && re - run.r0 <= limit && p.opt.abbrev.kinds != abbrev_none) {
        const verdict v = scan_abbreviated(p, run.r0, re, a);
        if (v.needs_more()) return verdict::more(run.cand_stop);
        if (v.found()) return v;
    }
    return verdict::nothing(re);
}

}  // namespace urlsift::detail
