#pragma once
// Reading inputs the way grep does: files, `-` for standard input,
// directories walked with -r.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// An input that could not be read, with a message for the user.
struct input_error {
    std::string path;
    std::string message;
};

/// Reads `path` ("-" is standard input) in large blocks and calls `on_chunk`
/// for each, until the end or until it returns false. Returns a description
/// of the failure, or an empty string on success. A directory is a failure
/// ("Is a directory"), as in grep without -r.
std::string read_chunks(const std::string& path, const std::function<bool(std::string_view)>& on_chunk);

/// Expands the operands into the files to read, in order. With `recursive`,
/// a directory is walked (sorted, symlinks not followed below the top);
/// without it a directory is reported in `errors`. No operands means "-".
std::vector<std::string> expand_operands(const std::vector<std::string>& operands, bool recursive,
                                         std::vector<input_error>& errors);

}  // namespace urlsift::cli
