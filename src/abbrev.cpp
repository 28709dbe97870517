// Placeholder until the abbreviation heuristics land: recognises nothing.
#include <urlsift/abbrev.hpp>

namespace urlsift {

std::optional<abbrev_set> parse_abbrev_list(std::string_view list) {
    if (list == "all") return abbrev_all;
    if (list == "none") return abbrev_none;
    return std::nullopt;
}

std::string_view to_string(abbrev_kind) noexcept { return {}; }

std::optional<abbrev_match> complete_abbreviated(std::string_view, std::string_view, const abbrev_options&) {
    return std::nullopt;
}

angle_content classify_angle(std::string_view content) {
    return content.empty() ? angle_content::empty : angle_content::reference;
}

}  // namespace urlsift
