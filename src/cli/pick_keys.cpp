#include "cli/pick_keys.hpp"

namespace urlsift::cli {

namespace {

/// The start of the last UTF-8 character of `s` (whose bytes were typed
/// a character at a time, so it is well formed).
std::size_t last_character(const std::string& s) {
    std::size_t i = s.size() - 1;
    while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    return i;
}

}  // namespace

pick_action pick_keys::handle(pick_list& list, const pick_key& key, std::size_t page) {
    if (key.what == pick_key::kind::interrupt) return pick_action::quit;
    if (key.what == pick_key::kind::redraw || key.what == pick_key::kind::resize) return pick_action::redraw;
    return filtering_ ? in_filter(list, key, page) : in_list(list, key, page);
}

bool pick_keys::moved(pick_list& list, const pick_key& key, std::size_t page) {
    const auto step = static_cast<long>(page == 0 ? 1 : page);
    using enum pick_key::kind;
    switch (key.what) {
    case up: list.move_by(-1); return true;
    case down: list.move_by(1); return true;
    case page_up: list.move_by(-step); return true;
    case page_down: list.move_by(step); return true;
    case home: list.move_to_first(); return true;
    case end: list.move_to_last(); return true;
    default: return false;
    }
}

pick_action pick_keys::in_list(pick_list& list, const pick_key& key, std::size_t page) {
    if (moved(list, key, page)) return pick_action::none;
    using enum pick_key::kind;
    switch (key.what) {
    case enter: return list.selected() ? pick_action::open : pick_action::refuse;
    case escape: return pick_action::quit;
    case text: break;
    default: return pick_action::refuse;
    }
    if (key.text.size() != 1) return pick_action::refuse;
    switch (key.text[0]) {
    case 'j': list.move_by(1); return pick_action::none;
    case 'k': list.move_by(-1); return pick_action::none;
    case 'g': list.move_to_first(); return pick_action::none;
    case 'G': list.move_to_last(); return pick_action::none;
    case ' ': return handle(list, {.what = page_down, .text = {}}, page);
    case 'b': return handle(list, {.what = page_up, .text = {}}, page);
    case 'o': return list.selected() ? pick_action::open : pick_action::refuse;
    case 'y': return list.selected() ? pick_action::copy : pick_action::refuse;
    case 'q': return pick_action::quit;
    case '/':
        filtering_ = true;
        return pick_action::none;
    default: return pick_action::refuse;
    }
}

pick_action pick_keys::in_filter(pick_list& list, const pick_key& key, std::size_t page) {
    if (moved(list, key, page)) return pick_action::none;
    using enum pick_key::kind;
    switch (key.what) {
    case text: list.set_query(list.query() + key.text); return pick_action::none;
    case backspace:
        // Backspace on an empty filter leaves it, as in a shell's search.
        if (list.query().empty()) filtering_ = false;
        else list.set_query(list.query().substr(0, last_character(list.query())));
        return pick_action::none;
    case clear_line: list.set_query(""); return pick_action::none;
    case enter: return list.selected() ? pick_action::open : pick_action::refuse;
    case tab: filtering_ = false; return pick_action::none;
    case escape:
        list.set_query("");
        filtering_ = false;
        return pick_action::none;
    default: return pick_action::refuse;
    }
}

}  // namespace urlsift::cli
