#pragma once
// HTML character references, where text urlsift reads was written as HTML
// source: a link's `&amp;`, a quote written `&quot;` or `&#39;`.

#include "text/ascii.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace urlsift::detail {

/// The character reference starting at `s[0] == '&'`: its length (up to and
/// including `;`) and code point, or length 0 when it is none of those a
/// link in HTML source holds (`&amp;` above all; the five XML names and
/// numeric references).
inline std::size_t read_char_ref(std::string_view s, std::uint32_t& cp) noexcept {
    static constexpr struct {
        std::string_view name;
        char c;
    } names[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (const auto& n : names)
        if (starts_with_nocase(s, n.name)) {
            cp = static_cast<unsigned char>(n.c);
            return n.name.size();
        }
    if (s.size() < 4 || s[1] != '#') return 0;
    const bool hex = s[2] == 'x' || s[2] == 'X';
    std::size_t i = hex ? 3 : 2;
    std::uint32_t v = 0;
    const std::size_t first = i;
    // Seven digits cover U+10FFFF in either base and keep `v` from overflowing.
    for (; i < s.size() && i - first < 7; ++i) {
        const int d = hex ? hex_value(s[i]) : (is_digit(s[i]) ? s[i] - '0' : -1);
        if (d < 0) break;
        v = v * (hex ? 16u : 10u) + static_cast<std::uint32_t>(d);
    }
    if (i == first || i >= s.size() || s[i] != ';') return 0;
    if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    cp = v;
    return i + 1;
}

}  // namespace urlsift::detail
