// Decoded URLs in the form Section 2.4 writes them in.

#include "uri/uri_form.hpp"

#include "text/ascii.hpp"
#include "text/char_roles.hpp"
#include "text/icu_text.hpp"

#include <urlsift/reference.hpp>

#include <array>
#include <cstddef>

namespace urlsift::detail {

namespace {

/// ASCII bytes a URL holds escaped: controls, space and DEL (Section
/// 2.4.3, "control" and "space"), the delimiters `<`, `>`, `"`, and the
/// unwise characters.
constexpr std::array<bool, 128> escaped_ascii = [] {
    std::array<bool, 128> t{};
    for (std::size_t b = 0; b <= 0x20; ++b) t[b] = true;
    t[0x7F] = true;
    for (const char c : std::string_view("\"<>\\^`{|}")) t[static_cast<unsigned char>(c)] = true;
    return t;
}();

/// The length of the character at `value[i]`, and whether it is escaped.
std::size_t next_char(std::string_view value, std::size_t i, bool& escape) noexcept {
    const auto b = static_cast<unsigned char>(value[i]);
    if (b < 0x80) {
        escape = escaped_ascii[b];
        return 1;
    }
    std::size_t length = 1;
    const std::int32_t cp = decode_utf8(value, i, length);
    const char_role role = code_point_role(cp);
    escape = role == char_role::space || role == char_role::delimiter;
    return length;
}

}  // namespace

std::optional<std::string> uri_form(std::string_view value) {
    // The authority, if any: after `scheme:` (or at the start) `//`, up to
    // the path, query or fragment.
    const reference_parts parts = parse_reference(value);
    std::size_t site_begin = std::string_view::npos, site_end = 0;
    if (parts.site) {
        site_begin = static_cast<std::size_t>(parts.site->data() - value.data());
        site_end = site_begin + parts.site->size();
    }
    std::string url;
    std::size_t copied = 0;
    for (std::size_t i = 0; i < value.size();) {
        bool escape = false;
        const std::size_t n = next_char(value, i, escape);
        if (escape) {
            if (i >= site_begin && i < site_end) return std::nullopt;
            if (url.empty()) url.reserve(value.size() + 8);
            url.append(value, copied, i - copied);
            for (std::size_t k = i; k < i + n; ++k) append_percent_escape(url, static_cast<unsigned char>(value[k]));
            copied = i + n;
        }
        i += n;
    }
    // Nearly every URL holds none of them: one copy.
    if (copied == 0) return std::string(value);
    url.append(value, copied);
    return url;
}

}  // namespace urlsift::detail
