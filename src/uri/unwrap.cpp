// Links rewritten by mail security gateways, read back as their targets
// (unwrap.hpp). Each gateway's rule is written where its decoder is, with
// the documentation it follows.
//
//   https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2F&data=..
//   \___________/\_______________________________/ \__________________________/
//   http or https    the gateway's host, exactly      its parameter: the target
//
// A link passes three gates before its target is returned: the wrapper is
// the gateway's (scheme, host, path), the target decodes as the format says,
// and the target is an absolute URL of a scheme the scanner recognizes.

#include <urlsift/reference.hpp>
#include <urlsift/unwrap.hpp>
#include <urlsift/warnings.hpp>

#include "uri/schemes.hpp"
#include "text/ascii.hpp"
#include "text/char_ref.hpp"
#include "text/icu_text.hpp"

#include <cstdint>

namespace urlsift {

std::string_view to_string(gateway_kind g) noexcept {
    switch (g) {
    case gateway_kind::safelinks: return "safelinks";
    case gateway_kind::proofpoint_v1: return "proofpoint-v1";
    case gateway_kind::proofpoint_v2: return "proofpoint-v2";
    case gateway_kind::proofpoint_v3: return "proofpoint-v3";
    case gateway_kind::google: return "google";
    }
    return "unknown";
}

namespace {

using detail::ends_with_nocase;
using detail::read_char_ref;
using detail::hex_value;
using detail::iequals;
using detail::is_alnum;
using detail::is_alpha;
using detail::starts_with_nocase;

constexpr char hex_digits[] = "0123456789ABCDEF";

void append_escape(std::string& out, unsigned char c) {
    out += '%';
    out += hex_digits[c >> 4];
    out += hex_digits[c & 15];
}

/// `%HH` becomes its byte; a `%` not followed by two hex digits is kept as
/// written, as the gateways' own decoders keep it. `+` stays `+`: the
/// targets are URLs, not form data.
void append_percent_decoded(std::string& out, std::string_view s) {
    out.reserve(out.size() + s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
}

/// Proofpoint's decoder reads character references after percent-decoding
/// (v1, v2): the rewriter took the link from HTML source, `&amp;` and all.
std::string decode_char_refs(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        std::uint32_t cp = 0;
        const std::size_t n = s[i] == '&' ? read_char_ref(s.substr(i), cp) : 0;
        if (n == 0) {
            out += s[i++];
            continue;
        }
        detail::append_utf8(out, cp);
        i += n;
    }
    return out;
}

/// The value of the first parameter named `name` (any case) in `query`
/// (`a=1&b=2`), still encoded; nullopt when there is none.
std::optional<std::string_view> query_parameter(std::string_view query, std::string_view name) {
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view param = query.substr(0, amp);
        const std::size_t eq = param.find('=');
        if (eq != std::string_view::npos && iequals(param.substr(0, eq), name)) return param.substr(eq + 1);
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return std::nullopt;
}

/// The third gate: `target` is an absolute URL of a scheme the scanner
/// recognizes (Section 4.1 and the scanner's table; a hierarchical one with
/// `//` and a site), and no script. What a URL cannot hold as it is (C0
/// controls, space, DEL, `"`, `<`, `>`: Section 2.4.3 of 001_*.txt; bytes
/// that are not UTF-8) is percent-encoded; UTF-8 is kept, as an IRI.
std::optional<std::string> accept_target(std::string_view target) {
    std::size_t colon = 0;
    while (colon < target.size() && colon <= detail::max_scheme_length &&
           detail::is_scheme_char(static_cast<unsigned char>(target[colon])))
        ++colon;
    if (colon == 0 || colon >= target.size() || target[colon] != ':' || !is_alpha(target[0])) return std::nullopt;
    const std::string_view rest = target.substr(colon + 1);
    const detail::scheme_kind kind = detail::classify_scheme(target.substr(0, colon), rest);
    if (kind == detail::scheme_kind::none || is_script_url(target)) return std::nullopt;
    if (kind == detail::scheme_kind::hierarchical) {
        if (!rest.starts_with("//")) return std::nullopt;
        const std::size_t site_end = rest.find_first_of("/?#", 2);
        if ((site_end == std::string_view::npos ? rest.size() : site_end) == 2) return std::nullopt;
    }
    std::string out;
    out.reserve(target.size());
    for (std::size_t i = 0; i < target.size();) {
        const auto c = static_cast<unsigned char>(target[i]);
        if (c >= 0x80) {
            std::size_t len = 1;
            if (detail::decode_utf8(target, i, len) < 0)
                append_escape(out, c);
            else
                out.append(target.substr(i, len));
            i += len;
            continue;
        }
        if (c <= 0x20 || c == 0x7F || c == '"' || c == '<' || c == '>')
            append_escape(out, c);
        else
            out += static_cast<char>(c);
        ++i;
    }
    return out;
}

/// A wrapper's site, when it is a plain host: no user information, no port
/// (a gateway's links carry neither, and `gateway@evil.example` is evil's).
std::optional<std::string_view> plain_host(const reference_parts& p) {
    if (!p.scheme || !(iequals(*p.scheme, "https") || iequals(*p.scheme, "http"))) return std::nullopt;
    if (!p.site || p.site->empty() || p.site->find_first_of("@:") != std::string_view::npos) return std::nullopt;
    return *p.site;
}

/// Labels of letters, digits and hyphens, none empty.
bool is_dotted_labels(std::string_view s) {
    if (s.empty() || s.front() == '.' || s.back() == '.') return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '.') {
            if (s[i - 1] == '.') return false;
        } else if (!is_alnum(s[i]) && s[i] != '-') {
            return false;
        }
    }
    return true;
}

bool is_country_code(std::string_view s) { return s.size() == 2 && is_alpha(s[0]) && is_alpha(s[1]); }

// --- Microsoft Safe Links ---------------------------------------------------
// Microsoft Defender for Office 365, "Safe Links": a link is rewritten to
// https://<region>.safelinks.protection.outlook.com/?url=<the original,
// percent-encoded>&data=..&sdata=..&reserved=0. Any host under
// safelinks.protection.outlook.com is Microsoft's, and under
// safelinks.protection.office365.us for its US government clouds (GCC
// High, DoD); the rest of the query is the tenant's and the signature's.
bool is_safelinks_host(std::string_view host) {
    for (const std::string_view suffix : {".safelinks.protection.outlook.com", ".safelinks.protection.office365.us"})
        if (host.size() > suffix.size() && ends_with_nocase(host, suffix) &&
            is_dotted_labels(host.substr(0, host.size() - suffix.size())))
            return true;
    return false;
}

std::optional<std::string> decode_safelinks(const reference_parts& p) {
    if (!(p.path.empty() || p.path == "/") || !p.query) return std::nullopt;
    const auto value = query_parameter(*p.query, "url");
    if (!value) return std::nullopt;
    std::string target;
    append_percent_decoded(target, *value);
    return accept_target(target);
}

// --- Proofpoint URL Defense ---------------------------------------------------
// Proofpoint's "How do I decode a rewritten URL?" and the decoder it
// publishes (URLDefenseDecode.py) define three versions, on the hosts
// urldefense.proofpoint.com and urldefense.com:
//   v1  /v1/url?u=<percent-encoded>&k=..        percent-decode, then
//                                               character references
//   v2  /v2/url?u=<encoded>&d=..&c=..           '-' stands for '%' and '_'
//                                               for '/'; then as v1
//   v3  /v3/__<url>__;<token>!<...>              see decode_proofpoint_v3
bool is_proofpoint_host(std::string_view host) {
    return iequals(host, "urldefense.proofpoint.com") || iequals(host, "urldefense.com");
}

std::optional<std::string> decode_proofpoint_query(const reference_parts& p, bool v2) {
    if (!p.query) return std::nullopt;
    const auto value = query_parameter(*p.query, "u");
    if (!value) return std::nullopt;
    std::string mapped;
    if (v2) {
        mapped.reserve(value->size());
        for (const char c : *value) mapped += c == '-' ? '%' : c == '_' ? '/' : c;
    }
    std::string target;
    append_percent_decoded(target, v2 ? std::string_view(mapped) : *value);
    return accept_target(decode_char_refs(target));
}

/// Base64url (RFC 4648 Section 5) without the padding Proofpoint leaves
/// off; a trailing `=` or two is allowed. nullopt on any other character or
/// a lone sextet at the end.
std::optional<std::string> decode_base64url(std::string_view s) {
    for (int pad = 0; pad < 2 && !s.empty() && s.back() == '='; ++pad) s.remove_suffix(1);
    if (s.size() % 4 == 1) return std::nullopt;
    std::string out;
    out.reserve(s.size() / 4 * 3 + 2);
    std::uint32_t bits = 0;
    int held = 0;
    for (const char c : s) {
        int v;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '-') v = 62;
        else if (c == '_') v = 63;
        else return std::nullopt;
        bits = (bits << 6) | static_cast<std::uint32_t>(v);
        held += 6;
        if (held >= 8) {
            held -= 8;
            out += static_cast<char>((bits >> held) & 0xFF);
        }
    }
    return out;
}

/// The characters a `**` run stands for: its length letter indexes
/// A-Z a-z 0-9 - _ from 2 (Proofpoint's decoder, v3 run mapping).
int run_length(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A' + 2;
    if (c >= 'a' && c <= 'z') return c - 'a' + 28;
    if (c >= '0' && c <= '9') return c - '0' + 54;
    if (c == '-') return 64;
    if (c == '_') return 65;
    return -1;
}

// v3: https://urldefense.com/v3/__<url>__;<token>!!<org>!<signature>$
// <url> is the target with some characters (those that would not survive
// mail: '%', '#', non-ASCII, ...) replaced by '*'; <token> is base64url of
// the replaced characters, in order, as UTF-8. After percent-decoding
// <url>, each '*' takes the token's next character (a code point, not a
// byte), and '**' followed by a length letter takes a run of them
// (run_length). <url> ends at the first '__;', the token at the first '!'.
// A scheme's '//' that lost a slash on the way ('https:/host') gets it back,
// as the published decoder does.
std::optional<std::string> decode_proofpoint_v3(std::string_view after_site) {
    constexpr std::string_view prefix = "/v3/__";
    if (!after_site.starts_with(prefix)) return std::nullopt;
    after_site.remove_prefix(prefix.size());
    const std::size_t end = after_site.find("__;");
    if (end == 0 || end == std::string_view::npos) return std::nullopt;
    std::string_view wrapped = after_site.substr(0, end);
    const std::string_view tail = after_site.substr(end + 3);
    const std::size_t bang = tail.find('!');
    if (bang == std::string_view::npos) return std::nullopt;
    const auto replaced = decode_base64url(tail.substr(0, bang));
    if (!replaced) return std::nullopt;
    // The token decodes as UTF-8 as a whole, or the link is not read.
    for (std::size_t i = 0, len = 1; i < replaced->size(); i += len)
        if (detail::decode_utf8(*replaced, i, len) < 0) return std::nullopt;

    std::string text;
    std::size_t colon = 0;
    while (colon < wrapped.size() && detail::is_scheme_char(static_cast<unsigned char>(wrapped[colon]))) ++colon;
    if (colon > 0 && colon + 2 < wrapped.size() && wrapped[colon] == ':' && wrapped[colon + 1] == '/' &&
        wrapped[colon + 2] != '/' &&
        detail::classify_scheme(wrapped.substr(0, colon), "//") == detail::scheme_kind::hierarchical) {
        text.append(wrapped.substr(0, colon + 2));
        text += '/';
        wrapped.remove_prefix(colon + 2);
    }
    std::string decoded;
    append_percent_decoded(decoded, wrapped);

    std::string target = std::move(text);
    target.reserve(target.size() + decoded.size() + replaced->size());
    std::size_t next = 0;  // the token's next unused byte, at a code point boundary
    const auto take = [&](int count) {
        const std::size_t from = next;
        for (; count > 0; --count) {
            if (next >= replaced->size()) return false;
            std::size_t len = 1;
            detail::decode_utf8(*replaced, next, len);
            next += len;
        }
        target.append(*replaced, from, next - from);
        return true;
    };
    for (std::size_t i = 0; i < decoded.size();) {
        if (decoded[i] != '*') {
            target += decoded[i++];
            continue;
        }
        if (i + 2 < decoded.size() && decoded[i + 1] == '*') {
            const int n = run_length(decoded[i + 2]);
            if (n < 0 || !take(n)) return std::nullopt;
            i += 3;
        } else {
            if (!take(1)) return std::nullopt;
            ++i;
        }
    }
    return accept_target(target);
}

// --- Google's redirector ------------------------------------------------------
// Links in Gmail, Google Docs and search results go through
// https://www.google.<tld>/url?q=<percent-encoded target>&sa=..&usg=.. (some
// write the target as url=). The host is google.com or google.<cc>,
// google.co.<cc>, google.com.<cc> for a country code <cc>, with or without
// www.; other subdomains are other services.
bool is_google_host(std::string_view host) {
    if (starts_with_nocase(host, "www.")) host.remove_prefix(4);
    if (!starts_with_nocase(host, "google.")) return false;
    host.remove_prefix(7);
    if (iequals(host, "com") || is_country_code(host)) return true;
    if (starts_with_nocase(host, "co.")) return is_country_code(host.substr(3));
    if (starts_with_nocase(host, "com.")) return is_country_code(host.substr(4));
    return false;
}

std::optional<std::string> decode_google(const reference_parts& p) {
    if (p.path != "/url" || !p.query) return std::nullopt;
    for (const std::string_view name : {"q", "url"}) {
        const auto value = query_parameter(*p.query, name);
        if (!value) continue;
        std::string target;
        append_percent_decoded(target, *value);
        if (auto accepted = accept_target(target)) return accepted;
    }
    return std::nullopt;
}

}  // namespace

bool is_gateway_host(std::string_view host) noexcept {
    return is_safelinks_host(host) || is_proofpoint_host(host) || is_google_host(host);
}

std::optional<unwrapped> unwrap_gateway(std::string_view url) {
    // The cheap test first: nearly every URL is no gateway's.
    if (!starts_with_nocase(url, "http")) return std::nullopt;
    const reference_parts p = parse_reference(url);
    const auto host = plain_host(p);
    if (!host) return std::nullopt;
    const auto found = [](std::optional<std::string> target, gateway_kind g) -> std::optional<unwrapped> {
        if (!target) return std::nullopt;
        return unwrapped{std::move(*target), g, 1};
    };
    if (is_safelinks_host(*host)) return found(decode_safelinks(p), gateway_kind::safelinks);
    if (is_proofpoint_host(*host)) {
        if (p.path == "/v1/url") return found(decode_proofpoint_query(p, false), gateway_kind::proofpoint_v1);
        if (p.path == "/v2/url") return found(decode_proofpoint_query(p, true), gateway_kind::proofpoint_v2);
        // v3 carries its target in the path, '?' and all: read the text
        // after the site as written.
        const auto after_site = url.substr(static_cast<std::size_t>(host->data() + host->size() - url.data()));
        return found(decode_proofpoint_v3(after_site), gateway_kind::proofpoint_v3);
    }
    if (is_google_host(*host)) return found(decode_google(p), gateway_kind::google);
    return std::nullopt;
}

std::optional<unwrapped> unwrap_gateways(std::string_view url, unsigned max_layers) {
    if (max_layers == 0) return std::nullopt;
    auto outer = unwrap_gateway(url);
    if (!outer) return std::nullopt;
    while (outer->layers < max_layers) {
        auto inner = unwrap_gateway(outer->url);
        if (!inner) break;
        outer->url = std::move(inner->url);
        ++outer->layers;
    }
    return outer;
}

}  // namespace urlsift
