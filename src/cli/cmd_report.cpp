// urlsift report: batch reports over many inputs, on threads, and the merge
// of partial reports written by shards of a corpus.

#include "cli/atomic_file.hpp"
#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/exit_after.hpp"
#include "cli/mail_input.hpp"
#include "cli/input.hpp"
#include "cli/json_reader.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/report_format.hpp"
#include "cli/progress_line.hpp"
#include "cli/report_inputs.hpp"
#include "cli/scan_settings.hpp"
#include "cli/walk.hpp"
#include "text/icu_text.hpp"

#include <urlsift/report.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/scanner.hpp>
#include <urlsift/text_source.hpp>

#include <algorithm>
#include <map>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace urlsift::cli {

namespace {

constexpr std::string_view usage =
    R"help(Usage: urlsift report [OPTIONS] [FILE|DIR|- ...]
       urlsift report --merge [OPTIONS] PARTIAL.json ...

Count the references in many inputs and summarize them: how many files,
bytes, references and distinct URLs; the references by scheme, host,
registrable domain, file, wrapper (<...>, "...", URL:) and form (absolute,
relative, abbreviated); the URLs seen more than once; the relative
references no base resolved; Section 7 warnings; and hosts that are IP
addresses, punycode (xn--) names, or names with a label that ICU's spoof
checker finds deceptive (UTS 39: scripts mixed, as in a Cyrillic a in
"paypal", or a label that reads as an ASCII word it is not), which can
hide where a link leads. With mail and web archives also: links a mail
security gateway wrapped (Safe Links, Proofpoint, Google redirects, by
gateway), HTML links whose text shows a site in another registrable
domain than the one they lead to ("paypal.com -> evil.example"), and, for
mail, the references by the content type of their MIME part.
Every count is exact, and each key comes with the place it was seen first
(FILE:LINE, where "first" follows the order of the inputs). The one
exception is the set of distinct URLs, whose memory grows with the corpus:
past --exact-urls (default 1000000) they are counted by a HyperLogLog
sketch instead (an estimate with a standard error of 0.81 %, said with
it), and the URL and duplicate tables are left empty.

References are found and resolved as 'urlsift extract' finds them (the same
scanning options), but relative references are counted even without a
base. Files with a NUL byte are counted as binary and skipped; a file that
cannot be read is reported on standard error, counted, and the others are
still read. With no FILE, or when FILE is -, standard input is read. With
-z, gzip, bzip2, xz and zstd files are read as the text they hold.

Mail: with --input mail, mbox or auto, messages and mailboxes are read as
'urlsift extract' reads them (MIME decoded, HTML parts through the HTML
parser, URL headers such as List-Unsubscribe), each reference resolved
against the base its message gives (Section 5.1), else --base.

Web archives: a file that starts as a WARC file does (WARC/1.0 or 1.1,
the format crawl archives publish; WET files too) is read record by
record. The payloads of response, resource and conversion records that
are text are scanned (HTML through an HTML parser: href and src values),
each resolved against its record's WARC-Target-URI, the URI it was
retrieved from, or the document's <base href>; lines count in the file.

A large corpus can be cut into parts: run 'report --partial' on each part
(on other machines if need be), then 'report --merge' on the partial
reports, in the order of the parts. The result is the report one run over
all the inputs would give, byte for byte. A partial report carries a
checksum of its content and the options that shaped its counts, and
--merge trusts none of it: it refuses (status 2, saying which file and
why) a partial that was changed or damaged, one an older urlsift made,
one made with other options than the first, the same partial given
twice, and counts that would add up past 2^64 - 1.
)help";

constexpr std::string_view epilog = R"help(
Output formats:
  text  totals, then the top rows (--top) of each table: count, key and
        "first seen FILE:LINE"; control characters shown escaped
  json  one document with stable keys: "format" ("urlsift-report"),
        "version" (3), "partial" (true or false), for a partial report
        "checksum", "options" and "made_of" (below), "interrupted" (true
        when Ctrl-C stopped the run), "generated" (UTC time,
        null with --no-timestamp), "totals" (files, files_read,
        files_binary, files_failed, bytes, references, unique_urls,
        duplicate_urls, relative_unresolved, warnings, ip_host_references,
        punycode_host_references, lookalike_host_references), "distinct_urls" ({"method": "exact"
        or "hll", "count": N, "exact_limit": N, and for "hll" "precision",
        "relative_error" and the "registers" in hex; duplicate_urls is then
        null}), "files" (input, name, status read|binary|failed,
        bytes, references, error), "failed_files", and "tables": scheme,
        host, domain, wrapper, form, warning, ip_host, punycode_host,
        lookalike_host, gateway, anchor_mismatch, part_kind, relative, url
        and duplicate, each {"distinct", "total", "rows":
        [{"key", "count", "first": {"input", "file", "line"}}]}.
        A final report holds the --top rows of each table and the --top
        files with the most references; with --partial, every row and every
        input in input order, which is what --merge reads.
        A partial report's "checksum" is "fnv1a64:" and 16 hex digits:
        FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime
        0x100000001b3), of every byte after the line that holds it, from
        the byte after that line's newline to the end of the file. In
        Python:
          d = open(path, "rb").read()
          d = d[d.index(b"\n", d.index(b'"checksum"')) + 1:]
          h = 0xcbf29ce484222325
          for b in d: h = (h ^ b) * 0x100000001b3 % 2**64
          print("fnv1a64:%016x" % h)
        Its "options" are the options that shape the counts, each value a
        string ("" when not given, "on" or "off" for a switch): base,
        base-root, resolver, normalize, hyphen, max-url-length, abbrev,
        abbrev-scheme, literal-brackets, input, encoding, binary,
        search-zip, max-memory; and "exact_limit" is --exact-urls. Its
        "made_of", for a partial that --merge --partial wrote, lists the
        checksums of the partials made from inputs whose counts it holds
        (ascending); it is empty in one made from inputs. --merge
        reads the members in the order they are written here, and no
        others, and checks the derived ones ("totals", "failed_files", each
        table's "distinct" and "total", "duplicate") against the counts.
  markdown
        the text summary and the most frequent URLs as GitHub-flavoured
        Markdown tables; in names and keys, control characters are shown
        escaped and | \ ` * _ ~ [ ] < > & $ are escaped with a backslash,
        so no cell turns into markup
  html  one self-contained page: totals, bar charts (inline SVG) of the
        top hosts, schemes and files by references (the --top rows, at
        most 25 bars), then the tables of the markdown format. It loads
        nothing and runs no script (its Content-Security-Policy forbids
        both); tables are in report order. Every name and key is escaped,
        and only http, https, ftp and mailto URLs are links.
  csv, tsv
        one table, chosen with --table: scheme, host, domain, wrapper,
        form, warning, ip_host, punycode_host, lookalike_host, gateway,
        anchor_mismatch, part_kind, relative, url (the json tables), duplicate (URLs seen more than once) or
        files. A header line, then every row (--top N: the first N).
        Columns:
        key,count,first_input,first_file,first_line (first_input is the
        input's ordinal from 0, first_file its name as given); for files:
        input,name,status,bytes,references,error, by references, most
        first, then input order. Fields as extract writes them: csv quoted
        as RFC 4180 says, a cell starting with = + - @ tab or CR given a
        leading ' so a spreadsheet does not run it; tsv with tab, newline,
        CR and backslash written as \t \n \r \\, and a cell starting with
        = + - @ given the same leading '. On a terminal, control
        characters are shown escaped.
  Rows are ordered by count, most first, then by key; files by input order
  where counts tie. The output is the same for any -j.
  Hosts are compared in lower case; the registrable domain is the host's
  label before its top-level domain (the Public Suffix List's top-level
  rules: www.bbc.co.uk counts under co.uk), and a host whose top-level
  label is not a public suffix (localhost, .internal) has none. Bytes are
  those of the UTF-8 text scanned.

Examples:
  urlsift report -r corpus/                       text summary
  urlsift report -r -j 8 -f json --top 100 corpus/ > report.json
  urlsift report -r -f html -o report.html corpus/  a page to open in a browser
  urlsift report -r -f csv --table host corpus/   every host, for a spreadsheet
  urlsift report -r corpus/part-07/ --partial -o part-07.json
  urlsift report --merge part-*.json              the report over all parts
  urlsift report --base https://example.org/docs/ -r docs/

Exit status: 0 if a reference was found, 1 if none was, 2 on error (an
unreadable file is reported on stderr, counted, and the others are read).
)help";

/// Now in UTC, as ISO 8601 (`2026-01-02T03:04:05Z`).
std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm t{};
    ::gmtime_r(&now, &t);
    char buf[32];
    const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &t);
    return std::string(buf, n);
}

enum class report_format { text, json, markdown, html, csv, tsv };

report_format parse_report_format(const std::string& name) {
    constexpr std::pair<std::string_view, report_format> formats[] = {
        {"text", report_format::text}, {"json", report_format::json}, {"markdown", report_format::markdown},
        {"html", report_format::html}, {"csv", report_format::csv},   {"tsv", report_format::tsv}};
    for (const auto& [n, f] : formats)
        if (n == name) return f;
    throw usage_error("report", "unknown --format '" + name + "' (choose one of: text|json|markdown|html|csv|tsv)");
}

/// "(one of: scheme|host|...|files)".
std::string table_choices() {
    std::string s = "(one of: ";
    for (const std::string_view n : report_sheet_names()) {
        if (s.back() != ' ') s += '|';
        s += n;
    }
    return s + ')';
}

void check_table(const std::string& name) {
    const auto& names = report_sheet_names();
    if (std::find(names.begin(), names.end(), name) == names.end())
        throw usage_error("report", "unknown --table '" + name + "' " + table_choices());
}

/// Writes `text` into `file` and puts it in place of `path`; throws with
/// what went wrong and what became of `path` (`existed`: it was there).
void replace_output(atomic_file& file, std::string_view text, const std::string& path, bool existed) {
    // In slices: the file's buffer would otherwise take a copy of it all.
    constexpr std::size_t slice = 1 << 20;
    for (std::size_t at = 0; at < text.size() && file.write(text.substr(at, slice)); at += slice) {}
    if (!file.commit(""))
        throw std::runtime_error(path + ": " + file.error() + (existed ? "; left as it was" : "; not written") +
                                 " (make room, or choose another -o FILE)");
}

/// The abbreviations of `kinds` by name, as --abbrev takes them: "none",
/// or a list ("www,ftp,gopher").
std::string abbrev_names(abbrev_set kinds) {
    std::string names;
    for (unsigned bit = 0; bit < 16; ++bit) {
        const auto kind = static_cast<abbrev_kind>(1u << bit);
        if ((kinds & static_cast<abbrev_set>(kind)) == 0) continue;
        if (!names.empty()) names += ',';
        names += to_string(kind);
    }
    return names.empty() ? "none" : names;
}

/// What shaped the counts of a run with settings `rs` (from `ss`), as a
/// partial report records it: the values the options took, whatever way
/// they were written (--abbrev all and the list of every kind are one).
count_options options_of(const scan_settings& ss, const read_settings& rs, const std::string& input,
                         const std::string& charset, const std::string& binary) {
    const auto on_off = [](bool on) { return std::string(on ? "on" : "off"); };
    count_options o;
    o[count_option::base] = rs.base ? rs.base->base() : "";
    o[count_option::base_root] = ss.base_root;
    o[count_option::resolver] = to_string(rs.resolve.mode);
    o[count_option::normalize] = on_off(rs.resolve.normalize);
    o[count_option::hyphen] = rs.scan.hyphen == hyphen_policy::keep ? "keep" : "drop";
    o[count_option::max_url_length] = std::to_string(rs.scan.max_url_length);
    o[count_option::abbrev] = abbrev_names(rs.scan.abbrev.kinds);
    o[count_option::abbrev_scheme] = rs.scan.abbrev.https ? "https" : "http";
    o[count_option::literal_brackets] = on_off(rs.scan.abbrev.literal_in_brackets);
    o[count_option::input] = input;
    o[count_option::encoding] = charset;
    o[count_option::binary] = binary;
    o[count_option::search_zip] = on_off(rs.text.decompress);
    o[count_option::max_memory] = std::to_string(rs.memory.parse_memory * 2);
    // Stored as they read back from the partial's JSON.
    std::string scratch;
    for (auto& value : o.values)
        if (detail::valid_utf8(value, scratch).data() != value.data()) value = scratch;
    return o;
}

/// "--base 'http://a/'" or "no --base", for a message.
std::string shown_option(std::size_t i, const std::string& value) {
    const std::string name = "--" + std::string(count_option_names[i]);
    return value.empty() ? "no " + name : name + " '" + value + "'";
}

/// Why `part` cannot be added to the parts before it,
/// the first of which is `first_path`, whose options were `first`; empty
/// when it can.
std::string mismatch(const partial_report& part, const count_options& first, std::uint64_t first_exact_limit,
                     const std::string& first_path) {
    for (std::size_t i = 0; i < count_option_names.size(); ++i)
        if (part.options.values[i] != first.values[i])
            return "made with " + shown_option(i, part.options.values[i]) + ", " + visible(first_path) + " with " +
                   shown_option(i, first.values[i]) + ": the parts of one report are made with the options of one " +
                   "run; make this part again with those of the others";
    if (part.counts.exact_url_limit() != first_exact_limit)
        return "made with --exact-urls " + std::to_string(part.counts.exact_url_limit()) + ", " +
               visible(first_path) + " with " + std::to_string(first_exact_limit) +
               ": make the parts with the same limit";
    return {};
}

/// Adds up the partial reports at `paths`, in order, into `r`; their
/// options go to `options`, and the partials made from inputs that they
/// hold to `made_of`. False, with the reason on standard error, when one is
/// refused.
bool merge_partials(const std::vector<std::string>& paths, report& r, count_options& options,
                    std::vector<std::uint64_t>& made_of) {
    // Each partial made from inputs that the parts hold, with the first path
    // that holds it. The same partial given twice (or once itself and once
    // in a merge of it) is refused rather than skipped: a repeated operand
    // means the list is not the list of parts meant, and two files that are
    // the same bytes may be two parts that read the same text (blocks of one
    // stream read from standard input): skipping one would drop its counts
    // on a guess. Refused, nothing is lost, and the fix is the user's.
    struct held_in {
        const std::string* path;
        bool itself; ///< the partial at `path` is that partial, not a merge that holds it
    };
    std::map<std::uint64_t, held_in> held;
    const auto refuse = [](const std::string& path, const std::string& why) {
        std::cerr << "urlsift report: " << visible(path) << ": " << visible(why) << '\n';
        return false;
    };
    for (const auto& path : paths) {
        std::string error;
        const std::string json = read_whole(path, error);
        if (!error.empty()) return refuse(path, error);
        partial_report part;
        try {
            part = read_partial_report(json);
        } catch (const json_error& e) {
            return refuse(path, e.what());
        }
        for (const std::uint64_t p : part.parts()) {
            const auto [at, added] = held.emplace(p, held_in{&path, p == part.checksum});
            if (added) continue;
            const held_in& first = at->second;
            std::string why;
            if (*first.path == path)
                why = "given twice";
            else if (first.itself && p == part.checksum)
                why = "the same partial report as " + visible(*first.path);
            else
                why = "its counts and those of " + visible(*first.path) + " both hold the partial report";
            return refuse(path, why + " (checksum " + checksum_text(p) +
                                    "), which would be counted twice: give each part once");
        }
        if (&path == &paths.front()) {
            options = part.options;
            r = report(part.counts.exact_url_limit());
        } else if (const std::string why =
                       mismatch(part, options, r.exact_url_limit(), paths.front());
                   !why.empty()) {
            return refuse(path, why);
        }
        try {
            r.merge(std::move(part.counts));
        } catch (const std::overflow_error& e) {
            return refuse(path, std::string("adding it, ") + e.what() +
                                    ": no corpus counts this much, so a part is not what urlsift wrote; make the "
                                    "parts again");
        }
    }
    made_of.clear();
    for (const auto& [p, path] : held) made_of.push_back(p);
    return true;
}

unsigned parse_jobs(long long jobs) {
    if (jobs == 0) return std::max(1U, std::thread::hardware_concurrency());
    if (jobs < 0 || jobs > 1024)
        throw usage_error("report", "-j must be a number of threads from 1 to 1024 (0: one per processor), not " +
                                        std::to_string(jobs));
    return static_cast<unsigned>(jobs);
}

/// The options of report, as given.
struct report_options {
    standard_settings standard;
    std::optional<std::string> format;
    std::optional<std::string> table;
    std::optional<std::string> output;
    bool partial{};
    bool merge{};
    long long jobs{};
    std::optional<long long> top;
    std::optional<long long> exact_urls;
    bool no_timestamp{};
    bool progress{};
    reading_settings reading;
    std::string input;
    walk_settings walk;
    scan_settings scan;
    std::vector<std::string> operands;
};

constexpr std::string_view format_choices[] = {"text", "json", "markdown", "html", "csv", "tsv"};
constexpr std::string_view merge[] = {"merge"};
constexpr std::string_view partial[] = {"partial"};
/// report_sheet_names(), for the completions.
constexpr std::string_view table_names[] = {
    "scheme",  "host",      "domain",          "wrapper",   "form",     "warning", "ip_host",   "punycode_host",
    "lookalike_host", "gateway", "anchor_mismatch", "part_kind", "relative", "url", "duplicate", "files"};

constexpr option_row<report_options> report_table[] = {
    {{.name = "format", .short_name = 'f', .value = value_kind::choice,
      .help = "output format: text (default), json, markdown, html, csv or tsv", .choices = format_choices},
     &report_options::format},
    {{.name = "table", .value = value_kind::choice, .help = "the table csv and tsv write (see Output formats)",
      .choices = table_names},
     &report_options::table},
    {{.name = "output", .short_name = 'o', .value = value_kind::file,
      .help = "write the report to FILE instead of standard output: beside it, then renamed over it, so that a "
              "run that fails leaves FILE as it was"},
     &report_options::output},
    {{.name = "partial", .help = "write a partial report for --merge: json, every row and input", .excludes = merge},
     &report_options::partial},
    {{.name = "merge", .help = "the operands are partial reports: add them up, in the order given",
      .excludes = partial},
     &report_options::merge},
    {{.name = "jobs", .short_name = 'j', .value = value_kind::number,
      .help = "threads (default 0: one per processor); files are read on N threads, and one file is read on one "
              "while another counts",
      .default_value = "0"},
     &report_options::jobs},
    {{.name = "top", .value = value_kind::number, .help = "rows of each table in the report (default 10; 0: all)"},
     &report_options::top},
    {{.name = "exact-urls", .value = value_kind::number,
      .help = "count distinct URLs exactly up to N (default 1000000), then estimate them with a sketch"},
     &report_options::exact_urls},
    {{.name = "no-timestamp", .help = "leave out the time the report was made, so that it is reproducible"},
     &report_options::no_timestamp},
    {{.name = "progress", .help = "show progress on stderr even when it is not a terminal (a line every 5 s)"},
     &report_options::progress},
};

constexpr option_row<report_options> report_input[] = {{input_option, &report_options::input}};

void add_options(option_set& set, report_options& o) {
    set.add(standard_options, o.standard);
    set.add(report_table, o);
    add_reading_options(set, o.reading);
    set.add(report_input, o);
    add_walk_options(set, o.walk);
    add_scan_options(set, o.scan, abbrev_help::all_but_ipv4);
}

}  // namespace

const command_spec report_command{
    .name = "report",
    .summary = "count the references in many files: hosts, domains, duplicates",
    .usage = usage,
    .epilog = epilog,
    .operands = operand_kind::files,
    .run = cmd_report,
    .list_options = [](option_set& set) {
        static report_options unused;
        add_options(set, unused);
    },
};

int cmd_report(const args& a) {
    report_options o;
    option_set set;
    add_options(set, o);
    parse_command_line("report", a, set, o.operands);
    if (answered_help_or_version(o.standard, report_command, set)) return 0;
    const scan_settings& ss = o.scan;
    const walk_settings& walk = o.walk;
    const std::string fmt_name = o.format.value_or("text");
    const std::string table_name = o.table.value_or("");
    const std::string& binary = o.reading.binary;
    const std::string& input_kind = o.input;
    const long long top = o.top.value_or(10);
    const long long exact_urls = o.exact_urls.value_or(static_cast<long long>(default_exact_url_limit));

    report_layout layout;
    layout.partial = o.partial;
    const report_format fmt = parse_report_format(layout.partial && !o.format ? "json" : fmt_name);
    if (o.table) check_table(table_name);
    const bool sheet = fmt == report_format::csv || fmt == report_format::tsv;
    if (layout.partial && fmt != report_format::json) throw usage_error("report", "--partial writes json: use --format json");
    if (sheet && !o.table)
        throw usage_error("report", "--format " + fmt_name + " writes one table: choose it with --table " +
                                        table_choices());
    if (!sheet && o.table) throw usage_error("report", "--table chooses the table of --format csv or tsv");
    if (top < 0) throw usage_error("report", "--top must be 0 (all) or a number of rows, not " + std::to_string(top));
    if (exact_urls < 0)
        throw usage_error("report", "--exact-urls must be a number of URLs, not " + std::to_string(exact_urls));
    // csv and tsv are for a spreadsheet or a pipeline: every row, unless
    // --top asks for fewer.
    layout.top = sheet && !o.top ? 0 : static_cast<std::size_t>(top);
    if (!o.no_timestamp) layout.generated = utc_now();
    const bool merging = o.merge;
    const std::vector<std::string>& operands = o.operands;

    // -o FILE replaces FILE whole or not at all: a regular file (or a new
    // one) gets the report written beside it and renamed over it, as
    // rewrite -i does, so that a full disk or a signal leaves the old report
    // as it was. The temporary file is made first, so that a place that
    // cannot be written fails before the work. Anything else (/dev/stdout,
    // a FIFO, a terminal) is written to as it is.
    int out_fd = STDOUT_FILENO;
    std::optional<atomic_file> replacement;
    std::optional<struct stat> replaced; ///< FILE as it was, kept out of the inputs
    const std::string output_path = o.output.value_or("");
    if (o.output) {
        struct stat st {};
        const bool exists = ::stat(output_path.c_str(), &st) == 0;
        if (exists && !S_ISREG(st.st_mode)) {
            out_fd = ::open(output_path.c_str(), O_WRONLY | O_CLOEXEC);
            if (out_fd < 0) throw std::runtime_error(output_path + ": " + std::string(std::strerror(errno)));
        } else {
            replacement.emplace(output_path);
            if (!replacement->error().empty())
                throw std::runtime_error(output_path + ": " + replacement->error() +
                                         "; nothing was read (choose another -o FILE, or make this one and its "
                                         "directory writable)");
            if (exists) replaced = st;
            // SIGTERM and SIGHUP remove the temporary file from now on; Ctrl-C
            // is the run's own while it reads, and removes it once it is done.
            atomic_file::remove_on_signals();
        }
    }
    struct fd_closer {
        int fd;
        ~fd_closer() {
            if (fd != STDOUT_FILENO) ::close(fd);
        }
    } closer{out_fd};

    report r;
    bool failed = false;
    std::size_t input_count = 0; // inputs to read, for the note on an interrupted run
    if (merging) {
        if (operands.empty()) throw usage_error("report", "--merge needs the partial reports to merge");
        if (o.exact_urls) throw usage_error("report", "--merge takes --exact-urls from the partial reports");
        if (!merge_partials(operands, r, layout.options, layout.made_of)) return 2;
    } else {
        read_settings rs;
        rs.resolve = make_resolve_options("report", ss);
        rs.memory = make_memory_cap("report", ss);
        rs.canonicalize = rs.resolve.normalize || rs.resolve.mode == resolve_mode::browser;
        rs.scan = make_scan_options("report", ss, abbrev_default);
        rs.base = make_base("report", ss);
        rs.text = {.encoding = o.reading.encoding,
                   .binary_as_text = parse_binary_as_text("report", binary),
                   .decompress = o.reading.search_zip};
        std::string encoding_error;
        const auto probe = text_source::open(rs.text, encoding_error);
        if (!probe) throw usage_error("report", encoding_error);
        const unsigned threads = parse_jobs(o.jobs);
        rs.input = parse_input_setting("report", input_kind);
        rs.bases.emplace("report", ss);
        rs.exact_url_limit = static_cast<std::uint64_t>(exact_urls);
        layout.options = options_of(ss, rs, input_kind, probe->charset(), binary);

        // The walk goes on while the first files are read; what it could
        // not read is told after the run.
        std::vector<input_error> errors;
        const output_file output = replaced ? output_file(*replaced) : output_file(out_fd);
        const input_lister list = [&](const std::function<bool(listed_file)>& add) {
            walk_files(operands, walk, errors, [&](listed_file f) { return output.is(f.path, errors) || add(std::move(f)); });
        };
        run_progress progress;
        {
            const stop_on_interrupt ctrl_c(progress);
            const bool terminal = ::isatty(STDERR_FILENO) == 1;
            std::optional<progress_line> line;
            if (terminal || o.progress) line.emplace(progress, terminal);
            r = aggregate(list, rs, threads, progress);
        }
        for (const auto& e : errors) {
            std::cerr << "urlsift report: " << visible(e.path) << ": " << e.message << '\n';
            failed = true;
        }
        layout.interrupted = progress.stop;
        input_count = progress.inputs_listed;
        // In input order, whatever the thread count; the inputs are read
        // only when some failed.
        if (r.inputs_with(input_status::failed) > 0) {
            for (const auto& in : r.inputs()) {
                if (in.status != input_status::failed) continue;
                std::cerr << "urlsift report: " << visible(in.name) << ": " << visible(in.error) << '\n';
            }
            failed = true;
        }
    }

    std::string text;
    switch (fmt) {
    case report_format::text: append_report_text(text, r, layout); break;
    case report_format::json: append_report_json(text, r, layout); break;
    case report_format::markdown: append_report_markdown(text, r, layout); break;
    case report_format::html: append_report_html(text, r, layout); break;
    case report_format::csv:
    case report_format::tsv: append_report_sheet(text, r, table_name, fmt == report_format::csv, layout.top); break;
    }
    if (replacement) {
        atomic_file::remove_on_signals();  // Ctrl-C too, now that the run is over
        replace_output(*replacement, text, output_path, replaced.has_value());
    } else {
        output out(out_fd);
        if (sheet && out.is_terminal()) {
            // The other formats escape control characters themselves; a csv or
            // tsv cell holds them as they are, for the program that reads it.
            std::string shown;
            append_visible(shown, text, true);
            text.swap(shown);
        }
        out.write(text);
        out.flush();
    }
    const std::size_t inputs_read = r.inputs().size();
    const bool found = r.references() > 0;
    leave_to_exit(std::move(r));
    if (layout.interrupted) {
        std::cerr << "urlsift report: interrupted: the report covers the " << inputs_read << " of " << input_count
                  << " inputs read before it (marked \"interrupted\")\n";
        return 128 + SIGINT;
    }
    if (failed) return 2;
    return found ? 0 : 1;
}

}  // namespace urlsift::cli
