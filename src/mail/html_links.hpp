#pragma once
// Links in HTML parts, read with a real HTML parser (gumbo).

#include <urlsift/mail.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::detail {

/// What an HTML document says about its links.
struct html_document {
    std::vector<html_link> links;
    std::optional<std::string> base; ///< the first `<base href>`, as written
};

/// Parses `html` as a browser would (HTML5 tree building, character
/// references decoded) and collects every `href` and `src` attribute value
/// in document order. In-page anchors (`#top`) and `javascript:` and
/// `data:` values, which name no other resource, are left out.
html_document read_html(std::string_view html);

}  // namespace urlsift::detail
