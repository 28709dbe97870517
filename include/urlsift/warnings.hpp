#pragma once
// What Section 7 (Security Considerations) asks a user to be careful about,
// found in an absolute URL.

#include <urlsift/export.hpp>
#include <urlsift/reference.hpp>
#include <string_view>
#include <vector>

namespace urlsift {

/// One thing about a URL that Section 7 tells its user to beware of. The
/// enumerators are listed, and reported, in this order.
enum class url_warning : unsigned char {
    password_in_userinfo, ///< `ftp://user:secret@host/`: a non-empty password in the site component
    non_default_port,     ///< `http://host:8080/`: an explicit port other than the scheme's default
    reserved_port,        ///< `gopher://host:25/`: such a port below 1024 (always with `non_default_port`)
    escaped_crlf,         ///< `%0D` or `%0A` anywhere in the URL
    script_scheme,        ///< `javascript:alert(1)`: a URL that runs code instead of naming a resource
};

/// The stable name of `w`, for jsonl, csv and messages:
/// "password-in-userinfo", "non-default-port", "reserved-port", "escaped-crlf",
/// "script-scheme".
URLSIFT_EXPORT std::string_view to_string(url_warning w) noexcept;

/// Returns the Section 7 warnings that apply to `url`, in enumerator order,
/// each at most once; most URLs get an empty vector (which allocates nothing).
///
/// Contract:
/// - `url` is an absolute URL as the resolver or the scanner reports it,
///   split with `parse_reference` (Appendix B). Nothing is decoded: a
///   percent-escape is judged as written, and the text is not modified.
/// - Section 7: a URL can make a client talk to a server of another
///   protocol, whose interpretation of the URL's content performs an
///   unexpected operation (the spec's example: a gopher URL aimed at an
///   SMTP server to send mail). The tell is a port other than the one the
///   scheme's protocol reserves, more so when it lies in the reserved range
///   below 1024. Hence `non_default_port`, and `reserved_port` on top of it
///   for 0-1023. Only schemes with a known default (`default_port` is not 0)
///   are judged; the scheme's case does not matter, an empty port (`host:`)
///   means the default, and leading zeros do not change the number.
/// - Section 7: escaped delimiters of a protocol, such as CR and LF for
///   line-based protocols, must reach the server still escaped, or they can
///   smuggle in an extra command. Hence `escaped_crlf` for `%0D`/`%0A` (hex
///   in either case) anywhere in the URL; callers must not decode them.
/// - Section 7: a password meant to be secret does not belong in a URL, and
///   least of all in its site component. Hence `password_in_userinfo` for a
///   `user:password@` with a non-empty password, in the site only (a mailto
///   address is no site).
/// - Section 7: a URL can make its client perform an unexpected operation.
///   One whose scheme is `javascript:` or `vbscript:` (in any case) names
///   no resource at all: following it runs its text as a program. Hence
///   `script_scheme`; the rewriter never writes one (`is_script_url`).
/// - A relative reference has no scheme, so it gets no port warnings; the
///   other checks still apply.
///
///     auto w = urlsift::security_warnings("gopher://mail.example:25/xHELO");
///     // w == {url_warning::non_default_port, url_warning::reserved_port}
///     urlsift::to_string(w[1]);  // "reserved-port"
///
/// Spec: Section 7 of 001_*.txt; default ports as in Section 6.
URLSIFT_EXPORT std::vector<url_warning> security_warnings(std::string_view url);
/// The same, for `url` already split by `parse_reference` into `parts`.
URLSIFT_EXPORT std::vector<url_warning> security_warnings(std::string_view url, const reference_parts& parts);

/// Whether `url` starts with a scheme that runs code (`javascript:`,
/// `vbscript:`, in any case): the test behind `url_warning::script_scheme`.
URLSIFT_EXPORT bool is_script_url(std::string_view url) noexcept;

}  // namespace urlsift
