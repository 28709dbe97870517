#pragma once
// The readers behind read_document, one a format.

#include <urlsift/document.hpp>

#include <string_view>

namespace urlsift::detail {

/// Markdown (CommonMark with GitHub's extensions) with md4c.
document_layout read_markdown(std::string_view text, std::size_t parse_memory);

struct code_language;
/// Source code or configuration in `language` (code_languages.hpp).
document_layout read_code(std::string_view text, const code_language& language);

}  // namespace urlsift::detail
