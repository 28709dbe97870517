#pragma once
// Links rewritten by mail security gateways (Microsoft Safe Links,
// Proofpoint URL Defense, Google's redirector), read back as the URL they
// point to.

#include <urlsift/export.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace urlsift {

/// The gateways whose links `unwrap_gateway` reads.
enum class gateway_kind {
    safelinks,     ///< `https://nam02.safelinks.protection.outlook.com/?url=<pct>&data=..`
    proofpoint_v1, ///< `https://urldefense.proofpoint.com/v1/url?u=<pct>&k=..`
    proofpoint_v2, ///< `https://urldefense.proofpoint.com/v2/url?u=<'-' for '%', '_' for '/'>&d=..`
    proofpoint_v3, ///< `https://urldefense.com/v3/__<url with * for some chars>__;<base64url>!!..`
    google,        ///< `https://www.google.com/url?q=<pct>` (or `url=`; any `google.<cc>` host)
};

/// "safelinks", "proofpoint-v1", "proofpoint-v2", "proofpoint-v3", "google".
URLSIFT_EXPORT std::string_view to_string(gateway_kind g) noexcept;

/// A gateway's link read back: the URL it sends its visitor to.
struct unwrapped {
    std::string url;      ///< the target, absolute
    gateway_kind gateway; ///< the outermost gateway
    unsigned layers = 1;  ///< gateways removed: more than 1 for a wrapped wrapper
};

/// Whether `host` (no brackets, no port) is one of the gateways' own
/// hosts, in any case: the test `unwrap_gateway` makes first, for a caller
/// that has the host already and wants to skip the rest for other hosts.
URLSIFT_EXPORT bool is_gateway_host(std::string_view host) noexcept;

/// Reads `url` as one gateway's link and returns its target, or nullopt when
/// `url` is no such link or its target cannot be read.
///
/// Contract:
/// - The gateway is known by its scheme (http or https), its host (exactly
///   the service's, in any case: `safelinks.protection.outlook.com.evil.example`
///   is not Safe Links) and its path. A site with user information or a
///   port is not taken for a gateway.
/// - The target must come out an absolute URL whose scheme urlsift's scanner
///   recognizes (`http://`, `mailto:`, ...), and not a script
///   (`javascript:`); anything else is left alone.
/// - Decoding is done once, as the gateway encoded: a target that was itself
///   percent-encoded (`%2520`) keeps its escapes (`%20`). Bytes a URL cannot
///   hold as they are (controls, space, bytes that are not UTF-8) are
///   percent-encoded in the result; well-formed UTF-8 is kept, as in an IRI.
/// - Never throws on bad input; the work is linear in `url.size()`.
///
///     auto u = urlsift::unwrap_gateway(
///         "https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2F&data=05");
///     // u->url == "https://example.org/", u->gateway == gateway_kind::safelinks
///
/// Formats: the gateways' own documentation (see src/uri/unwrap.cpp).
URLSIFT_EXPORT std::optional<unwrapped> unwrap_gateway(std::string_view url);

/// Unwraps `url` again and again while its target is another gateway's link,
/// at most `max_layers` times (a link wrapped by two services, or forwarded
/// through both). `layers` tells how many were removed; nullopt when `url` is
/// no gateway's link.
///
///     // Safe Links around a Proofpoint v2 link around https://example.org/
///     urlsift::unwrap_gateways(link)->layers == 2
URLSIFT_EXPORT std::optional<unwrapped> unwrap_gateways(std::string_view url, unsigned max_layers = 4);

}  // namespace urlsift
