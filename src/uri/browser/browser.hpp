#pragma once
// The browser resolver mode: parsing and canonicalization as browsers do it
// (004_*.txt, whose behaviour the web-platform-tests URL cases pin down).

#include <urlsift/result.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace urlsift::detail {

/// Parses `input` against `base` (none: `input` must be absolute) the way a
/// browser does: control characters and spaces trimmed at both ends, tab and
/// newline removed, `\` read as `/` in hierarchical schemes, same-scheme
/// references (`http:g`) relative for them; then returns the canonical
/// serialization (lower-case host, IDNA, default port dropped, percent-
/// encoding of what browsers encode, empty path as `/`).
result<std::string> browser_resolve(std::string_view input, std::optional<std::string_view> base);

}  // namespace urlsift::detail
