#pragma once
// `urlsift report`'s output formats: the text summary, the JSON document
// (also the partial form that `report --merge` reads), the Markdown
// summary, the self-contained HTML page, and one table as csv or tsv.
// They live here, beside json.cpp and escape.cpp, so that what they write
// is made safe by the one set of helpers every command uses.

#include <urlsift/report.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// The version of the JSON document's shape; readers refuse another.
/// Version 2 gave partial reports a checksum and the options that shaped
/// their counts.
inline constexpr std::uint64_t report_format_version = 3;

/// The options that shape what a run counts, in the order a partial report
/// records them: --merge adds up only parts made with the same ones, since
/// one run has one set. (How the files are picked, -r, --include and the
/// like, is each part's own, and so is --exact-urls, recorded apart.)
enum class count_option : unsigned char {
    base, base_root, resolver, normalize, hyphen, max_url_length, abbrev, abbrev_scheme, literal_brackets,
    input, encoding, binary, search_zip, max_memory,
};
/// The options' names as typed, without the dashes, by count_option.
inline constexpr std::array<std::string_view, 14> count_option_names = {
    "base",  "base-root",     "resolver",         "normalize", "hyphen",   "max-url-length", "abbrev",
    "abbrev-scheme", "literal-brackets", "input", "encoding", "binary",   "search-zip", "max-memory"};

/// The value of each count_option in words, as the option takes them ("on"
/// or "off" for a switch); "" for an option not given.
struct count_options {
    std::array<std::string, count_option_names.size()> values;
    std::string& operator[](count_option o) { return values[static_cast<std::size_t>(o)]; }
    const std::string& operator[](count_option o) const { return values[static_cast<std::size_t>(o)]; }
    friend bool operator==(const count_options&, const count_options&) = default;
};

/// How a report is written.
struct report_layout {
    /// Partial: every row of every table and every input, in input order,
    /// for `--merge`. Final: the first `top` rows of each table.
    bool partial = false;
    std::size_t top = 10;                 ///< rows per table in a final report; 0: all
    std::optional<std::string> generated; ///< ISO 8601 UTC time, or none (`--no-timestamp`)
    /// The run was stopped (Ctrl-C): the counts cover only the inputs read
    /// before it. Said in every format; a partial report so marked is not
    /// merged.
    bool interrupted = false;
    /// A partial report's options, which it records.
    count_options options{};
    /// For a partial report that merges others: the checksums of the
    /// partial reports made from inputs that it holds, ascending. Empty for
    /// one made from inputs, which holds itself.
    std::vector<std::uint64_t> made_of{};
};

/// Appends `r` as the JSON document (docs: `urlsift report --help`). A
/// partial report gets a checksum: see partial_checksum.
void append_report_json(std::string& out, const report& r, const report_layout& layout);

/// A partial report's checksum: FNV-1a (64 bits) of `covered`, every byte
/// of the document after the line that holds the checksum. One byte
/// changed anywhere there changes it, whatever the byte: each step of
/// FNV-1a is a bijection of its state.
std::uint64_t partial_checksum(std::string_view covered) noexcept;
/// A checksum as a partial report writes it: "fnv1a64:" and 16 hex digits.
std::string checksum_text(std::uint64_t checksum);

/// A partial report as read back.
struct partial_report {
    report counts;
    count_options options;
    std::uint64_t checksum = 0; ///< as written, and found to match
    std::vector<std::uint64_t> made_of; ///< as report_layout::made_of
    /// The partial reports made from inputs whose counts this one holds:
    /// `made_of`, or itself.
    std::vector<std::uint64_t> parts() const { return made_of.empty() ? std::vector{checksum} : made_of; }
};

/// Reads a partial report written by append_report_json, trusting none of
/// it. Throws json_error (from json_reader.hpp) saying what is wrong and
/// what to do: malformed JSON; another format or version (a version 1
/// partial, which has no checksum, is to be made again); a final report
/// (its tables are cut to the top rows, so merging it would not be exact);
/// a checksum that does not match the bytes it covers; a member it does
/// not know, or one missing, or out of place; counts that do not add up,
/// or add up past 2^64 - 1.
partial_report read_partial_report(std::string_view text);

/// read_partial_report(text).counts.
report read_report_json(std::string_view text);

/// Appends the text summary: totals, then the first `layout.top` rows of
/// each table, every name and key escaped for a terminal.
void append_report_text(std::string& out, const report& r, const report_layout& layout);

/// One line of the totals every summary (text, markdown, html) opens with.
struct report_total {
    std::string_view label;
    std::uint64_t count = 0;
    std::string note; ///< what the count means, or empty
};
/// The totals of `r`, in the order the summaries show them.
std::vector<report_total> report_totals(const report& r);

/// A table of the summaries (text, markdown, html), in the order they show
/// them. The files with the most references come after the registrable
/// domains.
struct report_section {
    std::string_view title;
    std::string_view key_name; ///< the heading of the key column
    report_table table;
    std::uint64_t min_count = 1; ///< 2 for the URLs seen more than once
};
inline constexpr report_section report_sections[] = {
    {"Schemes", "scheme", report_table::scheme},
    {"Hosts", "host", report_table::host},
    {"Registrable domains", "domain", report_table::domain},
    {"Wrappers", "wrapper", report_table::wrapper},
    {"Forms", "form", report_table::form},
    {"URLs", "URL", report_table::url},
    {"Duplicate URLs", "URL", report_table::url, 2},
    {"Unresolved relative references", "reference", report_table::relative},
    {"Section 7 warnings", "warning", report_table::warning},
    {"IP-address hosts", "host", report_table::ip_host},
    {"Punycode hosts", "host", report_table::punycode_host},
    {"Look-alike hosts", "host", report_table::lookalike_host},
    {"Gateway-wrapped links", "gateway", report_table::gateway},
    {"Anchor text naming another site", "shown -> actual", report_table::anchor_mismatch},
    {"References by MIME part", "part", report_table::part_kind},
};

/// Appends the text summary as GitHub-flavoured Markdown: the totals and
/// the first `layout.top` rows of each table as tables, every name and key
/// with its markup escaped.
void append_report_markdown(std::string& out, const report& r, const report_layout& layout);

/// Appends the report as one self-contained HTML page: totals, bar charts
/// (inline SVG) and the first `layout.top` rows of each table. It loads
/// nothing and runs no script; its Content-Security-Policy says so.
void append_report_html(std::string& out, const report& r, const report_layout& layout);

/// The tables `--table` names for csv and tsv: each report_table by its
/// `to_string` name, then "duplicate" (the URLs seen more than once) and
/// "files" (the inputs).
const std::vector<std::string_view>& report_sheet_names();

/// Appends table `name` (one of report_sheet_names) as csv (`csv`) or tsv:
/// a header line, then its rows in report order, the first `limit` (0:
/// all). Rows are `key,count,first_input,first_file,first_line`; the files
/// table's are `input,name,status,bytes,references,error`.
void append_report_sheet(std::string& out, const report& r, std::string_view name, bool csv, std::size_t limit);

/// `n` in digits grouped by thousands with commas, as the summaries meant
/// for people (text, markdown, html) show counts: "283,200,568". The json,
/// csv and tsv forms, read by programs, keep plain digits.
std::string grouped(std::uint64_t n);

/// The name of input `ordinal` as a person reads it: standard input is
/// "(standard input)".
std::string_view shown_input_name(const report& r, std::uint64_t ordinal);

}  // namespace urlsift::cli
