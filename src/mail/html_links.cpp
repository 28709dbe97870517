// Links in HTML parts: the HTML reader's declared links (src/formats/html.cpp),
// as mail lists them.

#include "mail/html_links.hpp"

#include "text/ascii.hpp"

#include <urlsift/document.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace urlsift::detail {

namespace {

/// Whether a value names no resource apart from the message itself: an
/// in-page anchor (`#top`), script (`javascript:`), inline data (`data:`),
/// or a body part or message of the mail (RFC 2392: `cid:`, `mid:`, an
/// image shown inline). A reader picking a link to open has nothing to
/// open there.
bool names_no_resource(std::string_view v) noexcept {
    return v.empty() || v.front() == '#' || starts_with_nocase(v, "javascript:") || starts_with_nocase(v, "data:") ||
           starts_with_nocase(v, "cid:") || starts_with_nocase(v, "mid:");
}

/// The length of the character gumbo reads at `s[i]`: a UTF-8 sequence, or
/// the maximal part of an ill-formed one that it replaces with one U+FFFD
/// (at least its first byte). Its decoder accepts what RFC 3629 allows:
/// no overlong form, surrogate or code point past U+10FFFF.
std::size_t gumbo_char_length(std::string_view s, std::size_t i) noexcept {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) return 1;
    // The range the second byte must fall in, and how many bytes follow.
    unsigned char low = 0x80, high = 0xBF;
    std::size_t follow = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
        follow = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        follow = 2;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        follow = 3;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else {
        return 1;
    }
    std::size_t n = 1;
    for (; n <= follow && i + n < s.size(); ++n) {
        const unsigned char c = byte(i + n);
        if (c < low || c > high) break;
        low = 0x80;
        high = 0xBF;
    }
    return n;
}

/// The line and column of each of `offsets` in `html` as gumbo counts them
/// (html_link's contract): lines end at LF, CR LF or a lone CR (HTML's
/// preprocessing of the input stream), a column is a character, and a tab
/// moves to the next multiple of gumbo's tab stop, 8.
std::vector<std::pair<std::uint64_t, std::uint64_t>> gumbo_positions(std::string_view html,
                                                                     const std::vector<std::uint64_t>& offsets) {
    constexpr std::uint64_t tab_stop = 8;
    std::vector<std::size_t> order(offsets.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    // Links come in tree order, which the tree builder can take out of source order.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
    std::vector<std::pair<std::uint64_t, std::uint64_t>> at(offsets.size());
    std::uint64_t line = 1, column = 1;
    std::size_t i = 0;
    for (const std::size_t k : order) {
        while (i < offsets[k] && i < html.size()) {
            const char c = html[i];
            if (c == '\r' && i + 1 < html.size() && html[i + 1] == '\n') {
                ++i;  // the LF ends the line
            } else if (c == '\n' || c == '\r') {
                ++line;
                column = 1;
                ++i;
            } else if (c == '\t') {
                column = (column / tab_stop + 1) * tab_stop;
                ++i;
            } else {
                ++column;
                i += gumbo_char_length(html, i);
            }
        }
        at[k] = {line, column};
    }
    return at;
}

}  // namespace

html_document read_html(std::string_view html, std::size_t parse_memory) {
    document_layout layout = read_document(html, document_format::html, parse_memory);
    html_document doc;
    doc.base = std::move(layout.base);
    doc.unread = std::move(layout.unread);
    std::vector<std::uint64_t> offsets;
    for (declared_link& l : layout.links) {
        if (names_no_resource(l.value)) continue;
        html_link link;
        link.value = std::move(l.value);
        link.attribute = l.attribute;
        // An `<a>`'s text (or an image-map `<area>`'s alt text) labels a
        // link; an image's alt text labels no link to another page.
        if (l.attribute == "href") link.anchor_text = std::move(l.text);
        link.offset = l.span.offset;
        offsets.push_back(link.offset);
        doc.links.push_back(std::move(link));
    }
    const auto at = gumbo_positions(html, offsets);
    for (std::size_t k = 0; k < doc.links.size(); ++k) std::tie(doc.links[k].line, doc.links[k].column) = at[k];
    return doc;
}

}  // namespace urlsift::detail
