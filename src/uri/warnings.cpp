#include <urlsift/warnings.hpp>

#include <urlsift/normalize.hpp>
#include <urlsift/reference.hpp>

#include "text/ascii.hpp"
#include "uri/site.hpp"

#include <array>
#include <cstddef>
#include <optional>

namespace urlsift {

namespace {

// Longer than any scheme `default_port` knows; a longer scheme has no default.
constexpr std::size_t max_known_scheme = 16;

/// The scheme's default port, matched without regard to case (Section 4.1:
/// upper-case scheme letters are equivalent to lower case), or 0.
unsigned default_port_of(std::string_view scheme) noexcept {
    if (scheme.size() > max_known_scheme) return 0;
    std::array<char, max_known_scheme> lower{};
    for (std::size_t i = 0; i < scheme.size(); ++i) {
        const char c = scheme[i];
        lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return default_port(std::string_view(lower.data(), scheme.size()));
}

/// The port written in `site` (`userinfo@host:port`, the host possibly an
/// `[IPv6]` literal). Undefined when none is written, when it is empty
/// (which means the default) or when it is not a decimal number (which the
/// resolver rejects; it is no business of Section 7's).
std::optional<unsigned long> written_port(const detail::site_parts& p) noexcept {
    if (!p.host_ok() || !p.port || p.port->empty()) return std::nullopt;
    const detail::port_number n = detail::read_port(*p.port);
    if (n.ok()) return n.value;
    // Out of range stays out of range; a non-digit is the resolver's business.
    if (n.out_of_range && p.port->find_first_not_of("0123456789") == std::string_view::npos) return 65536UL;
    return std::nullopt;
}

/// Whether the site's userinfo has a password that is not empty.
bool has_password(const detail::site_parts& p) noexcept {
    if (!p.userinfo) return false;
    const auto colon = p.userinfo->find(':');
    return colon != std::string_view::npos && colon + 1 < p.userinfo->size();
}

/// Whether `url` holds `%0D` or `%0A`, hex digits in either case.
bool has_escaped_crlf(std::string_view url) noexcept {
    for (auto pct = url.find('%'); pct != std::string_view::npos && pct + 2 < url.size(); pct = url.find('%', pct + 1)) {
        const char d = url[pct + 2];
        if (url[pct + 1] == '0' && (d == 'd' || d == 'D' || d == 'a' || d == 'A')) return true;
    }
    return false;
}

}  // namespace

std::string_view to_string(url_warning w) noexcept {
    switch (w) {
    case url_warning::password_in_userinfo: return "password-in-userinfo";
    case url_warning::non_default_port: return "non-default-port";
    case url_warning::reserved_port: return "reserved-port";
    case url_warning::escaped_crlf: return "escaped-crlf";
    case url_warning::script_scheme: return "script-scheme";
    }
    return "unknown";
}

std::vector<url_warning> security_warnings(std::string_view url) { return security_warnings(url, parse_reference(url)); }

std::vector<url_warning> security_warnings(std::string_view url, const reference_parts& p) {
    std::vector<url_warning> found;
    const detail::site_parts site = p.site ? detail::split_site(*p.site) : detail::site_parts{};

    // Section 7: a password in the site component is strongly disrecommended
    // unless it is meant to be public, which a URL cannot tell us.
    if (p.site && has_password(site)) found.push_back(url_warning::password_in_userinfo);

    // Section 7: the unsafe URL names a port other than the one reserved for
    // its protocol, so the client reaches a server speaking something else;
    // a port in the reserved space (below 1024) deserves the most caution.
    if (p.scheme && p.site) {
        const unsigned fallback = default_port_of(*p.scheme);
        const auto port = written_port(site);
        if (fallback != 0 && port && *port != fallback) {
            found.push_back(url_warning::non_default_port);
            if (*port < 1024) found.push_back(url_warning::reserved_port);
        }
    }

    // Section 7: escaped delimiters such as CR and LF must not be unescaped
    // before transmission, or they can simulate an extra protocol operation.
    if (has_escaped_crlf(url)) found.push_back(url_warning::escaped_crlf);

    // Section 7: following such a URL performs an operation (runs its text)
    // rather than retrieving anything.
    if (is_script_url(url)) found.push_back(url_warning::script_scheme);
    return found;
}

bool is_script_url(std::string_view url) noexcept {
    return detail::starts_with_nocase(url, "javascript:") || detail::starts_with_nocase(url, "vbscript:");
}

}  // namespace urlsift
