#pragma once
// The subcommands of the urlsift tool. Each takes the arguments after its
// name and returns the exit status: 0 found or done, 1 nothing found, 2 error.

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

using args = std::vector<std::string>;

int cmd_extract(const args& a);
int cmd_rewrite(const args& a);
int cmd_resolve(const args& a);
int cmd_report(const args& a);
int cmd_pick(const args& a);

class option_set;

/// What a command's operands are, for the completions.
enum class operand_kind : unsigned char { files, references };

/// A command as --help, the manual pages and the completions describe it.
struct command_spec {
    std::string_view name{};
    std::string_view summary{}; ///< its line in `urlsift --help` and its manual page's NAME
    std::string_view usage{};   ///< --help before the options: Usage: lines and what it does
    std::string_view epilog{};  ///< --help after the options: formats, examples, exit status
    operand_kind operands{};
    int (*run)(const args&){};
    /// Adds the command's options to a set, in --help order, bound to
    /// settings that are never read (for the help and the generated files).
    void (*list_options)(option_set&){};
};

extern const command_spec extract_command;
extern const command_spec rewrite_command;
extern const command_spec resolve_command;
extern const command_spec report_command;
extern const command_spec pick_command;

/// The commands, in the order `urlsift --help` lists them.
std::span<const command_spec* const> all_commands() noexcept;

/// urlsift's own help: usage, the commands, -h and -V, examples.
void print_overview(std::ostream& out);

}  // namespace urlsift::cli
