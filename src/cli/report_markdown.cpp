// The summary of a batch report as GitHub-flavoured Markdown: what the text
// format shows, as tables a README, an issue or a wiki page renders.

#include "cli/escape.hpp"
#include "cli/report_format.hpp"

namespace urlsift::cli {

namespace {

/// Appends `s` as the text of a table cell. Control characters and bytes
/// that are not UTF-8 are first made visible (`\x1b`), as in the text
/// format; then every character that could start markup inside a cell is
/// escaped with a backslash, which CommonMark allows before any ASCII
/// punctuation: `|` (the cell's end, escaped even inside code in GFM),
/// `\`, code, emphasis, strikethrough, links and images, raw HTML and
/// autolinks, entities, and GitHub's `$` math. Block markup (`#`, `>`,
/// lists) cannot start inside a cell.
void append_cell(std::string& out, std::string_view s) {
    for (const char c : visible(s)) {
        if (std::string_view("\\`*_~[]<>|&$").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
}

void append_location(std::string& out, const report& r, report_location at) {
    append_cell(out, shown_input_name(r, at.input));
    out += ':' + std::to_string(at.line);
}

/// "N distinct, top M." above a table of the first `top` rows (0: all).
void append_count_line(std::string& out, std::uint64_t distinct, std::string_view what, std::size_t top) {
    out += grouped(distinct) + ' ';
    out += what;
    if (top != 0 && distinct > top) out += ", top " + grouped(top);
    out += ".\n";
}

void append_section(std::string& out, const report& r, const report_section& s, std::size_t top) {
    out += "\n## ";
    out += s.title;
    out += "\n\n";
    append_count_line(out, r.distinct(s.table, s.min_count), "distinct", top);
    const auto rows = r.rows(s.table, top, s.min_count);
    if (rows.empty()) return;
    out += "\n| count | ";
    out += s.key_name;
    out += " | first seen |\n|---:|---|---|\n";
    for (const report_row& row : rows) {
        out += "| " + grouped(row.count) + " | ";
        append_cell(out, row.key);
        out += " | ";
        append_location(out, r, row.first);
        out += " |\n";
    }
}

void append_files(std::string& out, const report& r, std::size_t top) {
    const std::uint64_t with_refs = r.inputs_with_references();
    out += "\n## Files with references\n\n";
    append_count_line(out, with_refs, "files", top);
    const auto by_file = r.top_inputs(top);
    if (by_file.empty()) return;
    out += "\n| references | file |\n|---:|---|\n";
    for (const std::uint64_t i : by_file) {
        out += "| " + grouped(r.inputs()[i].references) + " | ";
        append_cell(out, shown_input_name(r, i));
        out += " |\n";
    }
}

}  // namespace

void append_report_markdown(std::string& out, const report& r, const report_layout& layout) {
    out += "# urlsift report\n";
    if (layout.generated) out += "\nGenerated " + *layout.generated + ".\n";
    if (layout.interrupted) out += "\n**Interrupted:** the counts cover only the inputs read before the run was stopped.\n";
    out += "\n## Totals\n\n| total | count | note |\n|---|---:|---|\n";
    for (const report_total& t : report_totals(r)) {
        out += "| ";
        out += t.label;
        out += " | " + grouped(t.count) + " | " + t.note + " |\n";
    }
    for (const report_section& s : report_sections) {
        append_section(out, r, s, layout.top);
        if (s.table == report_table::domain) append_files(out, r, layout.top);
    }
}

}  // namespace urlsift::cli
