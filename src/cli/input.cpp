#include "cli/input.hpp"

#include "cli/atomic_file.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift::cli {

std::vector<std::string> expand_operands(const std::vector<std::string>& operands, bool recursive,
                                         std::vector<input_error>& errors) {
    namespace fs = std::filesystem;
    if (operands.empty()) return {"-"};
    std::vector<std::string> files;
    for (const auto& op : operands) {
        std::error_code ec;
        if (op == "-" || !fs::is_directory(op, ec)) {
            files.push_back(op);
            continue;
        }
        if (!recursive) {
            errors.push_back({op, "Is a directory (use -r to read the files in it)"});
            continue;
        }
        std::vector<std::string> found;
        fs::recursive_directory_iterator it(op, fs::directory_options::skip_permission_denied, ec), end;
        if (ec) {
            errors.push_back({op, ec.message()});
            continue;
        }
        for (; it != end; it.increment(ec)) {
            if (ec) {
                errors.push_back({it->path().string(), ec.message()});
                break;
            }
            std::error_code fec;
            // A temporary file an interrupted in-place edit left behind is
            // no input of its own.
            if (it->is_regular_file(fec) && !atomic_file::is_temporary_name(it->path().filename().string()))
                found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

void skip_output_file(std::vector<std::string>& files, std::vector<input_error>& errors, int out_fd) {
    struct stat out {};
    if (::fstat(out_fd, &out) != 0 || !S_ISREG(out.st_mode)) return;
    std::erase_if(files, [&](const std::string& f) {
        struct stat in {};
        const int got = f == "-" ? ::fstat(STDIN_FILENO, &in) : ::stat(f.c_str(), &in);
        if (got != 0 || in.st_dev != out.st_dev || in.st_ino != out.st_ino) return false;
        errors.push_back({f == "-" ? "(standard input)" : f, "input file is also the output: skipped"});
        return true;
    });
}

std::vector<std::string> reading_notes(const text_read& got, const text_source& source) {
    std::vector<std::string> notes;
    if (got.what == text_read::status::binary && !got.looks_like.empty()) {
        std::string option = got.looks_like;
        for (char& c : option) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        notes.push_back("it looks like " + got.looks_like + " text: use --encoding " + option);
    } else if (got.looks_like == "8-bit") {
        notes.push_back("it has no NUL byte, so it is probably not " + source.charset() +
                        " text: check --encoding (utf-8 is the default)");
    }
    if (got.invalid_sequences > 0)
        notes.push_back(std::to_string(got.invalid_sequences) +
                        (got.invalid_sequences == 1 ? " byte sequence is" : " byte sequences are") + " not valid " +
                        source.charset() + " and read as U+FFFD: check --encoding");
    return notes;
}

}  // namespace urlsift::cli
