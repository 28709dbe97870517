#pragma once
// How each input is read: the one place that turns --input and what an
// input is (its name, its first bytes) into a reading.

#include "cli/option_spec.hpp"

#include <urlsift/document.hpp>
#include <urlsift/mail.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace urlsift::cli {

/// What --input asks for.
enum class input_setting {
    unset,     ///< not given: as `documents` for a named file, as `text` for standard input
    text,      ///< everything as plain text
    markdown,  ///< everything as Markdown
    html,      ///< everything as HTML
    code,      ///< everything as source code or configuration, in the language its name or `#!` line says
    mail,      ///< a message, or a mailbox when it starts with a `From ` line
    mbox,      ///< a mailbox
    automatic, ///< `auto`: Markdown, HTML or code by name, then mail, HTML, code (`#!`) or text by content
};

/// How one input is read.
enum class input_kind { text, markdown, html, code, message, mbox };

/// Parses an --input value of `command` ("" is `unset`); throws usage_error
/// naming the choices otherwise. `mail_too`: the command reads mail
/// (`mail`, `mbox` and `auto` are choices).
input_setting parse_input_setting(std::string_view command, const std::string& value, bool mail_too = true);

/// The values of --input.
inline constexpr std::string_view input_choices[] = {"text", "markdown", "html", "code", "mail", "mbox", "auto"};
/// The help of --input, the same for every command but for what the
/// command does when it is not given (the spec's `help_more`).
inline constexpr std::string_view input_help =
    "how to read the inputs: text, markdown, html, code (source code or configuration, the language by the "
    "file's name or #! line), mail (a message), mbox (a mailbox), or auto (Markdown, HTML or code by name, "
    "else mail, HTML, code or text by content). Default: ";
/// --input where a named file is read as its name or start says.
inline constexpr option_spec input_option{
    .name = "input", .value = value_kind::choice, .help = input_help,
    .help_more = "a named file is read as Markdown, HTML or code when its name (.md, .html, .c, .py, .yaml, "
                 "Makefile, ...) or its start (an HTML document, a #! line) says so, else as text; standard "
                 "input as text",
    .choices = input_choices};

/// Whether inputs under `s` may be mail (`mail`, `mbox`, `auto`): they are
/// opened by read_as_mail, which reads a pipe whole to decide.
bool reads_mail(input_setting s) noexcept;

/// Whether deciding how `path` is read under `s` needs its first bytes
/// (decide_input's `head`); when not, any `head` will do.
bool needs_head(input_setting s, std::string_view path) noexcept;

/// How the input `path` (`-`: standard input) whose first bytes are `head`
/// is read under `s`. When --input is not given, a named file is read as
/// Markdown, HTML or code when its name says so or, for HTML, when it
/// starts as an HTML document does and, for code, with a `#!` line; mail is
/// read only when asked for (a header block starts many files that are not
/// mail: Debian's copyright files, control files, RFC 822-style notes).
input_kind decide_input(input_setting s, std::string_view path, std::string_view head) noexcept;

/// The document format of a kind that is one (text, markdown, html, code).
std::optional<document_format> document_format_of(input_kind k) noexcept;
/// The mail format of a kind that is one (message, mbox).
std::optional<mail_format> mail_format_of(input_kind k) noexcept;

}  // namespace urlsift::cli
