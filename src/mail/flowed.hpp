#pragma once
// RFC 3676 format=flowed: soft line breaks joined before the scanner reads
// the text.

#include <urlsift/rewriter.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::detail {

/// Decodes format=flowed text (RFC 3676 section 4.2): a line that ends in a
/// space is joined with the next line of the same quote depth, its trailing
/// space deleted when `delsp` (DelSp=yes). Space-stuffing is undone, the
/// signature separator `-- ` stays a fixed line, and each quoted line is
/// written back as `>` marks and a space, so the scanner still sees the
/// depth. Line ends come out as LF. With `origin`, it receives for each
/// byte of the result the offset in `text` it comes from (a quote prefix
/// written again: the start of its line; a line break: the break's first
/// byte).
std::string unflow(std::string_view text, bool delsp, std::vector<std::size_t>* origin = nullptr);

/// Applies `edits` (in order, apart, with offsets in what `unflow` made of
/// `text`, `origin` its map) to the flowed text `text` itself, so that
/// every line and soft break outside them stays as written. RFC 3676: a
/// soft break inside an edit moves to the end of the edit (DelSp=yes), or
/// to the first space after it on its line (DelSp=no, where the space
/// before a soft break is text); the rest of the line keeps its quote marks
/// and is space-stuffed when it must be (section 4.4).
std::string reflow_edits(std::string_view text, bool delsp, const std::vector<std::size_t>& origin,
                         const std::vector<rewrite_edit>& edits);

}  // namespace urlsift::detail
