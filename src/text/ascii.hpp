#pragma once
// ASCII character tests, independent of the C locale (URL syntax is defined
// on ASCII: Section 1.6 of 001_*.txt).

#include <cstddef>
#include <string>
#include <string_view>

namespace urlsift::detail {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_upper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower(char c) noexcept { return c >= 'a' && c <= 'z'; }
constexpr bool is_alpha(char c) noexcept { return is_upper(c) || is_lower(c); }
constexpr bool is_alnum(char c) noexcept { return is_alpha(c) || is_digit(c); }
constexpr char to_lower(char c) noexcept { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

/// White space as mail headers and markup write it: SP, HT, CR and LF.
constexpr bool is_white(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/// `s` without white space (is_white) at either end.
constexpr std::string_view trim_white(std::string_view s) noexcept {
    while (!s.empty() && is_white(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_white(s.back())) s.remove_suffix(1);
    return s;
}

/// The value of hex digit `c` (Section 2.4.1: either case), or -1.
constexpr int hex_value(char c) noexcept {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Appends byte `b` escaped as `%XX` (Section 2.4.1), hex digits in upper
/// case as Section 6 normalizes them.
inline void append_percent_escape(std::string& out, unsigned char b) {
    constexpr std::string_view hex = "0123456789ABCDEF";
    out += '%';
    out += hex[b >> 4];
    out += hex[b & 0x0f];
}

/// Equal but for the case of ASCII letters.
constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (to_lower(a[i]) != to_lower(b[i])) return false;
    return true;
}

/// The index of the first byte of `s` that is one of `set`, or npos.
/// std::string_view::find_first_of searches `set` once per byte of `s`
/// with memchr; the scanner's tokens are short and the sets tiny.
constexpr std::size_t find_first_of_bytes(std::string_view s, std::string_view set) noexcept {
    for (std::size_t i = 0; i < s.size(); ++i)
        for (const char c : set)
            if (s[i] == c) return i;
    return std::string_view::npos;
}

/// Whether `s` starts with `prefix` but for the case of ASCII letters.
constexpr bool starts_with_nocase(std::string_view s, std::string_view prefix) noexcept {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

/// Whether `s` ends with `suffix` but for the case of ASCII letters.
constexpr bool ends_with_nocase(std::string_view s, std::string_view suffix) noexcept {
    return s.size() >= suffix.size() && starts_with_nocase(s.substr(s.size() - suffix.size()), suffix);
}

/// Section 3.2.2's `IPv4address = 1*digit "." 1*digit "." 1*digit "."
/// 1*digit`, each group 0..255 and written without leading zeros (which
/// some read as octal).
constexpr bool is_ipv4(std::string_view host) noexcept {
    int groups = 0;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = host.find('.', start);
        const std::string_view g = host.substr(start, dot == std::string_view::npos ? host.npos : dot - start);
        if (g.empty() || g.size() > 3 || (g.size() > 1 && g.front() == '0')) return false;
        int value = 0;
        for (const char c : g) {
            if (!is_digit(c)) return false;
            value = value * 10 + (c - '0');
        }
        if (value > 255) return false;
        ++groups;
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return groups == 4;
}

/// Appendix E: whether `s` starts with the prefix `URL:` (any case), which
/// marks what follows as a URL and is not part of it.
constexpr bool starts_with_url_prefix(std::string_view s) noexcept {
    // Setting bit 5 folds each of `U`, `R`, `L` onto its lower case and
    // nothing else onto it; asked at nearly every colon, so spelled out.
    return s.size() >= 4 && s[3] == ':' && (s[0] | 0x20) == 'u' && (s[1] | 0x20) == 'r' && (s[2] | 0x20) == 'l';
}

}  // namespace urlsift::detail
