// HTML documents, read with gumbo: the URL attributes of each element as
// declared links, the text outside code and anchors as prose, and the text
// of code elements as code. Spans come from gumbo's record of where each
// attribute value and text node is written, checked against the source.
//
//     <p>See <a href="guide/?a=1&amp;b=2">the guide</a> or <code>x.org</code>.</p>
//        |<>|         |<---- span ---->|  |<text->|              |<->|
//        prose        value: guide/?a=1&b=2                      code

#include "formats/html_reader.hpp"

#include "text/ascii.hpp"

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <csetjmp>
#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace urlsift::detail {

namespace {

/// HTML's ASCII whitespace (Infra): TAB, LF, FF, CR and SPACE. It is what
/// HTML strips around a URL attribute's value and what separates srcset's
/// candidates.
constexpr bool is_html_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

/// A run of a string, [begin, end).
struct piece {
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// `p` of `s` without the ASCII whitespace at either end.
piece trim_spaces(std::string_view s, piece p) noexcept {
    while (p.begin < p.end && is_html_space(s[p.begin])) ++p.begin;
    while (p.end > p.begin && is_html_space(s[p.end - 1])) --p.end;
    return p;
}

std::string_view substr(std::string_view s, piece p) noexcept { return s.substr(p.begin, p.end - p.begin); }

/// How an attribute's value holds URLs.
enum class url_list : std::uint8_t {
    one,        ///< the value is one URL
    candidates, ///< a srcset: image candidates, each a URL and its descriptors
};

struct url_attribute {
    GumboTag tag;
    std::string_view name;
    url_list holds = url_list::one;
};

// The attributes whose value is a URL, on the elements where HTML makes it
// one (the index of attributes: "valid URL potentially surrounded by
// spaces", its non-empty form, and srcset's "comma-separated list of image
// candidate strings"), with the obsolete ones browsers still fetch (the
// obsolete features section: `background` on the body and table parts,
// `longdesc`, `manifest`, `<frame src>`). The same name on another element
// is no URL: `data` is one on <object> only, `value` never.
// <base href> is the document's base (Section 5.1.1), not a link.
constexpr std::array url_attributes{
    url_attribute{GUMBO_TAG_A, "href"},
    url_attribute{GUMBO_TAG_AREA, "href"},
    url_attribute{GUMBO_TAG_LINK, "href"},
    url_attribute{GUMBO_TAG_AUDIO, "src"},
    url_attribute{GUMBO_TAG_EMBED, "src"},
    url_attribute{GUMBO_TAG_FRAME, "src"},
    url_attribute{GUMBO_TAG_IFRAME, "src"},
    url_attribute{GUMBO_TAG_IMG, "src"},
    url_attribute{GUMBO_TAG_INPUT, "src"},
    url_attribute{GUMBO_TAG_SCRIPT, "src"},
    url_attribute{GUMBO_TAG_SOURCE, "src"},
    url_attribute{GUMBO_TAG_TRACK, "src"},
    url_attribute{GUMBO_TAG_VIDEO, "src"},
    url_attribute{GUMBO_TAG_IMG, "srcset", url_list::candidates},
    url_attribute{GUMBO_TAG_SOURCE, "srcset", url_list::candidates},
    url_attribute{GUMBO_TAG_FORM, "action"},
    url_attribute{GUMBO_TAG_BUTTON, "formaction"},
    url_attribute{GUMBO_TAG_INPUT, "formaction"},
    url_attribute{GUMBO_TAG_BLOCKQUOTE, "cite"},
    url_attribute{GUMBO_TAG_DEL, "cite"},
    url_attribute{GUMBO_TAG_INS, "cite"},
    url_attribute{GUMBO_TAG_Q, "cite"},
    url_attribute{GUMBO_TAG_VIDEO, "poster"},
    url_attribute{GUMBO_TAG_OBJECT, "data"},
    url_attribute{GUMBO_TAG_BODY, "background"},
    url_attribute{GUMBO_TAG_TABLE, "background"},
    url_attribute{GUMBO_TAG_THEAD, "background"},
    url_attribute{GUMBO_TAG_TBODY, "background"},
    url_attribute{GUMBO_TAG_TFOOT, "background"},
    url_attribute{GUMBO_TAG_TR, "background"},
    url_attribute{GUMBO_TAG_TD, "background"},
    url_attribute{GUMBO_TAG_TH, "background"},
    url_attribute{GUMBO_TAG_IMG, "longdesc"},
    url_attribute{GUMBO_TAG_FRAME, "longdesc"},
    url_attribute{GUMBO_TAG_IFRAME, "longdesc"},
    url_attribute{GUMBO_TAG_HTML, "manifest"},
};

/// The entry for attribute `name` on an HTML element `tag`, or null when
/// that attribute holds no URL there. gumbo gives names in lower case.
const url_attribute* find_url_attribute(GumboTag tag, std::string_view name) noexcept {
    for (const url_attribute& a : url_attributes)
        if (a.tag == tag && a.name == name) return &a;
    return nullptr;
}

/// Whether `html` may give a URL attribute a value: some `=` comes right
/// after the name of one (of any element, in any case, blanks between).
/// The tokenizer reaches an attribute's value only through an `=` that
/// follows its name, and lowers only ASCII letters in names; an attribute
/// without a value holds no link. Most raw HTML in Markdown (`<br>`,
/// `<details>`, `<a id="x">`) holds none, and gumbo's parse of a fragment,
/// even of one tag, costs some 30,000 instructions: a tenth of those of
/// bench/run's Markdown row.
bool may_hold_links(std::string_view html) noexcept {
    for (std::size_t eq = html.find('='); eq != std::string_view::npos; eq = html.find('=', eq + 1)) {
        std::size_t end = eq;
        while (end > 0 && is_html_space(html[end - 1])) --end;
        const std::string_view before = html.substr(0, end);
        for (const url_attribute& a : url_attributes)
            if (ends_with_nocase(before, a.name)) return true;
        if (ends_with_nocase(before, "content")) return true;  // a refresh's URL
    }
    return false;
}

/// How deep the elements of a document may nest before it is left unread:
/// gumbo checks the stack of open elements at every tag, so that its time
/// grows with the square of the depth (200,000 nested `<div>`s take
/// minutes). Browsers keep the tree 512 deep; the documentation under
/// /usr/share/doc nests 50 deep at most, by nesting_bound's count.
constexpr std::size_t max_nesting = 4096;

/// A bound on how deep the elements of `html` nest, counted on its tags
/// alone: start tags less end tags, of the elements that need an end tag
/// (void elements and those whose end tag may be left out are not
/// counted, in either); comments and the text of raw-text elements
/// (`<script>`, `<style>`, ...) skipped. A start tag never closed counts
/// as open to the end, so the bound is above the depth of the tree
/// gumbo builds, never far below it.
std::size_t nesting_bound(std::string_view html) noexcept {
    static constexpr std::array<std::string_view, 38> uncounted = {
        // Void elements, which hold nothing ...
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
        "wbr", "keygen", "basefont", "bgsound", "frame", "image",
        // ... and those whose end tag a document may leave out.
        "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "thead", "tbody", "tfoot", "colgroup",
        "caption", "rb", "rt", "rp", "html",
        // A link, since a new `<a>` closes the one open.
        "a"};
    static constexpr std::array<std::string_view, 9> raw_text = {
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"};
    const auto is_one_of = [](std::string_view name, const auto& names) {
        return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return iequals(name, n); });
    };
    std::size_t depth = 0, deepest = 0;
    std::size_t i = html.find('<');
    while (i != std::string_view::npos && i + 1 < html.size()) {
        if (html.substr(i, 4) == "<!--") {
            const std::size_t end = html.find("-->", i + 4);
            if (end == std::string_view::npos) break;
            i = html.find('<', end + 3);
            continue;
        }
        const bool closing = html[i + 1] == '/';
        const std::size_t from = i + (closing ? 2 : 1);
        std::size_t to = from;
        while (to < html.size() && (is_alnum(html[to]) || html[to] == '-')) ++to;
        const std::string_view name = html.substr(from, to - from);
        if (name.empty() || !is_alpha(name.front())) {
            i = html.find('<', i + 1);
            continue;
        }
        if (!closing && is_one_of(name, raw_text)) {
            // Its text runs to its end tag.
            std::size_t end = html.find('<', to);
            while (end != std::string_view::npos &&
                   !(html.substr(end + 1, 1) == "/" && iequals(html.substr(end + 2, name.size()), name)))
                end = html.find('<', end + 1);
            if (end == std::string_view::npos) break;
            i = end + 2 + name.size();
            i = html.find('<', i);
            continue;
        }
        if (!is_one_of(name, uncounted)) {
            if (closing && depth > 0) --depth;
            else if (!closing) deepest = std::max(deepest, ++depth);
        }
        i = html.find('<', to);
    }
    return deepest;
}

/// Elements whose text is code.
bool is_code_element(GumboTag tag) noexcept {
    switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_PRE:
    case GUMBO_TAG_CODE:
    case GUMBO_TAG_TEXTAREA:
    // <pre> by their obsolete names; <plaintext> turns the rest of the
    // document into its text.
    case GUMBO_TAG_XMP:
    case GUMBO_TAG_LISTING:
    case GUMBO_TAG_PLAINTEXT: return true;
    default: return false;
    }
}

/// HTML elements whose text the tokenizer reads as raw text or RCDATA
/// (the parsing rules' "generic raw text / RCDATA element parsing
/// algorithm" and <plaintext>): a `<` in it starts no tag. gumbo parses as
/// with scripting disabled, so <noscript> holds markup.
bool has_raw_text(GumboTag tag) noexcept {
    switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_TITLE:
    case GUMBO_TAG_XMP:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_NOEMBED:
    case GUMBO_TAG_NOFRAMES:
    case GUMBO_TAG_PLAINTEXT: return true;
    default: return false;
    }
}

/// The URLs of a srcset's image candidates, in order: HTML's "parse a
/// srcset attribute", steps 1-9 and the descriptor tokenizer's states.
/// Every candidate's URL counts: a browser drops a candidate whose
/// descriptors are invalid, but its URL is written as a link all the same.
std::vector<piece> srcset_urls(std::string_view s) {
    std::vector<piece> urls;
    std::size_t i = 0;
    for (;;) {
        // Step 3: blanks and commas before a candidate.
        while (i < s.size() && (is_html_space(s[i]) || s[i] == ',')) ++i;
        if (i == s.size()) return urls;
        // Step 5: the URL runs to a blank.
        const std::size_t begin = i;
        while (i < s.size() && !is_html_space(s[i])) ++i;
        std::size_t end = i;
        // Step 7: trailing commas end the candidate, with no descriptors.
        if (s[end - 1] == ',') {
            while (s[end - 1] == ',') --end;
            urls.push_back({begin, end});
            continue;
        }
        urls.push_back({begin, end});
        // The descriptors run to a comma outside parentheses.
        bool in_parens = false;
        for (; i < s.size(); ++i) {
            if (in_parens) {
                in_parens = s[i] != ')';
            } else if (s[i] == '(') {
                in_parens = true;
            } else if (s[i] == ',') {
                ++i;
                break;
            }
        }
    }
}

/// The URL string of a refresh's `content` (HTML's "shared declarative
/// refresh steps", steps 2-11.10), blanks around it trimmed; nullopt when
/// the value does not parse or names no URL (the document refreshes
/// itself).
std::optional<piece> refresh_url(std::string_view s) {
    std::size_t i = 0;
    const auto skip_spaces = [&] {
        while (i < s.size() && is_html_space(s[i])) ++i;
    };
    const auto advance_if = [&](char upper) {
        if (i == s.size() || to_lower(s[i]) != to_lower(upper)) return false;
        ++i;
        return true;
    };
    // Steps 3-8: the time, digits and dots.
    skip_spaces();
    const std::size_t time = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == time && (i == s.size() || s[i] != '.')) return std::nullopt;
    while (i < s.size() && (is_digit(s[i]) || s[i] == '.')) ++i;
    // Step 10: a separator.
    if (i < s.size()) {
        if (s[i] != ';' && s[i] != ',' && !is_html_space(s[i])) return std::nullopt;
        skip_spaces();
        if (i < s.size() && (s[i] == ';' || s[i] == ',')) ++i;
        skip_spaces();
    }
    if (i == s.size()) return std::nullopt;
    // Step 11: `url=` (any case, blanks around `=`), then an optional quote
    // that ends the URL where it comes again. Without `=` the URL is the
    // rest from where `url` started.
    piece url{i, s.size()};
    bool skip_quotes = true;
    if (advance_if('U')) {
        skip_quotes = advance_if('R') && advance_if('L');
        if (skip_quotes) {
            skip_spaces();
            skip_quotes = advance_if('=');
            skip_spaces();
        }
    }
    if (skip_quotes) {
        url.begin = i;
        if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
            const std::size_t close = s.find(s[i], i + 1);
            url = {i + 1, close == std::string_view::npos ? s.size() : close};
        }
    }
    return trim_spaces(s, url);
}

/// `text` appended to `out` with runs of blanks as one space, and none at
/// the start.
void append_collapsed(std::string& out, std::string_view text) {
    for (const char c : text) {
        if (!is_html_space(c))
            out += c;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    }
}

/// Anchor or alt text as the format reads it: blanks collapsed, none at
/// either end.
std::string collapsed(std::string_view text) {
    std::string out;
    append_collapsed(out, text);
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

/// Where the token that starts with `<` at `s[at]` ends, when the
/// tokenizer reads one there (a tag, `</>`, a comment or a doctype), or
/// npos when the `<` is text. Tags stop at the first `>` outside a quoted
/// attribute value.
std::size_t markup_end(std::string_view s, std::size_t at) noexcept {
    std::size_t i = at + 1;
    if (i == s.size()) return std::string_view::npos;
    if (s[i] == '!' || s[i] == '?') {
        const bool comment = s.substr(i).starts_with("!--");
        const std::size_t close = comment ? s.find("-->", i + 3) : s.find('>', i);
        return close == std::string_view::npos ? s.size() : close + (comment ? 3 : 1);
    }
    if (s[i] == '/') {
        ++i;
        if (i == s.size()) return std::string_view::npos;
        if (s[i] == '>') return i + 1;
    }
    if (!is_alpha(s[i])) return std::string_view::npos;
    while (i < s.size() && s[i] != '>') {
        if (s[i++] != '=') continue;
        while (i < s.size() && is_html_space(s[i])) ++i;
        if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
            const std::size_t close = s.find(s[i], i + 1);
            if (close == std::string_view::npos) return s.size();
            i = close + 1;
        }
    }
    return i == s.size() ? i : i + 1;
}

/// Sorts `v` and merges ranges that overlap or touch; drops empty ones.
void normalize(std::vector<byte_range>& v) {
    std::sort(v.begin(), v.end(), [](const byte_range& a, const byte_range& b) { return a.offset < b.offset; });
    std::vector<byte_range> merged;
    for (const byte_range& r : v) {
        if (r.length == 0) continue;
        if (!merged.empty() && merged.back().offset + merged.back().length >= r.offset) {
            byte_range& last = merged.back();
            last.length = std::max(last.offset + last.length, r.offset + r.length) - last.offset;
        } else {
            merged.push_back(r);
        }
    }
    v = std::move(merged);
}

/// `from` without the bytes of `cut`; both normalized.
std::vector<byte_range> without(const std::vector<byte_range>& from, const std::vector<byte_range>& cut) {
    std::vector<byte_range> out;
    std::size_t c = 0;
    for (const byte_range& r : from) {
        std::uint64_t at = r.offset;
        const std::uint64_t end = r.offset + r.length;
        while (c < cut.size() && cut[c].offset + cut[c].length <= at) ++c;
        for (std::size_t k = c; k < cut.size() && cut[k].offset < end; ++k) {
            if (cut[k].offset > at) out.push_back({at, cut[k].offset - at});
            at = std::max(at, cut[k].offset + cut[k].length);
        }
        if (at < end) out.push_back({at, end - at});
    }
    return out;
}

/// Whether gumbo reads `raw` as written: no character reference, NUL,
/// carriage return or byte outside ASCII for it to decode or replace.
bool reads_as_written(std::string_view raw) noexcept {
    for (const char c : raw)
        if (c == '&' || c == '\0' || c == '\r' || static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
}

/// The memory of gumbo's parses on a thread. gumbo allocates a block for
/// every few bytes it reads (three million for the 8 MB page of Node's
/// API) and frees most of them only with the tree: glibc's malloc and free
/// took a sixth of the parse's instructions, and the walk that frees the
/// tree more. Here
/// a block is a bump of a pointer, a free does nothing, and a tree goes at
/// once, as a stack: a parse started during another (decode_to's) ends
/// first. The chunks stay for the thread's next parse, up to `kept`, so
/// that their pages are not new to the process each time.
class parse_arena {
public:
    /// Where the arena stood: what a release goes back to.
    struct mark {
        std::size_t chunks;
        std::size_t used;
        std::size_t large;
        std::size_t held;
    };

    mark top() const noexcept { return {in_use_, used_, large_.size(), held_}; }

    /// From now on, a block that would take the memory held since `from`
    /// past `budget` bytes is not given: the arena jumps to `exhausted`
    /// instead. Until unlimited, nothing but C frames, which hold no
    /// objects to destroy, may stand between the setjmp and the allocator.
    void limit(const mark& from, std::size_t budget, std::jmp_buf* exhausted) noexcept {
        ceiling_ = from.held + budget;
        exhausted_ = exhausted;
    }
    void unlimit() noexcept { exhausted_ = nullptr; }

    /// `size` bytes aligned for any type, or null when memory ran out (as
    /// gumbo's default, malloc, would).
    void* allocate(std::size_t size) noexcept {
        constexpr std::size_t align = alignof(std::max_align_t);
        size = (size + align - 1) & ~(align - 1);
        const bool new_chunk = size <= chunk / 4 && (in_use_ == 0 || used_ + size > chunk);
        const std::size_t more = size > chunk / 4 ? size : new_chunk ? chunk : 0;
        if (exhausted_ != nullptr && held_ + more > ceiling_) std::longjmp(*exhausted_, 1);
        if (size > chunk / 4) {
            void* const p = add(large_, size);
            if (p != nullptr) held_ += size;
            return p;
        }
        if (new_chunk) {
            if (in_use_ == chunks_.size() && add(chunks_, chunk) == nullptr) return nullptr;
            ++in_use_;
            used_ = 0;
            held_ += chunk;
        }
        void* const p = chunks_[in_use_ - 1].get() + used_;
        used_ += size;
        return p;
    }

    /// Frees everything allocated since `m`.
    void release(const mark& m) noexcept {
        in_use_ = m.chunks;
        used_ = m.used;
        large_.resize(m.large);
        held_ = m.held;
        if (in_use_ == 0 && chunks_.size() > kept / chunk) chunks_.resize(kept / chunk);
    }

private:
    /// A new block of `size` bytes at the end of `blocks`, or null.
    static std::byte* add(std::vector<std::unique_ptr<std::byte[]>>& blocks, std::size_t size) noexcept {
        try {
            blocks.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
            return blocks.back().get();
        } catch (const std::bad_alloc&) {
            return nullptr;
        }
    }

    static constexpr std::size_t chunk = 1 << 20;
    static constexpr std::size_t kept = 16 << 20;
    std::vector<std::unique_ptr<std::byte[]>> chunks_;
    std::size_t in_use_ = 0; ///< chunks_[0, in_use_) hold blocks; the last is filled to used_
    std::size_t used_ = 0;
    std::vector<std::unique_ptr<std::byte[]>> large_; ///< blocks larger than a quarter chunk
    std::size_t held_ = 0; ///< bytes of the chunks in use and of the large blocks
    std::size_t ceiling_ = 0;
    std::jmp_buf* exhausted_ = nullptr;
};

parse_arena& thread_arena() {
    thread_local parse_arena arena;
    return arena;
}

/// A tree's memory given back: everything the arena handed out since the
/// parse began, which gumbo_destroy_output would have freed block by block.
struct gumbo_output_deleter {
    parse_arena* arena;
    parse_arena::mark start;
    void operator()(GumboOutput*) const noexcept { arena->release(start); }
};
using gumbo_output_ptr = std::unique_ptr<GumboOutput, gumbo_output_deleter>;

/// The tree of `html`, or null when it would take more than `budget`
/// bytes. gumbo's tree takes 4 to 65 times the bytes of a document (a node
/// for every tag, text node and attribute). Markup can make the parser
/// copy elements over and over: HTML reopens every formatting element a
/// paragraph closed (the "reconstruct the active formatting elements" step
/// of its tree construction), so 30 KB of `<b class=...>` and `<p>x</p>`
/// asks for half a gigabyte.
gumbo_output_ptr parse(std::string_view html, std::size_t budget) {
    parse_arena& arena = thread_arena();
    GumboOptions options = kGumboDefaultOptions;
    // Parse errors are not recorded, since nothing reads them.
    options.max_errors = 0;
    options.allocator = [](void* a, std::size_t size) { return static_cast<parse_arena*>(a)->allocate(size); };
    options.deallocator = [](void*, void*) {};
    options.userdata = &arena;
    const parse_arena::mark start = arena.top();
    // gumbo cannot be told to stop: past the budget, the arena jumps back
    // here over gumbo's frames, and what they held goes with the release.
    // gumbo keeps nothing else (no malloc of its own, no global state).
    std::jmp_buf exhausted;
    arena.limit(start, budget, &exhausted);
    if (setjmp(exhausted) != 0) {
        arena.unlimit();
        arena.release(start);
        return gumbo_output_ptr(nullptr, gumbo_output_deleter{&arena, start});
    }
    GumboOutput* const out = gumbo_parse_with_options(&options, html.data(), html.size());
    arena.unlimit();
    if (out == nullptr) arena.release(start);
    return gumbo_output_ptr(out, gumbo_output_deleter{&arena, start});
}

const GumboVector* children_of(const GumboNode* node) noexcept {
    switch (node->type) {
    case GUMBO_NODE_DOCUMENT: return &node->v.document.children;
    case GUMBO_NODE_ELEMENT:
    case GUMBO_NODE_TEMPLATE: return &node->v.element.children;
    default: return nullptr;
    }
}

/// Whether each of `raws`, read as an attribute value, decodes to the
/// matching `values`: gumbo reads them all, as `<br x="...">` tags of one
/// document, so that character references, NUL and invalid UTF-8 are
/// decoded exactly as they were in the document.
std::vector<bool> decode_to(const std::vector<std::string_view>& raws, const std::vector<std::string_view>& values,
                            std::size_t budget) {
    std::vector<bool> same(raws.size(), false);
    std::string doc;
    for (const std::string_view raw : raws) {
        // Either quote that the piece does not hold; a piece from an
        // unquoted value that holds both reads the same unquoted, unless
        // a quote starts it.
        const char quote = raw.find('"') == std::string_view::npos    ? '"'
                           : raw.find('\'') == std::string_view::npos ? '\''
                                                                       : '\0';
        if (quote == '\0' && (raw.front() == '"' || raw.front() == '\'' ||
                              raw.find_first_of(" \t\n\r\f>") != std::string_view::npos)) {
            doc += "<br>";
            continue;
        }
        doc += "<br x=";
        if (quote != '\0') doc += quote;
        doc += raw;
        if (quote != '\0') doc += quote;
        doc += " >";
    }
    const gumbo_output_ptr out = parse(doc, budget);
    if (!out) return same;
    const GumboNode* body = nullptr;
    if (const GumboVector* top = children_of(out->root))
        for (unsigned i = 0; i < top->length; ++i) {
            const auto* n = static_cast<const GumboNode*>(top->data[i]);
            if (n->type == GUMBO_NODE_ELEMENT && n->v.element.tag == GUMBO_TAG_BODY) body = n;
        }
    if (body == nullptr) return same;
    std::size_t k = 0;
    const GumboVector& kids = body->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
        const auto* n = static_cast<const GumboNode*>(kids.data[i]);
        if (n->type != GUMBO_NODE_ELEMENT || n->v.element.tag != GUMBO_TAG_BR) continue;
        if (k == raws.size()) return std::vector<bool>(raws.size(), false);
        const GumboAttribute* x = gumbo_get_attribute(&n->v.element.attributes, "x");
        same[k] = x != nullptr && values[k] == x->value;
        ++k;
    }
    if (k != raws.size()) return std::vector<bool>(raws.size(), false);
    return same;
}

/// One reading of an HTML document: a walk of gumbo's tree in document
/// order, with the elements open around the node it is at.
class html_walk {
public:
    html_walk(std::string_view html, html_scope scope, std::size_t budget)
        : html_(html), scope_(scope), budget_(budget) {}

    void run(const GumboNode* root) {
        // An explicit stack: gumbo's tree is as deep as the markup nests.
        std::vector<std::pair<const GumboNode*, unsigned>> open;
        enter(root);
        open.emplace_back(root, 0);
        while (!open.empty()) {
            const GumboNode* node = open.back().first;
            const GumboVector* kids = children_of(node);
            if (kids == nullptr || open.back().second == kids->length) {
                leave(node);
                open.pop_back();
                continue;
            }
            const auto* child = static_cast<const GumboNode*>(kids->data[open.back().second++]);
            if (children_of(child) != nullptr) {
                enter(child);
                open.emplace_back(child, 0);
            } else {
                text(child, node);
            }
        }
    }

    void finish(std::uint64_t shift, document_layout& into) {
        check_spans();
        std::vector<byte_range> spans;
        for (const declared_link& l : links_) spans.push_back(l.span);
        normalize(spans);
        for (declared_link& l : links_) {
            l.span.offset += shift;
            into.links.push_back(std::move(l));
        }
        if (scope_ != html_scope::document) return;
        // gumbo's text node runs from its first character to the token that
        // ended it, and so can hold an attribute the tree builder moved
        // elsewhere (a second <html> or <body> tag's): links, then code,
        // win over the text around them.
        normalize(code_);
        code_ = without(code_, spans);
        normalize(prose_);
        prose_ = without(without(prose_, spans), code_);
        for (byte_range r : code_) into.code.push_back({r.offset + shift, r.length});
        for (byte_range r : prose_) into.prose.push_back({r.offset + shift, r.length});
        if (base_ && !into.base) into.base = std::move(base_);
    }

private:
    static constexpr std::size_t no_link = static_cast<std::size_t>(-1);

    /// An anchor open around the walk: the link its text is the label of
    /// (no_link for a copy gumbo made of an anchor already read), and the
    /// text so far.
    struct open_anchor {
        std::size_t link = no_link;
        std::string text;
    };

    static bool is_html(const GumboNode* node, GumboTag tag) noexcept {
        return (node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE) &&
               node->v.element.tag == tag && node->v.element.tag_namespace == GUMBO_NAMESPACE_HTML;
    }

    /// An <a> that is a link: its text is the link's label, not prose.
    static bool is_link_anchor(const GumboNode* node) noexcept {
        if (!is_html(node, GUMBO_TAG_A)) return false;
        const GumboAttribute* href = gumbo_get_attribute(&node->v.element.attributes, "href");
        if (href == nullptr) return false;
        const std::string_view v = href->value;
        const piece p = trim_spaces(v, {0, v.size()});
        return p.begin < p.end;
    }

    /// Elements whose text is not shown: not part of an anchor's label.
    static bool is_unrendered(GumboTag tag) noexcept { return tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE; }

    void enter(const GumboNode* node) {
        if (node->type == GUMBO_NODE_DOCUMENT) return;
        const GumboElement& e = node->v.element;
        std::size_t href_link = no_link;
        if (e.tag_namespace == GUMBO_NAMESPACE_HTML) {
            for (unsigned i = 0; i < e.attributes.length; ++i) {
                const auto* a = static_cast<const GumboAttribute*>(e.attributes.data[i]);
                if (const url_attribute* u = find_url_attribute(e.tag, a->name)) {
                    const std::size_t before = links_.size();
                    add_links(node, *a, *u);
                    if (u->name == "href" && links_.size() > before) href_link = before;
                }
            }
            if (e.tag == GUMBO_TAG_META) add_refresh(node);
            // HTML's "frozen base URL": the first <base> with an href
            // counts, later ones do not.
            if (e.tag == GUMBO_TAG_BASE && scope_ == html_scope::document && !base_seen_)
                if (const GumboAttribute* href = gumbo_get_attribute(&e.attributes, "href")) {
                    base_seen_ = true;
                    const std::string_view v = href->value;
                    base_ = std::string(substr(v, trim_spaces(v, {0, v.size()})));
                }
        }
        if (is_code_element(e.tag)) ++code_depth_;
        if (is_unrendered(e.tag)) ++unrendered_depth_;
        if (is_link_anchor(node)) anchors_.push_back({href_link, {}});
    }

    void leave(const GumboNode* node) {
        if (node->type == GUMBO_NODE_DOCUMENT) return;
        const GumboElement& e = node->v.element;
        if (is_code_element(e.tag)) --code_depth_;
        if (is_unrendered(e.tag)) --unrendered_depth_;
        if (is_link_anchor(node)) {
            open_anchor& a = anchors_.back();
            if (a.link != no_link) {
                if (!a.text.empty() && a.text.back() == ' ') a.text.pop_back();
                links_[a.link].text = std::move(a.text);
            }
            anchors_.pop_back();
        }
    }

    void text(const GumboNode* node, const GumboNode* parent) {
        if (node->type != GUMBO_NODE_TEXT && node->type != GUMBO_NODE_WHITESPACE && node->type != GUMBO_NODE_CDATA)
            return;  // comments
        const GumboText& t = node->v.text;
        if (!anchors_.empty() && unrendered_depth_ == 0) append_collapsed(anchors_.back().text, t.text);
        if (scope_ != html_scope::document) return;
        const std::optional<piece> at = in_source(t.original_text.data, t.original_text.length);
        if (!at) return;
        piece p = *at;
        if (node->type == GUMBO_NODE_CDATA) {
            // gumbo's record of a CDATA section holds its `<![CDATA[` and `]]>`.
            const std::string_view written = substr(html_, p);
            if (!written.starts_with("<![CDATA[")) return;
            p.begin += 9;
            if (written.ends_with("]]>") && p.end - p.begin >= 3) p.end -= 3;
        }
        const bool raw_text = node->type == GUMBO_NODE_CDATA ||
                              (parent->type == GUMBO_NODE_ELEMENT && parent->v.element.tag_namespace == GUMBO_NAMESPACE_HTML &&
                               has_raw_text(parent->v.element.tag));
        // An anchor's text is its label; blanks alone are no prose to scan.
        if (code_depth_ > 0)
            add_text(p, raw_text, code_);
        else if (anchors_.empty() && node->type != GUMBO_NODE_WHITESPACE)
            add_text(p, raw_text, prose_);
    }

    /// The text in `p` as ranges of `into`. Outside raw text, a `<` that
    /// starts a tag inside a text node's record is a token the tree
    /// builder dropped (a stray end tag, a <td> outside a table, a second
    /// doctype) or moved (a second <html> or <body> tag's attributes): it
    /// is markup, not text.
    void add_text(piece p, bool raw_text, std::vector<byte_range>& into) const {
        std::size_t at = p.begin;
        if (!raw_text) {
            const std::string_view s = html_.substr(0, p.end);
            for (std::size_t i = s.find('<', at); i != std::string_view::npos && i < p.end; i = s.find('<', i + 1)) {
                const std::size_t end = markup_end(s, i);
                if (end == std::string_view::npos) continue;
                if (i > at) into.push_back({at, i - at});
                at = end;
                i = end - 1;
            }
        }
        if (at < p.end) into.push_back({at, p.end - at});
    }

    /// Where `data` lies in the document, when it does.
    std::optional<piece> in_source(const char* data, std::size_t length) const noexcept {
        const std::less<const char*> before;
        if (data == nullptr || before(data, html_.data()) || before(html_.data() + html_.size(), data)) return std::nullopt;
        const auto begin = static_cast<std::size_t>(data - html_.data());
        if (length > html_.size() - begin) return std::nullopt;
        return piece{begin, begin + length};
    }

    /// Where an attribute's value is written: the bytes inside its quotes,
    /// or the bare value. nullopt when gumbo's record of it is not in the
    /// document.
    std::optional<piece> written(const GumboAttribute& a) const noexcept {
        const std::optional<piece> p = in_source(a.original_value.data, a.original_value.length);
        if (!p) return std::nullopt;
        const std::string_view v = substr(html_, *p);
        if (!v.empty() && (v.front() == '"' || v.front() == '\'')) {
            if (v.size() < 2 || v.back() != v.front()) return std::nullopt;
            return piece{p->begin + 1, p->end - 1};
        }
        return p;
    }

    /// Appends the link `value`, written at `raw` (offsets in the document)
    /// when that is known, else somewhere in the element `node`.
    void add_link(const GumboNode* node, std::string value, std::string_view attribute, link_form form,
                  std::optional<piece> raw, std::string text) {
        declared_link l;
        l.value = std::move(value);
        l.text = std::move(text);
        l.form = form;
        l.attribute = attribute;
        if (raw) {
            l.span = {raw->begin, raw->end - raw->begin};
            // Quotes set the destination off only where they enclose it
            // directly: not a srcset candidate among others, not a value
            // with blanks inside its quotes.
            if (raw->begin > 0 && raw->end < html_.size()) {
                const char open = html_[raw->begin - 1];
                if ((open == '"' || open == '\'') && html_[raw->end] == open) l.wrapper = wrapper_kind::quote;
            }
            const std::string_view bytes = substr(html_, *raw);
            l.exact = bytes == l.value && reads_as_written(bytes);
            if (!l.exact) unchecked_.push_back(links_.size());
        } else {
            const std::size_t at = node->v.element.start_pos.offset;
            l.span = {at <= html_.size() ? at : 0, 0};
            l.exact = false;
        }
        links_.push_back(std::move(l));
    }

    /// The label of an image or image-map area link: its alt text.
    static std::string alt_text(const GumboNode* node) {
        const GumboElement& e = node->v.element;
        if (e.tag != GUMBO_TAG_IMG && e.tag != GUMBO_TAG_AREA) return {};
        const GumboAttribute* alt = gumbo_get_attribute(&e.attributes, "alt");
        return alt == nullptr ? std::string() : collapsed(alt->value);
    }

    void add_links(const GumboNode* node, const GumboAttribute& a, const url_attribute& u) {
        // gumbo copies an element it reopens (an <a> left open across a
        // paragraph's end) with the same attributes: one link a value.
        if (!read_values_.insert(a.original_value.data).second) return;
        const std::string_view value = a.value;
        const std::optional<piece> w = written(a);
        if (u.holds == url_list::one) {
            const piece p = trim_spaces(value, {0, value.size()});
            if (p.begin == p.end) return;  // names the document itself: nothing to follow or rewrite
            std::optional<piece> raw;
            if (w) raw = trim_spaces(html_, *w);
            add_link(node, std::string(substr(value, p)), u.name, link_form::html_attribute, raw, alt_text(node));
            return;
        }
        // Each candidate's URL is a link of its own. Its bytes are found by
        // reading the written value the same way; where character
        // references change how it splits, the check of the spans finds out.
        const std::vector<piece> urls = srcset_urls(value);
        std::vector<piece> raws;
        if (w) {
            raws = srcset_urls(substr(html_, *w));
            for (piece& r : raws) r = {r.begin + w->begin, r.end + w->begin};
        }
        for (std::size_t i = 0; i < urls.size(); ++i) {
            std::optional<piece> raw;
            if (raws.size() == urls.size())
                raw = raws[i];
            else
                raw = w;
            add_link(node, std::string(substr(value, urls[i])), u.name, link_form::html_attribute, raw, alt_text(node));
        }
    }

    /// `<meta http-equiv=refresh content="5; url=...">`: the URL in the
    /// content.
    void add_refresh(const GumboNode* node) {
        const GumboVector* attributes = &node->v.element.attributes;
        const GumboAttribute* equiv = gumbo_get_attribute(attributes, "http-equiv");
        const GumboAttribute* content = gumbo_get_attribute(attributes, "content");
        // The pragma is an enumerated attribute: its keyword in any case.
        if (equiv == nullptr || content == nullptr || !iequals(equiv->value, "refresh")) return;
        if (!read_values_.insert(content->original_value.data).second) return;
        const std::string_view value = content->value;
        const std::optional<piece> url = refresh_url(value);
        if (!url || url->begin == url->end) return;
        std::optional<piece> raw;
        if (const std::optional<piece> w = written(*content)) {
            raw = w;
            if (const std::optional<piece> r = refresh_url(substr(html_, *w)); r && r->begin < r->end)
                raw = piece{r->begin + w->begin, r->end + w->begin};
        }
        add_link(node, std::string(substr(value, *url)), "content", link_form::html_refresh, raw, {});
    }

    /// Settles `exact` for the links whose written bytes differ from their
    /// value: exact when gumbo decodes the bytes to the value.
    void check_spans() {
        if (unchecked_.empty()) return;
        std::vector<std::string_view> raws;
        std::vector<std::string_view> values;
        for (const std::size_t i : unchecked_) {
            raws.push_back(html_.substr(links_[i].span.offset, links_[i].span.length));
            values.push_back(links_[i].value);
        }
        const std::vector<bool> same = decode_to(raws, values, budget_);
        for (std::size_t k = 0; k < unchecked_.size(); ++k) links_[unchecked_[k]].exact = same[k];
    }

    std::string_view html_;
    html_scope scope_;
    std::size_t budget_; ///< the memory a parse of attribute values may take
    std::vector<declared_link> links_;
    /// Links whose `exact` check_spans settles.
    std::vector<std::size_t> unchecked_;
    std::vector<byte_range> prose_;
    std::vector<byte_range> code_;
    std::optional<std::string> base_;
    bool base_seen_ = false;
    /// Attribute values already read, by where gumbo recorded them.
    std::unordered_set<const char*> read_values_;
    std::vector<open_anchor> anchors_;
    int code_depth_ = 0;
    int unrendered_depth_ = 0;
};

}  // namespace

void read_html_into(std::string_view html, std::uint64_t shift, html_scope scope, std::size_t parse_memory,
                    document_layout& into) {
    // Raw HTML inside another format gives links only, and most of it none.
    if (scope == html_scope::links_only && !may_hold_links(html)) return;
    if (nesting_bound(html) > max_nesting) {
        into.unread = "its HTML nests more than " + std::to_string(max_nesting) +
                      " elements deep, too deep to parse in reasonable time";
        return;
    }
    // A byte-order mark is the encoding's, not the document's: gumbo would
    // read it as text and start the body before the doctype.
    std::string_view input = html;
    if (input.starts_with("\xEF\xBB\xBF")) input.remove_prefix(3);
    const gumbo_output_ptr out = parse(input, parse_memory);
    if (!out) {
        into.unread = "its HTML takes more than " + memory_size(parse_memory) +
                      " to parse: it is very large, or its markup has the parser copy elements over and over";
        return;
    }
    html_walk walk(html, scope, parse_memory);
    walk.run(out->document);
    walk.finish(shift, into);
}

}  // namespace urlsift::detail
