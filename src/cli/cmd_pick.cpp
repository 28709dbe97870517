// urlsift pick: choose one of the URLs of a message or a text on a
// full-screen list, and open it, copy it or print it. The list is
// pick_list, the keys pick_keys, the terminal pick_screen.

#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/mail_input.hpp"
#include "cli/options.hpp"
#include "cli/pick_actions.hpp"
#include "cli/pick_input.hpp"
#include "cli/pick_keys.hpp"
#include "cli/pick_list.hpp"
#include "cli/pick_screen.hpp"
#include "cli/scan_settings.hpp"

#include <urlsift/abbrev.hpp>

#include <clocale>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace urlsift::cli {

namespace {

constexpr std::string_view usage =
    R"help(Usage: urlsift pick [OPTIONS] [FILE|- ...]

Show the URLs of a message or a text on a full-screen list, one line of
context under each, and open the one chosen: an interactive link picker for
mail and news readers and terminal multiplexers, like urlview and urlscan.
URLs are found as extract finds them (each listed once; abbreviated ones
completed, relative ones resolved with --base), and a message or mailbox is
read decoded (MIME, quoted-printable, format=flowed, HTML links) as
extract --input reads it. With no FILE, or when FILE is -, standard input
is read. Keys are read from the terminal (/dev/tty), so that a mail reader
can pipe the message in.

Enter opens the URL with --command, else $BROWSER, else xdg-open. No
shell runs it: the command is split into words (quotes and backslashes as
in sh), each %s in a word becomes the URL, and with no %s the URL is added
as the last word. $BROWSER may list commands separated by ':', tried in
turn until one starts. A URL that starts with '-' is never passed on.
)help";

constexpr std::string_view epilog = R"help(
Keys:
  j,Down,Ctrl-N    move down (k, Up, Ctrl-P: up)
  PgDn,Space       move a screen down (PgUp, b: up)
  Home,g           go to the first URL (End, G: the last)
  Enter,o          open the selected URL (with --print: print it)
  y                copy it to the clipboard (OSC 52)
  /                filter: type words, and the list keeps the URLs whose
                   URL or context line has them all (case ignored); arrows
                   move, Enter opens, Backspace and Ctrl-U delete, Tab goes
                   back to the keys above keeping the filter, Esc clears it
  q,Esc,Ctrl-C     quit

The screen is left as it was on quitting, and on SIGINT, SIGTERM or SIGHUP.
y asks the terminal to set the clipboard (OSC 52): xterm, kitty, foot,
WezTerm, iTerm2 do; in tmux set "set -g set-clipboard on".

Examples:
  urlsift pick msg.eml                         a saved message
  urlsift pick --command 'firefox --new-tab' notes.txt   in a new tab
  url=$(urlsift pick --print < notes.txt)      choose one in a script
  mutt (muttrc):
    macro index,pager \cb "<enter-command>unset wait_key<enter><pipe-message>urlsift pick<enter><enter-command>set wait_key<enter>" "pick a link"
  tmux (tmux.conf):
    bind-key u capture-pane -J -b urlsift \; new-window "tmux save-buffer -b urlsift - | urlsift pick; tmux delete-buffer -b urlsift"
  More recipes (slrn, aerc) are in docs/guide.md.

Exit status: 0 if a URL was opened or printed, or the list was seen and
left; 1 if no URL was found (no list is shown); 2 on error: an input that
cannot be read and no URL found, no terminal to show the list on (use
urlsift extract there), a command that cannot run or that fails.
)help";

/// What the user chose on the screen.
struct choice {
    std::optional<std::string> url; ///< to open or print; empty when they quit
    int signal = 0;                 ///< the signal that ended the list, or 0
};

choice run_list(pick_list& list) {
    pick_screen screen;
    pick_keys keys;
    std::string message;
    for (;;) {
        screen.draw(list, keys, message);
        message.clear();
        const std::optional<pick_key> key = screen.next_key();
        if (!key) return {.url = std::nullopt, .signal = screen.stop_signal()};
        switch (keys.handle(list, *key, screen.page())) {
        case pick_action::open: return {.url = list.selected()->url, .signal = 0};
        case pick_action::quit: return {};
        case pick_action::copy:
            screen.copy(list.selected()->url);
            message = "copied to the clipboard (OSC 52)";
            break;
        case pick_action::redraw: screen.repaint(); break;
        case pick_action::refuse: screen.bell(); break;
        case pick_action::none: break;
        }
    }
}

/// Opens `url` with the first of the commands that starts. Returns the exit status.
int open_url(const std::string& url, const std::optional<std::string>& command_option) {
    if (!safe_to_open(url)) {
        std::cerr << "urlsift pick: not opening '" << visible(url) << "': it would be read as an option\n";
        return 2;
    }
    const std::vector<std::string> commands = opener_commands(command_option, std::getenv("BROWSER"));
    // A browser in the terminal (lynx, w3m) reads its keys where pick read
    // them, not from the message piped in.
    struct terminal {
        int fd = isatty(0) ? -1 : ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
        ~terminal() {
            if (fd >= 0) ::close(fd);
        }
    } const tty;
    std::string tried;
    for (const std::string& command : commands) {
        std::string error;
        const auto words = split_command(command, error);
        if (!words) {
            std::cerr << "urlsift pick: cannot run '" << visible(command) << "': " << error << '\n';
            return 2;
        }
        const std::vector<std::string> argv = command_for(*words, url);
        const run_result r = run_command(argv, tty.fd);
        if (!r.started) {
            tried += "\n  " + visible(argv[0]) + ": " + r.error;
            continue;
        }
        if (r.status != 0) {
            std::cerr << "urlsift pick: '" << visible(argv[0]) << "' failed (exit status " << r.status << ") on "
                      << visible(url) << '\n';
            return 2;
        }
        return 0;
    }
    std::cerr << "urlsift pick: no command to open " << visible(url) << " could be started:" << tried
              << "\nGive one with --command or $BROWSER.\n";
    return 2;
}

}  // namespace

namespace {

/// The options of pick, as given.
struct pick_options {
    standard_settings standard;
    std::optional<std::string> command;
    bool print{};
    std::string input;
    bool headers{};
    scan_settings scan;
    std::vector<std::string> operands;
};

constexpr option_row<pick_options> pick_table[] = {
    {{.name = "command", .value = value_kind::command,
      .help = "open the URL with CMD (words split as in sh, %s for the URL; default $BROWSER, else xdg-open)"},
     &pick_options::command},
    {{.name = "print", .help = "print the URL chosen on standard output instead of opening it"},
     &pick_options::print},
    {{.name = "input", .value = value_kind::choice, .help = input_help, .help_more = "auto", .default_value = "auto",
      .choices = input_choices},
     &pick_options::input},
    {{.name = "headers", .help = headers_help},
     &pick_options::headers},
};

void add_options(option_set& set, pick_options& o) {
    set.add(standard_options, o.standard);
    set.add(pick_table, o);
    add_scan_options(set, o.scan, abbrev_help::all_but_ipv4);
}

}  // namespace

const command_spec pick_command{
    .name = "pick",
    .summary = "choose a URL on a full-screen list and open, copy or print it",
    .usage = usage,
    .epilog = epilog,
    .operands = operand_kind::files,
    .run = cmd_pick,
    .list_options = [](option_set& set) {
        static pick_options unused;
        add_options(set, unused);
    },
};

int cmd_pick(const args& a) {
    pick_options o;
    option_set set;
    add_options(set, o);
    parse_command_line("pick", a, set, o.operands);
    if (answered_help_or_version(o.standard, pick_command, set)) return 0;
    const scan_settings& ss = o.scan;

    pick_input_settings in;
    in.input = parse_input_setting("pick", o.input);
    in.headers = o.headers;
    in.scan.scan = make_scan_options("pick", ss, abbrev_default);
    in.scan.resolve = make_resolve_options("pick", ss);
    in.memory = make_memory_cap("pick", ss);
    // make_base checks --base and says what is wrong with a bad one.
    if (const auto b = make_base("pick", ss)) in.scan.base = b->base();
    const bool print = o.print;
    std::optional<std::string> command_option;
    if (o.command) {
        std::string error;
        if (!split_command(*o.command, error)) throw usage_error("pick", "--command: " + error);
        command_option = *o.command;
    }

    std::vector<std::string> files = o.operands;
    if (files.empty()) files.emplace_back("-");
    pick_list list;
    bool failed = false;
    input_bases bases("pick", ss);
    for (const auto& f : files) {
        std::string note, error;
        if (bases.per_input()) {
            const resolver* b = bases.for_input(f, error);
            in.scan.base = b ? b->base() : std::string();
        }
        if (error.empty()) error = read_pick_input(f, in, list, note);
        const std::string name = f == "-" ? "(standard input)" : f;
        if (!error.empty()) {
            std::cerr << "urlsift pick: " << visible(name) << ": " << error << '\n';
            failed = true;
        }
        if (!note.empty()) std::cerr << "urlsift pick: " << visible(name) << ": " << note << '\n';
    }
    if (list.items().empty()) {
        if (!failed) std::cerr << "urlsift pick: no URLs found\n";
        return failed ? 2 : 1;
    }

    // The locale's charset, so that ncurses draws UTF-8 text as text.
    std::setlocale(LC_CTYPE, "");
    choice chosen;
    try {
        chosen = run_list(list);
    } catch (const no_terminal& e) {
        std::cerr << "urlsift pick: " << e.what()
                  << "\nurlsift pick needs a terminal to show its list; 'urlsift extract' lists the URLs without one.\n";
        return 2;
    }
    if (chosen.signal != 0) {
        // The terminal is restored: now end as the signal would have.
        std::signal(chosen.signal, SIG_DFL);
        std::raise(chosen.signal);
        return 128 + chosen.signal;
    }
    if (!chosen.url) return 0;
    if (print) {
        std::cout << *chosen.url << '\n' << std::flush;
        if (!std::cout) throw std::runtime_error("cannot write the URL to standard output");
        return 0;
    }
    return open_url(*chosen.url, command_option);
}

}  // namespace urlsift::cli
