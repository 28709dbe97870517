#include <urlsift/reference.hpp>

#include <array>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace urlsift {

namespace {

// What ends each group of Appendix B's expression, as bits of a byte table:
// this runs once per reference on the resolver's hot path, so the search
// takes 16 bytes at a time where it can and the table for the rest.
constexpr unsigned char ends_scheme = 1;  // group 2 ends at one of ":/?#"
constexpr unsigned char ends_site = 2;    // group 4 ends at one of "/?#"
constexpr unsigned char ends_path = 4;    // group 5 ends at one of "?#"

constexpr std::array<unsigned char, 256> make_delimiters() {
    std::array<unsigned char, 256> t{};
    t[':'] = ends_scheme;
    t['/'] = ends_scheme | ends_site;
    t['?'] = ends_scheme | ends_site | ends_path;
    t['#'] = ends_scheme | ends_site | ends_path;
    return t;
}
constexpr std::array<unsigned char, 256> delimiters = make_delimiters();

// The first position at or after `i` whose byte is one of `bits`, or the end.
std::size_t scan_to(std::string_view s, std::size_t i, unsigned char bits) noexcept {
    const std::size_t n = s.size();
#if defined(__SSE2__)
    // 16 bytes at a time: `?` and `#` end every part, `/` a scheme or a
    // site, `:` a scheme.
    const bool slash = (bits & (ends_scheme | ends_site)) != 0;
    const bool colon = (bits & ends_scheme) != 0;
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')), _mm_cmpeq_epi8(v, _mm_set1_epi8('#')));
        if (slash) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
        if (colon) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(':')));
        if (const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit)); mask != 0)
            return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
#endif
    while (i < n && (delimiters[static_cast<unsigned char>(s[i])] & bits) == 0) ++i;
    return i;
}

}  // namespace

reference_parts parse_reference(std::string_view ref) noexcept {
    reference_parts p;
    const std::size_t n = ref.size();
    // Groups 1-2: a scheme is a non-empty run of characters other than
    // ":/?#" ended by ":". (Section 4.1 narrows the characters; the
    // expression does not, and validation belongs to the resolver.)
    std::size_t i = scan_to(ref, 0, ends_scheme);
    if (i < n && i > 0 && ref[i] == ':') {
        p.scheme = ref.substr(0, i);
        ++i;
    } else {
        i = 0;
    }
    // Groups 3-4: "//" then the site, up to the next "/", "?" or "#".
    if (n - i >= 2 && ref[i] == '/' && ref[i + 1] == '/') {
        const std::size_t end = scan_to(ref, i + 2, ends_site);
        p.site = ref.substr(i + 2, end - i - 2);
        i = end;
    }
    // Group 5: the path, up to "?" or "#"; always defined.
    const std::size_t path_end = scan_to(ref, i, ends_path);
    p.path = ref.substr(i, path_end - i);
    i = path_end;
    // Groups 6-7: "?" then the query, up to "#".
    if (i < n && ref[i] == '?') {
        const std::size_t hash = ref.find('#', i + 1);
        const std::size_t end = hash == std::string_view::npos ? n : hash;
        p.query = ref.substr(i + 1, end - i - 1);
        i = end;
    }
    // Groups 8-9: "#" then the fragment, to the end.
    if (i < n) p.fragment = ref.substr(i + 1);
    return p;
}

void recompose_to(std::string& out, const reference_parts& parts) {
    if (parts.scheme) {
        out += *parts.scheme;
        out += ':';
    }
    if (parts.site) {
        out += "//";
        out += *parts.site;
    }
    out += parts.path;
    if (parts.query) {
        out += '?';
        out += *parts.query;
    }
    if (parts.fragment) {
        out += '#';
        out += *parts.fragment;
    }
}

std::string recompose(const reference_parts& parts) {
    std::string out;
    out.reserve((parts.scheme ? parts.scheme->size() + 1 : 0) + (parts.site ? parts.site->size() + 2 : 0) +
                parts.path.size() + (parts.query ? parts.query->size() + 1 : 0) +
                (parts.fragment ? parts.fragment->size() + 1 : 0));
    recompose_to(out, parts);
    return out;
}

}  // namespace urlsift
