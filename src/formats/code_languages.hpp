#pragma once
// The languages the code reader knows: how each writes comments and
// strings, and which file names and #! interpreters name it. Data, one row
// a language, as line-counting tools keep it.

#include <cstdint>
#include <string_view>

namespace urlsift::detail {

/// Where a line comment's marker may start.
enum class comment_place : std::uint8_t {
    anywhere,   ///< anywhere outside a string (C's `//`, Python's `#`)
    word_start, ///< at a line's start or after a blank (a shell's `#`: `a#b` is a word)
    line_start, ///< only first on its line, after blanks (INI's `;` and `#`)
};

/// What the text outside comments and strings is.
enum class outside_kind : std::uint8_t {
    code,   ///< a program: nothing is read there
    values, ///< configuration or data: values, read as string literals are
};

/// How `'` is read.
enum class single_quote : std::uint8_t {
    string,    ///< a string, with backslash escapes (Python, JavaScript)
    raw,       ///< a string without escapes (shells, Perl, YAML, TOML)
    character, ///< a character literal (C, Go, Rust, Java): a few bytes on one line, else no quote at all (a lifetime)
    none,      ///< an ordinary character (INI, Makefiles)
};

/// One language. The lists are blank-separated.
struct code_language {
    std::string_view name{};
    std::string_view extensions{};    ///< `.c .h`, matched at the end of a file name, any case
    std::string_view file_names{};    ///< whole file names, exact: `Makefile CMakeLists.txt`
    std::string_view interpreters{};  ///< the command a `#!` line runs: `python3 python`
    std::string_view line_comments{}; ///< markers of comments to the end of the line: `// #`
    comment_place place = comment_place::anywhere;
    std::string_view block_open{}, block_close{}; ///< a comment between two markers: `/*` `*/`
    single_quote single = single_quote::string;
    bool double_quotes = true;   ///< `"..."` is a string with backslash escapes
    bool backticks = false;      ///< `` `...` `` is a string that may span lines (Go, JavaScript)
    bool triple_quotes = false;  ///< `"""..."""` and `'''...'''`: a docstring when a statement, read as prose (Python)
    bool lua_long = false;       ///< Lua's `[[...]]` strings and `--[[...]]` comments
    bool pod = false;            ///< Perl's POD, from a line `=word` to a line `=cut`: prose
    bool heredocs = false;       ///< `<<WORD` starts lines up to a line `WORD`, read as a string's (shells, Perl, Ruby)
    bool xml = false;            ///< markup: read by the XML rules, not by the fields above
    outside_kind outside = outside_kind::code;
    bool multiline = false; ///< a quoted string may span lines (shells, Perl, YAML): else it ends with its line
};

/// The language a file's name says (its extension or whole name), or
/// nullptr.
const code_language* language_by_name(std::string_view path) noexcept;

/// XML's row.
const code_language& xml_language() noexcept;

/// The language the `#!` line at the start of `head` names (`#!/bin/sh`,
/// `#!/usr/bin/env python3 -u`), or nullptr.
const code_language* language_by_interpreter(std::string_view head) noexcept;

}  // namespace urlsift::detail
