// One table of a batch report as csv or tsv, for a spreadsheet or a
// pipeline. Cells go through extract's own field writers, so a key that a
// spreadsheet would run as a formula (`=cmd|' /C calc'!A0`) is guarded the
// same way here.

#include "cli/escape.hpp"
#include "cli/report_format.hpp"

#include <algorithm>
#include <initializer_list>
#include <numeric>
#include <stdexcept>

namespace urlsift::cli {

namespace {

constexpr std::string_view duplicate_sheet = "duplicate", files_sheet = "files";

class sheet_writer {
public:
    sheet_writer(std::string& out, bool csv) : out_(out), csv_(csv) {}

    void row(std::initializer_list<std::string_view> cells) {
        bool first = true;
        for (const std::string_view c : cells) {
            if (!first) out_ += csv_ ? ',' : '\t';
            first = false;
            if (csv_)
                append_csv_field(out_, c);
            else
                append_tsv_field(out_, c);
        }
        out_ += '\n';
    }

private:
    std::string& out_;
    bool csv_;
};

void append_files(sheet_writer& w, const report& r, std::size_t limit) {
    // Every input, not only those with references: by references, most
    // first, then input order, as the other tables order their rows.
    std::vector<std::uint64_t> order(r.inputs().size());
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
        return r.inputs()[a].references > r.inputs()[b].references;
    });
    if (limit != 0 && order.size() > limit) order.resize(limit);
    w.row({"input", "name", "status", "bytes", "references", "error"});
    for (const std::uint64_t i : order) {
        const report_input& in = r.inputs()[i];
        w.row({std::to_string(i), in.name, to_string(in.status), std::to_string(in.bytes),
               std::to_string(in.references), in.error});
    }
}

}  // namespace

const std::vector<std::string_view>& report_sheet_names() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> v;
        for (std::size_t i = 0; i < report_table_count; ++i) v.push_back(to_string(static_cast<report_table>(i)));
        v.push_back(duplicate_sheet);
        v.push_back(files_sheet);
        return v;
    }();
    return names;
}

void append_report_sheet(std::string& out, const report& r, std::string_view name, bool csv, std::size_t limit) {
    sheet_writer w(out, csv);
    if (name == files_sheet) {
        append_files(w, r, limit);
        return;
    }
    report_table t = report_table::url;
    std::uint64_t min_count = 2;
    if (name != duplicate_sheet) {
        const auto& names = report_sheet_names();
        const auto at = std::find(names.begin(), names.begin() + report_table_count, name);
        if (at == names.begin() + report_table_count) throw std::invalid_argument("no report table " + std::string(name));
        t = static_cast<report_table>(at - names.begin());
        min_count = 1;
    }
    w.row({"key", "count", "first_input", "first_file", "first_line"});
    for (const report_row& row : r.rows(t, limit, min_count))
        w.row({row.key, std::to_string(row.count), std::to_string(row.first.input), r.inputs()[row.first.input].name,
               std::to_string(row.first.line)});
}

}  // namespace urlsift::cli
