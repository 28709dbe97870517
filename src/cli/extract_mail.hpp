#pragma once
// `urlsift extract --input mail|mbox|auto`: the references of messages and
// mailboxes, with the part, header and message each came from. Kept apart
// from cmd_extract.cpp, which calls it when --input is not `text`.

#include "cli/options.hpp"
#include "cli/scan_settings.hpp"
#include "cli/walk.hpp"

#include <urlsift/mail.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// The mail options of `extract`, as Boost.Program_options stores them.
struct mail_settings {
    std::string input = "text"; ///< --input: text, mail, mbox or auto
    bool headers = false;       ///< --headers: header URLs in text, csv and tsv output too
};

/// Adds --input and --headers to `opts`, storing into `s`.
void add_mail_options(po::options_description& opts, mail_settings& s);

/// Checks an --input value of `command`: text, mail, mbox or auto; throws
/// usage_error naming the choices otherwise.
void check_input_kind(std::string_view command, const std::string& kind);

/// How `--input KIND` reads an input that starts with `head`: `mbox` as a
/// mailbox; `mail` as a message, or a mailbox when it starts with a `From `
/// line; `auto` as sniff_mail sees it. nullopt: as plain text.
std::optional<mail_format> input_format(std::string_view kind, std::string_view head);

/// Runs `extract` over `files` as mail: `mail.input` is `mail` (one message
/// a file; a file that starts with `From ` is read as a mailbox), `mbox`, or
/// `auto` (each input by its first bytes: mbox, message, else plain text as
/// `--input text` reads it). `vm` holds extract's other options, `ss` its
/// scan options; `errors` are the operands that could not be expanded.
/// Returns the exit status: 0 something found, 1 nothing, 2 an error.
int extract_mail(const po::variables_map& vm, const mail_settings& mail, const scan_settings& ss,
                 const std::vector<std::string>& files, const std::vector<input_error>& errors);

}  // namespace urlsift::cli
