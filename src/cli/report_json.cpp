// The JSON form of a batch report: the final report, and the partial report
// that shards of a corpus write and `report --merge` adds up.
//
//     {"format": "urlsift-report", "version": 3, "partial": true|false,
//      partial only: "checksum": "fnv1a64:HEX16", "options": {...},
//        "made_of": ["fnv1a64:HEX16", ...],
//      "interrupted": true|false, "generated": "2026-01-02T03:04:05Z" | null,
//      "totals": {...}, "distinct_urls": {"method": "exact"|"hll", "count": N,
//        "exact_limit": N, hll: "precision": 14, "relative_error": E, "registers": HEX},
//      "files": [...], "failed_files": [...],
//      "tables": {"scheme": {"distinct": N, "total": N, "rows": [...]}, ...}}
//
// A partial report holds every input (in input order) and every row; a
// final one the first --top rows of each table and the --top inputs with
// the most references. "totals", "failed_files", each table's "distinct"
// and "total", and the "duplicate" table are derived: a reader checks
// them against what it recomputes.
//
// A partial report is read by a program that adds it to others, and a
// silent change to one count changes the sum: the checksum covers every
// byte after its own line, and the reader takes only the members the
// writer writes, in the order it writes them.

#include "cli/json.hpp"
#include "cli/json_reader.hpp"
#include "cli/report_format.hpp"

#include <array>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
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

constexpr std::string_view checksum_prefix = "fnv1a64:";

/// The "totals" of a report, in the order they are written. "duplicate_urls"
/// is written null when URLs are counted by a sketch.
std::array<std::pair<std::string_view, std::uint64_t>, 13> totals_of(const report& r) {
    return {{
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
    }};
}

/// A sketch's relative error as written: four decimals.
std::string relative_error_text(double error) {
    char text[16];
    std::snprintf(text, sizeof text, "%.4f", error);
    return text;
}

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

std::uint64_t partial_checksum(std::string_view covered) noexcept {
    std::uint64_t h = 0xcbf29ce484222325;  // FNV-1a's 64-bit offset basis
    for (const char c : covered) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3;  // and prime
    }
    return h;
}

std::string checksum_text(std::uint64_t checksum) {
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(checksum));
    return std::string(checksum_prefix) + digits;
}

void append_report_json(std::string& out, const report& r, const report_layout& layout) {
    const std::size_t limit = layout.partial ? 0 : layout.top;
    out += "{\n  \"format\": ";
    append_json_string(out, format_name);
    out += ",\n  ";
    append_member(out, "version", report_format_version);
    out += layout.partial ? ",\n  \"partial\": true" : ",\n  \"partial\": false";
    // The checksum's digits are written once the bytes it covers are: every
    // byte after its line.
    std::size_t checksum_at = std::string::npos;
    if (layout.partial) {
        out += ",\n  \"checksum\": \"";
        checksum_at = out.size();
        out += checksum_text(0);
        out += "\",\n  \"options\": {";
        for (std::size_t i = 0; i < count_option_names.size(); ++i) {
            if (i > 0) out += ", ";
            append_json_string(out, count_option_names[i]);
            out += ": ";
            append_json_string(out, std::string_view(layout.options.values[i]));
        }
        out += "},\n  \"made_of\": [";
        for (std::size_t i = 0; i < layout.made_of.size(); ++i) {
            if (i > 0) out += ", ";
            append_json_string(out, std::string_view(checksum_text(layout.made_of[i])));
        }
        out += ']';
    }
    out += layout.interrupted ? ",\n  \"interrupted\": true" : ",\n  \"interrupted\": false";
    out += ",\n  \"generated\": ";
    if (layout.generated)
        append_json_string(out, std::string_view(*layout.generated));
    else
        out += "null";

    out += ",\n  \"totals\": {";
    bool first = true;
    const distinct_url_count urls = r.distinct_urls();
    for (const auto& [name, n] : totals_of(r)) {
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
        out += ", \"precision\": 14, \"relative_error\": ";
        out += relative_error_text(urls.relative_error);
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
    if (checksum_at != std::string::npos) {
        const std::size_t covered = out.find('\n', checksum_at) + 1;
        const std::string checksum = checksum_text(partial_checksum(std::string_view(out).substr(covered)));
        out.replace(checksum_at, checksum.size(), checksum);
    }
}

namespace {

/// A partial report refused for a reason whose message says what to do.
struct refused_partial : json_error {
    using json_error::json_error;
};

[[noreturn]] void refuse(const json_reader& in, const std::string& what) {
    throw refused_partial("at byte " + std::to_string(in.offset()) + ": " + what);
}

/// What is wrong with a partial report that is well-formed JSON (json_reader
/// says "bad JSON" for what is not).
[[noreturn]] void wrong(const json_reader& in, const std::string& what) {
    throw json_error("at byte " + std::to_string(in.offset()) + ": " + what);
}

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

/// The next member, which must be `name`: the reader takes the members the
/// writer writes, in its order, and no others.
void member(json_reader& in, std::string_view name) {
    std::string key;
    if (!in.next_member(key)) wrong(in, "\"" + std::string(name) + "\" missing");
    if (key != name) wrong(in, "unknown member \"" + key + "\" where \"" + std::string(name) + "\" belongs");
}

/// The end of the current object.
void no_more_members(json_reader& in) {
    if (std::string key; in.next_member(key)) wrong(in, "unknown member \"" + key + "\"");
}

/// `total + n`, failing when the sum passes 2^64 - 1.
std::uint64_t add_up(json_reader& in, std::uint64_t total, std::uint64_t n, std::string_view what) {
    std::uint64_t sum = 0;
    if (__builtin_add_overflow(total, n, &sum)) wrong(in, std::string(what) + " add up past 2^64 - 1");
    return sum;
}

/// A value read, checked against what the report read says once it is whole.
void check(json_reader& in, std::uint64_t written, std::uint64_t recomputed, const std::string& what) {
    if (written != recomputed)
        wrong(in, what + " is " + std::to_string(written) + ", but the report's counts make it " +
                std::to_string(recomputed));
}

input_status status_named(json_reader& in, std::string_view name) {
    for (const input_status s : {input_status::read, input_status::binary, input_status::failed})
        if (to_string(s) == name) return s;
    wrong(in, "unknown file status \"" + std::string(name) + "\"");
}

/// One entry of "files" or "failed_files", with its ordinal.
std::pair<std::uint64_t, report_input> read_input(json_reader& in) {
    report_input facts;
    in.begin_object();
    member(in, "input");
    const std::uint64_t ordinal = in.read_uint();
    member(in, "name");
    facts.name = in.read_string();
    member(in, "status");
    facts.status = status_named(in, in.read_string());
    member(in, "bytes");
    facts.bytes = in.read_uint();
    member(in, "references");
    facts.references = in.read_uint();
    if (facts.status == input_status::failed) {
        member(in, "error");
        facts.error = in.read_string();
    }
    no_more_members(in);
    return {ordinal, std::move(facts)};
}

/// "files": every input, in order.
void read_files(json_reader& in, report& r) {
    in.begin_array();
    std::uint64_t bytes = 0, references = 0;
    while (in.next_element()) {
        auto [ordinal, facts] = read_input(in);
        // Ordinals are positions: a partial report lists every input in order.
        if (ordinal != r.inputs().size()) wrong(in, "\"files\" must list every input in order");
        bytes = add_up(in, bytes, facts.bytes, "the files' bytes");
        references = add_up(in, references, facts.references, "the files' references");
        r.add_input(std::move(facts));
    }
}

/// "failed_files": the inputs that failed, in order, as "files" has them.
void read_failed_files(json_reader& in, const report& r) {
    std::uint64_t next = 0;  // the input after the last failed one listed
    const auto inputs = r.inputs();
    const auto next_failed = [&] {
        while (next < inputs.size() && inputs[next].status != input_status::failed) ++next;
        return next;
    };
    in.begin_array();
    while (in.next_element()) {
        const auto [ordinal, facts] = read_input(in);
        const std::uint64_t expected = next_failed();
        const report_input* listed = expected < inputs.size() ? &inputs[expected] : nullptr;
        if (ordinal != expected || listed == nullptr || listed->name != facts.name || listed->bytes != facts.bytes ||
            listed->references != facts.references || listed->error != facts.error)
            wrong(in, "\"failed_files\" is not the failed inputs of \"files\"");
        ++next;
    }
    if (next_failed() != inputs.size()) wrong(in, "\"failed_files\" leaves out a failed input of \"files\"");
}

/// A table's "distinct", "total" and "rows"; each row goes to `add` (key,
/// count, first location). Returns how many rows there were.
template <class Add>
std::uint64_t read_rows(json_reader& in, const report& r, const std::string& table, std::uint64_t& distinct,
                        std::uint64_t& total, const Add& add) {
    in.begin_object();
    member(in, "distinct");
    distinct = in.read_uint();
    member(in, "total");
    total = in.read_uint();
    member(in, "rows");
    in.begin_array();
    std::uint64_t rows = 0, sum = 0;
    while (in.next_element()) {
        in.begin_object();
        member(in, "key");
        const std::string key = in.read_string();
        member(in, "count");
        const std::uint64_t count = in.read_uint();
        member(in, "first");
        report_location first;
        in.begin_object();
        member(in, "input");
        first.input = in.read_uint();
        member(in, "file");
        const std::string file = in.read_string();
        member(in, "line");
        first.line = in.read_uint();
        no_more_members(in);
        no_more_members(in);
        if (count == 0) wrong(in, "a row of table \"" + table + "\" counts 0");
        if (first.input >= r.inputs().size() || r.inputs()[first.input].name != file)
            wrong(in, "a row of table \"" + table + "\" was first seen in an input \"files\" does not list");
        sum = add_up(in, sum, count, "the counts of table \"" + table + "\"");
        add(key, count, first);
        ++rows;
    }
    no_more_members(in);
    return rows;
}

/// A checksum as checksum_text writes it, from the string `written` of
/// member `name`.
std::uint64_t checksum_value(json_reader& in, std::string_view name, std::string_view written) {
    std::uint64_t value = 0;
    const auto hex = written.substr(std::min(written.size(), checksum_prefix.size()));
    if (!written.starts_with(checksum_prefix) || hex.size() != 16 ||
        hex.find_first_not_of("0123456789abcdef") != std::string_view::npos)
        wrong(in, std::string(1, '"').append(name).append("\" holds \"").append(written).append(
                      "\", not \"fnv1a64:\" and 16 hex digits"));
    for (const char c : hex) value = value * 16 + static_cast<std::uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
    return value;
}

/// "checksum": checks it against the bytes it covers, every byte after its
/// line, and returns it.
std::uint64_t read_checksum(json_reader& in, std::string_view text) {
    const std::string written = in.read_string();
    const std::uint64_t value = checksum_value(in, "checksum", written);
    const std::size_t line_end = text.find('\n', in.offset());
    if (line_end == std::string_view::npos) wrong(in, "nothing follows the checksum's line");
    if (const std::uint64_t computed = partial_checksum(text.substr(line_end + 1)); computed != value)
        wrong(in, "its checksum does not match its content (" + written + " written, " + checksum_text(computed) +
                " computed): it was changed or damaged after urlsift wrote it");
    return value;
}

partial_report read_partial(std::string_view text) {
    json_reader in(text);
    partial_report part;
    // Rows are counted with no limit, which is applied once it is known.
    report& r = part.counts;
    r = report(std::numeric_limits<std::uint64_t>::max());
    in.begin_object();
    member(in, "format");
    if (in.read_string() != format_name) wrong(in, "not a urlsift report (\"format\" is not \"urlsift-report\")");
    member(in, "version");
    if (const std::uint64_t v = in.read_uint(); v == 1)
        refuse(in, "a report of format version 1, which has no checksum, so that damage to it cannot be told: make "
                   "this part again with this urlsift (urlsift report --partial)");
    else if (v == 2)
        refuse(in, "a report of format version 2, which does not list the parts merged into it, so that a part "
                   "counted twice cannot be told: make this part again with this urlsift (urlsift report --partial)");
    else if (v != report_format_version)
        refuse(in, "report format version " + std::to_string(v) + ", and this urlsift reads version " +
                       std::to_string(report_format_version) + ": merge with the urlsift that made the parts");
    member(in, "partial");
    if (!in.read_bool())
        refuse(in, "a final report holds only the top rows of each table; merge the partial reports "
                   "(written with --partial)");
    member(in, "checksum");
    part.checksum = read_checksum(in, text);
    member(in, "options");
    in.begin_object();
    for (std::size_t i = 0; i < count_option_names.size(); ++i) {
        member(in, count_option_names[i]);
        part.options.values[i] = in.read_string();
    }
    no_more_members(in);
    member(in, "made_of");
    in.begin_array();
    while (in.next_element()) {
        part.made_of.push_back(checksum_value(in, "made_of", in.read_string()));
        if (part.made_of.size() > 1 && part.made_of.end()[-2] >= part.made_of.back())
            wrong(in, "\"made_of\" is not in ascending order, as urlsift writes it");
    }
    member(in, "interrupted");
    if (in.read_bool())
        refuse(in, "the run that wrote it was interrupted, so its counts miss inputs; run that part again");
    member(in, "generated");
    if (!in.read_null()) in.read_string();

    // The totals, checked once the counts they are made of are read.
    member(in, "totals");
    const auto names = totals_of(r);
    std::array<std::optional<std::uint64_t>, names.size()> totals;
    in.begin_object();
    for (std::size_t i = 0; i < names.size(); ++i) {
        member(in, names[i].first);
        if (!in.read_null()) totals[i] = in.read_uint();
    }
    no_more_members(in);

    member(in, "distinct_urls");
    in.begin_object();
    member(in, "method");
    const std::string method = in.read_string();
    if (method != "exact" && method != "hll") wrong(in, "unknown distinct-URL method \"" + method + "\" (exact or hll)");
    member(in, "count");
    const std::uint64_t unique_urls = in.read_uint();
    member(in, "exact_limit");
    const std::uint64_t exact_limit = in.read_uint();
    std::string relative_error;
    if (method == "hll") {
        member(in, "precision");
        if (in.read_uint() != 14) wrong(in, "this urlsift merges sketches of precision 14 only");
        member(in, "relative_error");
        const std::size_t from = in.offset();
        in.skip();
        relative_error = text.substr(from, in.offset() - from);
        relative_error.erase(0, relative_error.find_first_not_of(" \t\r\n"));
        member(in, "registers");
        if (!r.add_url_sketch(registers_from_hex(in.read_string())))
            wrong(in, "\"registers\" is not a sketch's 16384 registers in hex");
    }
    no_more_members(in);

    member(in, "files");
    read_files(in, r);
    member(in, "failed_files");
    read_failed_files(in, r);

    member(in, "tables");
    in.begin_object();
    for (const report_table t : all_tables) {
        const std::string name(to_string(t));
        member(in, name);
        std::uint64_t distinct = 0, total = 0;
        read_rows(in, r, name, distinct, total, [&](const std::string& key, std::uint64_t count, report_location first) {
            r.add_count(t, key, count, first);
        });
        check(in, distinct, r.distinct(t), "\"distinct\" of table \"" + name + "\"");
        check(in, total, r.total(t), "\"total\" of table \"" + name + "\"");
    }
    // Derived from "url": its rows are the URLs counted more than once.
    member(in, "duplicate");
    std::uint64_t distinct = 0, total = 0;
    const std::uint64_t rows = read_rows(in, r, "duplicate", distinct, total, [](auto&&...) {});
    check(in, distinct, r.distinct(report_table::url, 2), "\"distinct\" of table \"duplicate\"");
    check(in, total, r.total(report_table::url, 2), "\"total\" of table \"duplicate\"");
    check(in, rows, distinct, "the number of rows of table \"duplicate\"");
    no_more_members(in);
    no_more_members(in);
    in.end_of_input();

    r.set_exact_url_limit(exact_limit);
    const distinct_url_count urls = r.distinct_urls();
    if (urls.exact != (method == "exact")) wrong(in, "\"method\" is not how its distinct URLs were counted");
    check(in, unique_urls, urls.count, "\"count\" of \"distinct_urls\"");
    if (!urls.exact && relative_error != relative_error_text(urls.relative_error))
        wrong(in, "\"relative_error\" is not the sketch's");
    const auto recomputed = totals_of(r);
    for (std::size_t i = 0; i < recomputed.size(); ++i) {
        const auto& [name, value] = recomputed[i];
        const bool null_expected = name == "duplicate_urls" && !urls.exact;
        if (totals[i].has_value() == null_expected) wrong(in, "\"totals\" \"" + std::string(name) + "\" is misplaced null");
        if (totals[i]) check(in, *totals[i], value, "\"totals\" \"" + std::string(name) + "\"");
    }
    for (const report_table t : {report_table::wrapper, report_table::form})
        check(in, r.total(t), r.references(), "the total of table \"" + std::string(to_string(t)) + "\"");
    return part;
}

}  // namespace

partial_report read_partial_report(std::string_view text) {
    try {
        return read_partial(text);
    } catch (const refused_partial&) {
        throw;
    } catch (const json_error& e) {
        throw json_error(std::string(e.what()) + "; merge only partial reports as urlsift report --partial "
                                                 "wrote them: make this part again");
    } catch (const std::overflow_error& e) {
        throw json_error(std::string(e.what()) + "; no run counts this much: make this part again");
    }
}

report read_report_json(std::string_view text) { return read_partial_report(text).counts; }

}  // namespace urlsift::cli
