// The document pipeline: a reader's layout in, references out. Links the
// format declares become references as written; the scanner reads a view
// of the document in which only prose is left; a rewrite is read back
// with the same reader before it is trusted.

#include "abbrev/non_reference.hpp"
#include "text/ascii.hpp"
#include "uri/uri_form.hpp"

#include <urlsift/document_scan.hpp>
#include <urlsift/reference.hpp>
#include <urlsift/resolution.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace urlsift {

namespace {

/// Where each line starts, for the line and column of a declared link.
class line_index {
public:
    explicit line_index(std::string_view text) {
        starts_.push_back(0);
        if (text.empty()) return;
        for (const char* p = text.data(), *end = text.data() + text.size();;) {
            p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
            if (p == nullptr) break;
            ++p;
            starts_.push_back(static_cast<std::uint64_t>(p - text.data()));
        }
    }
    /// The 1-based line and byte column of `offset`.
    std::pair<std::uint64_t, std::uint64_t> at(std::uint64_t offset) const {
        const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset) - 1;
        return {static_cast<std::uint64_t>(it - starts_.begin()) + 1, offset - *it + 1};
    }

private:
    std::vector<std::uint64_t> starts_;
};

/// A declared link as the reference the sinks take; false when its value
/// names no host it could name (uri_form), or is a placeholder
/// (`href="..."`), and so is no reference.
bool as_reference(std::string_view text, const declared_link& link, const line_index& lines, found_reference& r) {
    std::optional<std::string> url = detail::uri_form(link.value);
    if (!url) return false;
    const bool absolute = parse_reference(link.value).is_absolute();
    if (!absolute && detail::is_ellipsis(link.value)) return false;
    r = found_reference{};
    r.offset = link.span.offset;
    r.length = link.exact ? link.span.length : 0;
    std::tie(r.line, r.column) = lines.at(r.offset);
    const std::uint64_t wrapped = link.wrapper == wrapper_kind::none || !link.exact ? 0 : 1;
    r.outer = {r.offset - std::min(r.offset, wrapped), r.length + 2 * wrapped};
    r.raw = link.exact ? std::string(text.substr(r.offset, r.length)) : link.value;
    r.cleaned = link.value;
    // A format that lets a destination hold a blank (`[x](<a b.png>)`)
    // means it escaped, as its renderer writes it (`a%20b.png`).
    r.url = std::move(*url);
    r.wrapper = link.wrapper;
    r.form = absolute ? reference_form::absolute : reference_form::relative;
    if (link.exact) r.pieces.push_back(link.span);
    r.declared = &link;
    return true;
}

}  // namespace

std::optional<resolver> document_base(const document_layout& layout, const resolver* outer,
                                      const resolve_options& options) {
    // Section 5.1.1: a base embedded in the content comes first; 5.1.2 to
    // 5.1.4: then the one the caller knows.
    const std::optional<std::string> declared = layout.base ? detail::uri_form(*layout.base) : std::nullopt;
    if (declared) {
        const resolve_options& how = outer ? outer->options() : options;
        if (outer) {
            if (auto absolute = outer->resolve(*declared))
                if (auto b = resolver::make(*absolute, how)) return std::move(*b);
        } else if (auto b = resolver::make(*declared, how)) {
            return std::move(*b);
        }
    }
    if (outer) return *outer;
    return std::nullopt;
}

namespace {

/// Bytes of the prose view handed to the scanner at a time: the view is
/// made a piece at a time, so that no copy of a whole document is made.
constexpr std::size_t view_piece = 1 << 16;

/// Ranges of `text` that a view keeps, and markup it shows as blanks.
struct view_ranges {
    const std::vector<byte_range>& kept;
    const std::vector<byte_range>* blanked = nullptr;
    const std::vector<escaped_char>* escapes = nullptr;
};

/// The ranges the prose scanner reads: prose, and prose a program holds,
/// merged in `scratch` when there is any of the latter.
const std::vector<byte_range>& prose_ranges(const document_layout& layout, std::vector<byte_range>& scratch) {
    if (layout.quoted_prose.empty()) return layout.prose;
    scratch.clear();
    std::merge(layout.prose.begin(), layout.prose.end(), layout.quoted_prose.begin(), layout.quoted_prose.end(),
               std::back_inserter(scratch),
               [](const byte_range& x, const byte_range& y) { return x.offset < y.offset; });
    return scratch;
}

/// The byte that stands for a byte of the text a view leaves out.
constexpr char masked = '\x1A';

/// Copies `n` bytes from `src` to `dst`, each as masked but for blanks and
/// line breaks, which stay so that lines, columns and the line structure
/// Appendix E reads are those of the document.
void copy_masked(const char* src, char* dst, std::size_t n) noexcept {
    std::size_t i = 0;
#if defined(__SSE2__)
    // Most of a program's bytes go through here, 16 at a time.
    const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n'),
                  cr = _mm_set1_epi8('\r'), fill = _mm_set1_epi8(masked);
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        const __m128i stays = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)),
                                           _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        const __m128i out = _mm_or_si128(_mm_and_si128(stays, v), _mm_andnot_si128(stays, fill));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), out);
    }
#endif
    for (; i < n; ++i) {
        const char c = src[i];
        dst[i] = c == ' ' || c == '\t' || c == '\n' || c == '\r' ? c : masked;
    }
}

/// The view of `text` that keeps `ranges` a piece at a time: `take(piece)`
/// for each piece of at most `view_piece` bytes, in order, until it
/// returns false. Returns false when `take` did.
template <typename Take>
bool view_pieces(std::string_view text, const view_ranges& ranges, Take&& take) {
    const std::vector<byte_range>& kept = ranges.kept;
    // Every byte of a piece is written below: no need to clear it first.
    const auto piece = std::make_unique_for_overwrite<char[]>(std::min<std::size_t>(text.size(), view_piece));
    std::uint64_t at = 0;   // every byte before it is masked or kept
    std::size_t next = 0;   // the first kept range not yet passed
    std::size_t blank = 0;  // the first blanked range not yet passed
    std::size_t escape = 0; // the first escape not yet passed
    for (std::uint64_t from = 0; from < text.size(); from += view_piece) {
        const std::uint64_t to = std::min<std::uint64_t>(text.size(), from + view_piece);
        // The piece is written from the start: `done` is where it stands.
        std::uint64_t done = from;
        const auto write = [&](std::uint64_t end, bool keep) {
            end = std::min(end, to);
            if (end <= done) return;
            const char* src = text.data() + done;
            char* dst = piece.get() + (done - from);
            const auto n = static_cast<std::size_t>(end - done);
            if (keep)
                std::memcpy(dst, src, n);
            else
                copy_masked(src, dst, n);
            done = end;
        };
        write(at, true);  // a kept range that runs on from the last piece
        for (; next < kept.size() && kept[next].offset < to; ++next) {
            write(kept[next].offset, false);
            at = std::max(at, kept[next].offset + kept[next].length);
            write(at, true);
            if (at > to) break;  // it runs on into the next piece
        }
        write(to, false);
        // Markup shown as blanks, and an escape as the character it stands
        // for at `shown_at`; false when `r` runs on into the next piece.
        const auto paint = [&](byte_range r, std::uint64_t shown_at, char shown) {
            for (std::uint64_t k = std::max(r.offset, from); k < std::min(r.offset + r.length, to); ++k)
                piece[static_cast<std::size_t>(k - from)] = k == shown_at ? shown : ' ';
            return r.offset + r.length <= to;
        };
        if (ranges.blanked != nullptr) {
            const std::vector<byte_range>& b = *ranges.blanked;
            for (; blank < b.size() && b[blank].offset < to; ++blank)
                if (!paint(b[blank], UINT64_MAX, ' ')) break;
        }
        if (ranges.escapes != nullptr) {
            const std::vector<escaped_char>& e = *ranges.escapes;
            for (; escape < e.size() && e[escape].span.offset < to; ++escape) {
                const byte_range s = e[escape].span;
                if (!paint(s, e[escape].shown == '<' ? s.offset + s.length - 1 : s.offset, e[escape].shown)) break;
            }
        }
        if (!take(std::string_view(piece.get(), static_cast<std::size_t>(to - from)))) return false;
    }
    return true;
}

/// Whether `url` is of a scheme that names and never locates: `tag:`
/// (RFC 4151) and `urn:` (RFC 8141). In a program's strings such a URI is
/// an identifier (`u'tag:yaml.org,2002:str'`, a YAML type), not a link.
bool names_only(std::string_view url) noexcept {
    return detail::starts_with_nocase(url, "tag:") || detail::starts_with_nocase(url, "urn:");
}

/// Whether `url` is of a hierarchical scheme and has an authority with no
/// host a link can lead to: none (`socks5://user:password@` of
/// `"socks5://user:password@" + addr`, the start of a URL a program
/// completes; `file:///` has none by design and is a link), or 0.0.0.0.
bool hostless(std::string_view url) noexcept {
    const std::size_t colon = url.find(':');
    if (colon == std::string_view::npos || url.substr(colon + 1, 2) != "//" ||
        detail::iequals(url.substr(0, colon), "file"))
        return false;
    const std::string_view rest = url.substr(colon + 3);
    std::string_view authority = rest.substr(0, std::min(rest.find_first_of("/?#"), rest.size()));
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
    // 0.0.0.0 is "this host on this network" (RFC 6890): never a
    // destination, in configuration a listening address or a blocker
    // (`<url>http://0.0.0.0/</url>`).
    return authority.empty() || authority.front() == ':' || authority == "0.0.0.0" ||
           authority.starts_with("0.0.0.0:");
}

/// Whether `r` is a mail address written without `mailto:` at a
/// placeholder domain (document_layout::placeholder_addresses): one under
/// a name RFC 2606 reserves (`.example`, `.test`, `.invalid`,
/// `.localhost`, `example.com`, `example.net`, `example.org`), or one whose
/// labels but the last are placeholder words (`host.domain.name`).
bool placeholder_address(const found_reference& r) noexcept {
    constexpr std::string_view mailto = "mailto:";
    if (r.form != reference_form::abbreviated || !detail::starts_with_nocase(r.url, mailto)) return false;
    const std::size_t at = r.url.rfind('@');
    if (at == std::string::npos) return false;
    std::string_view domain = std::string_view(r.url).substr(at + 1);
    domain = domain.substr(0, std::min(domain.find('?'), domain.size()));
    if (domain.ends_with('.')) domain.remove_suffix(1);
    const std::size_t last_dot = domain.rfind('.');
    if (last_dot == std::string_view::npos) return false;
    const std::string_view tld = domain.substr(last_dot + 1);
    for (const std::string_view reserved : {"example", "test", "invalid", "localhost"})
        if (detail::iequals(tld, reserved)) return true;
    const std::size_t second_dot = domain.rfind('.', last_dot - 1);
    const std::string_view second = domain.substr(second_dot == std::string_view::npos ? 0 : second_dot + 1);
    for (const std::string_view reserved : {"example.com", "example.net", "example.org"})
        if (detail::iequals(second, reserved)) return true;
    // Every label before the last a placeholder word.
    constexpr std::array words = std::to_array<std::string_view>(
        {"domain", "host", "hostname", "mydomain", "myhost", "somedomain", "somehost", "yourdomain", "yourhost"});
    std::string_view labels = domain.substr(0, last_dot);
    while (!labels.empty()) {
        const std::size_t dot = std::min(labels.find('.'), labels.size());
        const std::string_view label = labels.substr(0, dot);
        if (std::none_of(words.begin(), words.end(), [&](std::string_view w) { return detail::iequals(label, w); }))
            return false;
        labels.remove_prefix(std::min(dot + 1, labels.size()));
    }
    return true;
}

}  // namespace

std::string prose_view(std::string_view text, const document_layout& layout) {
    std::string view;
    view.reserve(text.size());
    std::vector<byte_range> merged;
    view_pieces(text, {prose_ranges(layout, merged), &layout.blanked, &layout.escapes}, [&view](std::string_view p) {
        view += p;
        return true;
    });
    return view;
}

bool scan_document(std::string_view text, const document_layout& layout, const scan_options& options,
                   const resolver* base, const reference_sink& sink) {
    const line_index lines(layout.links.empty() ? std::string_view() : text);
    // Declared links go out in the order the format uses them; a reference
    // found in prose goes out before the first link that comes after it
    // (a Markdown reference link is used where its definition is not: it
    // counts at the furthest point reached so far).
    std::size_t next_link = 0;
    std::uint64_t reached = 0;
    bool go_on = true;
    found_reference declared;
    const auto links_before = [&](std::uint64_t offset) {
        while (go_on && next_link < layout.links.size()) {
            const declared_link& link = layout.links[next_link];
            if (std::max(reached, link.span.offset) >= offset) break;
            reached = std::max(reached, link.span.offset);
            ++next_link;
            if (!as_reference(text, link, lines, declared)) continue;
            if (base) resolve_reference(declared, *base);
            go_on = sink(declared);
        }
        return go_on;
    };
    // Values (string literals, configuration): URLs with a scheme only,
    // read first and sent out in document order with the rest.
    std::vector<found_reference> values;
    std::size_t next_value = 0;
    if (!layout.values.empty()) {
        // And a mail address in angle brackets, as mail writes it
        // (`"Report bugs to <bug@example.org>."`).
        scan_options literal = options;
        literal.abbrev.kinds &= static_cast<abbrev_set>(abbrev_kind::email);
        scanner s(literal, [&values, &layout](found_reference& r) {
            if ((r.form == reference_form::absolute && !names_only(r.url) && !hostless(r.url)) ||
                (r.form == reference_form::abbreviated && r.wrapper == wrapper_kind::angle &&
                 (layout.placeholder_addresses || !placeholder_address(r))))
                values.push_back(r);
            return true;
        });
        view_pieces(text, {layout.values, nullptr}, [&s](std::string_view p) { return s.feed(p); });
        s.finish();
    }
    const auto before = [&](std::uint64_t offset) {
        for (; go_on && next_value < values.size() && values[next_value].offset < offset; ++next_value) {
            found_reference& r = values[next_value];
            if (!links_before(r.offset)) return false;
            if (base) resolve_reference(r, *base);
            go_on = sink(r);
        }
        return go_on && links_before(offset);
    };
    if (!layout.prose.empty() || !layout.quoted_prose.empty()) {
        scan_options prose_options = options;
        if (!layout.bare_hosts) prose_options.abbrev.kinds &= static_cast<abbrev_set>(~static_cast<abbrev_set>(abbrev_kind::domain));
        scanner s(prose_options, [&](found_reference& r) {
            if (!layout.placeholder_addresses && placeholder_address(r)) return true;
            if (!before(r.offset)) return false;
            if (base) resolve_reference(r, *base);
            return go_on = sink(r);
        });
        std::vector<byte_range> merged;
        view_pieces(text, {prose_ranges(layout, merged), &layout.blanked, &layout.escapes},
                    [&s](std::string_view p) { return s.feed(p); });
        s.finish();
    }
    before(UINT64_MAX);
    return go_on;
}

namespace {

/// An edit of a declared link's destination, with what it must read as.
struct link_edit {
    rewrite_edit edit;
    bool as_written = false; ///< the destination's bytes are its value: no escape to keep
};

/// What each link must read as after the edits, in layout order:
/// `edited` maps the span offsets of the destinations edited to their new
/// values.
std::vector<std::string> intended_values(const document_layout& layout,
                                         const std::unordered_map<std::uint64_t, std::string>& edited) {
    std::vector<std::string> values;
    values.reserve(layout.links.size());
    for (const declared_link& link : layout.links) {
        const auto it = link.exact ? edited.find(link.span.offset) : edited.end();
        values.push_back(it == edited.end() ? link.value : it->second);
    }
    return values;
}

/// `text` with `edits` (sorted, disjoint) applied.
std::string apply_edits(std::string_view text, const std::vector<rewrite_edit>& edits) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    std::uint64_t at = 0;
    for (const rewrite_edit& e : edits) {
        out.append(text.substr(at, e.offset - at));
        out += e.replacement;
        at = e.offset + e.length;
    }
    out.append(text.substr(at));
    return out;
}

/// Where `offset` of the text before `edits` (sorted, disjoint) is after
/// them, for an offset that no edit straddles.
std::uint64_t moved(std::uint64_t offset, const std::vector<rewrite_edit>& edits) {
    std::uint64_t at = offset;
    for (const rewrite_edit& e : edits) {
        if (e.offset + e.length > offset) break;
        at = at - e.length + e.replacement.size();
    }
    return at;
}

/// Whether `out`, which is `before_text` with `edits` applied, read as
/// `format`, has the links `values` say, in order, the code of `before`
/// byte for byte, and its prose where the edits moved it: an edit that
/// made text markup (`<../g>` made `<http://a/g>`, which HTML reads as a
/// tag) changes what the document is.
bool reads_back(std::string_view before_text, const document_layout& before, std::string_view out,
                document_format format, std::size_t parse_memory, std::string_view name,
                const std::vector<std::string>& values, const std::vector<rewrite_edit>& edits) {
    const document_layout after = read_document(out, format, parse_memory, name);
    if (!after.unread.empty()) return false;
    if (after.links.size() != values.size()) return false;
    if (after.prose.size() != before.prose.size()) return false;
    for (std::size_t i = 0; i < after.prose.size(); ++i) {
        const byte_range& p = before.prose[i];
        const std::uint64_t begin = moved(p.offset, edits), end = moved(p.offset + p.length, edits);
        if (after.prose[i].offset != begin || after.prose[i].offset + after.prose[i].length != end) return false;
    }
    for (std::size_t i = 0; i < values.size(); ++i)
        if (after.links[i].value != values[i] || after.links[i].form != before.links[i].form) return false;
    // What is never edited reads back byte for byte.
    const auto same = [&](const std::vector<byte_range>& a_ranges, const std::vector<byte_range>& b_ranges) {
        if (a_ranges.size() != b_ranges.size()) return false;
        for (std::size_t i = 0; i < a_ranges.size(); ++i) {
            const byte_range& a = a_ranges[i];
            const byte_range& b = b_ranges[i];
            if (out.substr(a.offset, a.length) != before_text.substr(b.offset, b.length)) return false;
        }
        return true;
    };
    return same(after.code, before.code) && same(after.quoted_prose, before.quoted_prose) &&
           same(after.values, before.values);
}

}  // namespace

document_rewrite rewrite_document(std::string_view text, document_format format, const rewrite_options& options,
                                  std::size_t parse_memory, std::string_view name) {
    const document_layout layout = read_document(text, format, parse_memory, name);
    if (!layout.unread.empty()) {
        document_rewrite unread;
        unread.text = std::string(text);
        unread.unread = layout.unread;
        return unread;
    }
    rewrite_options how = options;
    how.base = document_base(layout, options.base ? &*options.base : nullptr);
    if (!layout.bare_hosts) how.scan.abbrev.kinds &= static_cast<abbrev_set>(~static_cast<abbrev_set>(abbrev_kind::domain));

    // Prose: the rewriter's own rules, on the view that holds prose only;
    // its edits are kept, its output is not. Prose a program holds is not
    // edited, and no edit reaches across a comment marker: the view shows
    // none as a blank.
    std::vector<rewrite_edit> prose_edits;
    if (!layout.prose.empty()) {
        rewriter w(how, [](std::string_view) { return true; },
                   [&prose_edits](const rewrite_edit& e) { prose_edits.push_back(e); });
        view_pieces(text, {layout.prose, nullptr}, [&w](std::string_view p) {
            w.feed(p);
            return true;
        });
        w.finish();
    }

    // Declared links: a relative destination made absolute, once a span
    // (a definition used twice is one destination).
    std::vector<link_edit> link_edits;
    std::vector<std::string> resolved;
    std::unordered_set<std::uint64_t> seen;
    if (how.base && (how.only & static_cast<rewrite_set>(rewrite_kind::relative)) != 0) {
        for (const declared_link& link : layout.links) {
            // Section 4.2: `#top` and an empty destination are to this
            // document wherever it is read; they stay as written.
            if (!link.exact || is_same_document(link.value) || parse_reference(link.value).is_absolute()) continue;
            if (!seen.insert(link.span.offset).second) continue;
            const std::optional<std::string> url = detail::uri_form(link.value);
            if (!url) continue;
            auto target = how.base->resolve(*url);
            if (!target) continue;
            const std::string_view written = text.substr(link.span.offset, link.span.length);
            link_edit e{{link.span.offset, link.span.length, {}}, written == link.value};
            if (e.as_written) {
                e.edit.replacement = *target;
            } else {
                // Escapes and character references kept as written: the
                // written form resolved as text, checked when read back.
                auto kept = how.base->resolve(written);
                if (!kept) continue;
                e.edit.replacement = std::move(*kept);
            }
            if (e.edit.replacement == written) continue;
            link_edits.push_back(std::move(e));
            resolved.push_back(std::move(*target));
        }
    }

    // The edits, tried from all of them down to none, until the new text
    // reads back as intended.
    document_rewrite result;
    const std::size_t all = prose_edits.size() + link_edits.size();
    for (int attempt = 0; attempt < 4; ++attempt) {
        const bool prose = attempt < 2;
        const bool escaped = attempt == 0;
        std::vector<rewrite_edit> edits;
        std::unordered_map<std::uint64_t, std::string> edited;
        if (prose) edits = prose_edits;
        for (std::size_t i = 0; i < link_edits.size(); ++i)
            if (attempt < 3 && (escaped || link_edits[i].as_written)) {
                edits.push_back(link_edits[i].edit);
                edited.emplace(link_edits[i].edit.offset, resolved[i]);
            }
        std::sort(edits.begin(), edits.end(),
                  [](const rewrite_edit& a, const rewrite_edit& b) { return a.offset < b.offset; });
        // The reader keeps links out of prose, so edits never overlap; if
        // they did, the later one goes.
        std::vector<rewrite_edit> disjoint;
        for (rewrite_edit& e : edits)
            if (disjoint.empty() || disjoint.back().offset + disjoint.back().length <= e.offset)
                disjoint.push_back(std::move(e));
        if (disjoint.empty()) break;
        std::string out = apply_edits(text, disjoint);
        if (reads_back(text, layout, out, format, parse_memory, name, intended_values(layout, edited), disjoint)) {
            result.text = std::move(out);
            result.edits = std::move(disjoint);
            break;
        }
    }
    if (result.edits.empty()) result.text = std::string(text);
    result.withheld = all - result.edits.size();
    return result;
}

}  // namespace urlsift
