#pragma once
// What the generated files document: urlsift and each command, with the
// options of their tables and the help the tool prints.

#include "cli/commands.hpp"
#include "cli/option_spec.hpp"

#include <string>
#include <vector>

namespace urlsift::cli::gen {

struct documented_command {
    /// The command, or null for urlsift itself.
    const command_spec* command = nullptr;
    std::vector<const option_spec*> options; ///< in --help order
    std::string help;                        ///< what --help prints
};

/// urlsift's own entry (command null), then each command's, in the order
/// `urlsift --help` lists them.
std::vector<documented_command> documented_commands();

}  // namespace urlsift::cli::gen
