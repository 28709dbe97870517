#include "uri/browser/host.hpp"

#include "text/ascii.hpp"
#include "uri/browser/percent.hpp"
#include "text/icu_text.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace urlsift::detail::browser {

namespace {

// Code points no host may hold; `%` is allowed in an opaque host, where it
// stays an escape.
bool is_forbidden_host_code_point(char c) noexcept {
    switch (c) {
    case '\0': case '\t': case '\n': case '\r': case ' ': case '#': case '/': case ':':
    case '<': case '>': case '?': case '@': case '[': case '\\': case ']': case '^': case '|':
        return true;
    default:
        return false;
    }
}

// A domain additionally rules out C0 controls, `%` and DEL: after
// percent-decoding a `%` can only be a leftover that failed to decode.
bool is_forbidden_domain_code_point(char c) noexcept {
    const auto byte = static_cast<unsigned char>(c);
    return is_forbidden_host_code_point(c) || byte < 0x20 || c == '%' || byte == 0x7f;
}

/// `%XX` becomes the byte XX; a `%` without two hex digits stays as it is.
std::string percent_decode(std::string_view in) {
    std::string out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '%' && i + 2 < in.size()) {
            const int hi = hex_value(in[i + 1]);
            const int lo = hex_value(in[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += in[i];
    }
    return out;
}

// --- IPv6 -------------------------------------------------------------------

using ipv6_address = std::array<std::uint16_t, 8>;

/// Parses the text between `[` and `]`: up to eight hex pieces, one `::`
/// standing for a run of zero pieces, and an optional dotted IPv4 tail
/// filling the last two pieces (`::127.0.0.1`).
std::optional<ipv6_address> parse_ipv6(std::string_view in) {
    ipv6_address address{};
    std::size_t piece = 0;
    std::optional<std::size_t> compress;
    std::size_t p = 0;
    auto at = [&](std::size_t i) { return i < in.size() ? in[i] : '\0'; };
    const auto end = in.size();

    if (at(p) == ':') {
        if (at(p + 1) != ':') return std::nullopt;
        p += 2;
        compress = ++piece;
    }
    while (p < end) {
        if (piece == 8) return std::nullopt;
        if (in[p] == ':') {
            if (compress) return std::nullopt;
            ++p;
            compress = ++piece;
            continue;
        }
        unsigned value = 0;
        std::size_t length = 0;
        while (length < 4 && p < end && hex_value(in[p]) >= 0) {
            value = value * 16 + static_cast<unsigned>(hex_value(in[p]));
            ++p;
            ++length;
        }
        if (p < end && in[p] == '.') {
            // An IPv4 tail: re-read the digits just taken as hex, as decimal.
            if (length == 0 || piece > 6) return std::nullopt;
            p -= length;
            int numbers_seen = 0;
            while (p < end) {
                if (numbers_seen > 0) {
                    if (in[p] != '.' || numbers_seen >= 4) return std::nullopt;
                    ++p;
                }
                if (p >= end || !is_digit(in[p])) return std::nullopt;
                int part = -1;
                while (p < end && is_digit(in[p])) {
                    const int digit = in[p] - '0';
                    if (part == 0) return std::nullopt;  // no leading zeros
                    part = part < 0 ? digit : part * 10 + digit;
                    if (part > 255) return std::nullopt;
                    ++p;
                }
                address[piece] = static_cast<std::uint16_t>(address[piece] * 0x100 + part);
                ++numbers_seen;
                if (numbers_seen == 2 || numbers_seen == 4) ++piece;
            }
            if (numbers_seen != 4) return std::nullopt;
            break;
        }
        if (p < end && in[p] == ':') {
            ++p;
            if (p == end) return std::nullopt;
        } else if (p < end) {
            return std::nullopt;
        }
        address[piece] = static_cast<std::uint16_t>(value);
        ++piece;
    }
    if (compress) {
        // Move the pieces after `::` to the end; zeros fill the gap.
        std::size_t swaps = piece - *compress;
        piece = 7;
        while (piece != 0 && swaps > 0) {
            std::swap(address[piece], address[*compress + swaps - 1]);
            --piece;
            --swaps;
        }
    } else if (piece != 8) {
        return std::nullopt;
    }
    return address;
}

/// `[` hex pieces `]`, lower case without leading zeros, the first longest
/// run of two or more zero pieces written as `::`.
std::string serialize_ipv6(const ipv6_address& address) {
    std::size_t best_start = 8;
    std::size_t best_length = 1;
    for (std::size_t i = 0; i < 8;) {
        std::size_t j = i;
        while (j < 8 && address[j] == 0) ++j;
        if (j - i > best_length) {
            best_start = i;
            best_length = j - i;
        }
        i = j == i ? i + 1 : j;
    }
    constexpr std::string_view hex = "0123456789abcdef";
    std::string out = "[";
    for (std::size_t i = 0; i < 8; ++i) {
        if (i == best_start) {
            out += i == 0 ? "::" : ":";
            i += best_length - 1;
            continue;
        }
        const unsigned v = address[i];
        bool started = false;
        for (int shift = 12; shift >= 0; shift -= 4) {
            const unsigned nibble = (v >> static_cast<unsigned>(shift)) & 0xfU;
            if (nibble != 0 || started || shift == 0) {
                out += hex[nibble];
                started = true;
            }
        }
        if (i != 7) out += ':';
    }
    out += ']';
    return out;
}

// --- IPv4 -------------------------------------------------------------------

// Larger than any valid part, small enough not to overflow while parsing.
constexpr std::uint64_t ipv4_too_large = std::uint64_t{1} << 40;

/// One dotted part: decimal, `0x` hex or `0` octal; an empty part after the
/// prefix (`0x`) is 0. Values beyond 2^32 are clamped to `ipv4_too_large`.
std::optional<std::uint64_t> parse_ipv4_number(std::string_view in) {
    if (in.empty()) return std::nullopt;
    unsigned radix = 10;
    if (in.size() >= 2 && in[0] == '0' && (in[1] == 'x' || in[1] == 'X')) {
        in.remove_prefix(2);
        radix = 16;
    } else if (in.size() >= 2 && in[0] == '0') {
        in.remove_prefix(1);
        radix = 8;
    }
    std::uint64_t value = 0;
    for (const char c : in) {
        const int digit = hex_value(c);
        if (digit < 0 || static_cast<unsigned>(digit) >= radix) return std::nullopt;
        value = value * radix + static_cast<unsigned>(digit);
        if (value > ipv4_too_large) value = ipv4_too_large;
    }
    return value;
}

/// Splits on `.`, dropping one trailing empty part (`1.2.3.4.`).
std::vector<std::string_view> ipv4_parts(std::string_view in) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (;;) {
        const auto dot = in.find('.', start);
        parts.push_back(in.substr(start, dot == std::string_view::npos ? dot : dot - start));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    if (parts.size() > 1 && parts.back().empty()) parts.pop_back();
    return parts;
}

/// Whether the last label is a number (all digits, or one the IPv4 number
/// parser accepts), which makes the whole host an IPv4 address or invalid:
/// `192.168.257` is an address, `192.168.257.com` a domain.
bool ends_in_number(std::string_view domain) {
    const auto parts = ipv4_parts(domain);
    const std::string_view last = parts.back();
    if (last.empty()) return false;
    bool all_digits = true;
    for (const char c : last) all_digits = all_digits && is_digit(c);
    return all_digits || parse_ipv4_number(last).has_value();
}

/// One to four parts; all but the last are bytes, the last fills the
/// remaining bytes (`192.168.257` is 192.168.1.1, `256` is 0.0.1.0).
std::optional<std::uint32_t> parse_ipv4(std::string_view in) {
    const auto parts = ipv4_parts(in);
    if (parts.size() > 4) return std::nullopt;
    std::vector<std::uint64_t> numbers;
    for (const auto part : parts) {
        const auto n = parse_ipv4_number(part);
        if (!n) return std::nullopt;
        numbers.push_back(*n);
    }
    for (std::size_t i = 0; i + 1 < numbers.size(); ++i)
        if (numbers[i] > 255) return std::nullopt;
    const unsigned free_bits = 8 * static_cast<unsigned>(5 - numbers.size());
    if (numbers.back() >= (std::uint64_t{1} << free_bits)) return std::nullopt;
    std::uint64_t address = numbers.back();
    for (std::size_t i = 0; i + 1 < numbers.size(); ++i)
        address += numbers[i] << (8 * (3 - i));
    return static_cast<std::uint32_t>(address);
}

std::string serialize_ipv4(std::uint32_t address) {
    std::string out;
    for (int shift = 24; shift >= 0; shift -= 8) {
        out += std::to_string((address >> static_cast<unsigned>(shift)) & 0xffU);
        if (shift != 0) out += '.';
    }
    return out;
}

// --- domains ----------------------------------------------------------------

/// UTS #46 ToASCII with the URL Standard's settings (no STD3 rules, no
/// hyphen or DNS-length checks). Plain ASCII without an `xn--` label only
/// needs lower-casing, and skipping ICU for it keeps ASCII hosts that ICU
/// would flag (`a..b`, `-x-`) as browsers keep them.
std::optional<std::string> domain_to_ascii(std::string_view domain) {
    bool ascii = true;
    bool has_ace_label = false;
    for (std::size_t i = 0; i < domain.size(); ++i) {
        ascii = ascii && static_cast<unsigned char>(domain[i]) < 0x80;
        if ((i == 0 || domain[i - 1] == '.') && i + 4 <= domain.size()) {
            const auto label = domain.substr(i, 4);
            has_ace_label = has_ace_label || ((label[0] | 0x20) == 'x' && (label[1] | 0x20) == 'n' &&
                                              label[2] == '-' && label[3] == '-');
        }
    }
    std::string out;
    if (ascii && !has_ace_label) {
        out.reserve(domain.size());
        for (const char c : domain) out += to_lower(c);
    } else {
        auto converted = idna_to_ascii(domain, false, true);
        if (!converted) return std::nullopt;
        out = std::move(*converted);
    }
    if (out.empty()) return std::nullopt;
    for (const char c : out)
        if (is_forbidden_domain_code_point(c)) return std::nullopt;
    return out;
}

std::optional<std::string> parse_opaque_host(std::string_view in) {
    for (const char c : in)
        if (is_forbidden_host_code_point(c)) return std::nullopt;
    std::string out;
    append_encoded(out, in, encode_set::c0_control);
    return out;
}

}  // namespace

std::optional<std::string> parse_host(std::string_view input, bool opaque) {
    if (!input.empty() && input.front() == '[') {
        if (input.size() < 2 || input.back() != ']') return std::nullopt;
        const auto address = parse_ipv6(input.substr(1, input.size() - 2));
        if (!address) return std::nullopt;
        return serialize_ipv6(*address);
    }
    if (opaque) return parse_opaque_host(input);
    if (input.empty()) return std::nullopt;
    auto domain = domain_to_ascii(percent_decode(input));
    if (!domain) return std::nullopt;
    if (ends_in_number(*domain)) {
        const auto address = parse_ipv4(*domain);
        if (!address) return std::nullopt;
        return serialize_ipv4(*address);
    }
    return domain;
}

}  // namespace urlsift::detail::browser
