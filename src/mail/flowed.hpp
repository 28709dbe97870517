#pragma once
// RFC 3676 format=flowed: soft line breaks joined before the scanner reads
// the text.

#include <string>
#include <string_view>

namespace urlsift::detail {

/// Decodes format=flowed text (RFC 3676 section 4.2): a line that ends in a
/// space is joined with the next line of the same quote depth, its trailing
/// space deleted when `delsp` (DelSp=yes). Space-stuffing is undone, the
/// signature separator `-- ` stays a fixed line, and each quoted line is
/// written back as `>` marks and a space, so the scanner still sees the
/// depth. Line ends come out as LF.
std::string unflow(std::string_view text, bool delsp);

}  // namespace urlsift::detail
