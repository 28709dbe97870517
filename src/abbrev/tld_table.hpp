#pragma once
// The known top-level domains, generated from the Public Suffix List by
// scripts/gen-tld-table (DESIGN.md, "The scanner", Appendix F rules).

#include <span>
#include <string_view>

namespace urlsift::detail {

/// True when `label` is the top-level label of some Public Suffix List rule.
///
/// ASCII letters compare case-insensitively; internationalized TLDs are known
/// both as their A-label (`xn--p1ai`) and in UTF-8 (`рф`), the latter
/// compared byte for byte (only ASCII letters are folded: callers with
/// non-ASCII text should pass the A-label from IDNA). No allocation.
///
///     is_known_tld("COM") && is_known_tld("xn--p1ai") && !is_known_tld("md5")
bool is_known_tld(std::string_view label) noexcept;

/// Every entry, lower case, sorted by bytes (for tests and tools).
std::span<const std::string_view> known_tlds() noexcept;

}  // namespace urlsift::detail
