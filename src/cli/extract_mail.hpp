#pragma once
// `urlsift extract --input mail|mbox|auto`: the references of messages and
// mailboxes, with the part, header and message each came from. Kept apart
// from cmd_extract.cpp, which calls it when --input is not `text`.

#include "cli/input_kind.hpp"
#include "cli/options.hpp"
#include "cli/scan_settings.hpp"
#include "cli/walk.hpp"

#include <urlsift/mail.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// The mail options of `extract`, as Boost.Program_options stores them.
struct mail_settings {
    std::string input; ///< --input (input_kind.hpp); empty when not given
    bool headers = false;       ///< --headers: header URLs in text, csv and tsv output too
};

/// Adds --input and --headers to `opts`, storing into `s`.
void add_mail_options(po::options_description& opts, mail_settings& s);

/// Receives the messages of an input read as mail, with the format it
/// was read in; false stops the reading.
using mail_input_sink = std::function<bool(mail_message&, mail_format)>;
/// Reads an input that is not mail (decide_input), as `kind` (text,
/// markdown or html): given its bytes when they were read whole (a pipe, a
/// decompressed file), else nullptr (read the path); returns an error
/// message or "".
using text_input_sink = std::function<std::string(const std::string* whole, input_kind kind)>;

/// Reads `path` (`-`: standard input) as `--input` says (decide_input),
/// decompressed with `decompress` (-z): messages to `messages`, other
/// input to `text`. Returns an error message, or "".
std::string read_as_mail(const std::string& path, input_setting setting, bool decompress,
                         const mail_input_sink& messages, const text_input_sink& text);

/// Runs `extract` over `files` as mail: `mail.input` is `mail` (one message
/// a file; a file that starts with `From ` is read as a mailbox), `mbox`, or
/// `auto` (each input by its first bytes: mbox, message, else plain text as
/// `--input text` reads it). `vm` holds extract's other options, `ss` its
/// scan options; `errors` are the operands that could not be expanded.
/// Returns the exit status: 0 something found, 1 nothing, 2 an error.
int extract_mail(const po::variables_map& vm, const mail_settings& mail, const scan_settings& ss,
                 const std::vector<std::string>& files, const std::vector<input_error>& errors);

}  // namespace urlsift::cli
