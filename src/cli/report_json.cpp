// The JSON form of a batch report: the final report, and the partial report
// that shards of a corpus write and `report --merge` adds up.
//
//     {"format": "urlsift-report", "version": 1, "partial": true|false,
//      "interrupted": true|false, "generated": "2026-01-02T03:04:05Z" | null,
//      "totals": {...}, "distinct_urls": {"method": "exact"|"hll", "count": N,
//        "exact_limit": N, hll: "precision": 14, "relative_error": E, "registers": HEX},
//      "files": [...], "failed_files": [...],
//      "tables": {"scheme": {"distinct": N, "total": N, "rows": [...]}, ...}}
//
// A partial report holds every input (in input order) and every row; a
// final one the first --top rows of each table and the --top inputs with
// the most references. "totals", "failed_files" and the "duplicate" table
// are derived: a reader recomputes them.

#include "cli/json.hpp"
#include "cli/json_reader.hpp"
#include "cli/report_format.hpp"

#include <array>
#include <cstdio>
#include <limits>
#include <utility>
#include <vector>

namespace urlsift::cli {

namespace {

constexpr std::string_view format_name = "urlsift-report";

constexpr std::array<report_table, report_table_count> all_tables = {
    report_table::scheme,  report_table::host,          report_table::domain,   report_table::wrapper,
    report_table::form,    report_table::warning,       report_table::ip_host,  report_table::punycode_host,
    report_table::lookalike_host, report_table::gateway, report_table::anchor_mismatch, report_table::part_kind,
    report_table::relative, report_table::url};

void append_uint(std::string& out, std::uint64_t n) { out += std::to_string(n); }

void append_member(std::string& out, std::string_view name, std::uint64_t n) {
    append_json_string(out, name);
    out += ": ";
    append_uint(out, n);
}

void append_rows(std::string& out, const report& r, std::string_view name, report_table t, std::size_t limit,
                 std::uint64_t min_count, bool last) {
    out += "    ";
    append_json_string(out, name);
    out += ": {";
    append_member(out, "distinct", r.distinct(t, min_count));
    out += ", ";
    append_member(out, "total", r.total(t, min_count));
    out += ", \"rows\": [";
    bool first = true;
    for (const report_row& row : r.rows(t, limit, min_count)) {
        out += first ? "\n      {\"key\": " : ",\n      {\"key\": ";
        first = false;
        append_json_string(out, row.key);
        out += ", ";
        append_member(out, "count", row.count);
        out += ", \"first\": {";
        append_member(out, "input", row.first.input);
        out += ", \"file\": ";
        append_json_string(out, std::string_view(r.inputs()[row.first.input].name));
        out += ", ";
        append_member(out, "line", row.first.line);
        out += "}}";
    }
    out += first ? "]}" : "\n    ]}";
    out += last ? "\n" : ",\n";
}

void append_input(std::string& out, const report& r, std::uint64_t ordinal) {
    const report_input& in = r.inputs()[ordinal];
    out += "{";
    append_member(out, "input", ordinal);
    out += ", \"name\": ";
    append_json_string(out, std::string_view(in.name));
    out += ", \"status\": ";
    append_json_string(out, to_string(in.status));
    out += ", ";
    append_member(out, "bytes", in.bytes);
    out += ", ";
    append_member(out, "references", in.references);
    if (in.status == input_status::failed) {
        out += ", \"error\": ";
        append_json_string(out, std::string_view(in.error));
    }
    out += "}";
}

}  // namespace

void append_report_json(std::string& out, const report& r, const report_layout& layout) {
    const std::size_t limit = layout.partial ? 0 : layout.top;
    out += "{\n  \"format\": ";
    append_json_string(out, format_name);
    out += ",\n  ";
    append_member(out, "version", report_format_version);
    out += layout.partial ? ",\n  \"partial\": true" : ",\n  \"partial\": false";
    out += layout.interrupted ? ",\n  \"interrupted\": true" : ",\n  \"interrupted\": false";
    out += ",\n  \"generated\": ";
    if (layout.generated)
        append_json_string(out, std::string_view(*layout.generated));
    else
        out += "null";

    const std::pair<std::string_view, std::uint64_t> totals[] = {
        {"files", r.inputs().size()},
        {"files_read", r.inputs_with(input_status::read)},
        {"files_binary", r.inputs_with(input_status::binary)},
        {"files_failed", r.inputs_with(input_status::failed)},
        {"bytes", r.bytes()},
        {"references", r.references()},
        {"unique_urls", r.distinct_urls().count},
        {"duplicate_urls", r.distinct(report_table::url, 2)},
        {"relative_unresolved", r.total(report_table::relative)},
        {"warnings", r.total(report_table::warning)},
        {"ip_host_references", r.total(report_table::ip_host)},
        {"punycode_host_references", r.total(report_table::punycode_host)},
        {"lookalike_host_references", r.total(report_table::lookalike_host)},
    };
    out += ",\n  \"totals\": {";
    bool first = true;
    const distinct_url_count urls = r.distinct_urls();
    for (const auto& [name, n] : totals) {
        if (!first) out += ", ";
        first = false;
        if (name == "duplicate_urls" && !urls.exact)
            out += "\"duplicate_urls\": null";  // not counted by a sketch
        else
            append_member(out, name, n);
    }
    // Exact while the "url" table holds every distinct URL; past the limit
    // a HyperLogLog sketch, whose registers a merge needs.
    out += "},\n  \"distinct_urls\": {\"method\": ";
    out += urls.exact ? "\"exact\", " : "\"hll\", ";
    append_member(out, "count", urls.count);
    out += ", ";
    append_member(out, "exact_limit", r.exact_url_limit());
    if (!urls.exact) {
        static constexpr char hex[] = "0123456789abcdef";
        char error[16];
        std::snprintf(error, sizeof error, "%.4f", urls.relative_error);
        out += ", \"precision\": 14, \"relative_error\": ";
        out += error;
        out += ", \"registers\": \"";
        for (const std::uint8_t b : r.url_sketch()) {
            out += hex[b >> 4];
            out += hex[b & 0xF];
        }
        out += '"';
    }
    out += "},\n  \"files\": [";

    first = true;
    const auto emit_input = [&](std::uint64_t i) {
        out += first ? "\n    " : ",\n    ";
        first = false;
        append_input(out, r, i);
    };
    if (layout.partial)
        for (std::uint64_t i = 0; i < r.inputs().size(); ++i) emit_input(i);
    else
        for (const std::uint64_t i : r.top_inputs(limit)) emit_input(i);
    out += first ? "],\n  \"failed_files\": [" : "\n  ],\n  \"failed_files\": [";
    first = true;
    for (std::uint64_t i = 0; i < r.inputs().size(); ++i)
        if (r.inputs()[i].status == input_status::failed) emit_input(i);
    out += first ? "],\n  \"tables\": {\n" : "\n  ],\n  \"tables\": {\n";
    for (const report_table t : all_tables) append_rows(out, r, to_string(t), t, limit, 1, false);
    append_rows(out, r, "duplicate", report_table::url, limit, 2, true);
    out += "  }\n}\n";
}

namespace {

/// Two hex digits a byte; empty when `hex` is not that.
std::vector<std::uint8_t> registers_from_hex(std::string_view hex) {
    const auto digit = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    std::vector<std::uint8_t> out;
    if (hex.size() % 2 != 0) return out;
    out.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
        if (hi < 0 || lo < 0) return {};
        out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
    }
    return out;
}

report_table table_named(json_reader& in, std::string_view name) {
    for (const report_table t : all_tables)
        if (to_string(t) == name) return t;
    in.fail("unknown table \"" + std::string(name) + "\"");
}

input_status status_named(json_reader& in, std::string_view name) {
    for (const input_status s : {input_status::read, input_status::binary, input_status::failed})
        if (to_string(s) == name) return s;
    in.fail("unknown file status \"" + std::string(name) + "\"");
}

void read_table(json_reader& in, report& r, report_table t, std::uint64_t& max_input) {
    in.begin_object();
    for (std::string key; in.next_member(key);) {
        if (key != "rows") {
            in.skip();  // "distinct" and "total" are derived
            continue;
        }
        in.begin_array();
        while (in.next_element()) {
            std::optional<std::string> row_key;
            std::uint64_t count = 0;
            std::optional<report_location> where;
            in.begin_object();
            for (std::string field; in.next_member(field);) {
                if (field == "key") {
                    row_key = in.read_string();
                } else if (field == "count") {
                    count = in.read_uint();
                } else if (field == "first") {
                    report_location loc;
                    bool has_input = false, has_line = false;
                    in.begin_object();
                    for (std::string f; in.next_member(f);) {
                        if (f == "input") loc.input = in.read_uint(), has_input = true;
                        else if (f == "line") loc.line = in.read_uint(), has_line = true;
                        else in.skip();
                    }
                    if (!has_input || !has_line) in.fail("a row's \"first\" needs \"input\" and \"line\"");
                    where = loc;
                } else {
                    in.skip();
                }
            }
            if (!row_key || count == 0 || !where) in.fail("a row needs \"key\", a \"count\" above 0 and \"first\"");
            max_input = std::max(max_input, where->input + 1);
            r.add_count(t, *row_key, count, *where);
        }
    }
}

void read_files(json_reader& in, report& r) {
    in.begin_array();
    while (in.next_element()) {
        report_input facts;
        std::optional<std::uint64_t> ordinal;
        bool has_name = false;
        in.begin_object();
        for (std::string field; in.next_member(field);) {
            if (field == "input") ordinal = in.read_uint();
            else if (field == "name") facts.name = in.read_string(), has_name = true;
            else if (field == "status") facts.status = status_named(in, in.read_string());
            else if (field == "bytes") facts.bytes = in.read_uint();
            else if (field == "references") facts.references = in.read_uint();
            else if (field == "error") facts.error = in.read_string();
            else in.skip();
        }
        // Ordinals are positions: a partial report lists every input in order.
        if (!has_name || ordinal != r.inputs().size()) in.fail("\"files\" must list every input in order");
        r.add_input(std::move(facts));
    }
}

}  // namespace

report read_report_json(std::string_view text) {
    json_reader in(text);
    // Rows are counted with no limit, which is applied once it is known.
    report r(std::numeric_limits<std::uint64_t>::max());
    std::uint64_t exact_limit = default_exact_url_limit;
    bool format_ok = false, version_ok = false, partial = false, has_files = false;
    std::optional<std::uint64_t> total_references;
    std::uint64_t max_input = 0;
    in.begin_object();
    for (std::string key; in.next_member(key);) {
        if (key == "format") {
            format_ok = in.read_string() == format_name;
            if (!format_ok) in.fail("not a urlsift report (\"format\" is not \"urlsift-report\")");
        } else if (key == "version") {
            const std::uint64_t v = in.read_uint();
            if (v != report_format_version)
                in.fail("report format version " + std::to_string(v) + ", this urlsift reads version " +
                        std::to_string(report_format_version));
            version_ok = true;
        } else if (key == "partial") {
            partial = in.read_bool();
            if (!partial)
                in.fail("a final report holds only the top rows of each table; merge the partial reports "
                        "(written with --partial)");
        } else if (key == "interrupted") {
            if (in.read_bool())
                in.fail("the run that wrote it was interrupted, so its counts miss inputs; run that part again");
        } else if (key == "totals") {
            in.begin_object();
            for (std::string name; in.next_member(name);) {
                if (name == "references") total_references = in.read_uint();
                else in.skip();
            }
        } else if (key == "distinct_urls") {
            in.begin_object();
            for (std::string name; in.next_member(name);) {
                if (name == "method") {
                    const std::string method = in.read_string();
                    if (method != "exact" && method != "hll")
                        in.fail("unknown distinct-URL method \"" + method + "\" (exact or hll)");
                } else if (name == "exact_limit") {
                    exact_limit = in.read_uint();
                } else if (name == "precision") {
                    if (in.read_uint() != 14) in.fail("this urlsift merges sketches of precision 14 only");
                } else if (name == "registers") {
                    if (!r.add_url_sketch(registers_from_hex(in.read_string())))
                        in.fail("\"registers\" is not a sketch's 16384 registers in hex");
                } else {
                    in.skip();
                }
            }
        } else if (key == "files") {
            read_files(in, r);
            has_files = true;
        } else if (key == "tables") {
            in.begin_object();
            for (std::string name; in.next_member(name);) {
                if (name == "duplicate") in.skip();  // derived from "url"
                else read_table(in, r, table_named(in, name), max_input);
            }
        } else {
            in.skip();
        }
    }
    in.end_of_input();
    r.set_exact_url_limit(exact_limit);
    if (!format_ok || !version_ok || !has_files) in.fail("not a urlsift report (\"format\", \"version\" or \"files\" missing)");
    if (!partial) in.fail("not a partial report (\"partial\": true missing)");
    if (max_input > r.inputs().size()) in.fail("a row's first location names an input the report does not list");
    if (total_references && *total_references != r.references())
        in.fail("\"totals\" do not match the files' references: the report is damaged");
    for (const report_table t : {report_table::wrapper, report_table::form})
        if (r.total(t) != r.references()) in.fail("table \"" + std::string(to_string(t)) + "\" does not add up");
    return r;
}

}  // namespace urlsift::cli
