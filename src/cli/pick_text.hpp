#pragma once
// Text as `urlsift pick` draws it: one terminal row per URL and per line of
// context, so everything is measured in columns, not bytes, and what does
// not fit is cut with an ellipsis.

#include <cstddef>
#include <string>
#include <string_view>

namespace urlsift::cli {

/// Columns a terminal gives the UTF-8 text `s`: 2 for East Asian wide and
/// fullwidth characters, 0 for combining marks and format characters, 1 for
/// the rest (a byte that is not UTF-8 counts 1; callers escape first).
std::size_t display_width(std::string_view s);

/// `s` in at most `width` columns: whole when it fits, else cut at a
/// character boundary and ended with "…".
std::string fit_width(std::string_view s, std::size_t width);

/// The line a URL was found on, for one row of `width` columns: blanks
/// (tabs, CR, runs of spaces) collapsed to one space and trimmed, control
/// characters shown escaped (append_visible), and, when it is too long, cut
/// so that byte `focus` (where the URL starts) is in view, a third of the
/// way in, with "…" where text was left out.
std::string shorten_context(std::string_view line, std::size_t focus, std::size_t width);

/// The line of `text` that holds byte `offset` (without its line feed), and
/// the offset within it.
struct line_position {
    std::string_view line;
    std::size_t column = 0; ///< bytes from the line's start to `offset`
};
line_position line_at(std::string_view text, std::size_t offset);

}  // namespace urlsift::cli
