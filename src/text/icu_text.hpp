#pragma once
// The few ICU services urlsift needs, behind a small private interface so
// that public headers never include ICU.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace urlsift::detail {

/// UTS #46 ToASCII of a domain name given in UTF-8 (nontransitional, as
/// browsers do; CheckBidi and CheckJoiners on). Returns nullopt when IDNA
/// reports an error. `strict_std3` applies the STD3 ASCII rules as well.
/// `lenient` ignores the hyphen, empty-label and length errors, as the URL
/// Standard's domain to ASCII does (CheckHyphens and VerifyDnsLength off).
std::optional<std::string> idna_to_ascii(std::string_view host, bool strict_std3 = false,
                                         bool lenient = false);

/// Decodes one UTF-8 code point at `s[i]`. Returns the code point and sets
/// `length`, or returns -1 with `length` 1 for a byte that does not start a
/// well-formed sequence (invalid UTF-8 is never part of a URL).
std::int32_t decode_utf8(std::string_view s, std::size_t i, std::size_t& length) noexcept;

/// `s` as valid UTF-8: each byte that starts no well-formed sequence becomes
/// U+FFFD. Returns `s` itself when it is valid (nearly always), else a view
/// of `scratch`. Text that JSON carries is made valid so before it is
/// stored: it reads back as it was written.
std::string_view valid_utf8(std::string_view s, std::string& scratch);

/// Appends code point `cp` (a Unicode scalar value) to `out` as UTF-8.
void append_utf8(std::string& out, std::uint32_t cp);

}  // namespace urlsift::detail
