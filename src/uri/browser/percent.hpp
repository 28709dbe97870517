#pragma once
// Percent-encoding for the browser resolver mode. 004_*.txt Sections 5.2,
// 5.4-5.6 leave the character lists as TODOs; the sets here are the ones
// browsers settled on (the URL Standard's percent-encode sets), which the
// web-platform-tests URL cases pin down.
//
//   c0_control     C0 controls, DEL and every non-ASCII byte
//   fragment       c0_control + space " < > `
//   query          c0_control + space " # < >
//   special_query  query + '                      (special schemes only)
//   path           query + ? ^ ` { }
//   userinfo       path + / : ; = @ [ \ ] |

#include "text/ascii.hpp"

#include <string>
#include <string_view>

namespace urlsift::detail::browser {

/// The percent-encode sets, each a superset of the ones listed above it in
/// the table at the top of this file (except `fragment`, which sits aside).
enum class encode_set { c0_control, fragment, query, special_query, path, userinfo };

/// Whether byte `c` is percent-encoded in `set`. Every byte of a multi-byte
/// UTF-8 sequence is >= 0x80 and so in every set: encoding byte by byte
/// equals UTF-8 percent-encoding code point by code point.
constexpr bool in_encode_set(unsigned char c, encode_set set) noexcept {
    if (c < 0x20 || c > 0x7e) return true;
    switch (set) {
    case encode_set::c0_control:
        return false;
    case encode_set::fragment:
        return c == ' ' || c == '"' || c == '<' || c == '>' || c == '`';
    case encode_set::query:
        return c == ' ' || c == '"' || c == '#' || c == '<' || c == '>';
    case encode_set::special_query:
        return in_encode_set(c, encode_set::query) || c == '\'';
    case encode_set::path:
        return in_encode_set(c, encode_set::query) || c == '?' || c == '^' || c == '`' || c == '{' ||
               c == '}';
    case encode_set::userinfo:
        return in_encode_set(c, encode_set::path) || c == '/' || c == ':' || c == ';' || c == '=' ||
               c == '@' || c == '[' || c == '\\' || c == ']' || c == '|';
    }
    return true;
}

/// Appends `c` to `out`, as `%XX` (upper-case hex) when it is in `set`.
inline void append_encoded(std::string& out, char c, encode_set set) {
    const auto byte = static_cast<unsigned char>(c);
    if (!in_encode_set(byte, set)) {
        out += c;
        return;
    }
    append_percent_escape(out, byte);
}

/// Appends `in` to `out`, percent-encoding the bytes in `set`.
inline void append_encoded(std::string& out, std::string_view in, encode_set set) {
    for (const char c : in) append_encoded(out, c, set);
}

}  // namespace urlsift::detail::browser
