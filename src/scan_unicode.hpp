#pragma once
// Character roles for the scanner (Appendix E delimiting, extended to Unicode
// text). ASCII is classified by a table; only non-ASCII code points reach ICU.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace urlsift::detail {

/// What a character does at the edge of or inside a URL in running text.
enum class char_role : std::uint8_t {
    url,       ///< may be part of a URL (letters, digits, most symbols, IRI letters)
    space,     ///< whitespace: ends a bare URL, ignored inside `<...>` (Appendix E)
    delimiter, ///< never part of a URL: `<`, `>`, `"`, controls, invalid UTF-8, CJK quotes
    trailing,  ///< sentence punctuation: part of a URL inside, trimmed at its end
    open,      ///< an opening bracket: `(`, `[`, `{`, fullwidth `（`
    close,     ///< a closing bracket, kept only when balanced inside the URL
};

/// Role of an ASCII byte (0x00-0x7F).
char_role ascii_role(unsigned char b) noexcept;

/// Role of a non-ASCII code point (ICU general category and white space).
/// Negative values (invalid UTF-8) are delimiters.
char_role code_point_role(std::int32_t c) noexcept;

/// For a closing bracket, the opening bracket it pairs with; 0 otherwise.
std::int32_t opening_partner(std::int32_t close) noexcept;

/// One decoded character of the input.
struct char_info {
    std::int32_t cp;  ///< the code point, or -1 for a byte that starts no valid sequence
    std::uint8_t len; ///< bytes taken (1 for an invalid byte)
    char_role role;
};

/// Decodes and classifies the character at `s[i]` (`i < s.size()`).
/// `incomplete` is set when the bytes at the end of `s` are a prefix of a
/// valid sequence, so that more input could complete them.
char_info char_at(std::string_view s, std::size_t i, bool& incomplete) noexcept;

/// The character that ends at `s[i - 1]` (`i > 0`), found by stepping back
/// over continuation bytes. A byte that ends no valid sequence is reported
/// as an invalid one-byte character, as forward decoding would see it.
char_info char_before(std::string_view s, std::size_t i) noexcept;

}  // namespace urlsift::detail
