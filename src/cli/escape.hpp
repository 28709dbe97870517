#pragma once
// Text as it leaves the tool: made safe for a terminal, for a spreadsheet,
// and for the table formats' separators.

#include <cstddef>
#include <string>
#include <string_view>

namespace urlsift::cli {

/// Length of the well-formed UTF-8 sequence at s[i], or 0 if it is not one
/// (overlong forms, surrogates and code points past U+10FFFF are rejected).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept;

/// Whether the well-formed sequence of `len` bytes at s[i] is a C1 control
/// (U+0080-U+009F): CSI (U+009B) among them starts escape sequences.
inline bool is_c1_control(std::string_view s, std::size_t i, std::size_t len) noexcept {
    return len == 2 && static_cast<unsigned char>(s[i]) == 0xC2 && static_cast<unsigned char>(s[i + 1]) <= 0x9F;
}

/// Whether the well-formed sequence of `len` bytes at s[i] is a character
/// that is not seen yet changes what is seen: a bidirectional control
/// (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), which can show
/// a name or a line in another order than its bytes, or an invisible
/// format character (U+200B-U+200D, U+2060-U+2064, U+FEFF), which can make
/// two different names look the same.
bool is_hidden_format(std::string_view s, std::size_t i, std::size_t len) noexcept;

/// Appends `s` with nothing a terminal would act on: C0 controls and DEL as
/// `\xHH` (`\n`, `\t`, `\r` by name), C1 controls and hidden format
/// characters as `\uHHHH`, and bytes that are not UTF-8 as `\xHH` (a lone
/// 0x9B is CSI to some terminals).
/// With `keep_lines`, line feeds and tabs pass, for text shown as lines.
void append_visible(std::string& out, std::string_view s, bool keep_lines = false);

/// `s` made visible as append_visible does, for messages on stderr.
std::string visible(std::string_view s);

/// Appends a CSV field (RFC 4180 quoting). A field that starts with `=`,
/// `+`, `-`, `@`, tab or CR is one a spreadsheet would run as a formula:
/// it gets a leading `'` and quotes, as OWASP's CSV injection advice says.
void append_csv_field(std::string& out, std::string_view s);

/// Appends a TSV field: tab, line feed, CR and backslash as `\t` `\n` `\r` `\\`.
/// A field that starts with `=`, `+`, `-` or `@` gets a leading `'`, as a
/// CSV field does: a spreadsheet opens TSV as readily as CSV.
void append_tsv_field(std::string& out, std::string_view s);

}  // namespace urlsift::cli
