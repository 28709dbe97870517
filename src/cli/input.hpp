#pragma once
// Inputs as the commands read them: the output file kept out of the
// inputs, and notes on how an input was read. Which inputs to read is
// walk.hpp's job, reading them text_source's.

#include "cli/option_table.hpp"
#include "cli/walk.hpp"

#include <urlsift/text_source.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/stat.h>
#include <sys/types.h>

namespace urlsift::cli {

/// How files are read as text: --binary, --encoding and -z.
struct reading_settings {
    std::string binary;   ///< skip or text
    std::string encoding; ///< a charset ICU knows
    bool search_zip{};    ///< -z: compressed files read as what they hold
};

/// The charsets the tool suggests for a name it does not know, which the
/// completions offer for --encoding (any charset ICU knows is taken).
inline constexpr std::string_view encoding_suggestions[] = {"utf-8",    "latin1",  "windows-1252", "iso-8859-15",
                                                            "utf-16le", "utf-16be", "shift_jis",   "euc-jp",
                                                            "gb18030",  "koi8-r"};
/// The values of --binary.
inline constexpr std::string_view binary_choices[] = {"skip", "text"};

/// -z, as extract and report read compressed files.
inline constexpr option_spec search_zip_option{.name = "search-zip", .short_name = 'z',
                                               .help = "read gzip, bzip2, xz and zstd files as the text they hold"};
/// -s, as grep has it.
inline constexpr option_spec no_messages_option{
    .name = "no-messages", .short_name = 's', .help = "no messages about files that cannot be read (exit status still 2)"};

/// Adds --binary, --encoding and -z to `set`, storing into `s`.
void add_reading_options(option_set& set, reading_settings& s);

/// Tells the inputs that are the file the output goes to (`out_fd`,
/// standard output unless `-o` named a file: `urlsift extract -r dir >
/// dir/out`): reading the output would feed on itself.
class output_file {
public:
    explicit output_file(int out_fd = 1);
    /// The output is the file `out` is the status of (`-o FILE`, whose new
    /// version is written beside it and renamed over it).
    explicit output_file(const struct stat& out);
    /// Whether `path` is the output; if so it is reported in `errors` as
    /// grep reports it.
    bool is(const std::string& path, std::vector<input_error>& errors) const;

private:
    bool regular_ = false; ///< only a regular file can be read back
    dev_t dev_ = 0;
    ino_t ino_ = 0;
};

/// Removes from `files` the inputs that are the output file.
void skip_output_file(std::vector<std::string>& files, std::vector<input_error>& errors, int out_fd = 1);
void skip_output_file(std::vector<listed_file>& files, std::vector<input_error>& errors, int out_fd = 1);

/// What to tell the user about how an input was read, beyond its result:
/// binary input that looks like UTF-16 text, input that does not look like
/// the --encoding given, sequences the charset could not read. Each string
/// is one message ("it looks like UTF-16LE text: use --encoding utf-16le");
/// none for an input read as expected. A compressed input left unread is
/// named so, with `compressed_hint` telling what to do.
std::vector<std::string> reading_notes(const text_read& got, const text_source& source,
                                       std::string_view compressed_hint = "use -z to read the text it holds");

/// The whole of `path` (`-`: standard input) as bytes, read through the
/// input stage with no charset and no binary test; `decompress` as -z.
/// Empty, with `error` set, when it cannot be read.
std::string read_whole(const std::string& path, std::string& error, bool decompress = false);
/// The same, from the open file descriptor `fd`, which stays open.
std::string read_whole(int fd, std::string& error, bool decompress = false);

/// What read_whole_within held: the whole input, or nothing (`over`) when
/// it is larger than the limit.
struct bounded_read {
    std::string bytes;
    bool over = false;
};
/// Receives the input past the limit a piece at a time; false to stop.
using past_limit = std::function<bool(std::string_view)>;
/// read_whole, holding at most `limit` bytes: once the input goes past
/// them, what was held and every later piece go to `past`, and nothing is
/// held, so that memory stays bounded.
bounded_read read_whole_within(const std::string& path, std::size_t limit, const past_limit& past, std::string& error,
                               bool decompress = false);
bounded_read read_whole_within(int fd, std::size_t limit, const past_limit& past, std::string& error,
                               bool decompress = false);

/// The first `size` bytes of the regular file `path`, as they are on disk
/// (for deciding how it is read); empty for standard input, anything but
/// a regular file, and a file that cannot be read (reading it says why).
std::string peek_head(const std::string& path, std::size_t size = 64 * 1024);

}  // namespace urlsift::cli
