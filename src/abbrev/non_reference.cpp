#include "abbrev/non_reference.hpp"

#include "abbrev/lexicon.hpp"
#include "abbrev/tld_table.hpp"
#include "text/ascii.hpp"

#include <algorithm>
#include <array>

namespace urlsift::detail {

namespace {

/// RFC 6838 section 4.2: a type or subtype name, `restricted-name-chars`.
bool is_restricted_name(std::string_view s) noexcept {
    return !s.empty() && is_alnum(s.front()) && std::all_of(s.begin(), s.end(), [](char c) {
               return is_alnum(c) || std::string_view("!#$&-^_.+").find(c) != std::string_view::npos;
           });
}

/// RFC 6838 section 4.2 and 4.2.1-4.2.8: `type/subtype` with a registered
/// top-level type. A dot in the subtype comes only after a tree's facet
/// (`vnd.ms-excel`, `x.foo`): `image/logo.png` names a file in a folder.
bool is_media_type(std::string_view s) noexcept {
    static constexpr std::array<std::string_view, 11> types = {
        "application", "audio", "example", "font", "haptics", "image", "message", "model", "multipart", "text", "video"};
    const std::size_t slash = s.find('/');
    if (slash == std::string_view::npos) return false;
    const std::string_view type = s.substr(0, slash), subtype = s.substr(slash + 1);
    if (!std::any_of(types.begin(), types.end(), [type](std::string_view t) { return iequals(t, type); }))
        return false;
    if (!is_restricted_name(subtype)) return false;
    const std::size_t dot = subtype.find('.');
    if (dot == std::string_view::npos) return true;
    const std::string_view facet = subtype.substr(0, dot);
    return iequals(facet, "vnd") || iequals(facet, "prs") || iequals(facet, "x");
}

/// `local(at)domain`: an address written so that harvesters miss it, as
/// ChangeLogs and TODO files credit people (`burnus(at)net-b.de`): a
/// local part without `/` and a dotted domain.
bool is_spelled_out_address(std::string_view s) noexcept {
    std::size_t at = 0;
    for (at = s.find('('); at != std::string_view::npos; at = s.find('(', at + 1))
        if (iequals(s.substr(at, 4), "(at)")) break;
    if (at == std::string_view::npos || at == 0 || s.substr(0, at).find('/') != std::string_view::npos) return false;
    const std::string_view domain = s.substr(at + 4);
    return domain.find('.') != std::string_view::npos && std::all_of(domain.begin(), domain.end(), [](char c) {
               return is_alnum(c) || c == '.' || c == '-' || c == '_';
           });
}

/// Labels of letters, digits, `-` and `_` joined by single dots, two or
/// more, whose last label names no file type, no top-level domain and no
/// section of a manual: a member or a key in program text.
bool is_dotted_identifier(std::string_view s) noexcept {
    const std::size_t last_dot = s.rfind('.');
    if (last_dot == std::string_view::npos || s.front() == '.' || s.back() == '.' ||
        s.find("..") != std::string_view::npos)
        return false;
    if (!std::all_of(s.begin(), s.end(), [](char c) { return is_alnum(c) || c == '.' || c == '-' || c == '_'; }))
        return false;
    const std::string_view last = s.substr(last_dot + 1);
    if (std::any_of(last.begin(), last.end(), [](char c) { return is_digit(c); })) return false;
    return !lexicon::is_file_extension(last) && !is_known_tld(last);
}

}  // namespace

bool is_ellipsis(std::string_view s) noexcept {
    return s.size() >= 3 && s.find_first_not_of('.') == std::string_view::npos;
}

bool is_non_reference(std::string_view s) noexcept {
    if (s.empty()) return false;
    return is_ellipsis(s) || is_media_type(s) || is_spelled_out_address(s) || is_dotted_identifier(s);
}

}  // namespace urlsift::detail
