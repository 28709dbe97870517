// References whose bounds the markup gives (header URLs, HTML attributes).

#include "mail/structured_reference.hpp"

#include "abbrev/non_reference.hpp"
#include "uri/uri_form.hpp"

#include <urlsift/reference.hpp>

namespace urlsift::detail {

std::optional<found_reference> structured_reference(std::string_view value, wrapper_kind wrapper) {
    found_reference r;
    r.raw = value;
    // The URL standard: leading and trailing C0 controls and spaces are
    // not part of it, and tabs and line breaks inside are removed.
    std::string_view v = value;
    while (!v.empty() && static_cast<unsigned char>(v.front()) <= ' ') v.remove_prefix(1);
    while (!v.empty() && static_cast<unsigned char>(v.back()) <= ' ') v.remove_suffix(1);
    for (char c : v)
        if (c != '\t' && c != '\n' && c != '\r') r.cleaned += c;
    // What a decoder left in it that no URL holds as written is escaped,
    // in the text shown as written too (a decoded value is not as written).
    std::optional<std::string> url = uri_form(r.cleaned);
    if (!url) return std::nullopt;
    if (*url != r.cleaned) r.raw = *url;
    r.cleaned = std::move(*url);
    r.url = r.cleaned;
    r.length = value.size();
    r.wrapper = wrapper;
    r.form = parse_reference(r.cleaned).is_absolute() ? reference_form::absolute : reference_form::relative;
    // As a document's declared link: `href="..."` is no reference.
    if (r.form == reference_form::relative && is_ellipsis(r.cleaned)) return std::nullopt;
    return r;
}

}  // namespace urlsift::detail
