#pragma once
// The terminal side of `urlsift pick`, on ncurses: draws the list and reads
// keys, always on /dev/tty, so that a message piped in on standard input
// (mutt's <pipe-message>) and --print's standard output both stay free.
// While it is open, SIGINT, SIGTERM and SIGHUP only stop the key loop, so
// that the terminal is always restored before the command ends.

#include "cli/pick_keys.hpp"
#include "cli/pick_list.hpp"

#include <csignal>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace urlsift::cli {

/// There is no terminal to draw on: no /dev/tty, or a TERM ncurses cannot use.
struct no_terminal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class pick_screen {
public:
    /// Takes over the terminal (the alternate screen, raw keys); throws
    /// no_terminal when there is none to take.
    pick_screen();
    ~pick_screen();
    pick_screen(const pick_screen&) = delete;
    pick_screen& operator=(const pick_screen&) = delete;

    /// Gives the terminal back as it was; safe to call twice.
    void close();

    /// Draws the items the filter shows, the selection in view, and a
    /// status line with `message` (or the keys when it is empty).
    void draw(const pick_list& list, const pick_keys& keys, std::string_view message);
    /// How many items one screen shows: the step of Page Up and Page Down.
    std::size_t page() const noexcept;
    /// The next key; nullopt when a signal asked to stop (see stop_signal).
    std::optional<pick_key> next_key();
    /// The signal that stopped next_key, or 0.
    int stop_signal() const noexcept;

    /// Repaints the whole terminal at the next draw (Ctrl-L).
    void repaint();

    /// Asks the terminal to copy `text` to the clipboard (OSC 52).
    void copy(std::string_view text);
    void bell();
    /// The terminal's file descriptor, for a command that needs the terminal.
    int tty_fd() const noexcept;

private:
    std::FILE* tty_ = nullptr;
    void* screen_ = nullptr; ///< ncurses' SCREEN, kept out of this header
    bool open_ = false;
    bool utf8_ = true; ///< the locale's charset is UTF-8; else non-ASCII is drawn as '?'
    std::size_t top_ = 0; ///< the first shown item on screen
    struct sigaction old_int_ {}, old_term_ {}, old_hup_ {};
};

}  // namespace urlsift::cli
