// urlsift report: batch reports over many inputs, on threads, and the merge
// of partial reports written by shards of a corpus.

#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/input.hpp"
#include "cli/json_reader.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/report_format.hpp"
#include "cli/scan_settings.hpp"
#include "cli/walk.hpp"

#include <urlsift/report.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/scanner.hpp>
#include <urlsift/text_source.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <exception>
#include <fcntl.h>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unistd.h>
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
addresses or punycode (xn--) names, which can hide where a link leads.
Every count is exact, and each key comes with the place it was seen first
(FILE:LINE, where "first" follows the order of the inputs).

References are found and resolved as 'urlsift extract' finds them (the same
scanning options), but relative references are counted even without a
base. Files with a NUL byte are counted as binary and skipped; a file that
cannot be read is reported on standard error, counted, and the others are
still read. With no FILE, or when FILE is -, standard input is read.

A large corpus can be cut into parts: run 'report --partial' on each part
(on other machines if need be), then 'report --merge' on the partial
reports, in the order of the parts. The result is the report one run over
all the inputs would give, byte for byte.
)help";

constexpr std::string_view epilog = R"help(
Output formats:
  text  totals, then the top rows (--top) of each table: count, key and
        "first seen FILE:LINE"; control characters shown escaped
  json  one document with stable keys: "format" ("urlsift-report"),
        "version" (1), "partial" (true or false), "generated" (UTC time,
        null with --no-timestamp), "totals" (files, files_read,
        files_binary, files_failed, bytes, references, unique_urls,
        duplicate_urls, relative_unresolved, warnings, ip_host_references,
        punycode_host_references), "distinct_urls" ({"method": "exact",
        "count": N}), "files" (input, name, status read|binary|failed,
        bytes, references, error), "failed_files", and "tables": scheme,
        host, domain, wrapper, form, warning, ip_host, punycode_host,
        relative, url and duplicate, each {"distinct", "total", "rows":
        [{"key", "count", "first": {"input", "file", "line"}}]}.
        A final report holds the --top rows of each table and the --top
        files with the most references; with --partial, every row and every
        input in input order, which is what --merge reads.
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
  urlsift report -r corpus/part-07/ --partial -o part-07.json
  urlsift report --merge part-*.json              the report over all parts
  urlsift report --base https://example.org/docs/ -r docs/

Exit status: 0 if a reference was found, 1 if none was, 2 on error (an
unreadable file is reported on stderr, counted, and the others are read).
)help";

/// What every worker needs to read an input: its own copies, so that the
/// workers share nothing while they scan.
struct read_settings {
    scan_options scan;
    std::optional<resolver> base;
    resolve_options resolve;
    bool canonicalize = false; ///< apply the resolver mode/normalization to absolute URLs without a base
    text_options text;
};

/// Reads inputs into a report, one after another.
class input_reader {
public:
    explicit input_reader(const read_settings& s) : s_(s), base_(s.base) {
        std::string error;
        auto source = text_source::open(s.text, error);
        if (!source) throw std::runtime_error(error);  // the encoding was checked before: not expected
        source_.emplace(std::move(*source));
    }

    void read(const std::string& path, report& into) {
        const std::uint64_t input = into.add_input(path);
        std::uint64_t bytes = 0;
        scanner sc(s_.scan, [&](found_reference& r) {
            // The resolution stage, as extract has it.
            if (base_) {
                resolve_reference(r, *base_);
            } else if (s_.canonicalize && r.form != reference_form::relative) {
                if (auto c = resolve_absolute(r.url, s_.resolve)) r.url = std::move(*c);
            }
            into.add(input, r);
            return true;
        });
        const text_read got = source_->read_file(path, [&](std::string_view text) {
            bytes += text.size();
            sc.feed(text);
            return true;
        });
        switch (got.what) {
        case text_read::status::failed: into.finish_input(input, bytes, input_status::failed, got.error); return;
        case text_read::status::binary: into.finish_input(input, 0, input_status::binary); return;
        case text_read::status::done:
        case text_read::status::stopped: break;
        }
        sc.finish();
        into.finish_input(input, bytes, input_status::read);
    }

private:
    const read_settings& s_;
    std::optional<resolver> base_;
    std::optional<text_source> source_;
};

/// Aggregates `files` on `jobs` threads. The files are cut into runs of
/// consecutive inputs; each worker takes the next run, aggregates it into a
/// report of its own, and this thread merges the runs' reports in input
/// order as they come. Since merging is exact, the result is the report of
/// one sequential run, whatever the thread count and the timing.
report aggregate(const std::vector<std::string>& files, const read_settings& s, unsigned jobs) {
    if (jobs <= 1 || files.size() <= 1) {
        input_reader reader(s);
        report r;
        for (const auto& f : files) reader.read(f, r);
        return r;
    }
    // Runs short enough to balance the load, long enough that merging them
    // costs little next to scanning.
    const std::size_t run = std::clamp<std::size_t>(files.size() / (std::size_t{jobs} * 8), 1, 64);
    const std::size_t runs = (files.size() + run - 1) / run;
    std::vector<std::optional<report>> done(runs);
    std::mutex m;
    std::condition_variable ready;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::exception_ptr failure;

    const auto work = [&] {
        try {
            input_reader reader(s);
            for (std::size_t k; !stop && (k = next++) < runs;) {
                report part;
                for (std::size_t i = k * run; i < std::min(files.size(), (k + 1) * run); ++i) reader.read(files[i], part);
                const std::lock_guard lock(m);
                done[k] = std::move(part);
                ready.notify_all();
            }
        } catch (...) {
            const std::lock_guard lock(m);
            if (!failure) failure = std::current_exception();
            stop = true;
            ready.notify_all();
        }
    };
    std::vector<std::thread> pool;
    const auto join_all = [&] {
        stop = true;
        for (auto& t : pool) t.join();
    };
    try {
        for (std::size_t j = 0; j < std::min<std::size_t>(jobs, runs); ++j) pool.emplace_back(work);
    } catch (...) {
        join_all();
        throw;
    }
    report total;
    for (std::size_t k = 0; k < runs; ++k) {
        std::optional<report> part;
        {
            std::unique_lock lock(m);
            ready.wait(lock, [&] { return done[k].has_value() || failure != nullptr; });
            if (failure) break;
            part.swap(done[k]);
        }
        total.merge(std::move(*part));
    }
    join_all();
    if (failure) std::rethrow_exception(failure);
    return total;
}

/// The whole of a file (`-`: standard input); throws with the path's error.
std::string read_whole(const std::string& path) {
    const int fd = path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::system_error(errno, std::generic_category());
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int e = errno;
            if (fd != STDIN_FILENO) ::close(fd);
            throw std::system_error(e, std::generic_category());
        }
        if (n == 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    if (fd != STDIN_FILENO) ::close(fd);
    return text;
}

/// Now in UTC, as ISO 8601 (`2026-01-02T03:04:05Z`).
std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm t{};
    ::gmtime_r(&now, &t);
    char buf[32];
    const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &t);
    return std::string(buf, n);
}

unsigned parse_jobs(long long jobs) {
    if (jobs == 0) return std::max(1U, std::thread::hardware_concurrency());
    if (jobs < 0 || jobs > 1024)
        throw usage_error("report", "-j must be a number of threads from 1 to 1024 (0: one per processor), not " +
                                        std::to_string(jobs));
    return static_cast<unsigned>(jobs);
}

}  // namespace

int cmd_report(const args& a) {
    po::options_description opts("Options");
    std::string fmt_name = "text", binary = "skip", encoding = "utf-8", output_path;
    long long jobs = 1, top = 10;
    scan_settings ss;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help and exit")
        ("version,V", "show the version and exit")
        ("format,f", po::value<std::string>(&fmt_name), "output format: text (default) or json")
        ("output,o", po::value<std::string>(&output_path), "write the report to FILE instead of standard output")
        ("partial", po::bool_switch(), "write a partial report for --merge: json, every row and input")
        ("merge", po::bool_switch(), "the operands are partial reports: add them up, in the order given")
        ("jobs,j", po::value<long long>(&jobs), "read files on N threads (default 1; 0: one per processor)")
        ("top", po::value<long long>(&top), "rows of each table in the report (default 10; 0: all)")
        ("no-timestamp", po::bool_switch(), "leave out the time the report was made, so that it is reproducible")
        ("binary", po::value<std::string>(&binary), "files with a NUL byte: skip (default) or text")
        ("encoding", po::value<std::string>(&encoding), "charset of the input: utf-8 (default), latin1, windows-1252, ...");
    // clang-format on
    walk_settings walk;
    add_walk_options(opts, walk);
    add_scan_options(opts, ss, "abbreviations to complete: all, none, or a list (www,ftp,gopher,news,wais,domain,"
                               "email,ipv4); default all but ipv4");
    const auto vm = parse_command_line("report", a, opts, "input");
    if (answered_help_or_version(vm, usage, opts, epilog)) return 0;

    report_layout layout;
    layout.partial = vm["partial"].as<bool>();
    if (fmt_name != "text" && fmt_name != "json")
        throw usage_error("report", "unknown --format '" + fmt_name + "' (choose one of: text|json)");
    const bool json = fmt_name == "json" || (layout.partial && !vm.count("format"));
    if (layout.partial && !json) throw usage_error("report", "--partial writes json: use --format json");
    if (top < 0) throw usage_error("report", "--top must be 0 (all) or a number of rows, not " + std::to_string(top));
    layout.top = static_cast<std::size_t>(top);
    if (!vm["no-timestamp"].as<bool>()) layout.generated = utc_now();
    const bool merging = vm["merge"].as<bool>();
    const std::vector<std::string> operands =
        vm.count("input") ? vm["input"].as<std::vector<std::string>>() : std::vector<std::string>{};

    // The output file is opened first, so that a path that cannot be written
    // fails before the work, and is truncated only once the report is made.
    int out_fd = STDOUT_FILENO;
    if (vm.count("output")) {
        out_fd = ::open(output_path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (out_fd < 0)
            throw std::runtime_error(output_path + ": " + std::string(std::strerror(errno)));
    }
    struct fd_closer {
        int fd;
        ~fd_closer() {
            if (fd != STDOUT_FILENO) ::close(fd);
        }
    } closer{out_fd};

    report r;
    bool failed = false;
    if (merging) {
        if (operands.empty()) throw usage_error("report", "--merge needs the partial reports to merge");
        for (const auto& path : operands) {
            try {
                r.merge(read_report_json(read_whole(path)));
            } catch (const json_error& e) {
                std::cerr << "urlsift report: " << visible(path) << ": " << visible(e.what()) << '\n';
                return 2;
            } catch (const std::system_error& e) {
                std::cerr << "urlsift report: " << visible(path) << ": " << visible(e.code().message()) << '\n';
                return 2;
            }
        }
    } else {
        read_settings rs;
        rs.resolve = make_resolve_options("report", ss);
        rs.canonicalize = rs.resolve.normalize || rs.resolve.mode == resolve_mode::browser;
        rs.scan = make_scan_options("report", ss, abbrev_default);
        rs.base = make_base("report", ss);
        rs.text = {.encoding = encoding, .binary_as_text = parse_binary_as_text("report", binary)};
        std::string encoding_error;
        if (!text_source::open(rs.text, encoding_error)) throw usage_error("report", encoding_error);
        const unsigned threads = parse_jobs(jobs);

        std::vector<input_error> errors;
        std::vector<std::string> files = expand_operands(operands, walk, errors);
        skip_output_file(files, errors, out_fd);
        for (const auto& e : errors) {
            std::cerr << "urlsift report: " << visible(e.path) << ": " << e.message << '\n';
            failed = true;
        }
        r = aggregate(files, rs, threads);
        // In input order, whatever the thread count.
        for (const auto& in : r.inputs()) {
            if (in.status != input_status::failed) continue;
            std::cerr << "urlsift report: " << visible(in.name) << ": " << visible(in.error) << '\n';
            failed = true;
        }
    }

    std::string text;
    if (json)
        append_report_json(text, r, layout);
    else
        append_report_text(text, r, layout);
    if (struct stat st {}; out_fd != STDOUT_FILENO && ::fstat(out_fd, &st) == 0 && S_ISREG(st.st_mode) &&
                           ::ftruncate(out_fd, 0) != 0)
        throw std::runtime_error(output_path + ": " + std::string(std::strerror(errno)));
    output out(out_fd);
    out.write(text);
    out.flush();
    if (failed) return 2;
    return r.references() > 0 ? 0 : 1;
}

}  // namespace urlsift::cli
