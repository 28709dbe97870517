// Markdown documents (CommonMark with GitHub's tables, strikethrough and
// task lists), read with md4c. Sections are the CommonMark Spec's (0.30).
//
// md4c hands text and most link destinations as pointers into the
// document, so their spans come free. Where it hands a copy instead (the
// destination holds a backslash escape, an `&` or a NUL, or is empty), the
// destination is found again in the source and kept only when its bytes
// decode to the same value; else the link is not exact.

#include "formats/html_reader.hpp"
#include "formats/readers.hpp"
#include "text/ascii.hpp"
#include "text/char_ref.hpp"
#include "text/icu_text.hpp"

#include <md4c.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::detail {
namespace {

constexpr std::size_t npos = std::string_view::npos;
constexpr std::uint32_t replacement_character = 0xFFFD;

// Section 2.1: ASCII punctuation, what a backslash escapes (Section 2.4).
constexpr bool is_ascii_punctuation(char c) noexcept {
    return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

constexpr bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

constexpr bool is_whitespace(char c) noexcept {
    return is_blank(c) || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

constexpr bool is_hex_digit(char c) noexcept { return hex_value(c) >= 0; }

struct named_entity {
    std::string_view name;
    std::uint32_t code_point;
};

// HTML 4.01's 252 character entity references (section 24), with the code
// points HTML5 gives them (`lang` and `rang` moved to U+27E8 and U+27E9),
// and HTML5's `apos` and upper-case `AMP`, `COPY`, `GT`, `LT`, `QUOT`,
// `REG`. HTML5 names outside this set are left as written. Sorted by name
// in byte order, for binary search.
constexpr named_entity named_entities[] = {
    {"AElig", 0xC6}, {"AMP", 0x26}, {"Aacute", 0xC1}, {"Acirc", 0xC2}, {"Agrave", 0xC0}, {"Alpha", 0x391},
    {"Aring", 0xC5}, {"Atilde", 0xC3}, {"Auml", 0xC4}, {"Beta", 0x392}, {"COPY", 0xA9}, {"Ccedil", 0xC7},
    {"Chi", 0x3A7}, {"Dagger", 0x2021}, {"Delta", 0x394}, {"ETH", 0xD0}, {"Eacute", 0xC9}, {"Ecirc", 0xCA},
    {"Egrave", 0xC8}, {"Epsilon", 0x395}, {"Eta", 0x397}, {"Euml", 0xCB}, {"GT", 0x3E}, {"Gamma", 0x393},
    {"Iacute", 0xCD}, {"Icirc", 0xCE}, {"Igrave", 0xCC}, {"Iota", 0x399}, {"Iuml", 0xCF}, {"Kappa", 0x39A},
    {"LT", 0x3C}, {"Lambda", 0x39B}, {"Mu", 0x39C}, {"Ntilde", 0xD1}, {"Nu", 0x39D}, {"OElig", 0x152},
    {"Oacute", 0xD3}, {"Ocirc", 0xD4}, {"Ograve", 0xD2}, {"Omega", 0x3A9}, {"Omicron", 0x39F}, {"Oslash", 0xD8},
    {"Otilde", 0xD5}, {"Ouml", 0xD6}, {"Phi", 0x3A6}, {"Pi", 0x3A0}, {"Prime", 0x2033}, {"Psi", 0x3A8},
    {"QUOT", 0x22}, {"REG", 0xAE}, {"Rho", 0x3A1}, {"Scaron", 0x160}, {"Sigma", 0x3A3}, {"THORN", 0xDE},
    {"Tau", 0x3A4}, {"Theta", 0x398}, {"Uacute", 0xDA}, {"Ucirc", 0xDB}, {"Ugrave", 0xD9}, {"Upsilon", 0x3A5},
    {"Uuml", 0xDC}, {"Xi", 0x39E}, {"Yacute", 0xDD}, {"Yuml", 0x178}, {"Zeta", 0x396}, {"aacute", 0xE1},
    {"acirc", 0xE2}, {"acute", 0xB4}, {"aelig", 0xE6}, {"agrave", 0xE0}, {"alefsym", 0x2135}, {"alpha", 0x3B1},
    {"amp", 0x26}, {"and", 0x2227}, {"ang", 0x2220}, {"apos", 0x27}, {"aring", 0xE5}, {"asymp", 0x2248},
    {"atilde", 0xE3}, {"auml", 0xE4}, {"bdquo", 0x201E}, {"beta", 0x3B2}, {"brvbar", 0xA6}, {"bull", 0x2022},
    {"cap", 0x2229}, {"ccedil", 0xE7}, {"cedil", 0xB8}, {"cent", 0xA2}, {"chi", 0x3C7}, {"circ", 0x2C6},
    {"clubs", 0x2663}, {"cong", 0x2245}, {"copy", 0xA9}, {"crarr", 0x21B5}, {"cup", 0x222A}, {"curren", 0xA4},
    {"dArr", 0x21D3}, {"dagger", 0x2020}, {"darr", 0x2193}, {"deg", 0xB0}, {"delta", 0x3B4}, {"diams", 0x2666},
    {"divide", 0xF7}, {"eacute", 0xE9}, {"ecirc", 0xEA}, {"egrave", 0xE8}, {"empty", 0x2205}, {"emsp", 0x2003},
    {"ensp", 0x2002}, {"epsilon", 0x3B5}, {"equiv", 0x2261}, {"eta", 0x3B7}, {"eth", 0xF0}, {"euml", 0xEB},
    {"euro", 0x20AC}, {"exist", 0x2203}, {"fnof", 0x192}, {"forall", 0x2200}, {"frac12", 0xBD}, {"frac14", 0xBC},
    {"frac34", 0xBE}, {"frasl", 0x2044}, {"gamma", 0x3B3}, {"ge", 0x2265}, {"gt", 0x3E}, {"hArr", 0x21D4},
    {"harr", 0x2194}, {"hearts", 0x2665}, {"hellip", 0x2026}, {"iacute", 0xED}, {"icirc", 0xEE}, {"iexcl", 0xA1},
    {"igrave", 0xEC}, {"image", 0x2111}, {"infin", 0x221E}, {"int", 0x222B}, {"iota", 0x3B9}, {"iquest", 0xBF},
    {"isin", 0x2208}, {"iuml", 0xEF}, {"kappa", 0x3BA}, {"lArr", 0x21D0}, {"lambda", 0x3BB}, {"lang", 0x27E8},
    {"laquo", 0xAB}, {"larr", 0x2190}, {"lceil", 0x2308}, {"ldquo", 0x201C}, {"le", 0x2264}, {"lfloor", 0x230A},
    {"lowast", 0x2217}, {"loz", 0x25CA}, {"lrm", 0x200E}, {"lsaquo", 0x2039}, {"lsquo", 0x2018}, {"lt", 0x3C},
    {"macr", 0xAF}, {"mdash", 0x2014}, {"micro", 0xB5}, {"middot", 0xB7}, {"minus", 0x2212}, {"mu", 0x3BC},
    {"nabla", 0x2207}, {"nbsp", 0xA0}, {"ndash", 0x2013}, {"ne", 0x2260}, {"ni", 0x220B}, {"not", 0xAC},
    {"notin", 0x2209}, {"nsub", 0x2284}, {"ntilde", 0xF1}, {"nu", 0x3BD}, {"oacute", 0xF3}, {"ocirc", 0xF4},
    {"oelig", 0x153}, {"ograve", 0xF2}, {"oline", 0x203E}, {"omega", 0x3C9}, {"omicron", 0x3BF}, {"oplus", 0x2295},
    {"or", 0x2228}, {"ordf", 0xAA}, {"ordm", 0xBA}, {"oslash", 0xF8}, {"otilde", 0xF5}, {"otimes", 0x2297},
    {"ouml", 0xF6}, {"para", 0xB6}, {"part", 0x2202}, {"permil", 0x2030}, {"perp", 0x22A5}, {"phi", 0x3C6},
    {"pi", 0x3C0}, {"piv", 0x3D6}, {"plusmn", 0xB1}, {"pound", 0xA3}, {"prime", 0x2032}, {"prod", 0x220F},
    {"prop", 0x221D}, {"psi", 0x3C8}, {"quot", 0x22}, {"rArr", 0x21D2}, {"radic", 0x221A}, {"rang", 0x27E9},
    {"raquo", 0xBB}, {"rarr", 0x2192}, {"rceil", 0x2309}, {"rdquo", 0x201D}, {"real", 0x211C}, {"reg", 0xAE},
    {"rfloor", 0x230B}, {"rho", 0x3C1}, {"rlm", 0x200F}, {"rsaquo", 0x203A}, {"rsquo", 0x2019}, {"sbquo", 0x201A},
    {"scaron", 0x161}, {"sdot", 0x22C5}, {"sect", 0xA7}, {"shy", 0xAD}, {"sigma", 0x3C3}, {"sigmaf", 0x3C2},
    {"sim", 0x223C}, {"spades", 0x2660}, {"sub", 0x2282}, {"sube", 0x2286}, {"sum", 0x2211}, {"sup", 0x2283},
    {"sup1", 0xB9}, {"sup2", 0xB2}, {"sup3", 0xB3}, {"supe", 0x2287}, {"szlig", 0xDF}, {"tau", 0x3C4},
    {"there4", 0x2234}, {"theta", 0x3B8}, {"thetasym", 0x3D1}, {"thinsp", 0x2009}, {"thorn", 0xFE},
    {"tilde", 0x2DC}, {"times", 0xD7}, {"trade", 0x2122}, {"uArr", 0x21D1}, {"uacute", 0xFA}, {"uarr", 0x2191},
    {"ucirc", 0xFB}, {"ugrave", 0xF9}, {"uml", 0xA8}, {"upsih", 0x3D2}, {"upsilon", 0x3C5}, {"uuml", 0xFC},
    {"weierp", 0x2118}, {"xi", 0x3BE}, {"yacute", 0xFD}, {"yen", 0xA5}, {"yuml", 0xFF}, {"zeta", 0x3B6},
    {"zwj", 0x200D}, {"zwnj", 0x200C},
};

/// Appends what the character reference `ref` (`&...;`, as md4c reports
/// it) stands for. md4c has no table of names: it reports any
/// `&[A-Za-z][A-Za-z0-9]{1,47};` (md4c.h, MD_TEXT_ENTITY).
void append_entity(std::string& out, std::string_view ref) {
    if (ref.size() >= 3 && ref[1] == '#') {
        // Section 2.5: U+0000, a surrogate or a number past U+10FFFF reads as U+FFFD.
        std::uint32_t cp = 0;
        append_utf8(out, read_char_ref(ref, cp) == ref.size() ? cp : replacement_character);
        return;
    }
    const std::string_view name = ref.substr(1, ref.size() - 2);
    const auto* const end = std::end(named_entities);
    const auto* const it = std::lower_bound(std::begin(named_entities), end, name,
                                            [](const named_entity& e, std::string_view n) { return e.name < n; });
    if (it != end && it->name == name)
        append_utf8(out, it->code_point);
    else
        out += ref;  // no entity: Section 2.5 keeps it as text
}

/// The length of the character reference at `s[0] == '&'`, by md4c's rule
/// (md_is_entity_str: `&#[xX]` and 1 to 6 hex digits, `&#` and 1 to 7
/// digits, or a name of 2 to 48 letters and digits, then `;`), or 0.
std::size_t entity_length(std::string_view s) noexcept {
    enum class kind { hex, decimal, name };
    kind k = kind::name;
    std::size_t first = 1;
    if (s.size() > 2 && s[1] == '#' && (s[2] == 'x' || s[2] == 'X')) {
        k = kind::hex;
        first = 3;
    } else if (s.size() > 1 && s[1] == '#') {
        k = kind::decimal;
        first = 2;
    } else if (s.size() < 2 || !is_alpha(s[1])) {
        return 0;
    }
    const std::size_t min = k == kind::name ? 2 : 1;
    const std::size_t max = k == kind::hex ? 6 : k == kind::decimal ? 7 : 48;
    const auto accepts = [k](char c) {
        return k == kind::hex ? is_hex_digit(c) : k == kind::decimal ? is_digit(c) : is_alnum(c);
    };
    std::size_t i = first;
    while (i < s.size() && i - first < max && accepts(s[i])) ++i;
    if (i - first < min || i >= s.size() || s[i] != ';') return 0;
    return i + 1;
}

/// A destination as written in the source, read as CommonMark reads it:
/// backslash escapes (Section 2.4; not in autolinks, Section 6.5) and
/// character references (Section 2.5) decoded, NUL read as U+FFFD (Section
/// 2.3). In the order md4c's md_build_attribute takes them, so that `\&amp;`
/// stays `&amp;`.
std::string decode_destination(std::string_view raw, bool escapes) {
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size();) {
        const char c = raw[i];
        if (c == '\0') {
            append_utf8(out, replacement_character);
            ++i;
        } else if (const std::size_t n = c == '&' ? entity_length(raw.substr(i)) : 0; n != 0) {
            append_entity(out, raw.substr(i, n));
            i += n;
        } else if (escapes && c == '\\' && i + 1 < raw.size() && is_ascii_punctuation(raw[i + 1])) {
            out += raw[i + 1];
            i += 2;
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

/// The value of an attribute md4c hands over: escapes already removed,
/// character references still as written and marked as such.
std::string attribute_value(const MD_ATTRIBUTE& a) {
    std::string out;
    out.reserve(a.size);
    for (std::size_t i = 0; a.substr_offsets[i] < a.size; ++i) {
        const std::string_view piece(a.text + a.substr_offsets[i], a.substr_offsets[i + 1] - a.substr_offsets[i]);
        switch (a.substr_types[i]) {
        case MD_TEXT_ENTITY: append_entity(out, piece); break;
        case MD_TEXT_NULLCHAR: append_utf8(out, replacement_character); break;
        default: out += piece; break;
        }
    }
    return out;
}

// --- Reading the source again, for what md4c does not place -------------

/// Skips blanks and at most one line ending (Sections 4.7 and 6.3 allow one
/// between a link's parts). After the line ending, the next line's block
/// quote markers and indentation are its containers' (Section 5), which
/// md4c strips too: a `>` that starts a line inside a paragraph always is
/// one.
std::size_t skip_link_whitespace(std::string_view s, std::size_t i) noexcept {
    while (i < s.size() && is_blank(s[i])) ++i;
    if (i < s.size() && (s[i] == '\n' || s[i] == '\r')) {
        i += s.substr(i).starts_with("\r\n") ? 2u : 1u;
        while (i < s.size() && (is_blank(s[i]) || s[i] == '>')) ++i;
    }
    return i;
}

/// A link destination as written: its bytes (inside `<...>` for the angle
/// form) and where what follows it starts.
struct raw_destination {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool angle = false;
    std::size_t next = 0;
};

/// Section 6.3, link destination: `<...>` without line endings or
/// unescaped `<` `>`, or a run without blanks or controls whose unescaped
/// parentheses balance. The run may be empty here; callers decide.
std::optional<raw_destination> parse_destination(std::string_view s, std::size_t i) noexcept {
    if (i < s.size() && s[i] == '<') {
        for (std::size_t j = i + 1; j < s.size(); ++j) {
            const char c = s[j];
            if (c == '\\' && j + 1 < s.size() && is_ascii_punctuation(s[j + 1]))
                ++j;
            else if (c == '>')
                return raw_destination{i + 1, j, true, j + 1};
            else if (c == '<' || c == '\n' || c == '\r')
                return std::nullopt;
        }
        return std::nullopt;
    }
    // The bytes the loop below has nothing to do for: most of them.
    static constexpr std::array<bool, 256> plain = [] {
        std::array<bool, 256> t{};
        for (std::size_t b = '!'; b < 0x7F; ++b) t[b] = b != '\\' && b != '(' && b != ')';
        for (std::size_t b = 0x80; b < 0x100; ++b) t[b] = true;
        return t;
    }();
    std::size_t depth = 0;
    std::size_t j = i;
    for (; j < s.size(); ++j) {
        const char c = s[j];
        if (plain[static_cast<unsigned char>(c)]) continue;
        if (c == '\\' && j + 1 < s.size() && is_ascii_punctuation(s[j + 1])) {
            ++j;
        } else if (c == '(') {
            ++depth;
        } else if (c == ')') {
            if (depth == 0) break;
            --depth;
        } else if (static_cast<unsigned char>(c) <= ' ' || c == '\x7f') {
            break;
        }
    }
    if (depth != 0) return std::nullopt;
    return raw_destination{i, j, false, j};
}

/// Section 6.3, link title: `"..."`, `'...'` or `(...)`, escapes allowed.
/// Returns where the title ends, or npos.
std::size_t parse_title(std::string_view s, std::size_t i) noexcept {
    if (i >= s.size()) return npos;
    const char open = s[i];
    const char close = open == '(' ? ')' : open;
    if (open != '"' && open != '\'' && open != '(') return npos;
    for (std::size_t j = i + 1; j < s.size(); ++j) {
        const char c = s[j];
        if (c == '\\' && j + 1 < s.size() && is_ascii_punctuation(s[j + 1]))
            ++j;
        else if (c == close)
            return j + 1;
        else if (open == '(' && c == '(')
            return npos;
    }
    return npos;
}

/// An inline link's tail `(dest "title")` from `s[i] == '('`: its
/// destination and the end of the tail.
struct inline_tail {
    raw_destination destination;
    std::size_t end = 0;
};

std::optional<inline_tail> parse_inline_tail(std::string_view s, std::size_t i) noexcept {
    std::size_t j = skip_link_whitespace(s, i + 1);
    if (j < s.size() && s[j] == ')') return inline_tail{{j, j, false, j}, j + 1};
    const auto d = parse_destination(s, j);
    if (!d) return std::nullopt;
    j = skip_link_whitespace(s, d->next);
    if (j < s.size() && s[j] == ')') return inline_tail{*d, j + 1};
    // A title is set off from the destination by whitespace.
    if (j == d->next) return std::nullopt;
    j = parse_title(s, j);
    if (j == npos) return std::nullopt;
    j = skip_link_whitespace(s, j);
    if (j < s.size() && s[j] == ')') return inline_tail{*d, j + 1};
    return std::nullopt;
}

/// Section 6.3, link label `[...]` from `s[i] == '['`: at most 999 bytes,
/// no unescaped brackets. Returns the end of the label, or npos.
std::size_t parse_label(std::string_view s, std::size_t i) noexcept {
    for (std::size_t j = i + 1; j < s.size() && j - i <= 1000; ++j) {
        const char c = s[j];
        if (c == '\\' && j + 1 < s.size() && is_ascii_punctuation(s[j + 1]))
            ++j;
        else if (c == ']')
            return j + 1;
        else if (c == '[')
            return npos;
    }
    return npos;
}

/// Runs of whitespace as one space, none at the ends: a link's text as
/// plain text, and a label as Section 4.7 matches it.
std::string collapse_blanks(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        if (is_whitespace(c)) {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

/// Section 4.7: labels match case-insensitively, blanks collapsed. ASCII
/// case only: a label that differs in other letters' case is not matched,
/// which leaves the link inexact rather than wrong.
std::string normalize_label(std::string_view label) {
    std::string out = collapse_blanks(label);
    for (char& c : out) c = to_lower(c);
    return out;
}

/// What may lie between the end of a link's text and its `]` unreported
/// by md4c: closing emphasis, strikethrough and code span delimiters,
/// line endings and the next line's containers.
constexpr bool is_closing_markup(char c) noexcept {
    return is_whitespace(c) || c == '>' || c == '*' || c == '_' || c == '~' || c == '`';
}

/// Likewise between a link's `[` and the start of its text; and the
/// backslash of an escape, whose escaped byte md4c reports alone.
constexpr bool is_opening_markup(char c) noexcept { return is_closing_markup(c) || c == '\\'; }

/// A `[label]: dest` line as written, for a reference link whose
/// destination md4c hands over as a copy.
struct definition_site {
    std::string_view label;
    raw_destination destination;
};

bool overlaps(const std::vector<byte_range>& ranges, std::size_t begin, std::size_t end) {
    const auto it = std::lower_bound(ranges.begin(), ranges.end(), begin,
                                     [](const byte_range& r, std::size_t b) { return r.offset + r.length <= b; });
    return it != ranges.end() && it->offset < end;
}

// --- The reader ------------------------------------------------------------

/// A link or image md4c has entered and not yet left.
struct open_link {
    /// Its entry in `links`, or npos for a link inside an image's
    /// description: CommonMark renders that as alt text only (Section 6.4).
    std::size_t index = npos;
    bool image = false;
    /// Where md4c's destination points into the document, when it does.
    std::size_t pointer = npos;
    /// Where the `[` or `![` is, once found; npos before.
    std::size_t opener = npos;
    bool opener_sought = false;
    /// The source pieces of its text md4c reported, and the first of them.
    std::size_t pieces = 0;
    std::size_t first_piece = npos;
    std::size_t last_piece_end = 0;
    std::string text;
};

/// A reference link whose destination md4c handed over as a copy: found in
/// its definition after the parse.
struct pending_reference {
    std::size_t index = 0;
    std::optional<std::string> label;
};

class markdown_reader {
public:
    markdown_reader(std::string_view text, std::size_t parse_memory) : text_(text), parse_memory_(parse_memory) {}

    document_layout read() && {
        // Room for the links at once, one for each `]` (that closes the text
        // of a link or image) and `<` (that starts an autolink or a tag),
        // within bounds; a tag with several URL attributes goes past it,
        // and the list grows as usual. A README may declare a link every
        // hundred bytes: grown by doubling from empty, the list is moved a
        // dozen times and touches twice the pages (bench/run's Markdown
        // row: 40% of its page faults, a twentieth of its time).
        std::size_t room = 0;
        for (const char c : text_) room += static_cast<std::size_t>(c == ']') + static_cast<std::size_t>(c == '<');
        layout_.links.reserve(std::min(room, text_.size() / 8));
        MD_PARSER parser{};
        // GitHub's extensions, without its permissive autolinks: bare URLs
        // in text are the prose scanner's to find.
        parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS;
        parser.enter_block = [](MD_BLOCKTYPE type, void*, void* self) { return as(self).enter_block(type); };
        parser.leave_block = [](MD_BLOCKTYPE type, void*, void* self) { return as(self).leave_block(type); };
        parser.enter_span = [](MD_SPANTYPE type, void* detail, void* self) {
            return as(self).enter_span(type, detail);
        };
        parser.leave_span = [](MD_SPANTYPE type, void*, void* self) { return as(self).leave_span(type); };
        parser.text = [](MD_TEXTTYPE type, const MD_CHAR* p, MD_SIZE n, void* self) {
            return as(self).on_text(type, p, n);
        };
        // A failed parse (md4c only fails when out of memory) keeps what was
        // read so far.
        md_parse(text_.data(), static_cast<MD_SIZE>(text_.size()), &parser, this);
        flush_html();
        // Raw HTML nested too deep for its parser leaves the whole document
        // unread: a filter must not edit half of it.
        if (!layout_.unread.empty()) {
            document_layout unread;
            unread.unread = std::move(layout_.unread);
            return unread;
        }
        resolve_references();
        return std::move(layout_);
    }

private:
    static markdown_reader& as(void* self) { return *static_cast<markdown_reader*>(self); }

    /// Where `p` lies in the document, or npos for md4c's own strings.
    std::size_t offset_of(const char* p) const noexcept {
        const auto base = reinterpret_cast<std::uintptr_t>(text_.data());
        const auto at = reinterpret_cast<std::uintptr_t>(p);
        return p != nullptr && at >= base && at <= base + text_.size() ? at - base : npos;
    }

    int enter_block(MD_BLOCKTYPE type) {
        event();
        if (type == MD_BLOCK_CODE) code_begin_ = npos;
        return 0;
    }

    int leave_block(MD_BLOCKTYPE type) {
        event();
        if (type == MD_BLOCK_CODE) end_code();
        return 0;
    }

    int enter_span(MD_SPANTYPE type, void* detail) {
        event();
        if (type == MD_SPAN_CODE) code_begin_ = npos;
        if (type != MD_SPAN_A && type != MD_SPAN_IMG) return 0;
        // MD_SPAN_A_DETAIL and MD_SPAN_IMG_DETAIL are laid out alike (md4c.c relies on it too).
        const MD_ATTRIBUTE& dest = type == MD_SPAN_A ? static_cast<const MD_SPAN_A_DETAIL*>(detail)->href
                                                     : static_cast<const MD_SPAN_IMG_DETAIL*>(detail)->src;
        open_link link;
        link.image = type == MD_SPAN_IMG;
        if (!in_image()) {
            declared_link entry;
            entry.value = attribute_value(dest);
            // Not exact until its destination is found; a parse md4c gives
            // up on leaves it so.
            entry.span = {cursor_, 0};
            entry.exact = false;
            entry.form = link.image ? link_form::markdown_image : link_form::markdown_link;
            link.index = layout_.links.size();
            layout_.links.push_back(std::move(entry));
            link.pointer = dest.size != 0 ? offset_of(dest.text) : npos;
        }
        open_.push_back(std::move(link));
        return 0;
    }

    int leave_span(MD_SPANTYPE type) {
        event();
        if (type == MD_SPAN_CODE) end_code();
        if ((type != MD_SPAN_A && type != MD_SPAN_IMG) || open_.empty()) return 0;
        open_link link = std::move(open_.back());
        open_.pop_back();
        finish_link(link);
        return 0;
    }

    int on_text(MD_TEXTTYPE type, const MD_CHAR* p, MD_SIZE n) {
        const std::size_t at = offset_of(p);
        const std::size_t end = at == npos ? npos : at + n;
        const std::string_view piece(p, n);
        if (type == MD_TEXT_HTML) {
            if (at != npos && !in_image()) add_html(at, end);
            if (at != npos) advance(at, end);
            return 0;
        }
        flush_html();
        if (type == MD_TEXT_BR || type == MD_TEXT_SOFTBR) {
            append_text(" ");
            line_break_ = true;
            return 0;
        }
        if (type != MD_TEXT_NORMAL || at == npos) prose_open_ = false;
        if (at != npos) advance(at, end);
        switch (type) {
        case MD_TEXT_NORMAL:
            append_text(piece);
            if (at != npos && open_.empty()) add_prose(at, end);
            break;
        case MD_TEXT_ENTITY: {
            std::string decoded;
            append_entity(decoded, piece);
            append_text(decoded);
            break;
        }
        case MD_TEXT_NULLCHAR: {
            std::string decoded;
            append_utf8(decoded, replacement_character);
            append_text(decoded);
            break;
        }
        case MD_TEXT_CODE:
            append_text(piece);
            if (at != npos) {
                if (code_begin_ == npos) code_begin_ = at;
                code_end_ = end;
            }
            break;
        default: break;
        }
        return 0;
    }

    /// Anything but text: prose does not run on across it.
    void event() {
        flush_html();
        prose_open_ = false;
    }

    /// A piece of the source md4c reported, at [at, end): the links still
    /// waiting for their first piece find their `[` before it.
    void advance(std::size_t at, std::size_t end) {
        cursor_ = end;
        std::size_t before = at;
        for (auto it = open_.rbegin(); it != open_.rend(); ++it) {
            if (it->pieces++ == 0) it->first_piece = at;
            it->last_piece_end = end;
            if (it->opener_sought) continue;
            it->opener_sought = true;
            it->opener = find_opener(before, it->image);
            if (it->opener == npos) break;
            before = it->opener;
        }
    }

    bool in_image() const noexcept {
        return std::any_of(open_.begin(), open_.end(), [](const open_link& l) { return l.image; });
    }

    void append_text(std::string_view s) {
        for (auto& link : open_)
            if (link.index != npos || link.image) link.text += s;
    }

    /// Running text outside links: a link's text is its own (`text`), not
    /// prose to scan. Pieces of one paragraph across a soft or hard line
    /// break join when only blanks and the line ending lie between (no
    /// container markers), so that the scanner sees the lines as Appendix
    /// E reads them.
    void add_prose(std::size_t at, std::size_t end) {
        auto& prose = layout_.prose;
        if (!prose.empty() && prose.back().offset + prose.back().length <= at) {
            byte_range& last = prose.back();
            const std::size_t last_end = static_cast<std::size_t>(last.offset + last.length);
            const std::string_view gap = text_.substr(last_end, at - last_end);
            if (gap.empty() || (prose_open_ && line_break_ && std::all_of(gap.begin(), gap.end(), is_whitespace))) {
                last.length = end - last.offset;
                prose_open_ = true;
                line_break_ = false;
                return;
            }
        }
        prose.push_back({at, end - at});
        prose_open_ = true;
        line_break_ = false;
    }

    /// The end of a code span or code block: one range from its first
    /// source piece to its last. Container markers between the lines of a
    /// block fall inside; they are neither prose nor links.
    void end_code() {
        if (code_begin_ == npos) return;
        std::size_t begin = code_begin_;
        std::size_t end = code_end_;
        // Section 6.1 strips one space inside each backtick fence; the
        // bytes between the fences are the span's.
        if (begin >= 2 && text_[begin - 1] == ' ' && text_[begin - 2] == '`') --begin;
        if (end + 1 < text_.size() && text_[end] == ' ' && text_[end + 1] == '`') ++end;
        auto& code = layout_.code;
        if (!code.empty() && code.back().offset + code.back().length >= begin)
            code.back().length = std::max<std::uint64_t>(code.back().length, end - code.back().offset);
        else
            code.push_back({begin, end - begin});
        code_begin_ = npos;
    }

    // --- Raw HTML ---------------------------------------------------------

    void add_html(std::size_t at, std::size_t end) {
        if (html_pieces_.empty()) html_begin_ = at;
        html_pieces_.push_back({at, end - at});
    }

    /// Hands the raw HTML gathered since the last flush to the HTML reader
    /// as one fragment. md4c reports an HTML block line by line, without
    /// the containers' markers and indentation: those bytes are blanked in
    /// a copy of the same length, so that offsets in the copy are offsets
    /// in the document.
    void flush_html() {
        if (html_pieces_.empty()) return;
        const byte_range& last = html_pieces_.back();
        const std::size_t end = static_cast<std::size_t>(last.offset + last.length);
        std::string fragment(end - html_begin_, ' ');
        for (std::size_t i = html_begin_; i < end; ++i)
            if (text_[i] == '\n' || text_[i] == '\r') fragment[i - html_begin_] = text_[i];
        for (const byte_range& piece : html_pieces_)
            text_.substr(piece.offset, piece.length).copy(fragment.data() + (piece.offset - html_begin_), piece.length);
        html_ranges_.push_back({html_begin_, end - html_begin_});
        html_pieces_.clear();

        const std::size_t first_new = layout_.links.size();
        read_html_into(fragment, html_begin_, html_scope::links_only, parse_memory_, layout_);
        // A value that runs over a blanked marker does not hold the
        // document's bytes.
        for (std::size_t i = first_new; i < layout_.links.size(); ++i) {
            declared_link& link = layout_.links[i];
            if (!link.exact) continue;
            const std::size_t from = static_cast<std::size_t>(link.span.offset) - html_begin_;
            if (bytes(link.span) != std::string_view(fragment).substr(from, static_cast<std::size_t>(link.span.length)))
                link.exact = false;
        }
    }

    // --- Links ----------------------------------------------------------------

    /// The `[` (or `![`) of a link whose text's first piece starts at
    /// `before`, or npos.
    std::size_t find_opener(std::size_t before, bool image) const noexcept {
        std::size_t i = before;
        while (i > 0 && is_opening_markup(text_[i - 1])) --i;
        if (i == 0 || text_[i - 1] != '[') return npos;
        --i;
        if (!image) return i;
        return i > 0 && text_[i - 1] == '!' ? i - 1 : npos;
    }

    /// The `]` that closes the text of `link`, sought from the cursor: after
    /// the last piece of its text, or where a link inside it ended.
    std::size_t find_closer(const open_link& link) const noexcept {
        std::size_t i = cursor_;
        while (i < text_.size() && is_closing_markup(text_[i])) ++i;
        if (i < text_.size() && text_[i] == ']' && link.pieces != 0) return i;
        // A link with no text of its own: `[](dest)`, `![](src)`.
        if (link.pieces == 0) {
            const std::size_t open_end = i + (link.image ? 2 : 1);
            if (link.image ? text_.substr(i).starts_with("![") : text_.substr(i).starts_with("["))
                if (open_end < text_.size() && text_[open_end] == ']') return open_end;
        }
        return npos;
    }

    /// Whether the destination at `at` is an inline link's: `(`, blanks and
    /// at most one line ending, perhaps `<`, before it, and `]` before the
    /// `(`. Returns the `(`, or npos for a definition's destination.
    std::size_t inline_paren_before(std::size_t at) const noexcept {
        std::size_t i = at;
        if (i > 0 && text_[i - 1] == '<') --i;
        while (i > 0 && (is_whitespace(text_[i - 1]) || text_[i - 1] == '>')) --i;
        if (i >= 2 && text_[i - 1] == '(' && text_[i - 2] == ']') return i - 1;
        return npos;
    }

    void set_span(declared_link& entry, const raw_destination& d) {
        entry.span = {d.begin, d.end - d.begin};
        entry.wrapper = d.angle ? wrapper_kind::angle : wrapper_kind::none;
        entry.exact = true;
    }

    /// Where the link was written, for one whose destination was not found:
    /// only `span.offset` counts then.
    void set_inexact(declared_link& entry, const open_link& link, std::size_t closer) {
        const std::size_t at = link.opener != npos ? link.opener : closer != npos ? closer : cursor_;
        entry.span = {at, 0};
        entry.exact = false;
    }

    /// Section 6.5: an autolink's text is its destination as written, one
    /// piece right inside `<` and `>`.
    bool is_autolink(const open_link& link, const std::string& value) const {
        if (link.pieces != 1 || link.first_piece == 0 || link.last_piece_end >= text_.size()) return false;
        if (text_[link.first_piece - 1] != '<' || text_[link.last_piece_end] != '>') return false;
        const std::string_view raw = text_.substr(link.first_piece, link.last_piece_end - link.first_piece);
        if (link.pointer != npos) return link.pointer == link.first_piece && raw.size() == value.size();
        const std::string decoded = decode_destination(raw, false);
        return decoded == value || "mailto:" + decoded == value;
    }

    void finish_link(const open_link& link) {
        if (link.index == npos) {
            // A link inside an image's description: only the cursor moves.
            move_past_tail(find_closer(link));
            return;
        }
        declared_link& entry = layout_.links[link.index];
        entry.text = collapse_blanks(link.text);

        if (!link.image && is_autolink(link, entry.value)) {
            entry.form = link_form::markdown_autolink;
            entry.span = {link.first_piece, link.last_piece_end - link.first_piece};
            // md4c reports the text as written; CommonMark reads its
            // character references as in the destination.
            entry.text = decode_destination(bytes(entry.span), false);
            entry.wrapper = wrapper_kind::angle;
            entry.exact = true;
            cursor_ = link.last_piece_end + 1;
            return;
        }

        if (link.pointer != npos) {
            // md4c points into the destination as written: exact.
            const std::size_t end = link.pointer + entry.value.size();
            const bool angle =
                link.pointer > 0 && text_[link.pointer - 1] == '<' && end < text_.size() && text_[end] == '>';
            set_span(entry, {link.pointer, end, angle, end + (angle ? 1 : 0)});
            const std::size_t paren = inline_paren_before(link.pointer);
            if (paren != npos) {
                const auto tail = parse_inline_tail(text_, paren);
                cursor_ = tail ? tail->end : end;
                return;
            }
            entry.form = link_form::markdown_definition;
            move_past_tail(find_closer(link));
            return;
        }

        const std::size_t closer = find_closer(link);
        if (closer != npos && closer + 1 < text_.size() && text_[closer + 1] == '(') {
            const auto tail = parse_inline_tail(text_, closer + 1);
            if (tail && decode_destination(raw_of(tail->destination), true) == entry.value) {
                set_span(entry, tail->destination);
                cursor_ = tail->end;
                return;
            }
        }
        // A reference link: its destination is in a definition, found once
        // the whole document has been read.
        entry.form = link_form::markdown_definition;
        set_inexact(entry, link, closer);
        pending_.push_back({link.index, reference_label(link, closer)});
        move_past_tail(closer);
    }

    std::string_view raw_of(const raw_destination& d) const { return text_.substr(d.begin, d.end - d.begin); }

    std::string_view bytes(const byte_range& r) const {
        return text_.substr(static_cast<std::size_t>(r.offset), static_cast<std::size_t>(r.length));
    }

    /// The label a reference link uses (Section 6.3): `[text][label]`'s
    /// label, else the text as written (`[label][]`, `[label]`).
    std::optional<std::string> reference_label(const open_link& link, std::size_t closer) const {
        if (closer == npos) return std::nullopt;
        if (closer + 1 < text_.size() && text_[closer + 1] == '[') {
            const std::size_t end = parse_label(text_, closer + 1);
            if (end != npos && end > closer + 3) return std::string(text_.substr(closer + 2, end - closer - 3));
        }
        if (link.opener == npos) return std::nullopt;
        const std::size_t begin = link.opener + (link.image ? 2 : 1);
        return std::string(text_.substr(begin, closer - begin));
    }

    /// Moves the cursor past a link's `]` and its tail, so that the `]` of
    /// the link around it is sought after them.
    void move_past_tail(std::size_t closer) {
        if (closer == npos) return;
        std::size_t end = closer + 1;
        if (end < text_.size() && text_[end] == '(') {
            if (const auto tail = parse_inline_tail(text_, end)) end = tail->end;
        } else if (end < text_.size() && text_[end] == '[') {
            if (const std::size_t label_end = parse_label(text_, end); label_end != npos) end = label_end;
        }
        cursor_ = end;
    }

    // --- Definitions ------------------------------------------------------------

    /// The `[label]: dest` lines of the document (Section 4.7): md4c reports
    /// nothing of them, so they lie outside prose, code and raw HTML, and
    /// their `[` starts a line after its containers' markers.
    std::vector<definition_site> find_definitions() const {
        std::vector<definition_site> sites;
        for (std::size_t colon = text_.find("]:"); colon != npos; colon = text_.find("]:", colon + 1)) {
            std::size_t open = colon;
            while (open > 0 && colon - open < 1000) {
                const char c = text_[open - 1];
                if ((c == '[' || c == ']') && !(open >= 2 && text_[open - 2] == '\\')) break;
                --open;
            }
            if (open == 0 || text_[open - 1] != '[') continue;
            --open;
            if (!starts_line(open)) continue;
            const auto d = parse_destination(text_, skip_link_whitespace(text_, colon + 2));
            if (!d || (!d->angle && d->begin == d->end)) continue;
            if (overlaps(layout_.prose, open, d->next) || overlaps(layout_.code, open, d->next) ||
                overlaps(html_ranges_, open, d->next))
                continue;
            sites.push_back({text_.substr(open + 1, colon - open - 1), *d});
        }
        return sites;
    }

    /// Whether only containers' markers lie between the start of its line
    /// and `at`: blanks, `>`, list markers (Section 5) and a task list
    /// item's box (GFM 5.3).
    bool starts_line(std::size_t at) const noexcept {
        std::size_t i = at;
        while (i > 0) {
            const char c = text_[i - 1];
            if (is_blank(c) || c == '>' || c == '-' || c == '*' || c == '+' || c == '.' || c == ')' || is_digit(c)) {
                --i;
            } else if (c == ']' && i >= 3 && text_[i - 3] == '[' &&
                       (text_[i - 2] == ' ' || text_[i - 2] == 'x' || text_[i - 2] == 'X')) {
                i -= 3;
            } else {
                break;
            }
        }
        return i == 0 || text_[i - 1] == '\n' || text_[i - 1] == '\r';
    }

    /// Finds the definitions of the reference links md4c gave copies for:
    /// by label (the first definition of a label counts, Section 4.7), else
    /// the one definition whose destination reads as the value.
    void resolve_references() {
        if (pending_.empty()) return;
        const std::vector<definition_site> sites = find_definitions();
        for (const pending_reference& ref : pending_) {
            declared_link& entry = layout_.links[ref.index];
            const definition_site* found = nullptr;
            if (ref.label) {
                const std::string label = normalize_label(*ref.label);
                for (const auto& site : sites)
                    if (normalize_label(site.label) == label) {
                        found = &site;
                        break;
                    }
            }
            if (found == nullptr) {
                for (const auto& site : sites)
                    if (decode_destination(raw_of(site.destination), true) == entry.value) {
                        if (found != nullptr) {
                            found = nullptr;  // two could be it: neither is taken
                            break;
                        }
                        found = &site;
                    }
            }
            if (found != nullptr && decode_destination(raw_of(found->destination), true) == entry.value)
                set_span(entry, found->destination);
        }
    }

    std::string_view text_;
    document_layout layout_;
    std::vector<open_link> open_;
    std::vector<pending_reference> pending_;
    /// Where the source has been read to: the end of the last piece md4c
    /// reported, or of the last link tail read again.
    std::size_t cursor_ = 0;
    /// The last prose range may run on across a line break.
    bool prose_open_ = false;
    bool line_break_ = false;
    /// The code span or block being read: its first and last source bytes.
    std::size_t code_begin_ = npos;
    std::size_t code_end_ = 0;
    /// Raw HTML pieces not yet handed to the HTML reader, and where they start.
    std::vector<byte_range> html_pieces_;
    std::size_t html_begin_ = 0;
    std::size_t parse_memory_; ///< for each piece of raw HTML
    /// The raw HTML handed over so far.
    std::vector<byte_range> html_ranges_;
};

}  // namespace

document_layout read_markdown(std::string_view text, std::size_t parse_memory) {
    // md4c takes sizes as 32 bits: a larger document is read as text.
    if (text.size() > std::numeric_limits<MD_SIZE>::max()) {
        document_layout layout;
        layout.prose.push_back({0, text.size()});
        return layout;
    }
    // md4c 0.4.8 reads the byte after its input in some cases (a `[..](`
    // at the very end of the document; fixed in md4c 0.5.0): it reads a
    // copy, whose terminating NUL is that byte. Offsets are the same. The
    // copy's memory is kept for the thread's next document, up to a size:
    // pages new to the process cost a fault each, every document, which
    // was a tenth of the time of the Markdown rows of bench/run.
    constexpr std::size_t kept_copy = 16 << 20;
    thread_local std::string copy;
    copy.assign(text);
    document_layout layout = markdown_reader(copy, parse_memory).read();
    if (copy.capacity() > kept_copy) std::string().swap(copy);
    return layout;
}

}  // namespace urlsift::detail
