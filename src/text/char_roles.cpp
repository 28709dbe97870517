#include "text/char_roles.hpp"

#include "text/icu_text.hpp"

#include <unicode/uchar.h>

#include <array>

namespace urlsift::detail {

namespace {

std::uint8_t sequence_length(unsigned char lead) noexcept {
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if (lead >= 0xE0 && lead <= 0xEF) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
}

}  // namespace

std::int32_t opening_partner(std::int32_t close) noexcept {
    switch (close) {
    case ')': return '(';
    case ']': return '[';
    case '}': return '{';
    case 0xFF09: return 0xFF08; // fullwidth parentheses
    case 0xFF3D: return 0xFF3B; // fullwidth square brackets
    case 0xFF5D: return 0xFF5B; // fullwidth curly brackets
    default: return 0;
    }
}

char_role code_point_role(std::int32_t c) noexcept {
    if (c < 0) return char_role::delimiter;
    if (c < 0x80) return ascii_roles[static_cast<std::size_t>(c)];
    if (u_isUWhiteSpace(c)) return char_role::space;
    switch (c) {
    case 0xFF08: case 0xFF3B: case 0xFF5B: return char_role::open;
    case 0xFF09: case 0xFF3D: case 0xFF5D: return char_role::close;
    case 0x200C: case 0x200D: return char_role::url; // joiners shape Indic and emoji text
    case 0x2013: return char_role::url;              // en dash: `Hatfield–McCoy_feud`
    case 0x2014: return char_role::delimiter;        // em dash: `http://x/—and then`
    case 0xFF5C: return char_role::delimiter;        // fullwidth `|`
    case 0xFFFC: case 0xFFFD: return char_role::delimiter; // object and replacement characters
    default: break;
    }
    switch (u_charType(c)) {
    case U_CONTROL_CHAR:
    case U_FORMAT_CHAR: // zero-width space, directional marks, BOM
    case U_UNASSIGNED:
    case U_SURROGATE:
    case U_PRIVATE_USE_CHAR:
    case U_LINE_SEPARATOR:
    case U_PARAGRAPH_SEPARATOR:
    case U_SPACE_SEPARATOR:
        return char_role::delimiter;
    // Quotes and the brackets of CJK text (“ ” « » 「 」 【 】) wrap a URL the
    // way `"` does; dashes (— –) join a URL to the prose after it.
    case U_INITIAL_PUNCTUATION:
    case U_FINAL_PUNCTUATION:
    case U_START_PUNCTUATION:
    case U_END_PUNCTUATION:
        return char_role::delimiter;
    case U_OTHER_PUNCTUATION:
        // 。 、 end CJK clauses with no space after them; fullwidth ！ ？ ，
        // behave like their ASCII forms (trimmed at the end, kept inside).
        if ((c >= 0x3000 && c <= 0x303F) || c == 0xFF61 || c == 0xFF64 || c == 0x2026) return char_role::delimiter;
        return char_role::trailing;
    default:
        return char_role::url;
    }
}

char_info char_at_multibyte(std::string_view s, std::size_t i, bool& incomplete) noexcept {
    const auto b = static_cast<unsigned char>(s[i]);
    incomplete = false;
    if (b < 0x80) return {b, 1, ascii_roles[b]};
    const std::uint8_t want = sequence_length(b);
    if (want != 0 && s.size() - i < want) {
        // A prefix of a sequence cut by the end of the buffer?
        bool prefix = true;
        for (std::size_t k = i + 1; k < s.size(); ++k)
            if ((static_cast<unsigned char>(s[k]) & 0xC0) != 0x80) prefix = false;
        incomplete = prefix;
    }
    std::size_t len = 1;
    const std::int32_t cp = decode_utf8(s, i, len);
    return {cp, static_cast<std::uint8_t>(len), code_point_role(cp)};
}

char_info char_before_multibyte(std::string_view s, std::size_t i) noexcept {
    const auto last = static_cast<unsigned char>(s[i - 1]);
    if (last < 0x80) return {last, 1, ascii_roles[last]};
    std::size_t start = i - 1;
    for (int k = 0; k < 3 && start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80; ++k) --start;
    std::size_t len = 1;
    const std::int32_t cp = decode_utf8(s, start, len);
    if (cp >= 0 && start + len == i) return {cp, static_cast<std::uint8_t>(len), code_point_role(cp)};
    return {-1, 1, char_role::delimiter};
}

}  // namespace urlsift::detail
