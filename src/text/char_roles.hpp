#pragma once
// Character roles for the scanner (Appendix E delimiting, extended to Unicode
// text). ASCII is classified by a table; only non-ASCII code points reach ICU.

#include <array>
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

constexpr std::array<char_role, 128> make_ascii_roles() noexcept {
    std::array<char_role, 128> roles{};
    for (auto& r : roles) r = char_role::url;
    for (int c = 0; c < 0x20; ++c) roles[static_cast<std::size_t>(c)] = char_role::delimiter;
    roles[0x7F] = char_role::delimiter;
    for (char c : {' ', '\t', '\n', '\r', '\f', '\v'}) roles[static_cast<unsigned char>(c)] = char_role::space;
    // Section 2.4.3: `<`, `>` and `"` are excluded from URLs because they
    // delimit them in text; a backquote delimits code spans in plain text.
    for (char c : {'<', '>', '"', '`'}) roles[static_cast<unsigned char>(c)] = char_role::delimiter;
    // `|` is "unwise" (RFC 2396 section 2.4.3) and separates table cells.
    roles[static_cast<unsigned char>('|')] = char_role::delimiter;
    // Appendix E: punctuation that ends a sentence is not part of a bare URL.
    for (char c : {'.', ',', ';', ':', '!', '?', '\''}) roles[static_cast<unsigned char>(c)] = char_role::trailing;
    for (char c : {'(', '[', '{'}) roles[static_cast<unsigned char>(c)] = char_role::open;
    for (char c : {')', ']', '}'}) roles[static_cast<unsigned char>(c)] = char_role::close;
    return roles;
}

/// Roles of the ASCII bytes, inline so that the scanner's loops over ASCII
/// text make no calls.
inline constexpr std::array<char_role, 128> ascii_roles = make_ascii_roles();

/// Role of an ASCII byte (0x00-0x7F).
inline char_role ascii_role(unsigned char b) noexcept { return ascii_roles[b & 0x7F]; }

/// Whether `b` is ASCII sentence punctuation or a closing bracket: what
/// Appendix E trims off the end of a bare URL.
inline bool is_trailing_ascii(unsigned char b) noexcept {
    if (b >= 0x80) return false;
    const char_role r = ascii_roles[b];
    return r == char_role::trailing || r == char_role::close;
}

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

/// Whether `c` may stand between a URL and the blank before it: opening
/// brackets, `,` and `;` (reference_surroundings::before_punctuation).
constexpr bool is_leading_punctuation(char c) noexcept {
    return c == '(' || c == '[' || c == '{' || c == ',' || c == ';';
}

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
char_info char_at_multibyte(std::string_view s, std::size_t i, bool& incomplete) noexcept;
inline char_info char_at(std::string_view s, std::size_t i, bool& incomplete) noexcept {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
        incomplete = false;
        return {b, 1, ascii_roles[b]};
    }
    return char_at_multibyte(s, i, incomplete);
}

/// The character that ends at `s[i - 1]` (`i > 0`), found by stepping back
/// over continuation bytes. A byte that ends no valid sequence is reported
/// as an invalid one-byte character, as forward decoding would see it.
char_info char_before_multibyte(std::string_view s, std::size_t i) noexcept;
inline char_info char_before(std::string_view s, std::size_t i) noexcept {
    const auto last = static_cast<unsigned char>(s[i - 1]);
    if (last < 0x80) return {last, 1, ascii_roles[last]};
    return char_before_multibyte(s, i);
}

}  // namespace urlsift::detail
