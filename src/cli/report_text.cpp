// The text summary of a batch report, for a person at a terminal: totals,
// then the top rows of each table with where each key was seen first.
// Every file name and key goes through append_visible: a URL in a corpus
// can hold escape sequences meant for whoever reads the report.

#include "cli/escape.hpp"
#include "cli/report_format.hpp"

#include <cstdio>

namespace urlsift::cli {

std::string grouped(std::uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string_view shown_input_name(const report& r, std::uint64_t ordinal) {
    const std::string& name = r.inputs()[ordinal].name;
    return name == "-" ? std::string_view("(standard input)") : std::string_view(name);
}

namespace {

/// `n`, grouped, right-aligned in `width` columns.
void append_count(std::string& out, std::uint64_t n, std::size_t width = 12) {
    const std::string digits = grouped(n);
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
    out += grouped(distinct);
    out += " distinct";
    if (top != 0 && distinct > top) out += ", top " + grouped(top);
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

std::vector<report_total> report_totals(const report& r) {
    const auto n = [](std::uint64_t k) { return grouped(k); };
    std::vector<report_total> totals = {
        {"files", r.inputs().size(),
         n(r.inputs_with(input_status::read)) + " read, " + n(r.inputs_with(input_status::binary)) +
             " binary (skipped), " + n(r.inputs_with(input_status::failed)) + " unreadable"},
        {"bytes scanned", r.bytes(), ""},
        {"references", r.references(), "every form, relative included"},
    };
    if (const distinct_url_count urls = r.distinct_urls(); urls.exact) {
        totals.push_back({"unique URLs", urls.count, "absolute URLs, exact"});
        totals.push_back({"duplicate URLs", r.distinct(report_table::url, 2), "URLs seen more than once"});
    } else {
        // Past the limit only a sketch counts them: no duplicates either.
        char error[16];
        std::snprintf(error, sizeof error, "%.2f", urls.relative_error * 100);
        totals.push_back({"unique URLs", urls.count,
                          std::string("absolute URLs, estimated (HyperLogLog, standard error ") + error +
                              " %): more than " + n(r.exact_url_limit()) + ", so duplicates are not counted"});
    }
    totals.insert(totals.end(), {
        {"unresolved relative", r.total(report_table::relative), "no base to resolve them against"},
        {"Section 7 warnings", r.total(report_table::warning), ""},
        {"IP-address hosts", r.total(report_table::ip_host), "references"},
        {"punycode (xn--) hosts", r.total(report_table::punycode_host), "references"},
        {"look-alike hosts", r.total(report_table::lookalike_host), "references (UTS 39)"},
    });
    return totals;
}

void append_report_text(std::string& out, const report& r, const report_layout& layout) {
    out += "urlsift report";
    if (layout.generated) out += ", generated " + *layout.generated;
    if (layout.interrupted) out += "\nINTERRUPTED: the counts cover only the inputs read before the run was stopped";
    out += "\n\nTotals\n";
    for (const report_total& t : report_totals(r)) append_total(out, t.label, t.count, t.note);

    const std::size_t top = layout.top;
    for (const report_section& s : report_sections) {
        append_table(out, r, s.title, s.table, top, s.min_count);
        if (s.table != report_table::domain) continue;
        // The files with the most references, after the registrable domains.
        const std::uint64_t with_refs = r.inputs_with_references();
        out += "\nFiles with references: " + grouped(with_refs);
        if (top != 0 && with_refs > top) out += ", top " + grouped(top);
        out += '\n';
        for (const std::uint64_t i : r.top_inputs(top)) {
            append_count(out, r.inputs()[i].references);
            out += "  ";
            append_visible(out, shown_input_name(r, i));
            out += '\n';
        }
    }
}

}  // namespace urlsift::cli
