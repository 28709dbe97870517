#pragma once
// Links in HTML parts, as the HTML reader (src/formats/html.cpp) reads them.

#include <urlsift/mail.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::detail {

/// What an HTML part says about its links.
struct html_document {
    std::vector<html_link> links;
    std::optional<std::string> base; ///< the first `<base href>`, blanks around it trimmed
    /// Why the HTML reader left the part unread (document_layout::unread);
    /// then there are no links.
    std::string unread;
};

/// Reads `html` with the HTML reader (read_document) and lists its links
/// as `html_link` has them (mail.hpp): the declared links but those that
/// name no other resource, in document order.
html_document read_html(std::string_view html, std::size_t parse_memory);

}  // namespace urlsift::detail
