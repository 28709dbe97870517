#pragma once
// How lines are read around a URL (Appendix E: URLs broken across lines,
// with mail quoting as docs/scanning.md describes it). The scanner applies
// these rules, and the rewriter must read lines the same way to know when
// an edit would change the next reading.

#include "text/char_roles.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace urlsift::detail {

/// Longest indentation (or trailing blank) looked through at a line break.
inline constexpr std::size_t max_indent = 64;
/// Longest mail quote prefix (`> > > `) recognized at a line start.
inline constexpr std::size_t max_quote_prefix = 16;

/// Reads a mail quote prefix (`> `, `>> `, `> > `) a byte at a time: the
/// `>` marks among blanks in the first `max_quote_prefix` bytes of a line.
/// Every reading of a quote prefix (the scanner's, the brackets') goes
/// through here.
struct quote_prefix_reader {
    int depth = 0;              ///< `>` marks so far
    std::size_t length = 0;     ///< bytes of the prefix so far
    std::size_t marks_end = 0;  ///< bytes up to and including the last `>`

    /// Takes the next byte of the line: false when it is not part of the
    /// prefix (and the prefix has ended before it).
    constexpr bool take(int c) noexcept {
        if (length >= max_quote_prefix || (c != '>' && c != ' ' && c != '\t')) return false;
        ++length;
        if (c == '>') {
            ++depth;
            marks_end = length;
        }
        return true;
    }
};

/// A line's quote prefix as far as the visible bytes show it.
struct quote_prefix {
    int depth = 0;
    std::size_t marks_end = 0; ///< bytes up to and including the last `>`
    std::size_t length = 0;    ///< bytes of the whole prefix, blanks after the last `>` included
    bool complete = true;      ///< false when the visible bytes end inside the prefix
};

/// The quote prefix of the line starting at `at`; `byte(k)` gives the byte
/// at k or -1 past the visible bytes. A prefix cut by the end of the input
/// (`at_end`) is complete.
template <class Byte>
constexpr quote_prefix read_prefix(std::uint64_t at, Byte&& byte, bool at_end) {
    quote_prefix_reader r;
    quote_prefix q;
    for (;;) {
        const int c = byte(at + r.length);
        if (c < 0) {
            q.complete = at_end;
            break;
        }
        if (!r.take(c)) break;
    }
    q.depth = r.depth;
    q.marks_end = r.marks_end;
    q.length = r.length;
    return q;
}

/// Mail quote depth of the line that starts with `line`.
constexpr int quote_depth_of(std::string_view line) noexcept {
    return read_prefix(
               0, [line](std::uint64_t k) { return k < line.size() ? static_cast<unsigned char>(line[k]) : -1; }, true)
        .depth;
}

/// Where the names start on a line that opens a change log's list of
/// them: after blanks and a `* ` or `- ` bullet (`\t* sinfo.ads, einfo.ads:`,
/// Debian's `  * debhelper.in/libc.install:`). 0 when `line` opens none.
constexpr std::size_t changelog_list_start(std::string_view line) noexcept {
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == 0 || i + 2 > line.size()) return 0;
    const std::string_view bullet = line.substr(i, 2);
    return bullet == "* " || bullet == "- " ? i + 2 : 0;
}

}  // namespace urlsift::detail
