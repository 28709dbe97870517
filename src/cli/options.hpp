#pragma once
// Command-line parsing shared by the subcommands, on Boost.Program_options.

#include "cli/commands.hpp"

#include <boost/program_options.hpp>

#include <string>
#include <string_view>

namespace urlsift::cli {

namespace po = boost::program_options;

/// Parses `a` for `command` with the named options in `visible` and the
/// operands collected under `positional_name`. Unknown options, missing
/// values and bad conversions become a usage_error that names the option.
/// A repeated option takes its last value, unless it is composing.
po::variables_map parse_command_line(std::string_view command, const args& a, const po::options_description& visible,
                                     const char* positional_name);

/// Prints `usage` (a synopsis with a short description) followed by the
/// option table and `epilog` (examples) to standard output.
void print_help(std::string_view usage, const po::options_description& visible, std::string_view epilog);

/// Prints "urlsift VERSION" to standard output.
void print_version();

/// Answers --help (with print_help) or --version when `vm` holds either,
/// and says whether it did: the command then exits with status 0.
bool answered_help_or_version(const po::variables_map& vm, std::string_view usage,
                              const po::options_description& visible, std::string_view epilog);

/// Output formats for listings.
enum class format { text, jsonl, csv, tsv };
/// Parses a --format value, accepting only those in `allowed` (e.g.
/// "text|jsonl"); throws usage_error naming the allowed values otherwise.
format parse_format(std::string_view command, const std::string& value, std::string_view allowed);

/// Parses a --binary value: true for `text` (scan files with NUL bytes as
/// text), false for `skip`; throws usage_error otherwise.
bool parse_binary_as_text(std::string_view command, const std::string& value);

}  // namespace urlsift::cli
