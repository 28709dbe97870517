#pragma once
// The subcommands of the urlsift tool. Each takes the arguments after its
// name and returns the exit status: 0 found or done, 1 nothing found, 2 error.

#include <string>
#include <vector>

namespace urlsift::cli {

using args = std::vector<std::string>;

int cmd_extract(const args& a);
int cmd_rewrite(const args& a);
int cmd_resolve(const args& a);
int cmd_report(const args& a);
int cmd_pick(const args& a);

}  // namespace urlsift::cli
