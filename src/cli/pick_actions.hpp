#pragma once
// What `urlsift pick` does with the URL chosen: run a command on it (never
// through a shell: the URL is one word of the command's argv, whatever it
// holds), or copy it to the terminal's clipboard with OSC 52.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// Splits a command into words as a shell would, without running one:
/// blanks separate words, '...' quotes literally, "..." quotes with `\"`
/// and `\\` escaped, a backslash outside quotes takes the next character.
/// nullopt, with `error` set, for an unclosed quote or a command of no words.
std::optional<std::vector<std::string>> split_command(std::string_view command, std::string& error);

/// The commands to try in turn: `--command` when given, else each
/// ':'-separated entry of $BROWSER (`browser`, null when unset), else xdg-open.
std::vector<std::string> opener_commands(const std::optional<std::string>& option, const char* browser);

/// The argv that opens `url` with `words`: each `%s` in a word becomes the
/// URL (`%%` a single %), as $BROWSER entries have it; with no `%s` the URL
/// is the last word.
std::vector<std::string> command_for(const std::vector<std::string>& words, std::string_view url);

/// Whether `url` may be handed to a command: not empty and not starting
/// with '-', which a command would take for an option.
bool safe_to_open(std::string_view url);

/// What running a command came to.
struct run_result {
    bool started = false; ///< the program was found and started
    int status = 0;       ///< its exit status, or 128 + the signal that ended it
    std::string error;    ///< when not started: why ("No such file or directory")
};

/// Runs `argv` (no shell) with its standard input from `tty_fd` (the
/// terminal: a browser in the terminal reads keys from it; -1 keeps ours)
/// and waits for it, as system() does: SIGINT and SIGQUIT are ignored
/// meanwhile and the command gets them at their defaults.
run_result run_command(const std::vector<std::string>& argv, int tty_fd);

/// The OSC 52 sequence that asks a terminal to put `text` on the clipboard:
/// ESC ] 52 ; c ; BASE64 BEL.
std::string osc52_copy(std::string_view text);

}  // namespace urlsift::cli
