#pragma once
// The readers behind read_document, one a format.

#include <urlsift/document.hpp>

#include <string_view>

namespace urlsift::detail {

/// Markdown (CommonMark with GitHub's extensions) with md4c.
document_layout read_markdown(std::string_view text, std::size_t parse_memory);

}  // namespace urlsift::detail
