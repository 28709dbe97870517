#pragma once
// A manual page (man(7) macros) for urlsift or one of its commands.

#include "cli/gen/documented.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli::gen {

/// What every page shares.
struct man_context {
    std::string_view summary; ///< the NAME line of urlsift(1)
    std::string_view version;
    std::string_view date; ///< YYYY-MM-DD, or empty for none
    const std::vector<documented_command>* all = nullptr;
};

/// The page of `d`. Its OPTIONS come from the option table; the other
/// sections from the help text, read by its shape:
///
///   Usage: urlsift extract [OPTIONS] ...     SYNOPSIS, with the indented
///          urlsift ...                       lines right after it
///   paragraphs of prose                      DESCRIPTION
///   Heading:  (a line of its own), then      Examples -> EXAMPLES,
///     indented lines, up to the next         Commands -> COMMANDS,
///     line that is not indented              Options -> left out (the table
///                                            gives OPTIONS), any other a
///                                            subsection of DESCRIPTION
///   Exit status: ... (a paragraph)           EXIT STATUS
///
/// Indented lines are read by their shape: "term   text" (text continued
/// deeper) a tagged paragraph, "- text" a bullet, "$ command" and the
/// lines below it a verbatim example, any other an indented line of prose.
std::string man_page(const documented_command& d, const man_context& context);

/// The file name of the page of `d`: urlsift.1, urlsift-extract.1.
std::string man_page_name(const documented_command& d);

}  // namespace urlsift::cli::gen
