#pragma once
// What each key does in `urlsift pick`. Two modes, as less and vi have:
//
//   list mode     j k arrows PgUp PgDn Home End g G move, Enter opens,
//                 y copies, / starts the filter, q Esc Ctrl-C quit
//   filter mode   typing edits the filter (the list narrows at each key),
//                 Backspace and Ctrl-U delete, arrows and Page keys move,
//                 Enter opens, Tab goes back to list mode keeping the
//                 filter, Esc clears it and goes back, Ctrl-C quits
//
// The screen turns terminal input into pick_key values; this file holds no
// terminal code, so that the rules are tested as plain values.

#include "cli/pick_list.hpp"

#include <cstddef>
#include <string>

namespace urlsift::cli {

/// A key, as the screen read it.
struct pick_key {
    enum class kind {
        text,       ///< a printable character, in `text`
        up,
        down,
        page_up,
        page_down,
        home,
        end,
        enter,
        escape,
        backspace,
        tab,
        clear_line, ///< Ctrl-U
        interrupt,  ///< Ctrl-C (the terminal is raw: it sends no SIGINT)
        redraw,     ///< Ctrl-L
        resize,     ///< the terminal changed size
    };
    kind what = kind::text;
    std::string text; ///< for `text`: the character in UTF-8
};

/// What a key asks of the command once the list has handled it.
enum class pick_action {
    none,   ///< redraw the list
    open,   ///< act on the selected URL (open it, or print it with --print)
    copy,   ///< copy the selected URL to the clipboard
    quit,   ///< leave without choosing
    redraw, ///< repaint the whole screen
    refuse, ///< the key does nothing here: ring the bell
};

class pick_keys {
public:
    /// Applies `key` to `list`; `page` is how many items a screen shows.
    pick_action handle(pick_list& list, const pick_key& key, std::size_t page);

    /// Whether typing goes to the filter.
    bool filtering() const noexcept { return filtering_; }

private:
    pick_action in_list(pick_list& list, const pick_key& key, std::size_t page);
    pick_action in_filter(pick_list& list, const pick_key& key, std::size_t page);
    /// The moves both modes share; false when `key` is not one.
    static bool moved(pick_list& list, const pick_key& key, std::size_t page);

    bool filtering_ = false;
};

}  // namespace urlsift::cli
