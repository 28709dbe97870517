#pragma once
// `urlsift report`'s output formats: the text summary and the JSON
// document, which is also the partial form that `report --merge` reads.
// They live here, beside json.cpp and escape.cpp, so that what they write
// is made safe by the one set of helpers every command uses.

#include <urlsift/report.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace urlsift::cli {

/// The version of the JSON document's shape; readers refuse another.
inline constexpr std::uint64_t report_format_version = 1;

/// How a report is written.
struct report_layout {
    /// Partial: every row of every table and every input, in input order,
    /// for `--merge`. Final: the first `top` rows of each table.
    bool partial = false;
    std::size_t top = 10;                 ///< rows per table in a final report; 0: all
    std::optional<std::string> generated; ///< ISO 8601 UTC time, or none (`--no-timestamp`)
};

/// Appends `r` as the JSON document (docs: `urlsift report --help`).
void append_report_json(std::string& out, const report& r, const report_layout& layout);

/// Reads a partial report written by append_report_json. Throws json_error
/// (from json_reader.hpp) naming what is wrong: malformed JSON, another
/// format or version, a final report (its tables are cut to the top rows,
/// so merging it would not be exact), or counts that do not add up.
report read_report_json(std::string_view text);

/// Appends the text summary: totals, then the first `layout.top` rows of
/// each table, every name and key escaped for a terminal.
void append_report_text(std::string& out, const report& r, const report_layout& layout);

/// The name of input `ordinal` as a person reads it: standard input is
/// "(standard input)".
std::string_view shown_input_name(const report& r, std::uint64_t ordinal);

}  // namespace urlsift::cli
