#pragma once
// The site component (Section 3.2 and 4.3.1 of 001_*.txt), split once for
// every reader of it: the resolver's checks, normalization and the
// Section 7 warnings. (The browser mode reads the authority character by
// character, as the browser draft's state machine does, and never holds
// a site to split.)
//
//     site = [ [ userinfo ] "@" ] host [ ":" port ]      port = *digit
//
// The host may be an IP literal in brackets (RFC 3986 section 3.2.2),
// whose colons are not the port's.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace urlsift::detail {

struct site_parts {
    std::optional<std::string_view> userinfo; ///< before the last `@`; undefined without one
    std::string_view host;                    ///< an IP literal keeps its brackets
    std::optional<std::string_view> port;     ///< after the port's `:`, possibly empty; undefined without one
    std::size_t host_offset = 0;              ///< where `host` starts in the site
    /// An IP literal that is not closed, or is followed by something other
    /// than `:`: the index in the site where that goes wrong, else npos.
    std::size_t bad_host_at = static_cast<std::size_t>(-1);
    bool host_ok() const noexcept { return bad_host_at == static_cast<std::size_t>(-1); }
};

/// The index of the last `c` in `s`, or npos (memrchr: sites are read
/// for every reference the resolver sees).
inline std::size_t last_of(std::string_view s, char c) noexcept {
    const auto* p = static_cast<const char*>(memrchr(s.data(), c, s.size()));
    return p == nullptr ? std::string_view::npos : static_cast<std::size_t>(p - s.data());
}

inline site_parts split_site(std::string_view site) noexcept {
    site_parts p;
    if (const auto at = last_of(site, '@'); at != std::string_view::npos) {
        p.userinfo = site.substr(0, at);
        p.host_offset = at + 1;
    }
    const std::string_view hostport = site.substr(p.host_offset);
    p.host = hostport;
    if (!hostport.empty() && hostport[0] == '[') {
        const auto close = hostport.find(']');
        if (close == std::string_view::npos) {
            p.bad_host_at = p.host_offset;
            return p;
        }
        p.host = hostport.substr(0, close + 1);
        if (close + 1 < hostport.size()) {
            if (hostport[close + 1] != ':') {
                p.bad_host_at = p.host_offset + close + 1;
                return p;
            }
            p.port = hostport.substr(close + 2);
        }
    } else if (const auto colon = last_of(hostport, ':'); colon != std::string_view::npos) {
        p.host = hostport.substr(0, colon);
        p.port = hostport.substr(colon + 1);
    }
    return p;
}

/// A port's digits read as a number (Section 4.3.1: port = *digit).
struct port_number {
    std::uint32_t value = 0;
    std::size_t digits = 0;
    /// The index of the first byte that is no digit, 0 when the number
    /// passes 65535 (the whole port is wrong), else npos.
    std::size_t bad_at = static_cast<std::size_t>(-1);
    bool out_of_range = false; ///< the digits read so far pass 65535
    bool ok() const noexcept { return bad_at == static_cast<std::size_t>(-1); }
};

constexpr port_number read_port(std::string_view port) noexcept {
    port_number n;
    for (std::size_t i = 0; i < port.size(); ++i) {
        const char c = port[i];
        if (c < '0' || c > '9') {
            n.bad_at = i;
            return n;
        }
        n.value = n.value * 10 + static_cast<std::uint32_t>(c - '0');
        ++n.digits;
        if (n.value > 65535) {
            n.bad_at = 0;
            n.out_of_range = true;
            return n;
        }
    }
    return n;
}

}  // namespace urlsift::detail
