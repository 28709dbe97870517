#pragma once
// Mail inputs (--input mail|mbox|auto), for every command that reads them:
// their options and how one is opened.

#include "cli/input_kind.hpp"
#include "cli/option_table.hpp"

#include <urlsift/mail.hpp>

#include <functional>
#include <string>

namespace urlsift::cli {

/// The mail options of a command.
struct mail_settings {
    std::string input; ///< --input (input_kind.hpp); empty when not given
    bool headers = false;       ///< --headers: header URLs in text, csv and tsv output too
};

/// The help of --headers, which pick shares.
inline constexpr std::string_view headers_help =
    "list URLs from List-*, Archived-At, Content-Base and Content-Location headers too";

/// Adds --input and --headers to `set`, storing into `s`.
void add_mail_options(option_set& set, mail_settings& s);

/// Receives the messages of an input read as mail, with the format it
/// was read in; false stops the reading.
using mail_input_sink = std::function<bool(mail_message&, mail_format)>;
/// Reads an input that is not mail (decide_input), as `kind` (text,
/// markdown or html): given its bytes when they were read whole (a pipe, a
/// decompressed file), else nullptr (read the path); returns an error
/// message or "".
using text_input_sink = std::function<std::string(const std::string* whole, input_kind kind)>;

/// Reads `path` (`-`: standard input) as `--input` says (decide_input),
/// decompressed with `decompress` (-z): messages to `messages`, their HTML
/// parts read within `parse_memory` (read_mail), other input to `text`.
/// Returns an error message, or "".
std::string read_as_mail(const std::string& path, input_setting setting, bool decompress, std::size_t parse_memory,
                         const mail_input_sink& messages, const text_input_sink& text);

}  // namespace urlsift::cli
