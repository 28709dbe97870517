#pragma once
// The shell completions of urlsift, one script a shell, made from the
// option tables: the commands, their options, the values of options with
// choices, and file names where a command or an option takes them.

#include "cli/gen/documented.hpp"

#include <string>
#include <vector>

namespace urlsift::cli::gen {

/// share/bash-completion/completions/urlsift
std::string bash_completion(const std::vector<documented_command>& all);
/// share/zsh/site-functions/_urlsift
std::string zsh_completion(const std::vector<documented_command>& all);
/// share/fish/vendor_completions.d/urlsift.fish
std::string fish_completion(const std::vector<documented_command>& all);

}  // namespace urlsift::cli::gen
