#pragma once
// How lines are read around a URL (Appendix E: URLs broken across lines,
// with mail quoting as docs/scanning.md describes it). The scanner applies
// these rules, and the rewriter must read lines the same way to know when
// an edit would change the next reading.

#include <cstddef>
#include <string_view>

namespace urlsift::detail {

/// Longest indentation (or trailing blank) looked through at a line break.
inline constexpr std::size_t max_indent = 64;
/// Longest mail quote prefix (`> > > `) recognized at a line start.
inline constexpr std::size_t max_quote_prefix = 16;

/// A byte after which a writer or a tool may break a long URL (the same set
/// RFC text generators break at). A bare URL ending in one of them at a line
/// end may continue on the next line.
constexpr bool is_break_char(char c) noexcept {
    switch (c) {
    case '/': case '.': case '-': case '?': case '&': case '=': case '_': case '#': case '%': case '~': case '+':
        return true;
    default:
        return false;
    }
}

/// Mail quote depth of the line that starts with `line`: the `>` marks
/// among blanks in its first `max_quote_prefix` bytes.
constexpr int quote_depth_of(std::string_view line) noexcept {
    int depth = 0;
    for (std::size_t i = 0; i < line.size() && i < max_quote_prefix; ++i) {
        if (line[i] == '>') ++depth;
        else if (line[i] != ' ' && line[i] != '\t') break;
    }
    return depth;
}

}  // namespace urlsift::detail
