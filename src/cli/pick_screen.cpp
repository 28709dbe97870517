#include "cli/pick_screen.hpp"

#include "cli/escape.hpp"
#include "cli/pick_actions.hpp"
#include "cli/pick_text.hpp"
#include "text/icu_text.hpp"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <langinfo.h>
#include <unistd.h>

namespace urlsift::cli {

namespace {

volatile std::sig_atomic_t caught = 0;

extern "C" void on_stop_signal(int sig) { caught = sig; }

SCREEN* as_screen(void* p) { return static_cast<SCREEN*>(p); }

/// `s` escaped for the terminal (no control character reaches it), and
/// with '?' for non-ASCII when the locale cannot show UTF-8.
std::string drawable(std::string_view s, bool utf8) {
    std::string out;
    append_visible(out, s);
    if (utf8) return out;
    std::string ascii;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto c = static_cast<unsigned char>(out[i]);
        if (c < 0x80) ascii += static_cast<char>(c);
        else if ((c & 0xC0) != 0x80) ascii += '?';
    }
    return ascii;
}

void put_row(int y, const std::string& text, attr_t attr, bool fill) {
    attr_set(attr, 0, nullptr);
    mvaddstr(y, 0, text.c_str());
    if (fill) {
        int row = 0, col = 0;
        getyx(stdscr, row, col);
        if (row == y && col < COLS) hline(' ', COLS - col);
    }
    attr_set(A_NORMAL, 0, nullptr);
}

}  // namespace

pick_screen::pick_screen() {
    const char* term = std::getenv("TERM");
    if (term == nullptr || *term == '\0' || std::strcmp(term, "dumb") == 0)
        throw no_terminal(std::string("the terminal cannot show a list (TERM is ") +
                          (term == nullptr || *term == '\0' ? "unset" : "dumb") + ")");
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw no_terminal(std::string("no terminal to show the list on (/dev/tty: ") + std::strerror(errno) + ")");
    tty_ = ::fdopen(fd, "r+");
    if (tty_ == nullptr) {
        ::close(fd);
        throw no_terminal(std::string("cannot use the terminal: ") + std::strerror(errno));
    }
    utf8_ = std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;

    // Ours before ncurses starts: it leaves a handler that is not the
    // default alone, and these stop the key loop instead of the program.
    caught = 0;
    struct sigaction stop {};
    stop.sa_handler = on_stop_signal;
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = 0;  // no SA_RESTART: a read waiting for a key returns
    sigaction(SIGINT, &stop, &old_int_);
    sigaction(SIGTERM, &stop, &old_term_);
    sigaction(SIGHUP, &stop, &old_hup_);

    screen_ = newterm(nullptr, tty_, tty_);
    if (screen_ == nullptr) {
        sigaction(SIGINT, &old_int_, nullptr);
        sigaction(SIGTERM, &old_term_, nullptr);
        sigaction(SIGHUP, &old_hup_, nullptr);
        std::fclose(tty_);
        tty_ = nullptr;
        throw no_terminal(std::string("the terminal type '") + visible(term) + "' is not known to ncurses");
    }
    open_ = true;
    set_term(as_screen(screen_));
    // Raw: Ctrl-C is a key, not a SIGINT sent to the whole process group
    // (the mail reader that started us included).
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);  // Esc alone quits at once, not after a second
    // Woken now and then to notice a stop signal, should ncurses retry a
    // read the signal interrupted.
    wtimeout(stdscr, 250);
    curs_set(0);
    use_default_colors();
}

pick_screen::~pick_screen() {
    close();
    if (screen_ != nullptr) delscreen(as_screen(screen_));
    if (tty_ != nullptr) std::fclose(tty_);
}

void pick_screen::close() {
    if (!open_) return;
    open_ = false;
    curs_set(1);
    endwin();
    std::fflush(tty_);
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGHUP, &old_hup_, nullptr);
}

std::size_t pick_screen::page() const noexcept {
    const int rows = LINES - 1;  // the last is the status line
    const int per = LINES >= 5 ? 2 : 1;
    return rows / per > 0 ? static_cast<std::size_t>(rows / per) : 1;
}

void pick_screen::draw(const pick_list& list, const pick_keys& keys, std::string_view message) {
    erase();
    const auto cols = static_cast<std::size_t>(COLS > 0 ? COLS : 1);
    const int per = LINES >= 5 ? 2 : 1;
    const std::size_t rows = page();
    top_ = list.window_top(top_, rows);
    const std::size_t digits = std::to_string(list.items().size()).size();
    const std::size_t indent = digits + 2;
    for (std::size_t i = 0; i < rows && top_ + i < list.shown_count(); ++i) {
        const std::size_t at = top_ + i;
        const pick_item& item = list.shown(at);
        const bool selected = at == list.cursor();
        std::string number = std::to_string(list.shown_index(at) + 1);
        number.insert(0, digits - number.size(), ' ');
        const int y = static_cast<int>(i) * per;
        put_row(y, fit_width(drawable(number + "  " + item.url, utf8_), cols), selected ? A_REVERSE | A_BOLD : A_BOLD,
                selected);
        if (per == 2 && cols > indent) {
            // The context is escaped by shorten_context, so that the cut
            // is measured on what is drawn.
            std::string context = shorten_context(item.context, item.focus, cols - indent);
            if (!utf8_) context = drawable(context, false);
            put_row(y + 1, std::string(indent, ' ') + context, A_DIM, false);
        }
    }
    if (list.shown_count() == 0) put_row(0, fit_width("no URL matches the filter", cols), A_NORMAL, false);

    const std::string count = std::to_string(list.shown_count() == 0 ? 0 : list.cursor() + 1) + "/" +
                              std::to_string(list.shown_count());
    std::string status;
    if (keys.filtering())
        status = "/" + drawable(list.query(), utf8_);
    else if (!message.empty())
        status = drawable(message, utf8_);
    else if (!list.query().empty())
        status = "filter: " + drawable(list.query(), utf8_) + "  (/ edit, Enter open, y copy, q quit)";
    else
        status = "Enter open  y copy  / filter  q quit";
    // One column short of the edge: a character in the bottom right corner
    // would scroll some terminals.
    const std::size_t width = cols - 1;
    const std::string right = keys.filtering() ? count + "  Enter open  Tab keys  Esc clear" : count;
    const std::size_t room = width > display_width(right) + 2 ? width - display_width(right) - 2 : 0;
    const std::string left = fit_width(status, room);
    put_row(LINES - 1, left + std::string(width - display_width(left) - (room ? display_width(right) : 0), ' ') +
                           (room ? right : std::string()),
            A_NORMAL, false);
    if (keys.filtering()) {
        curs_set(1);
        move(LINES - 1, static_cast<int>(std::min(display_width(left), cols - 1)));
    } else {
        curs_set(0);
    }
    refresh();
}

std::optional<pick_key> pick_screen::next_key() {
    using kind = pick_key::kind;
    for (;;) {
        if (caught != 0) return std::nullopt;
        wint_t c = 0;
        const int got = wget_wch(stdscr, &c);
        if (got == ERR) continue;  // the timeout, or a signal
        if (got == KEY_CODE_YES) {
            switch (c) {
            case KEY_UP: return pick_key{kind::up, {}};
            case KEY_DOWN: return pick_key{kind::down, {}};
            case KEY_PPAGE: return pick_key{kind::page_up, {}};
            case KEY_NPAGE: return pick_key{kind::page_down, {}};
            case KEY_HOME: return pick_key{kind::home, {}};
            case KEY_END: return pick_key{kind::end, {}};
            case KEY_ENTER: return pick_key{kind::enter, {}};
            case KEY_BACKSPACE: return pick_key{kind::backspace, {}};
            case KEY_RESIZE: return pick_key{kind::resize, {}};
            default: continue;
            }
        }
        switch (c) {
        case '\r':
        case '\n': return pick_key{kind::enter, {}};
        case 27: return pick_key{kind::escape, {}};
        case 8:
        case 127: return pick_key{kind::backspace, {}};
        case '\t': return pick_key{kind::tab, {}};
        case 21: return pick_key{kind::clear_line, {}};  // Ctrl-U
        case 3: return pick_key{kind::interrupt, {}};    // Ctrl-C
        case 12: return pick_key{kind::redraw, {}};      // Ctrl-L
        case 14: return pick_key{kind::down, {}};        // Ctrl-N
        case 16: return pick_key{kind::up, {}};          // Ctrl-P
        case 6: return pick_key{kind::page_down, {}};    // Ctrl-F
        case 2: return pick_key{kind::page_up, {}};      // Ctrl-B
        default: break;
        }
        if (c < 0x20 || (c >= 0x7F && c < 0xA0)) continue;
        std::string text;
        detail::append_utf8(text, static_cast<std::uint32_t>(c));
        return pick_key{kind::text, std::move(text)};
    }
}

int pick_screen::stop_signal() const noexcept { return caught; }

void pick_screen::copy(std::string_view text) {
    refresh();
    const std::string sequence = osc52_copy(text);
    std::fwrite(sequence.data(), 1, sequence.size(), tty_);
    std::fflush(tty_);
}

void pick_screen::repaint() { clearok(curscr, TRUE); }

void pick_screen::bell() { beep(); }

int pick_screen::tty_fd() const noexcept { return tty_ != nullptr ? fileno(tty_) : -1; }

}  // namespace urlsift::cli
