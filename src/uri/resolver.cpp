// Resolving URL references against a base URL: Section 5.2 of 001_*.txt
// (rfc2396 mode), RFC 3986 section 5.2 (rfc3986 mode), and the browser draft
// 004_*.txt (browser mode, implemented in browser.cpp).
//
// The hot path is `resolver::resolve_to`: the base is parsed once in `make`,
// a reference is split and checked with table lookups, and the result is
// written straight into the caller's string. Dot segments are resolved as
// the path is appended (a ".." truncates what was written), so nothing is
// allocated beyond what `out` grows by.

#include <urlsift/normalize.hpp>
#include <urlsift/reference.hpp>
#include <urlsift/resolver.hpp>

#include "uri/browser/browser.hpp"
#include "uri/browser/host.hpp"
#include "text/ascii.hpp"
#include "uri/path.hpp"
#include "uri/site.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace urlsift {

namespace {

// --- character classes -------------------------------------------------------

// Bits of `byte_class`: what a byte means to the checker.
constexpr std::uint8_t bad_byte = 1;  // Section 2.4.3: control, space, '<', '>', '"'
constexpr std::uint8_t percent_byte = 2;
constexpr std::uint8_t hex_byte = 4;
constexpr std::uint8_t scheme_byte = 8;  // Section 4.1: alpha | digit | "+" | "-" | "."
constexpr std::uint8_t alpha_byte = 16;
constexpr std::uint8_t digit_byte = 32;

constexpr std::array<std::uint8_t, 256> make_byte_class() {
    std::array<std::uint8_t, 256> t{};
    for (int c = 0; c < 0x20; ++c) t[static_cast<std::size_t>(c)] |= bad_byte;
    t[0x7F] |= bad_byte;
    t[' '] |= bad_byte;
    t['<'] |= bad_byte;
    t['>'] |= bad_byte;
    t['"'] |= bad_byte;
    t['%'] |= percent_byte;
    for (int c = '0'; c <= '9'; ++c) t[static_cast<std::size_t>(c)] |= hex_byte | scheme_byte | digit_byte;
    for (int c = 'a'; c <= 'z'; ++c) t[static_cast<std::size_t>(c)] |= scheme_byte | alpha_byte;
    for (int c = 'A'; c <= 'Z'; ++c) t[static_cast<std::size_t>(c)] |= scheme_byte | alpha_byte;
    for (int c = 'a'; c <= 'f'; ++c) t[static_cast<std::size_t>(c)] |= hex_byte;
    for (int c = 'A'; c <= 'F'; ++c) t[static_cast<std::size_t>(c)] |= hex_byte;
    t['+'] |= scheme_byte;
    t['-'] |= scheme_byte;
    t['.'] |= scheme_byte;
    return t;
}

constexpr std::array<std::uint8_t, 256> byte_class = make_byte_class();

constexpr std::uint8_t class_of(char c) noexcept { return byte_class[static_cast<unsigned char>(c)]; }

// Where `part` (a view into `whole`) starts, in bytes from the start of `whole`.
std::size_t offset_in(std::string_view whole, std::string_view part) noexcept {
    return static_cast<std::size_t>(part.data() - whole.data());
}

// --- checking a reference ----------------------------------------------------

// Section 4.1: scheme = 1*( alpha | digit | "+" | "-" | "." ), and Section 5
// requires it to start with a letter so that "this:that" is not a scheme.
std::optional<failure> check_scheme(std::string_view scheme) noexcept {
    if ((class_of(scheme[0]) & alpha_byte) == 0) return failure{error::invalid_scheme, 0};
    for (std::size_t i = 1; i < scheme.size(); ++i)
        if ((class_of(scheme[i]) & scheme_byte) == 0) return failure{error::invalid_scheme, i};
    return std::nullopt;
}

// Section 4.3.1: site = [ [ userinfo ] "@" ] host [ ":" port ], port = *digit.
// Only the port is checked here; a reg-name authority may hold anything
// else the character check let through. `base_offset` is where the site
// starts in the text being checked.
std::optional<failure> check_site(std::string_view site, std::size_t base_offset) noexcept {
    const detail::site_parts p = detail::split_site(site);
    if (!p.host_ok()) return failure{error::invalid_host, base_offset + p.bad_host_at};
    if (!p.port) return std::nullopt;
    const detail::port_number n = detail::read_port(*p.port);
    if (n.ok()) return std::nullopt;
    const auto port_begin = static_cast<std::size_t>(p.port->data() - site.data());
    return failure{error::invalid_port, base_offset + port_begin + n.bad_at};
}

// Checks `text` (a reference or a base) as Sections 2.4 and 4 require:
// no excluded characters (Section 2.4.3; bytes >= 0x80 pass, for IRIs),
// every "%" starts an escape triplet (Section 2.4.1), the scheme follows
// Section 4.1 and the port is a number.
std::optional<failure> check_reference(std::string_view text, const reference_parts& parts) noexcept {
    const std::size_t n = text.size();
    std::size_t i = 0;
#if defined(__SSE2__)
    // Most references hold neither: skip 16 bytes at a time up to the first
    // byte that is bad or '%' (bytes <= 0x1F found by an unsigned minimum).
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
        const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
        const __m128i marks = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')), _mm_cmpeq_epi8(v, _mm_set1_epi8('>'))),
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)))));
        if (_mm_movemask_epi8(_mm_or_si128(control, marks)) != 0) break;
    }
#endif
    for (; i < n; ++i) {
        const std::uint8_t k = class_of(text[i]);
        if ((k & (bad_byte | percent_byte)) == 0) continue;
        if ((k & bad_byte) != 0) return failure{error::invalid_character, i};
        // Section 2.4.1: escaped = "%" hex hex.
        if (i + 2 >= n || (class_of(text[i + 1]) & hex_byte) == 0 || (class_of(text[i + 2]) & hex_byte) == 0)
            return failure{error::invalid_percent, i};
        i += 2;
    }
    if (parts.scheme)
        if (auto f = check_scheme(*parts.scheme)) return f;
    if (parts.site)
        if (auto f = check_site(*parts.site, offset_in(text, *parts.site))) return f;
    return std::nullopt;
}

// --- checking a base ---------------------------------------------------------

// RFC 3986 section 3.2.2: IPvFuture = "v" 1*HEXDIG "." 1*( unreserved /
// sub-delims / ":" ), here without its brackets.
bool is_ip_future(std::string_view s) noexcept {
    if (s.size() < 4 || (s[0] != 'v' && s[0] != 'V')) return false;
    std::size_t i = 1;
    while (i < s.size() && (class_of(s[i]) & hex_byte) != 0) ++i;
    if (i == 1 || i + 1 >= s.size() || s[i] != '.') return false;
    for (const char c : s.substr(i + 1))
        if ((class_of(c) & (alpha_byte | digit_byte)) == 0 &&
            std::string_view("-._~!$&'()*+,;=:").find(c) == std::string_view::npos)
            return false;
    return true;
}

// A base is where every relative reference lands, so a host no URL can have
// would make each result as bad as itself. References found in text are
// taken as they are written; a base is held to RFC 3986 section 3.2.2: an
// IP literal is an IPv6 address (read by the browser mode's parser of the
// addresses IPv6address describes) or IPvFuture. An empty host is left
// alone: the generic syntax has it (`http:///s//a/b/c` is a base of Roy
// Fielding's RFC 2396 tests).
std::optional<failure> check_base_host(std::string_view base, const reference_parts& parts) {
    if (!parts.site) return std::nullopt;
    const detail::site_parts site = detail::split_site(*parts.site);
    if (site.host.size() < 2 || site.host.front() != '[') return std::nullopt;
    const std::string_view literal = site.host.substr(1, site.host.size() - 2);
    if (is_ip_future(literal) || detail::browser::parse_host(site.host, false)) return std::nullopt;
    return failure{error::invalid_host, offset_in(base, *parts.site) + site.host_offset};
}

// --- dot segments ------------------------------------------------------------

// Appends the segments of `rest` (a relative path: segments separated by
// "/") to the path being built at `out[path_start..]`, resolving "." and
// ".." complete segments on the way. The path so far is a stack of "/seg"
// pieces; it is kept that way, so nothing is copied twice and nothing but
// `out` grows.
//
//     path so far "/b/c"  +  rest "../g/."  ->  "/b/g/"
//
// "." is dropped and ".." pops the segment before it; a path ending in
// "." or ".." ends in "/". The modes differ only when there is nothing
// left to pop:
//   keep_above_root (Section 5.2 step 6g, rfc2396): the ".." stays, as in
//     Appendix C's "../../../g" = "http://a/../g";
//   otherwise (RFC 3986 section 5.2.4): it is dropped, as in "http://a/g".
// A retained ".." is itself never popped (step 6e: "<segment> not equal
// to '..'"). Returns whether the path must end in "/"; the caller appends
// it after the last piece of input.
bool append_segments(std::string& out, std::size_t path_start, std::string_view rest, bool keep_above_root) {
    bool ends_in_slash = false;
    std::size_t i = 0;
    const std::size_t n = rest.size();
    for (;;) {
        std::size_t end = i;
        while (end < n && rest[end] != '/') ++end;
        const std::size_t len = end - i;
        const char* seg = rest.data() + i;
        if (len == 1 && seg[0] == '.') {
            // Steps 6c and 6d: "./" and a final "." are removed.
            ends_in_slash = true;
        } else if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            // Steps 6e and 6f: "<segment>/.." goes when <segment> is not "..".
            std::size_t top = out.size();
            while (top > path_start && out[top - 1] != '/') --top;
            const bool top_is_dotdot = out.size() - top == 2 && out[top] == '.' && out[top + 1] == '.';
            if (out.size() > path_start && !top_is_dotdot) {
                out.resize(top - 1);
                ends_in_slash = true;
            } else if (keep_above_root) {
                out += "/..";
                ends_in_slash = false;
            } else {
                ends_in_slash = true;
            }
        } else {
            out += '/';
            out.append(seg, len);
            ends_in_slash = false;
        }
        if (end >= n) break;
        i = end + 1;
    }
    return ends_in_slash;
}

// Whether `path` has a "." or ".." complete segment.
bool has_dot_segment(std::string_view path) noexcept {
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '.' || (i > 0 && path[i - 1] != '/')) continue;
        std::size_t j = i + 1;
        if (j < path.size() && path[j] == '.') ++j;
        if (j == path.size() || path[j] == '/') return true;
    }
    return false;
}

void append_query_fragment(std::string& out, std::optional<std::string_view> query,
                           std::optional<std::string_view> fragment) {
    if (query) {
        out += '?';
        out += *query;
    }
    if (fragment) {
        out += '#';
        out += *fragment;
    }
}

}  // namespace

// --- the resolver ------------------------------------------------------------

struct resolver::impl {
    std::string base;          ///< as given to make()
    std::string browser_base;  ///< browser mode: the canonical form of `base`
    resolve_options options;
    reference_parts parts;       ///< views into `base` (re-made on copy)
    std::string_view merge_dir;  ///< the base path without its last segment, nor the "/" before it
    bool merge_dir_clean = true; ///< `merge_dir` has no "." or ".." segment
    std::string_view document;   ///< `base` without its fragment (Section 3)
    bool hierarchical = false;   ///< a site, or a path from the root (Section 4.2)

    impl(std::string b, resolve_options o) : base(std::move(b)), options(o) { init(); }
    impl(const impl& other) : base(other.base), browser_base(other.browser_base), options(other.options) { init(); }
    impl& operator=(const impl&) = delete;

    void init() {
        parts = parse_reference(base);
        // Section 5.2 step 6a / RFC 3986 section 5.2.3: "all but the last
        // segment of the base URL's path". With a site and an empty path
        // that is the root (RFC 3986; Section 5.2 would give "http://ag"
        // for "g" against "http://a", putting the path into the site).
        const auto slash = parts.path.rfind('/');
        merge_dir = slash == std::string_view::npos ? std::string_view{} : parts.path.substr(0, slash);
        merge_dir_clean = !has_dot_segment(merge_dir);
        document = parts.fragment ? std::string_view(base).substr(0, offset_in(base, *parts.fragment) - 1)
                                  : std::string_view(base);
        hierarchical = parts.site.has_value() || parts.path.starts_with('/');
    }

    // Appends the path `path` (from the root) with its dot segments
    // resolved, starting a new path at the end of `out`.
    static void append_absolute_path(std::string& out, std::string_view path, bool keep_above_root) {
        if (!has_dot_segment(path)) {
            out += path;
            return;
        }
        const std::size_t path_start = out.size();
        if (append_segments(out, path_start, path.substr(1), keep_above_root)) out += '/';
    }

    // Section 5.2 step 6 / RFC 3986 section 5.2.3 and 5.2.4: the base's
    // directory and the reference's relative path, merged and resolved.
    void append_merged_path(std::string& out, std::string_view rel, bool keep_above_root) const {
        const std::size_t path_start = out.size();
        if (merge_dir_clean) {
            out += merge_dir;
            if (!has_dot_segment(rel)) {
                out += '/';
                out += rel;
                return;
            }
        } else if (!merge_dir.empty()) {
            append_segments(out, path_start, merge_dir.substr(1), keep_above_root);
        }
        if (append_segments(out, path_start, rel, keep_above_root)) out += '/';
    }

    std::optional<failure> resolve_rfc3986(std::string& out, std::string_view ref, const reference_parts& r) const;
    std::optional<failure> resolve_rfc2396(std::string& out, std::string_view ref, const reference_parts& r) const;
};

// RFC 3986 section 5.2.2, with one deliberate difference: a reference with a
// scheme comes back as written (no dot-segment removal), so that absolute
// URLs found in text are never altered without --normalize.
std::optional<failure> resolver::impl::resolve_rfc3986(std::string& out, std::string_view ref,
                                                       const reference_parts& r) const {
    if (r.scheme) {
        out += ref;
        return std::nullopt;
    }
    if (!r.site && !r.path.empty() && !r.path.starts_with('/') && !hierarchical)
        return failure{error::base_not_hierarchical, 0};
    out += *parts.scheme;
    out += ':';
    const std::optional<std::string_view>& site = r.site ? r.site : parts.site;
    if (site) {
        out += "//";
        out += *site;
    }
    const std::size_t path_start = out.size();
    std::optional<std::string_view> query = r.query;
    if (r.site) {
        if (!r.path.empty()) append_absolute_path(out, r.path, false);
    } else if (r.path.empty()) {
        // 5.2.2: an empty path keeps the base path, and the base query
        // unless the reference has its own.
        out += parts.path;
        if (!query) query = parts.query;
    } else if (r.path.starts_with('/')) {
        append_absolute_path(out, r.path, false);
    } else {
        append_merged_path(out, r.path, false);
    }
    // E.g. "..//g" against "foo:/a/b".
    detail::keep_path_a_path(out, path_start, site.has_value());
    append_query_fragment(out, query, r.fragment);
    return std::nullopt;
}

// Section 5.2 of 001_*.txt, steps 2-7.
std::optional<failure> resolver::impl::resolve_rfc2396(std::string& out, std::string_view ref,
                                                       const reference_parts& r) const {
    // Step 2: an empty path with no scheme, site or query refers to the
    // current document (Section 3): the base without its fragment.
    if (r.path.empty() && !r.scheme && !r.site && !r.query) {
        out += document;
        append_query_fragment(out, std::nullopt, r.fragment);
        return std::nullopt;
    }
    // Step 3: a scheme makes it absolute; we are done.
    if (r.scheme) {
        out += ref;
        return std::nullopt;
    }
    // Step 6 needs a base whose path has a hierarchy to merge with.
    if (!r.site && !r.path.starts_with('/') && !hierarchical) return failure{error::base_not_hierarchical, 0};
    out += *parts.scheme;
    out += ':';
    if (r.site) {
        // Step 4: a network-path; skip to step 7 with the path as written.
        out += "//";
        out += *r.site;
        out += r.path;
    } else {
        if (parts.site) {
            out += "//";
            out += *parts.site;
        }
        if (r.path.starts_with('/')) {
            // Step 5: an absolute-path; skip to step 7 (so "/./g" stays).
            out += r.path;
        } else {
            // Steps 6a-6h, keeping ".." above the root (step 6g's first option).
            const std::size_t path_start = out.size();
            append_merged_path(out, r.path, true);
            // As in rfc3986 mode: without a site, "/." keeps a leading "//"
            // from being read back as a site ("..//g" against "foo:/a/b").
            if (!parts.site && out.size() - path_start >= 2 && out[path_start + 1] == '/')
                out.insert(path_start, "/.");
        }
    }
    // Step 7: the query and fragment are the reference's (step 2).
    append_query_fragment(out, r.query, r.fragment);
    return std::nullopt;
}

resolver::resolver(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
resolver::resolver(resolver&&) noexcept = default;
resolver& resolver::operator=(resolver&&) noexcept = default;
resolver::resolver(const resolver& other) : impl_(std::make_unique<impl>(*other.impl_)) {}
resolver& resolver::operator=(const resolver& other) {
    if (this != &other) impl_ = std::make_unique<impl>(*other.impl_);
    return *this;
}
resolver::~resolver() = default;

result<resolver> resolver::make(std::string_view base, resolve_options options) {
    auto p = std::make_unique<impl>(std::string(base), options);
    if (options.mode == resolve_mode::browser) {
        auto canonical = detail::browser_resolve(base, std::nullopt);
        if (!canonical) return failure{canonical.error(), canonical.error_offset()};
        p->browser_base = std::move(*canonical);
        return resolver(std::move(p));
    }
    // Section 5.1/5.2: only the scheme is required of a base.
    if (!p->parts.scheme) return failure{error::base_not_absolute, 0};
    if (auto f = check_reference(p->base, p->parts)) return *f;
    if (auto f = check_base_host(p->base, p->parts)) return *f;
    if (options.normalize) {
        // A base whose host IDNA rejects would fail every result later.
        if (auto n = normalize(p->base); !n) return failure{n.error(), n.error_offset()};
    }
    return resolver(std::move(p));
}

std::optional<failure> resolver::resolve_to(std::string& out, std::string_view ref) const {
    const impl& b = *impl_;
    const std::size_t start = out.size();
    if (b.options.mode == resolve_mode::browser) {
        auto url = detail::browser_resolve(ref, std::string_view(b.browser_base));
        if (!url) return failure{url.error(), url.error_offset()};
        out += *url;
    } else {
        const reference_parts r = parse_reference(ref);
        if (auto f = check_reference(ref, r)) return f;
        const auto f = b.options.mode == resolve_mode::rfc2396 ? b.resolve_rfc2396(out, ref, r)
                                                                : b.resolve_rfc3986(out, ref, r);
        if (f) {
            out.resize(start);
            return f;
        }
    }
    if (b.options.normalize) {
        auto n = normalize(std::string_view(out).substr(start));
        if (!n) {
            out.resize(start);
            // The base was normalized in make(), so the trouble is in the
            // reference's own site when it has one.
            const auto r = parse_reference(ref);
            return failure{n.error(), r.site ? offset_in(ref, *r.site) : 0};
        }
        out.replace(start, std::string::npos, *n);
    }
    return std::nullopt;
}

result<std::string> resolver::resolve(std::string_view ref) const {
    std::string out;
    out.reserve(impl_->base.size() + ref.size() + 8);
    if (auto f = resolve_to(out, ref)) return *f;
    return out;
}

const std::string& resolver::base() const noexcept { return impl_->base; }
const resolve_options& resolver::options() const noexcept { return impl_->options; }

result<std::string> resolve(std::string_view base, std::string_view ref, resolve_options options) {
    auto r = resolver::make(base, options);
    if (!r) return failure{r.error(), r.error_offset()};
    return r->resolve(ref);
}

result<std::string> resolve_absolute(std::string_view ref, resolve_options options) {
    if (options.mode == resolve_mode::browser) {
        auto url = detail::browser_resolve(ref, std::nullopt);
        if (!url || !options.normalize) return url;
        return normalize(*url);
    }
    const reference_parts r = parse_reference(ref);
    if (auto f = check_reference(ref, r)) return *f;
    if (!r.scheme) return failure{error::base_not_absolute, 0};
    if (options.normalize) return normalize(ref);
    return std::string(ref);
}

std::optional<resolve_mode> parse_resolve_mode(std::string_view name) noexcept {
    if (name == "rfc3986") return resolve_mode::rfc3986;
    if (name == "rfc2396") return resolve_mode::rfc2396;
    if (name == "browser") return resolve_mode::browser;
    return std::nullopt;
}

std::string_view to_string(resolve_mode mode) noexcept {
    switch (mode) {
    case resolve_mode::rfc3986: return "rfc3986";
    case resolve_mode::rfc2396: return "rfc2396";
    case resolve_mode::browser: return "browser";
    }
    return "rfc3986";
}

// --- user-typed URLs ---------------------------------------------------------

namespace {

bool is_typed_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::string_view trim_typed(std::string_view s) noexcept {
    while (!s.empty() && is_typed_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_typed_space(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace

std::string strip_user_typed(std::string_view typed) {
    // Appendix E: the wrappers "<...>" and "\"...\"" and the prefix "URL:"
    // (with or without a space after it) are not part of the URL. They may
    // nest either way round: <URL:http://x/>, URL:<http://x/>, "<...>".
    std::string_view s = trim_typed(typed);
    for (bool stripped = true; stripped;) {
        stripped = false;
        if (s.size() >= 2 && ((s.front() == '<' && s.back() == '>') || (s.front() == '"' && s.back() == '"'))) {
            s = trim_typed(s.substr(1, s.size() - 2));
            stripped = true;
        }
        if (detail::starts_with_url_prefix(s)) {
            s = trim_typed(s.substr(4));
            stripped = true;
        }
    }
    // Appendix E: "software that accepts user-typed URLs should attempt to
    // recognize and strip both delimiters and embedded whitespace".
    std::string out;
    out.reserve(s.size());
    for (const char c : s)
        if (!is_typed_space(c)) out += c;
    return out;
}

}  // namespace urlsift
