#pragma once
// Normalization of absolute URLs (Section 6; the browser draft's Section 5).

#include <urlsift/export.hpp>
#include <urlsift/result.hpp>

#include <string>
#include <string_view>

namespace urlsift {

/// Returns `url` in normal form: scheme and host lower-cased, the scheme's
/// default port dropped, percent-escapes of unreserved characters decoded and
/// the remaining hex upper-cased, a non-ASCII host converted to ASCII with
/// IDNA (UTS #46), non-ASCII in path, query and fragment percent-encoded as
/// UTF-8. Fails on a host IDNA rejects or a port that is not a number.
///
///     normalize("HTTP://www.XEROX.com:80/%7euser") == "http://www.xerox.com/~user"
///
/// Spec: Section 6 of 001_*.txt; 004_*.txt section 5.
[[nodiscard]] URLSIFT_EXPORT result<std::string> normalize(std::string_view url);

/// The default port of `scheme` (lower-case), or 0 when it has none.
URLSIFT_EXPORT unsigned default_port(std::string_view scheme) noexcept;

}  // namespace urlsift
