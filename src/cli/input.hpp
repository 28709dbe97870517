#pragma once
// Which inputs to read, the way grep finds them: files, `-` for standard
// input, directories walked with -r. Reading them is text_source's job.

#include <string>
#include <vector>

namespace urlsift::cli {

/// An input that could not be read, with a message for the user.
struct input_error {
    std::string path;
    std::string message;
};

/// Expands the operands into the files to read, in order. With `recursive`,
/// a directory is walked (sorted, symlinks not followed below the top);
/// without it a directory is reported in `errors`. No operands means "-".
std::vector<std::string> expand_operands(const std::vector<std::string>& operands, bool recursive,
                                         std::vector<input_error>& errors);

}  // namespace urlsift::cli
