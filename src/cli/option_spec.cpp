#include "cli/option_spec.hpp"

namespace urlsift::cli {

std::string_view value_name(const option_spec& o) noexcept {
    if (!o.value_name.empty()) return o.value_name;
    switch (o.value) {
    case value_kind::none: return {};
    case value_kind::number: return "NUM";
    case value_kind::size: return "SIZE";
    case value_kind::file: return "FILE";
    case value_kind::directory: return "DIR";
    case value_kind::url: return "URL";
    case value_kind::command: return "CMD";
    case value_kind::glob: return "GLOB";
    case value_kind::choice_list: return "LIST";
    case value_kind::text:
    case value_kind::choice: break;
    }
    return "WORD";
}

std::string_view brief_help(const option_spec& o) noexcept {
    std::string_view h = o.help;
    // "output format: text (default), ..." is "output format"; "write
    // nothing; list each file that would change" stays whole, as its
    // first words alone would not tell it from another option.
    constexpr std::size_t least = 20;
    std::size_t end = h.size();
    const std::size_t colon = h.find(": ");
    if (colon != std::string_view::npos && h.substr(0, colon).find('(') == std::string_view::npos) end = colon;
    for (const std::string_view mark : {"; ", " ("}) {
        for (std::size_t at = h.find(mark); at != std::string_view::npos && at < end; at = h.find(mark, at + 1)) {
            if (at >= least) {
                end = at;
                break;
            }
        }
    }
    h = h.substr(0, end);
    constexpr std::size_t most = 70;
    if (h.size() > most) {
        const std::size_t space = h.rfind(' ', most);
        h = h.substr(0, space == std::string_view::npos ? most : space);
        while (!h.empty() && (h.back() == ',' || h.back() == ':' || h.back() == ';')) h.remove_suffix(1);
    }
    return h;
}

}  // namespace urlsift::cli
