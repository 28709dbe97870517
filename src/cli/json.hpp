#pragma once
// Writing JSON strings safely: every control character escaped, invalid
// UTF-8 replaced by U+FFFD, so jsonl output is always valid.

#include <optional>
#include <string>
#include <string_view>

namespace urlsift::cli {

/// Appends `s` to `out` as a quoted JSON string.
void append_json_string(std::string& out, std::string_view s);

/// Appends `s` as a JSON string, or `null` when it is undefined.
inline void append_json_string(std::string& out, const std::optional<std::string_view>& s) {
    if (s)
        append_json_string(out, *s);
    else
        out += "null";
}

/// Appends the Section 7 warnings for the absolute URL `url` as a JSON
/// array of names: `["password-in-userinfo","reserved-port"]`, or `[]`.
void append_json_warnings(std::string& out, std::string_view url);

}  // namespace urlsift::cli
