#pragma once
// The HTML reader's entry for other readers: Markdown's raw HTML is read
// by the same rules as an HTML document.

#include <urlsift/document.hpp>

#include <cstdint>
#include <string_view>

namespace urlsift::detail {

/// What to take from a piece of HTML.
enum class html_scope : std::uint8_t {
    document,   ///< a whole document: links, prose, code and `<base href>`
    links_only, ///< raw HTML inside another format: its URL attributes only
};

/// Reads `html`, which starts at byte `shift` of the enclosing document,
/// and appends what it finds to `into` with offsets shifted by `shift`
/// (links in document order; prose and code ranges after those already in
/// `into`, which must all lie before `shift`). A document whose tree would
/// take more than `parse_memory` bytes is left unread (`into.unread`).
void read_html_into(std::string_view html, std::uint64_t shift, html_scope scope, std::size_t parse_memory,
                    document_layout& into);

}  // namespace urlsift::detail
