#pragma once
// URLs in mail headers, read by each header's own syntax rather than by
// the prose scanner.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::detail {

/// How a header carries URLs, by its name (case-insensitive).
enum class header_kind {
    none,        ///< not a URL header; never scanned (trace, identity, prose)
    angle_list,  ///< List-* (RFC 2369) and Archived-At (RFC 5064): `<URL>` items
    location,    ///< Content-Base (RFC 2110), Content-Location (RFC 2557): one URL
};

header_kind url_header_kind(std::string_view name) noexcept;

/// Appends to `out` the URLs of a header of `kind` whose (unfolded) value is
/// `value`: for a list, what each `<...>` holds outside comments; for a
/// location, the value unquoted. Whitespace inside a URL (left by folding)
/// is removed; each URL is written in URI form (uri_form). Empty items, and
/// values that name no host they could name, are dropped. At most `limit`
/// URLs are appended (a header's URLs live until its message ends); the
/// return value counts all the value holds.
std::size_t header_url_values(header_kind kind, std::string_view value, std::vector<std::string>& out,
                              std::size_t limit = SIZE_MAX);

}  // namespace urlsift::detail
