// The text summary of a batch report, for a person at a terminal: totals,
// then the top rows of each table with where each key was seen first.
// Every file name and key goes through append_visible: a URL in a corpus
// can hold escape sequences meant for whoever reads the report.

#include "cli/escape.hpp"
#include "cli/report_format.hpp"

namespace urlsift::cli {

std::string_view shown_input_name(const report& r, std::uint64_t ordinal) {
    const std::string& name = r.inputs()[ordinal].name;
    return name == "-" ? std::string_view("(standard input)") : std::string_view(name);
}

namespace {

/// `n` right-aligned in `width` columns.
void append_count(std::string& out, std::uint64_t n, std::size_t width = 12) {
    const std::string digits = std::to_string(n);
    if (digits.size() < width) out.append(width - digits.size(), ' ');
    out += digits;
}

void append_total(std::string& out, std::string_view label, std::uint64_t n, std::string_view note = {}) {
    out += "  ";
    out += label;
    out.append(label.size() < 26 ? 26 - label.size() : 1, ' ');
    append_count(out, n);
    if (!note.empty()) {
        out += "  ";
        out += note;
    }
    out += '\n';
}

void append_location(std::string& out, const report& r, report_location at) {
    out += "  first seen ";
    append_visible(out, shown_input_name(r, at.input));
    out += ':';
    out += std::to_string(at.line);
}

void append_table(std::string& out, const report& r, std::string_view title, report_table t, std::size_t top,
                  std::uint64_t min_count = 1) {
    const std::uint64_t distinct = r.distinct(t, min_count);
    out += '\n';
    out += title;
    out += ": ";
    out += std::to_string(distinct);
    out += " distinct";
    if (top != 0 && distinct > top) out += ", top " + std::to_string(top);
    out += '\n';
    for (const report_row& row : r.rows(t, top, min_count)) {
        append_count(out, row.count);
        out += "  ";
        append_visible(out, row.key);
        append_location(out, r, row.first);
        out += '\n';
    }
}

}  // namespace

void append_report_text(std::string& out, const report& r, const report_layout& layout) {
    const std::uint64_t files = r.inputs().size();
    const std::uint64_t binary = r.inputs_with(input_status::binary);
    const std::uint64_t failed = r.inputs_with(input_status::failed);
    out += "urlsift report";
    if (layout.generated) out += ", generated " + *layout.generated;
    out += "\n\nTotals\n";
    append_total(out, "files", files,
                 std::to_string(r.inputs_with(input_status::read)) + " read, " + std::to_string(binary) +
                     " binary (skipped), " + std::to_string(failed) + " unreadable");
    append_total(out, "bytes scanned", r.bytes());
    append_total(out, "references", r.references(), "every form, relative included");
    append_total(out, "unique URLs", r.distinct(report_table::url), "absolute URLs, exact");
    append_total(out, "duplicate URLs", r.distinct(report_table::url, 2), "URLs seen more than once");
    append_total(out, "unresolved relative", r.total(report_table::relative), "no base to resolve them against");
    append_total(out, "Section 7 warnings", r.total(report_table::warning));
    append_total(out, "IP-address hosts", r.total(report_table::ip_host), "references");
    append_total(out, "punycode (xn--) hosts", r.total(report_table::punycode_host), "references");

    const std::size_t top = layout.top;
    append_table(out, r, "Schemes", report_table::scheme, top);
    append_table(out, r, "Hosts", report_table::host, top);
    append_table(out, r, "Registrable domains", report_table::domain, top);

    const auto by_file = r.top_inputs(top);
    std::uint64_t with_refs = 0;
    for (const auto& in : r.inputs())
        if (in.references > 0) ++with_refs;
    out += "\nFiles with references: " + std::to_string(with_refs);
    if (top != 0 && with_refs > top) out += ", top " + std::to_string(top);
    out += '\n';
    for (const std::uint64_t i : by_file) {
        append_count(out, r.inputs()[i].references);
        out += "  ";
        append_visible(out, shown_input_name(r, i));
        out += '\n';
    }

    append_table(out, r, "Wrappers", report_table::wrapper, top);
    append_table(out, r, "Forms", report_table::form, top);
    append_table(out, r, "Duplicate URLs", report_table::url, top, 2);
    append_table(out, r, "Unresolved relative references", report_table::relative, top);
    append_table(out, r, "Section 7 warnings", report_table::warning, top);
    append_table(out, r, "IP-address hosts", report_table::ip_host, top);
    append_table(out, r, "Punycode hosts", report_table::punycode_host, top);
}

}  // namespace urlsift::cli
