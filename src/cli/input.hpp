#pragma once
// Which inputs to read, the way grep finds them: files, `-` for standard
// input, directories walked with -r. Reading them is text_source's job.

#include <urlsift/text_source.hpp>

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

/// Removes from `files` the inputs that are the file the output goes to
/// (`out_fd`, standard output unless `-o` named a file: `urlsift extract -r
/// dir > dir/out`), each reported in `errors` as grep reports it: reading
/// the output would feed on itself.
void skip_output_file(std::vector<std::string>& files, std::vector<input_error>& errors, int out_fd = 1);

/// What to tell the user about how an input was read, beyond its result:
/// binary input that looks like UTF-16 text, input that does not look like
/// the --encoding given, sequences the charset could not read. Each string
/// is one message ("it looks like UTF-16LE text: use --encoding utf-16le");
/// none for an input read as expected.
std::vector<std::string> reading_notes(const text_read& got, const text_source& source);

}  // namespace urlsift::cli
