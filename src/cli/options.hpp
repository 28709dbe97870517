#pragma once
// Command-line parsing shared by the subcommands, on Boost.Program_options.

#include "cli/commands.hpp"
#include "cli/option_table.hpp"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// --help and --version, which every command takes.
struct standard_settings {
    bool help{};
    bool version{};
};
inline constexpr option_row<standard_settings> standard_options[] = {
    {{.name = "help", .short_name = 'h', .help = "show this help and exit"}, &standard_settings::help},
    {{.name = "version", .short_name = 'V', .help = "show the version and exit"}, &standard_settings::version},
};

/// Parses `a` for `command` with the options of `set`, storing into the
/// fields they are bound to, and the operands into `operands`. Unknown
/// options, missing values and bad conversions become a usage_error that
/// names the option. A repeated option takes its last value, unless it is
/// repeatable.
void parse_command_line(std::string_view command, const args& a, const option_set& set,
                        std::vector<std::string>& operands);

/// Writes the help of `command`: its usage (a synopsis with a short
/// description), the option table of `set` and its epilog.
void print_help(std::ostream& out, const command_spec& command, const option_set& set);

/// Prints "urlsift VERSION" to standard output.
void print_version();

/// Answers --help (with print_help) or --version when `s` asks for either,
/// and says whether it did: the command then exits with status 0.
bool answered_help_or_version(const standard_settings& s, const command_spec& command, const option_set& set);

/// Output formats for listings.
enum class format { text, jsonl, csv, tsv };
/// Parses a --format value, accepting only those in `allowed` (e.g.
/// "text|jsonl"); throws usage_error naming the allowed values otherwise.
format parse_format(std::string_view command, const std::string& value, std::string_view allowed);

/// Parses a --binary value: true for `text` (scan files with NUL bytes as
/// text), false for `skip`; throws usage_error otherwise.
bool parse_binary_as_text(std::string_view command, const std::string& value);

}  // namespace urlsift::cli
