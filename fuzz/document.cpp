// Fuzz target: the Markdown, HTML and code readers and the document
// pipeline.
//
// Input: one byte of settings, then the document.
//
//   byte 0  bit 0     HTML (else Markdown)
//           bits 1-2  base: none, https://example.org/docs/guide/x.md,
//                     http://a/b/c/d;p?q, file:///tmp/x/
//           bit 3     abbreviations: all (else www and ftp, rewrite's default)
//           bit 4     code, in the language bits 5-7 choose (Python, Go, C,
//                     shell, YAML, XML, Perl, Lua), not HTML or Markdown
//
// Properties checked:
// - the layout keeps its contract: each list of ranges sorted and inside
//   the document, prose, quoted prose, code, values and blanked markup
//   disjoint; no exact link span overlaps them, or runs past the end;
// - scan_document reports references inside the document, the declared
//   ones in the order of the layout's links (a value that names no host it
//   could name is left out), with no control character, blank or other
//   byte a URL does not hold as written;
// - rewrite is lossless: its text is the input with its edits applied,
//   edits in order, inside the input, each changing the bytes it replaces,
//   none inside code, values or quoted prose;
// - rewrite is idempotent: rewriting its text again makes no edit.

#include <urlsift/document_scan.hpp>

#include "fuzz_check.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace urlsift;

void check_ranges(const std::vector<byte_range>& ranges, std::uint64_t size) {
    std::uint64_t end = 0;
    for (const byte_range& r : ranges) {
        URLSIFT_FUZZ_CHECK(r.offset >= end);
        URLSIFT_FUZZ_CHECK(r.length > 0);
        URLSIFT_FUZZ_CHECK(r.offset + r.length <= size);
        end = r.offset + r.length;
    }
}

bool overlaps(const std::vector<byte_range>& ranges, byte_range x) {
    for (const byte_range& r : ranges)
        if (r.offset < x.offset + x.length && x.offset < r.offset + r.length) return true;
    return false;
}

void check_layout(std::string_view text, const document_layout& layout) {
    const std::vector<const std::vector<byte_range>*> kinds = {&layout.prose, &layout.quoted_prose, &layout.code,
                                                               &layout.values, &layout.blanked};
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        check_ranges(*kinds[i], text.size());
        for (std::size_t j = i + 1; j < kinds.size(); ++j)
            for (const byte_range& r : *kinds[i]) URLSIFT_FUZZ_CHECK(!overlaps(*kinds[j], r));
    }
    // Escapes lie inside prose, in order.
    std::uint64_t escaped_to = 0;
    for (const escaped_char& e : layout.escapes) {
        URLSIFT_FUZZ_CHECK(e.span.offset >= escaped_to && e.span.length > 0);
        escaped_to = e.span.offset + e.span.length;
        URLSIFT_FUZZ_CHECK(overlaps(layout.prose, e.span));
    }
    for (const declared_link& link : layout.links) {
        if (!link.exact) continue;
        URLSIFT_FUZZ_CHECK(link.span.offset + link.span.length <= text.size());
        for (const auto* ranges : kinds) URLSIFT_FUZZ_CHECK(!overlaps(*ranges, link.span));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::uint8_t settings = data[0];
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    static const char* const names[] = {"a.py", "a.go", "a.c", "a.sh", "a.yaml", "a.xml", "a.pl", "a.lua"};
    const bool code = (settings & 16) != 0;
    const document_format format = code                 ? document_format::code
                                   : (settings & 1) != 0 ? document_format::html
                                                         : document_format::markdown;
    const std::string_view name = code ? names[settings >> 5] : "";
    static const char* const bases[] = {nullptr, "https://example.org/docs/guide/x.md", "http://a/b/c/d;p?q",
                                        "file:///tmp/x/"};
    std::optional<resolver> base;
    if (const char* b = bases[(settings >> 1) & 3]) base = *resolver::make(b);

    const document_layout layout = read_document(text, format, default_parse_memory, name);
    check_layout(text, layout);

    scan_options so;
    if ((settings & 8) != 0) so.abbrev.kinds = abbrev_all;
    const std::optional<resolver> doc_base = document_base(layout, base ? &*base : nullptr);
    std::uint64_t last = 0;
    std::size_t declared = 0;
    scan_document(text, layout, so, doc_base ? &*doc_base : nullptr, [&](found_reference& r) {
        URLSIFT_FUZZ_CHECK(r.offset + r.length <= text.size());
        if (r.declared != nullptr) {
            while (declared < layout.links.size() && r.declared != &layout.links[declared]) ++declared;
            URLSIFT_FUZZ_CHECK(declared < layout.links.size());
            ++declared;
            for (const char c : r.url) {
                const auto b = static_cast<unsigned char>(c);
                URLSIFT_FUZZ_CHECK(b > 0x20 && b != 0x7F && c != '<' && c != '>' && c != '"');
            }
        } else {
            URLSIFT_FUZZ_CHECK(r.offset >= last);
            last = r.offset;
        }
        return true;
    });

    rewrite_options ro;
    ro.scan = so;
    ro.base = base;
    const document_rewrite once = rewrite_document(text, format, ro, default_parse_memory, name);
    std::string rebuilt;
    std::uint64_t at = 0;
    for (const rewrite_edit& e : once.edits) {
        URLSIFT_FUZZ_CHECK(e.offset >= at && e.offset + e.length <= text.size());
        URLSIFT_FUZZ_CHECK(std::string_view(text).substr(e.offset, e.length) != e.replacement);
        for (const auto* never : {&layout.code, &layout.values, &layout.quoted_prose})
            URLSIFT_FUZZ_CHECK(!overlaps(*never, {e.offset, e.length}));
        rebuilt.append(text, at, e.offset - at);
        rebuilt += e.replacement;
        at = e.offset + e.length;
    }
    rebuilt.append(text, at);
    URLSIFT_FUZZ_CHECK(rebuilt == once.text);
    const document_rewrite twice = rewrite_document(once.text, format, ro, default_parse_memory, name);
    URLSIFT_FUZZ_CHECK(twice.edits.empty());
    return 0;
}
