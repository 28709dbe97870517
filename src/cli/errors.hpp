#pragma once
// Exceptions the CLI layer uses for its environment; main() turns each into
// a message on stderr and an exit status.

#include <stdexcept>
#include <utility>
#include <string>

namespace urlsift::cli {

/// A wrong option or option value: "urlsift CMD: MESSAGE" plus a hint to run
/// `urlsift CMD --help`; exit status 2.
struct usage_error : std::runtime_error {
    usage_error(std::string cmd, const std::string& message)
        : std::runtime_error(message), command(std::move(cmd)) {}
    std::string command;
};

/// The reader of our output went away (EPIPE): stop quietly.
struct broken_pipe {};

}  // namespace urlsift::cli
