// The document pipeline: a reader's layout in, references out. Links the
// format declares become references as written; the scanner reads a view
// of the document in which only prose is left; a rewrite is read back
// with the same reader before it is trusted.

#include "text/ascii.hpp"

#include <urlsift/document_scan.hpp>
#include <urlsift/reference.hpp>
#include <urlsift/resolution.hpp>

#include <algorithm>
#include <cstring>
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

/// A destination as a URL: Section 2.4.3 excludes control characters,
/// space, `"`, `<`, `>` and the unwise characters from URLs, and a format
/// that lets a destination hold them (`[x](<a b.png>)`) means them
/// escaped, as its renderer writes them (`a%20b.png`).
std::string url_form(std::string_view value) {
    static constexpr std::string_view excluded = "\"<>\\^`{|}";
    std::string url;
    url.reserve(value.size());
    for (const char c : value) {
        const auto b = static_cast<unsigned char>(c);
        if (b > 0x20 && b != 0x7F && excluded.find(c) == std::string_view::npos) {
            url += c;
        } else {
            detail::append_percent_escape(url, b);
        }
    }
    return url;
}

/// A declared link as the reference the sinks take.
void as_reference(std::string_view text, const declared_link& link, const line_index& lines, found_reference& r) {
    r = found_reference{};
    r.offset = link.span.offset;
    r.length = link.exact ? link.span.length : 0;
    std::tie(r.line, r.column) = lines.at(r.offset);
    const std::uint64_t wrapped = link.wrapper == wrapper_kind::none || !link.exact ? 0 : 1;
    r.outer = {r.offset - std::min(r.offset, wrapped), r.length + 2 * wrapped};
    r.raw = link.exact ? std::string(text.substr(r.offset, r.length)) : link.value;
    r.cleaned = link.value;
    r.url = url_form(link.value);
    r.wrapper = link.wrapper;
    r.form = parse_reference(link.value).is_absolute() ? reference_form::absolute : reference_form::relative;
    if (link.exact) r.pieces.push_back(link.span);
    r.declared = &link;
}

}  // namespace

std::optional<resolver> document_base(const document_layout& layout, const resolver* outer,
                                      const resolve_options& options) {
    // Section 5.1.1: a base embedded in the content comes first; 5.1.2 to
    // 5.1.4: then the one the caller knows.
    if (layout.base) {
        const resolve_options& how = outer ? outer->options() : options;
        if (outer) {
            if (auto absolute = outer->resolve(*layout.base))
                if (auto b = resolver::make(*absolute, how)) return std::move(*b);
        } else if (auto b = resolver::make(*layout.base, how)) {
            return std::move(*b);
        }
    }
    if (outer) return *outer;
    return std::nullopt;
}

std::string prose_view(std::string_view text, const document_layout& layout) {
    std::string view(text);
    // Blanks and line breaks stay, so that lines, columns and the line
    // structure Appendix E reads are those of the document.
    const auto mask = [&view](std::uint64_t from, std::uint64_t to) {
        for (std::uint64_t i = from; i < to; ++i) {
            char& c = view[static_cast<std::size_t>(i)];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') c = '\x1A';
        }
    };
    std::uint64_t at = 0;
    for (const byte_range& p : layout.prose) {
        mask(at, std::min<std::uint64_t>(p.offset, view.size()));
        at = std::max(at, p.offset + p.length);
    }
    mask(at, view.size());
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
            as_reference(text, link, lines, declared);
            if (base) resolve_reference(declared, *base);
            go_on = sink(declared);
        }
        return go_on;
    };
    if (!layout.prose.empty()) {
        scanner s(options, [&](found_reference& r) {
            if (!links_before(r.offset)) return false;
            if (base) resolve_reference(r, *base);
            return go_on = sink(r);
        });
        s.feed(prose_view(text, layout));
        s.finish();
    }
    links_before(UINT64_MAX);
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

/// Whether `out`, read as `format`, has the links `values` say, in order,
/// and the code of `before` byte for byte.
bool reads_back(std::string_view before_text, const document_layout& before, std::string_view out,
                document_format format, const std::vector<std::string>& values) {
    const document_layout after = read_document(out, format);
    if (after.links.size() != values.size() || after.code.size() != before.code.size()) return false;
    for (std::size_t i = 0; i < values.size(); ++i)
        if (after.links[i].value != values[i] || after.links[i].form != before.links[i].form) return false;
    for (std::size_t i = 0; i < after.code.size(); ++i) {
        const byte_range& a = after.code[i];
        const byte_range& b = before.code[i];
        if (out.substr(a.offset, a.length) != before_text.substr(b.offset, b.length)) return false;
    }
    return true;
}

}  // namespace

document_rewrite rewrite_document(std::string_view text, document_format format, const rewrite_options& options) {
    const document_layout layout = read_document(text, format);
    rewrite_options how = options;
    how.base = document_base(layout, options.base ? &*options.base : nullptr);

    // Prose: the rewriter's own rules, on the view that holds prose only;
    // its edits are kept, its output is not.
    std::vector<rewrite_edit> prose_edits;
    if (!layout.prose.empty()) {
        rewriter w(how, [](std::string_view) { return true; },
                   [&prose_edits](const rewrite_edit& e) { prose_edits.push_back(e); });
        w.feed(prose_view(text, layout));
        w.finish();
    }

    // Declared links: a relative destination made absolute, once a span
    // (a definition used twice is one destination).
    std::vector<link_edit> link_edits;
    std::vector<std::string> resolved;
    std::unordered_set<std::uint64_t> seen;
    if (how.base && (how.only & static_cast<rewrite_set>(rewrite_kind::relative)) != 0) {
        for (const declared_link& link : layout.links) {
            if (!link.exact || parse_reference(link.value).is_absolute()) continue;
            if (!seen.insert(link.span.offset).second) continue;
            const std::string url = url_form(link.value);
            auto target = how.base->resolve(url);
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
        if (reads_back(text, layout, out, format, intended_values(layout, edited))) {
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
