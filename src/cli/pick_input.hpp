#pragma once
// The inputs of `urlsift pick` become its list: each read whole (a message
// piped by a mail reader is read once, and `auto` looks at its start),
// through the mail stage when it is a message or a mailbox, else through
// the scanner as text, with the line each URL was found on.

#include "cli/input_kind.hpp"
#include "cli/scan_settings.hpp"
#include "cli/pick_list.hpp"

#include <urlsift/mail.hpp>

#include <string>

namespace urlsift::cli {

/// How pick reads its inputs.
struct pick_input_settings {
    input_setting input = input_setting::automatic; ///< --input (input_kind.hpp)
    bool headers = false;      ///< --headers: URLs of List-*, Archived-At, ... too
    mail_scan_options scan;    ///< scanner and resolver options; `scan.base` is --base
    memory_cap memory{};       ///< --max-memory
};

/// Reads `path` (`-`: standard input) and adds its absolute URLs to `list`,
/// each with the line it was found on (for an HTML link, the link's text;
/// for a header URL, the header's name). A relative reference that no base
/// resolves is left out, as extract leaves it out. Returns "" or what went
/// wrong, ready for a message; binary input is skipped with `note` set.
std::string read_pick_input(const std::string& path, const pick_input_settings& settings, pick_list& list,
                            std::string& note);

}  // namespace urlsift::cli
