#pragma once
// What one command-line option is: the one description from which the
// parser, --help, the manual pages and the shell completions are all made.
// A command lists its options in tables of these (option_table.hpp);
// nothing else spells an option's help.

#include <span>
#include <string_view>

namespace urlsift::cli {

/// What an option takes, and so what a shell offers after it.
enum class value_kind : unsigned char {
    none,        ///< a switch: nothing
    text,        ///< any word; `choices`, when there are some, are suggestions only
    number,      ///< an integer
    size,        ///< a size with an optional unit (64M)
    choice,      ///< one of `choices`
    choice_list, ///< a comma-separated list of `choices`, or one of `alone`
    file,        ///< a file name
    directory,   ///< a directory name
    url,         ///< a URL
    command,     ///< a command line
    glob,        ///< a file-name pattern
};

/// One option. Invariants: `name` is the long name without `--`, unique in
/// a command; `short_name` is 0 or a letter or digit; `choices` is empty for
/// `none`; `alone` is empty but for `choice_list`.
struct option_spec {
    std::string_view name{};
    char short_name{};
    value_kind value{value_kind::none};
    /// The help text, as --help shows it: `help` then `help_more` (a part
    /// that two options share, such as the choices of --input).
    std::string_view help{};
    std::string_view help_more{};
    /// The value when the option is not given, as typed; empty when there
    /// is none or the command tells "not given" apart.
    std::string_view default_value{};
    std::span<const std::string_view> choices{};
    std::span<const std::string_view> alone{};
    /// Long names of the options this one makes pointless (-l and -L,
    /// --dry-run and --diff): zsh stops offering them once it is given.
    std::span<const std::string_view> excludes{};
    bool repeatable{};     ///< each use adds a value (--include); otherwise the last one wins
    bool optional_value{}; ///< a switch that may carry a value attached (-iSUFFIX, --in-place=SUFFIX)
    /// What the value stands for in the manual (FILE, NUM); empty: from `value`.
    std::string_view value_name{};
};

/// The placeholder the manual shows for the value of `o`.
std::string_view value_name(const option_spec& o) noexcept;

/// A short description of `o` for a completion menu: its help up to the
/// first ": " (outside parentheses), or "; " or " (" after its first 20
/// characters; at most about 70 characters.
std::string_view brief_help(const option_spec& o) noexcept;

}  // namespace urlsift::cli
