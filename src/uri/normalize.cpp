// Normalization of URLs: Section 6 of 001_*.txt (host case, default port),
// Section 2.4.2 (escapes of unreserved characters are safe to decode), and
// the canonicalization of the browser draft 004_*.txt section 5 (IDNA,
// percent-encoding of non-ASCII, "/" for an empty http path).

#include <urlsift/normalize.hpp>
#include <urlsift/reference.hpp>

#include "text/ascii.hpp"
#include "text/icu_text.hpp"
#include "uri/path.hpp"
#include "uri/site.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace urlsift {

namespace {

using detail::hex_value;
using detail::to_lower;

constexpr char upper_hex[] = "0123456789ABCDEF";

// RFC 3986 section 2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~".
// (Section 2.3 of 001_*.txt also lists the marks "!*'()$,", but RFC 3986
// moved most of them to sub-delims, where decoding may change meaning.)
bool is_unreserved(unsigned char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

// Which bytes a component may not hold as they are and gets percent-encoded.
enum class component { userinfo, path, query, fragment };

// Section 2.4.3: controls, space and the delimiters `"<>` are excluded
// everywhere; bytes >= 0x80 are encoded as the browser draft does for
// UTF-8. In the path and fragment the browser draft also encodes "`", and
// in the path "{}" (the path percent-encode set).
bool must_encode(unsigned char c, component where) noexcept {
    if (c < 0x21 || c >= 0x7F || c == '"' || c == '<' || c == '>') return true;
    switch (where) {
    case component::path: return c == '`' || c == '{' || c == '}';
    case component::fragment: return c == '`';
    case component::userinfo:
    case component::query: return false;
    }
    return false;
}

void append_encoded(std::string& out, unsigned char c) {
    out += '%';
    out += upper_hex[c >> 4];
    out += upper_hex[c & 0xF];
}

// Whether appending `c` to `out` could make a new escape out of a "%" that
// starts none: a lone "%" (the browser mode keeps one) followed by "%41"
// would become "%A", and then "%Ab" an escape of its own on the next pass.
bool completes_escape(std::string_view out, unsigned char c) noexcept {
    if (hex_value(static_cast<char>(c)) < 0) return false;
    const std::size_t n = out.size();
    return (n >= 1 && out[n - 1] == '%') || (n >= 2 && out[n - 2] == '%' && hex_value(out[n - 1]) >= 0);
}

// Appends `s` with its escapes put in normal form: an escaped unreserved
// character is decoded (Section 2.4.2: "%7e" and "~" are interchangeable),
// other escapes keep their meaning and get upper-case hex, so "%2f" stays an
// escaped slash and "%0D%0A" is never decoded (Section 7). Bytes that cannot
// appear as they are get escaped. A "%" that starts no escape is left alone,
// and so is an escape whose decoding would give it one.
void append_normalized(std::string& out, std::string_view s, component where) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
            const auto decoded = static_cast<unsigned char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
            if (is_unreserved(decoded) && !completes_escape(out, decoded))
                out += static_cast<char>(decoded);
            else
                append_encoded(out, decoded);
            i += 2;
        } else if (must_encode(c, where)) {
            append_encoded(out, c);
        } else {
            out += static_cast<char>(c);
        }
    }
}

// RFC 3986 section 5.2.4 on `s[start..]` (a path from the root): "." and
// ".." segments removed, never climbing above the root.
void remove_dot_segments(std::string& s, std::size_t start) {
    const std::size_t n = s.size();
    if (start >= n || s[start] != '/') return;
    std::size_t r = start;
    std::size_t w = start;
    bool ends_in_slash = false;
    while (r < n) {
        const std::size_t seg_begin = r + 1;
        std::size_t seg_end = s.find('/', seg_begin);
        if (seg_end == std::string::npos) seg_end = n;
        const std::size_t len = seg_end - seg_begin;
        const char* seg = s.data() + seg_begin;
        if (len == 1 && seg[0] == '.') {
            ends_in_slash = true;
        } else if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            while (w > start && s[w - 1] != '/') --w;
            if (w > start) --w;
            ends_in_slash = true;
        } else {
            if (w != r) std::char_traits<char>::move(s.data() + w, s.data() + r, len + 1);
            w += len + 1;
            ends_in_slash = false;
        }
        r = seg_end;
    }
    if (ends_in_slash) s[w++] = '/';
    s.resize(w);
}

bool has_punycode_label(std::string_view host) noexcept {
    for (std::size_t i = 0; i + 4 <= host.size(); ++i) {
        if ((i == 0 || host[i - 1] == '.') && to_lower(host[i]) == 'x' && to_lower(host[i + 1]) == 'n' &&
            host[i + 2] == '-' && host[i + 3] == '-')
            return true;
    }
    return false;
}

// Appends the normal form of a reg-name or IPv4 host: lower case (Section 6:
// "host name is case independent"), escapes normalized, and a host that is
// not plain ASCII, or has punycode labels, through IDNA ToASCII (UTS #46),
// which also checks it. Escaped octets >= 0x80 are decoded first, since they
// are the UTF-8 of a name written in another script.
bool append_host(std::string& out, std::string_view host) {
    std::string decoded;
    decoded.reserve(host.size());
    bool needs_idna = false;
    for (std::size_t i = 0; i < host.size(); ++i) {
        const auto c = static_cast<unsigned char>(host[i]);
        if (c == '%' && i + 2 < host.size() && hex_value(host[i + 1]) >= 0 && hex_value(host[i + 2]) >= 0) {
            const auto d = static_cast<unsigned char>(hex_value(host[i + 1]) * 16 + hex_value(host[i + 2]));
            i += 2;
            if (d >= 0x80) {
                decoded += static_cast<char>(d);
                needs_idna = true;
            } else if (is_unreserved(d) && !completes_escape(decoded, d)) {
                decoded += to_lower(static_cast<char>(d));
            } else {
                append_encoded(decoded, d);
            }
        } else {
            if (c >= 0x80) needs_idna = true;
            decoded += to_lower(static_cast<char>(c));
        }
    }
    if (needs_idna || has_punycode_label(decoded)) {
        // A `%` left after decoding belongs to no DNS label; IDNA would
        // move it next to other characters, where it could read as an
        // escape the next time.
        if (decoded.find('%') != std::string::npos) return false;
        auto ascii = detail::idna_to_ascii(decoded);
        if (!ascii) return false;
        // UTS #46 without the STD3 rules maps some characters to ones no
        // host holds (U+00B8 becomes a space and a combining mark): the
        // result would not read back as the same host.
        for (const char c : *ascii)
            if (!detail::is_alnum(c) && c != '-' && c != '.' && c != '_') return false;
        out += *ascii;
    } else {
        out += decoded;
    }
    return true;
}

// Schemes whose empty path means "/" (RFC 3986 section 6.2.3 for http; the
// browser draft for its hierarchical schemes).
bool empty_path_is_root(std::string_view scheme) noexcept {
    return scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" || scheme == "ftp";
}

}  // namespace

unsigned default_port(std::string_view scheme) noexcept {
    static constexpr std::pair<std::string_view, unsigned> ports[] = {
        {"http", 80},   {"https", 443}, {"ws", 80},      {"wss", 443},   {"ftp", 21},    {"gopher", 70},
        {"telnet", 23}, {"nntp", 119},  {"news", 119},   {"snews", 563}, {"wais", 210},  {"prospero", 1525},
        {"ldap", 389},  {"ldaps", 636}, {"rtsp", 554},   {"imap", 143},  {"pop", 110},   {"sip", 5060},
        {"sips", 5061}, {"ssh", 22},    {"sftp", 22},    {"git", 9418},  {"irc", 6667},  {"ircs", 6697},
    };
    for (const auto& [name, port] : ports)
        if (name == scheme) return port;
    return 0;
}

namespace {

// Section 6 for a server's site: userinfo escapes, the host's case (and
// IDNA), and a default or empty port dropped. A failure's offset is in the
// site.
std::optional<failure> append_server_site(std::string& out, const detail::site_parts& parts, std::string_view scheme) {
    if (parts.userinfo) {
        append_normalized(out, *parts.userinfo, component::userinfo);
        out += '@';
    }
    if (parts.host.starts_with('[')) {
        // An IPv6 literal: case-folded and kept as written.
        for (const char c : parts.host) out += to_lower(c);
    } else if (!append_host(out, parts.host)) {
        return failure{error::invalid_host, parts.host_offset};
    }
    if (parts.port) {
        // Section 4.3.1: port = *digit; Section 6: the scheme's default
        // port, like an empty one, is the same as none.
        const auto port_offset = static_cast<std::size_t>(parts.port->data() - parts.host.data()) + parts.host_offset;
        const detail::port_number n = detail::read_port(*parts.port);
        if (!n.ok()) return failure{error::invalid_port, port_offset + n.bad_at};
        if (n.digits > 0 && n.value != default_port(scheme)) {
            out += ':';
            out += std::to_string(n.value);
        }
    }
    return std::nullopt;
}

}  // namespace

result<std::string> normalize(std::string_view url) {
    const reference_parts p = parse_reference(url);
    std::string out;
    out.reserve(url.size() + 8);

    std::string scheme;
    if (p.scheme) {
        // Section 4.1: "programs interpreting URLs should treat upper case
        // letters as equivalent to lower case in scheme names".
        for (std::size_t i = 0; i < p.scheme->size(); ++i) {
            const char c = (*p.scheme)[i];
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' ||
                            c == '-' || c == '.';
            if (!ok) return failure{error::invalid_scheme, i};
            scheme += to_lower(c);
        }
        out += scheme;
        out += ':';
    }

    if (p.site) {
        out += "//";
        const std::string_view site = *p.site;
        const auto site_offset = static_cast<std::size_t>(site.data() - url.data());
        const detail::site_parts parts = detail::split_site(site);
        if (!parts.host_ok()) return failure{error::invalid_host, site_offset + parts.bad_host_at};
        if (!parts.host.starts_with('[') && parts.host.find(':') != std::string_view::npos) {
            // Section 4.3.1: a registry-based site may hold `:`, and then it
            // has no host and port to normalize (`a::80` would lose a `:`
            // each time); it is kept as written.
            out += site;
        } else if (auto f = append_server_site(out, parts, scheme)) {
            f->offset += site_offset;
            return *f;
        }
    }

    const std::size_t path_start = out.size();
    append_normalized(out, p.path, component::path);
    // Dot segments only mean something in a hierarchical path (Section 5).
    if (p.site || p.path.starts_with('/')) remove_dot_segments(out, path_start);
    detail::keep_path_a_path(out, path_start, p.site.has_value());
    if (p.site && out.size() == path_start && empty_path_is_root(scheme)) out += '/';
    if (p.query) {
        out += '?';
        append_normalized(out, *p.query, component::query);
    }
    if (p.fragment) {
        out += '#';
        append_normalized(out, *p.fragment, component::fragment);
    }
    return out;
}

}  // namespace urlsift
