#include "cli/input.hpp"

#include <cctype>
#include <cstdint>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift::cli {

namespace {

constexpr option_row<reading_settings> reading_options[] = {
    {{.name = "binary", .value = value_kind::choice, .help = "files with a NUL byte: skip (default) or text",
      .default_value = "skip", .choices = binary_choices},
     &reading_settings::binary},
    {{.name = "encoding", .value = value_kind::text,
      .help = "charset of the input: utf-8 (default), latin1, windows-1252, ...", .default_value = "utf-8",
      .choices = encoding_suggestions, .value_name = "CHARSET"},
     &reading_settings::encoding},
    {search_zip_option, &reading_settings::search_zip},
};

}  // namespace

void add_reading_options(option_set& set, reading_settings& s) { set.add(reading_options, s); }

output_file::output_file(int out_fd) {
    struct stat out {};
    if (::fstat(out_fd, &out) != 0 || !S_ISREG(out.st_mode)) return;
    regular_ = true;
    dev_ = out.st_dev;
    ino_ = out.st_ino;
}

output_file::output_file(const struct stat& out)
    : regular_(S_ISREG(out.st_mode)), dev_(out.st_dev), ino_(out.st_ino) {}

bool output_file::is(const std::string& path, std::vector<input_error>& errors) const {
    if (!regular_) return false;
    struct stat in {};
    const int got = path == "-" ? ::fstat(STDIN_FILENO, &in) : ::stat(path.c_str(), &in);
    if (got != 0 || in.st_dev != dev_ || in.st_ino != ino_) return false;
    errors.push_back({path == "-" ? "(standard input)" : path, "input file is also the output: skipped"});
    return true;
}

void skip_output_file(std::vector<std::string>& files, std::vector<input_error>& errors, int out_fd) {
    const output_file output(out_fd);
    std::erase_if(files, [&](const std::string& f) { return output.is(f, errors); });
}

void skip_output_file(std::vector<listed_file>& files, std::vector<input_error>& errors, int out_fd) {
    const output_file output(out_fd);
    std::erase_if(files, [&](const listed_file& f) { return output.is(f.path, errors); });
}

std::vector<std::string> reading_notes(const text_read& got, const text_source& source,
                                       std::string_view compressed_hint) {
    std::vector<std::string> notes;
    if (got.what == text_read::status::binary && !got.compression.empty() && !source.decompresses()) {
        notes.push_back("it is " + got.compression + "-compressed: " + std::string(compressed_hint));
    } else if (got.what == text_read::status::binary && !got.looks_like.empty()) {
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

namespace {

/// What one read of the input stage hands on, kept whole up to `limit`
/// bytes: `read` reads from the source it is given, with the consumer it
/// is given.
template <class Read>
bounded_read whole_bytes(bool decompress, std::size_t limit, const past_limit& past, std::string& error,
                         const Read& read) {
    auto source = text_source::open({.binary_as_text = true, .decompress = decompress}, error);
    bounded_read held;
    const text_read got = read(*source, [&](std::string_view piece) {
        if (held.over) return past(piece);
        if (piece.size() <= limit - held.bytes.size()) {
            held.bytes.append(piece);
            return true;
        }
        held.over = true;
        const bool more = past(held.bytes) && past(piece);
        std::string().swap(held.bytes);
        return more;
    });
    if (got.what == text_read::status::failed) {
        error = got.error;
        return {};
    }
    return held;
}

const past_limit no_limit = [](std::string_view) { return true; };

}  // namespace

std::string read_whole(const std::string& path, std::string& error, bool decompress) {
    return std::move(read_whole_within(path, SIZE_MAX, no_limit, error, decompress).bytes);
}

std::string read_whole(int fd, std::string& error, bool decompress) {
    return std::move(read_whole_within(fd, SIZE_MAX, no_limit, error, decompress).bytes);
}

bounded_read read_whole_within(const std::string& path, std::size_t limit, const past_limit& past, std::string& error,
                               bool decompress) {
    return whole_bytes(decompress, limit, past, error,
                       [&](text_source& s, const text_consumer& take) { return s.read_file(path, take); });
}

bounded_read read_whole_within(int fd, std::size_t limit, const past_limit& past, std::string& error,
                               bool decompress) {
    return whole_bytes(decompress, limit, past, error,
                       [&](text_source& s, const text_consumer& take) { return s.read_fd(fd, take); });
}

std::string peek_head(const std::string& path, std::size_t size) {
    if (path == "-") return {};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return {};
    std::string head;
    struct stat sb {};
    if (::fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        head.resize(size);
        const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
        head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    }
    ::close(fd);
    return head;
}

}  // namespace urlsift::cli
