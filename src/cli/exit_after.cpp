#include "cli/exit_after.hpp"

namespace urlsift::cli {

namespace {
bool exits = false;
// Volatile: a store the program never reads back would be optimized away.
const void* volatile kept = nullptr;
}  // namespace

void exit_after_command() noexcept { exits = true; }

bool exits_after_command() noexcept { return exits; }

void keep_until_exit(const void* p) noexcept { kept = p; }

}  // namespace urlsift::cli
