// `urlsift report`: the aggregate against hand-counted expectations, exact
// merging of any split, the same output for any thread count, the JSON
// round trip, and unreadable inputs (report_test.cpp: the report in the
// library).

#include "cli/commands.hpp"
#include "cli/json_reader.hpp"
#include "cli/report_format.hpp"
#include "cli_util.hpp"
#include "partial_util.hpp"
#include "report_util.hpp"

#include <urlsift/report.hpp>
#include <urlsift/scanner.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

using urlsift::report;
using urlsift::report_table;
using urlsift::test::cli_result;
using urlsift::test::count_of;
using urlsift::test::numbered_urls;

/// Runs `urlsift ARGS` in `dir`; standard error goes to `err` when given.
cli_result run_in(const fs::path& dir, const std::string& args, const std::string& err = "/dev/null") {
    return urlsift::test::run_shell("cd " + urlsift::test::shell_quote(dir.string()) + " && '" URLSIFT_CLI_PATH "' " +
                                    args + " 2>" + urlsift::test::shell_quote(err));
}

const std::string a_txt = "Start at http://www.example.com/x and \"http://www.example.com/x\".\n"
                          "Then <ftp://ftp.example.org/pub/> and www.w3.org/Addressing/.\n";
const std::string b_txt = "Odd hosts: http://192.168.0.1/admin and http://xn--bcher-kva.ch/\n"
                          "A port: http://www.example.com:8080/x and <../rel/g>.\n"
                          "And again http://www.example.com/x.\n";
const std::string c_txt = "Nothing to see here.\n";

/// The hand-counted tree: a.txt, b.txt, bin.dat (binary), sub/c.txt.
struct small_tree {
    urlsift::test::scratch_dir dir;
    small_tree() {
        fs::create_directories(dir.path / "sub");
        urlsift::test::write_file(dir.path / "a.txt", a_txt);
        urlsift::test::write_file(dir.path / "b.txt", b_txt);
        urlsift::test::write_file(dir.path / "bin.dat", std::string("\x7f" "ELF\0 http://bin.example/\n", 25));
        urlsift::test::write_file(dir.path / "sub/c.txt", c_txt);
    }
};

/// A tree of `n` files whose references overlap across files, so that
/// first locations, duplicates and ties all depend on the order of merging.
struct larger_tree {
    urlsift::test::scratch_dir dir;
    std::vector<std::string> names;
    explicit larger_tree(int n) {
        for (int i = 0; i < n; ++i) {
            const std::string name = "f" + std::to_string(100 + i) + ".txt";
            std::string text = "head line " + std::to_string(i) + "\n";
            text += "see http://host" + std::to_string(i % 5) + ".example.org/p" + std::to_string(i % 7) + "\n";
            if (i % 3 == 0) text += "and <https://www.w3.org/TR/> or <../up/" + std::to_string(i % 4) + ">\n";
            if (i % 4 == 1) text += "raw ip http://10.0.0." + std::to_string(i % 3) + ":81/ mail ada@example.net\n";
            if (i % 6 == 2) text += "idn http://xn--80ak6aa92e.com/ and www.example.com/" + std::to_string(i) + "\n";
            if (i == 11) text.assign("\0binary", 7);
            urlsift::test::write_file(dir.path / name, text);
            names.push_back(name);
        }
    }
    /// The paths of the files [from, to).
    std::vector<std::string> paths(std::size_t from, std::size_t to) const {
        std::vector<std::string> v;
        for (std::size_t i = from; i < to; ++i) v.push_back((dir.path / names[i]).string());
        return v;
    }
    /// The names [from, to) joined for a shell command line.
    std::string operands(std::size_t from, std::size_t to) const {
        std::string s;
        for (std::size_t i = from; i < to; ++i) s += " " + names[i];
        return s;
    }
};

/// Runs `urlsift report ARGS... -o OUT` in this process (no program to
/// start, so that many runs stay fast) and returns its status and what it
/// wrote to OUT.
cli_result report_in_process(std::vector<std::string> args, const fs::path& out) {
    args.push_back("-o");
    args.push_back(out.string());
    cli_result r;
    r.status = urlsift::cli::cmd_report(args);
    r.out = urlsift::test::read_file(out);
    return r;
}

}  // namespace

TEST_CASE("report: aggregates over a small tree", "[report][cli]") {
    const small_tree t;
    const auto run = run_in(t.dir.path, "report -r --partial --no-timestamp .");
    REQUIRE(run.status == 0);
    const report r = urlsift::cli::read_report_json(run.out);

    // Inputs in the order -r walks them: sorted paths.
    REQUIRE(r.inputs().size() == 4);
    CHECK(r.inputs()[0].name == "./a.txt");
    CHECK(r.inputs()[1].name == "./b.txt");
    CHECK(r.inputs()[2].name == "./bin.dat");
    CHECK(r.inputs()[3].name == "./sub/c.txt");
    CHECK(r.inputs()[0].references == 4);
    CHECK(r.inputs()[1].references == 5);
    CHECK(r.inputs()[2].status == urlsift::input_status::binary);
    CHECK(r.inputs()[2].bytes == 0);
    CHECK(r.inputs()[3].references == 0);
    CHECK(r.bytes() == a_txt.size() + b_txt.size() + c_txt.size());
    CHECK(r.inputs_with(urlsift::input_status::read) == 3);
    CHECK(r.references() == 9);

    // Seven absolute URLs in six distinct ones; one seen three times.
    CHECK(r.distinct(report_table::url) == 6);
    CHECK(r.total(report_table::url) == 8);
    const auto dups = r.rows(report_table::url, 0, 2);
    REQUIRE(dups.size() == 1);
    CHECK(dups[0].key == "http://www.example.com/x");
    CHECK(dups[0].count == 3);
    CHECK(dups[0].first == urlsift::report_location{0, 1});

    const auto schemes = r.rows(report_table::scheme);
    REQUIRE(schemes.size() == 2);
    CHECK(schemes[0].key == "http");
    CHECK(schemes[0].count == 7);
    CHECK(schemes[1].key == "ftp");
    CHECK(schemes[1].first == urlsift::report_location{0, 2});

    const auto hosts = r.rows(report_table::host);
    REQUIRE(hosts.size() == 5);
    CHECK(hosts[0].key == "www.example.com");
    CHECK(hosts[0].count == 4);  // the port does not make another host
    // Ties by key, ascending.
    CHECK(hosts[1].key == "192.168.0.1");
    CHECK(hosts[2].key == "ftp.example.org");
    CHECK(hosts[3].key == "www.w3.org");
    CHECK(hosts[4].key == "xn--bcher-kva.ch");

    CHECK(r.distinct(report_table::domain) == 4);
    CHECK(count_of(r, report_table::domain, "example.com") == 4);
    CHECK(count_of(r, report_table::domain, "example.org") == 1);
    CHECK(count_of(r, report_table::domain, "w3.org") == 1);
    CHECK(count_of(r, report_table::domain, "xn--bcher-kva.ch") == 1);

    CHECK(count_of(r, report_table::wrapper, "none") == 6);
    CHECK(count_of(r, report_table::wrapper, "quote") == 1);
    CHECK(count_of(r, report_table::wrapper, "angle") == 2);
    CHECK(count_of(r, report_table::form, "absolute") == 7);
    CHECK(count_of(r, report_table::form, "abbreviated") == 1);
    CHECK(count_of(r, report_table::form, "relative") == 1);

    const auto rel = r.rows(report_table::relative);
    REQUIRE(rel.size() == 1);
    CHECK(rel[0].key == "../rel/g");
    CHECK(rel[0].first == urlsift::report_location{1, 2});
    const auto warnings = r.rows(report_table::warning);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].key == "non-default-port");
    CHECK(warnings[0].first == urlsift::report_location{1, 2});
    CHECK(r.rows(report_table::ip_host).at(0).key == "192.168.0.1");
    CHECK(r.rows(report_table::punycode_host).at(0).key == "xn--bcher-kva.ch");
    CHECK(r.rows(report_table::lookalike_host).empty()); // bücher is what it says
    CHECK(r.top_inputs() == std::vector<std::uint64_t>{1, 0});

    // The text summary shows the same, with first locations.
    const auto text = run_in(t.dir.path, "report -r --no-timestamp .");
    CHECK(text.status == 0);
    CHECK(text.out.find("urlsift report\n") == 0);
    CHECK(text.out.find("  references                           9") != std::string::npos);
    CHECK(text.out.find("Duplicate URLs: 1 distinct\n           3  http://www.example.com/x  first seen ./a.txt:1\n") !=
          std::string::npos);
    CHECK(text.out.find("           5  ./b.txt\n           4  ./a.txt\n") != std::string::npos);
    // A timestamp unless asked not to.
    CHECK(run_in(t.dir.path, "report -r .").out.find(", generated 20") != std::string::npos);
}

TEST_CASE("report: the same output for any -j", "[report][cli]") {
    const larger_tree t(40);
    const urlsift::test::scratch_dir out;
    const std::string tree = t.dir.path.string();
    for (const char* fmt : {"text", "json"}) {
        const auto one = report_in_process({"-r", "--no-timestamp", "-f", fmt, "-j", "1", tree}, out.path / "1");
        REQUIRE(one.status == 0);
        for (const char* jobs : {"2", "4", "7"}) {
            const auto many = report_in_process({"-r", "--no-timestamp", "-f", fmt, "-j", jobs, tree}, out.path / jobs);
            CHECK(many.status == 0);
            CHECK(many.out == one.out);
        }
    }
    // And the program itself, on standard output.
    CHECK(run_in(t.dir.path, "report -r --no-timestamp -j 3 .").out ==
          run_in(t.dir.path, "report -r --no-timestamp -j 1 .").out);
}

TEST_CASE("report: one file read on one thread and counted on another", "[report][cli]") {
    // More batches of references than may wait to be counted at once, so
    // that the reader waits for the counter more than once; some in angle
    // brackets, relative ones and duplicates among them: the same report as
    // one thread's.
    const urlsift::test::scratch_dir dir;
    std::string text;
    for (int i = 0; i < 40000; ++i) {
        // Mostly new URLs on new hosts, slower to count than to find.
        text += "see http://h" + std::to_string(i % 9000) + ".example/p/" + std::to_string(i % 30000);
        text += i % 7 == 0 ? " and <../rel/" + std::to_string(i % 11) + ">\n" : "\n";
    }
    urlsift::test::write_file(dir.path / "big.txt", text);
    const std::string file = (dir.path / "big.txt").string();
    for (const std::vector<std::string>& format : {std::vector<std::string>{"-f", "text"}, {"--partial"}}) {
        std::vector<std::string> args = format;
        args.insert(args.end(), {"--no-timestamp", "-j", "1", file});
        const auto one = report_in_process(args, dir.path / "1");
        REQUIRE(one.status == 0);
        args[args.size() - 2] = "2";
        const auto two = report_in_process(args, dir.path / "2");
        CHECK(two.status == 0);
        CHECK(two.out == one.out);
    }
    // 40,000 URLs and 5,715 relative references.
    CHECK_THAT(urlsift::test::run_cli("report --no-timestamp -f json " + file).out, Catch::Contains("\"references\": 45715"));
}

TEST_CASE("report: merging the partials of any split equals one run", "[report][cli]") {
    const larger_tree t(21);
    const urlsift::test::scratch_dir out;
    const std::size_t n = t.names.size();
    const auto with = [&](std::vector<std::string> args, std::size_t from, std::size_t to) {
        for (auto& p : t.paths(from, to)) args.push_back(std::move(p));
        return args;
    };
    const auto whole = report_in_process(with({"--no-timestamp", "-f", "json"}, 0, n), out.path / "whole.json");
    const auto whole_partial = report_in_process(with({"--no-timestamp", "--partial"}, 0, n), out.path / "all.json");
    const auto whole_text = report_in_process(with({"--no-timestamp"}, 0, n), out.path / "whole.txt");
    REQUIRE(whole.status == 0);
    for (const std::size_t shards : {2U, 3U, 7U}) {
        DYNAMIC_SECTION(shards << " shards") {
            std::vector<std::string> parts;
            for (std::size_t s = 0; s < shards; ++s) {
                // Uneven shards, none empty.
                const std::size_t from = s * n / shards, to = (s + 1) * n / shards;
                const fs::path part = out.path / ("part-" + std::to_string(s) + ".json");
                CHECK(report_in_process(with({"--partial"}, from, to), part).status == 0);
                parts.push_back(part.string());
            }
            const auto merge = [&](std::vector<std::string> args, const char* name) {
                args.push_back("--merge");
                args.insert(args.end(), parts.begin(), parts.end());
                return report_in_process(args, out.path / name);
            };
            const auto json = merge({"--no-timestamp", "-f", "json"}, "merged.json");
            CHECK(json.status == 0);
            CHECK(json.out == whole.out);
            // A merged partial lists the parts it holds, and so has another
            // checksum; the rest is the same, byte for byte.
            const auto line = [](const std::string& text, const char* name) {
                const std::size_t at = text.find(std::string("\n  \"") + name + "\"");
                return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at + 1) - at);
            };
            const auto without = [&](std::string text, const char* name) {
                const std::string l = line(text, name);
                return l.empty() ? text : text.erase(text.find(l), l.size());
            };
            const std::string merged_partial = merge({"--no-timestamp", "--partial"}, "merged-partial.json").out;
            CHECK(without(without(merged_partial, "checksum"), "made_of") ==
                  without(without(whole_partial.out, "checksum"), "made_of"));
            const std::string listed = line(merged_partial, "made_of");
            std::size_t holds = 0;
            for (std::size_t at = 0; (at = listed.find("fnv1a64:", at)) != std::string::npos; ++at) ++holds;
            CHECK(holds == shards);
            CHECK(merge({"--no-timestamp"}, "merged.txt").out == whole_text.out);
        }
    }
    // The program reads partials too.
    std::string parts;
    for (std::size_t s = 0; s < 3; ++s) {
        const fs::path part = out.path / ("part-" + std::to_string(s) + ".json");
        report_in_process(with({"--partial"}, s * n / 3, (s + 1) * n / 3), part);
        parts += " " + urlsift::test::shell_quote(part.string());
    }
    CHECK(run_in(out.path, "report --merge --no-timestamp -f json" + parts).out == whole.out);
}

/// Whether the report's totals over its inputs are those of its inputs
/// counted one by one.
bool totals_hold(const report& r) {
    std::uint64_t bytes = 0, with_references = 0;
    std::array<std::uint64_t, 3> by_status{};
    for (const auto& in : r.inputs()) {
        bytes += in.bytes;
        with_references += in.references > 0 ? 1 : 0;
        ++by_status.at(static_cast<std::size_t>(in.status));
    }
    return r.bytes() == bytes && r.inputs_with_references() == with_references &&
           r.inputs_with(urlsift::input_status::read) == by_status[0] &&
           r.inputs_with(urlsift::input_status::binary) == by_status[1] &&
           r.inputs_with(urlsift::input_status::failed) == by_status[2];
}

TEST_CASE("report: totals over the inputs follow every change", "[report]") {
    report r;
    CHECK(totals_hold(r));
    const auto a = r.add_input("a.txt");
    const auto b = r.add_input("b.bin");
    const auto c = r.add_input("c.txt");
    CHECK(r.inputs_with(urlsift::input_status::read) == 3);  // an input is read until it is finished otherwise
    for (const auto& ref : urlsift::scan("see http://x.example/ and http://y.example/\n")) r.add(a, ref);
    r.finish_input(a, 40, urlsift::input_status::read);
    r.finish_input(b, 0, urlsift::input_status::binary);
    r.finish_input(c, 12, urlsift::input_status::read);
    r.finish_input(c, 12, urlsift::input_status::failed, "Input/output error");  // finished again: counted once
    CHECK(totals_hold(r));
    CHECK(r.bytes() == 52);
    CHECK(r.inputs_with_references() == 1);
    CHECK(r.inputs_with(urlsift::input_status::failed) == 1);
    CHECK(r.inputs_with(urlsift::input_status::binary) == 1);

    // Facts added whole (a partial report read back), merges and copies.
    report other;
    other.add_input(urlsift::report_input{
        .name = "d.txt", .bytes = 7, .references = 2, .status = urlsift::input_status::read, .error = {}});
    CHECK(totals_hold(other));
    report both = urlsift::merge(r, other);
    CHECK(totals_hold(both));
    CHECK(both.bytes() == 59);
    CHECK(both.inputs_with_references() == 2);
    both.merge(report(r));
    CHECK(totals_hold(both));
    CHECK(both.inputs_with(urlsift::input_status::failed) == 2);
    const report parts = report::interleave({report(r), report(other)}, {{0, 2, 3}, {1}});
    CHECK(totals_hold(parts));
    CHECK(parts.bytes() == 59);
    // `other` holds references without their URLs; `r` is whole.
    std::string json;
    urlsift::cli::append_report_json(json, r, {.partial = true, .top = 10, .generated = std::nullopt});
    CHECK(totals_hold(urlsift::cli::read_report_json(json)));
}

TEST_CASE("report: json round trip", "[report]") {
    const larger_tree t(12);
    const auto partial = run_in(t.dir.path, "report --no-timestamp --partial" + t.operands(0, t.names.size()));
    REQUIRE(partial.status == 0);
    const auto read = urlsift::cli::read_partial_report(partial.out);
    const report& r = read.counts;
    std::string again;
    urlsift::cli::append_report_json(again, r,
                                     {.partial = true, .top = 10, .generated = std::nullopt, .options = read.options});
    CHECK(again == partial.out);
    CHECK(urlsift::cli::read_report_json(again) == r);

    // Keys with quotes, controls and non-ASCII text survive too.
    report odd;
    const auto in = odd.add_input("na\"me\x01\xff.txt");
    urlsift::found_reference ref;
    ref.url = "http://h.example/\"\\\x1b[2J\xc3\xa9\xf0\x9f\x98\x80";
    ref.line = 3;
    odd.add(in, ref);
    odd.finish_input(in, 10, urlsift::input_status::read);
    std::string json;
    urlsift::cli::append_report_json(json, odd, {.partial = true, .top = 10, .generated = std::nullopt});
    CHECK(urlsift::cli::read_report_json(json) == odd);
    CHECK(odd.inputs()[0].name == "na\"me\x01\xef\xbf\xbd.txt");  // stored as it reads back

    // What is not a partial report is refused with the reason.
    using urlsift::cli::json_error;
    std::string final_report;
    urlsift::cli::append_report_json(final_report, odd, {.partial = false, .top = 10, .generated = std::nullopt});
    CHECK_THROWS_WITH(urlsift::cli::read_report_json(final_report), Catch::Contains("partial"));
    CHECK_THROWS_AS(urlsift::cli::read_report_json("{\"format\": \"urlsift-report\""), json_error);
    CHECK_THROWS_AS(urlsift::cli::read_report_json("[1, 2]"), json_error);
    const std::string damaged = urlsift::test::replace_first(json, "\"references\": 1, ", "\"references\": 2, ");
    CHECK_THROWS_WITH(urlsift::cli::read_report_json(damaged), Catch::Contains("checksum does not match"));
    // Edited with its checksum made again, the totals still disagree with the files.
    CHECK_THROWS_WITH(urlsift::cli::read_report_json(urlsift::test::restamped(damaged)),
                      Catch::Contains("\"totals\" \"references\" is 2, but the report's counts make it 1"));
}

TEST_CASE("report: unreadable files are counted and exit statuses", "[report][cli]") {
    const small_tree t;
    const fs::path err = t.dir.path / "stderr.txt";
    const auto missing = run_in(t.dir.path, "report --no-timestamp -f json a.txt missing.txt sub/c.txt", err.string());
    CHECK(missing.status == 2);
    CHECK(urlsift::test::read_file(err) == "urlsift report: missing.txt: No such file or directory\n");
    const fs::path d = t.dir.path;
    const report r = urlsift::cli::read_report_json(
        report_in_process({"--partial", (d / "a.txt").string(), (d / "missing.txt").string(), (d / "sub/c.txt").string()},
                          d / "partial.json")
            .out);
    REQUIRE(r.inputs().size() == 3);
    CHECK(r.inputs()[1].status == urlsift::input_status::failed);
    CHECK(r.inputs()[1].error == "No such file or directory");
    CHECK(r.inputs_with(urlsift::input_status::failed) == 1);
    CHECK(r.references() == 4);
    CHECK(missing.out.find("\"files_failed\": 1") != std::string::npos);
    CHECK(missing.out.find("\"failed_files\": [\n    {\"input\": 1, \"name\": \"missing.txt\"") != std::string::npos);

    CHECK(report_in_process({(d / "sub/c.txt").string(), (d / "bin.dat").string()}, d / "none.txt").status == 1);
    CHECK(run_in(t.dir.path, "report sub").status == 2);  // a directory without -r
    CHECK(run_in(t.dir.path, "report -f text --partial a.txt").status == 2);
    CHECK(run_in(t.dir.path, "report --merge a.txt").status == 2);  // not a report
    CHECK(report_in_process({"-f", "json", (d / "a.txt").string()}, d / "final.json").status == 0);
    CHECK(run_in(t.dir.path, "report --merge final.json").status == 2);  // not a partial one
}

/// Runs the shell `script` in `dir`, where $U is urlsift; standard error goes to `err`.
cli_result run_script(const fs::path& dir, const std::string& script, const std::string& err = "/dev/null") {
    return urlsift::test::run_shell("cd " + urlsift::test::shell_quote(dir.string()) + " && U='" URLSIFT_CLI_PATH
                                    "' && { " + script + "; } 2>" + urlsift::test::shell_quote(err));
}

/// The files in `dir` whose names are temporary files of an atomic write.
std::size_t temporaries_in(const fs::path& dir) {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find(".urlsift-") != std::string::npos) ++n;
    return n;
}

TEST_CASE("report -o replaces the file whole, keeping its mode", "[report][cli][output]") {
    const small_tree t;
    const fs::path out = t.dir.path / "report.json";
    urlsift::test::write_file(out, "the old report\n");
    REQUIRE(::chmod(out.c_str(), 0640) == 0);
    const auto r = run_in(t.dir.path, "report --no-timestamp -f json -o report.json a.txt");
    CHECK(r.status == 0);
    const std::string json = urlsift::test::read_file(out);
    CHECK(json.starts_with("{\n  \"format\": \"urlsift-report\""));
    CHECK((fs::status(out).permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
    CHECK(temporaries_in(t.dir.path) == 0);
    // A new file gets the mode open(2) gives: 0666 less the umask.
    CHECK(run_script(t.dir.path, "$U report -o new.txt a.txt && umask 027 && $U report -o new027.txt a.txt").status == 0);
    const mode_t mask = ::umask(0);
    ::umask(mask);
    CHECK(static_cast<mode_t>(fs::status(t.dir.path / "new.txt").permissions() & fs::perms::all) == (0666 & ~mask));
    CHECK((fs::status(t.dir.path / "new027.txt").permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
    // The old report is no input of the new one: -r finds it, and skips it.
    const fs::path err = t.dir.path / "err.txt";
    CHECK(run_in(t.dir.path, "report -r --no-timestamp -o report.json .", err.string()).status == 2);
    CHECK_THAT(urlsift::test::read_file(err), Catch::Contains("report.json: input file is also the output"));
    CHECK_THAT(urlsift::test::read_file(out), Catch::Contains("references"));
}

TEST_CASE("report -o that fails while writing leaves the old file as it was", "[report][cli][output][failure]") {
    // Enough distinct URLs for a report of many kilobytes.
    const urlsift::test::scratch_dir dir;
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "see http://host" + std::to_string(i) + ".example.org/page\n";
    urlsift::test::write_file(dir.path / "many.txt", text);
    const std::string old = "{\"the\": \"old report\"}\n";
    urlsift::test::write_file(dir.path / "report.json", old);
    // A simulated full disk: the shell's file-size limit makes write() fail
    // with EFBIG part way through.
    const fs::path err = dir.path / "err.txt";
    const auto r = run_script(dir.path, "ulimit -f 8; $U report -f json --top 0 -o report.json many.txt", err.string());
    CHECK(r.status == 2);
    const std::string message = urlsift::test::read_file(err);
    CHECK_THAT(message, Catch::Contains("report.json: cannot write: File too large; left as it was"));
    CHECK_THAT(message, Catch::Contains("choose another -o FILE"));
    CHECK(urlsift::test::read_file(dir.path / "report.json") == old);
    CHECK(temporaries_in(dir.path) == 0);
    // With no old file, none is left half written either.
    CHECK(run_script(dir.path, "ulimit -f 8; $U report -f json --top 0 -o fresh.json many.txt").status == 2);
    CHECK_FALSE(fs::exists(dir.path / "fresh.json"));
    CHECK(temporaries_in(dir.path) == 0);
}

TEST_CASE("report -o in a directory it may not create files in fails before reading", "[report][cli][output][failure]") {
    // Root may create files anywhere: the run is made as nobody.
    if (::geteuid() == 0 && ::access("/usr/bin/setpriv", X_OK) != 0) {
        WARN("running as root without setpriv: not checked");
        return;
    }
    const small_tree t;
    const fs::path locked = t.dir.path / "locked";
    fs::create_directory(locked);
    const std::string old = "the old report\n";
    urlsift::test::write_file(locked / "report.txt", old);
    REQUIRE(::chmod((locked / "report.txt").c_str(), 0666) == 0);  // the file itself may be written
    REQUIRE(::chmod(locked.c_str(), 0555) == 0);
    REQUIRE(::chmod(t.dir.path.c_str(), 0755) == 0);
    const std::string as_nobody = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
    const fs::path err = t.dir.path / "err.txt";
    const auto r = run_script(t.dir.path, as_nobody + "$U report -o locked/report.txt a.txt", err.string());
    CHECK(r.status == 2);
    const std::string message = urlsift::test::read_file(err);
    CHECK_THAT(message, Catch::Contains("locked/report.txt: cannot create a temporary file in locked"));
    CHECK_THAT(message, Catch::Contains("nothing was read"));
    CHECK(urlsift::test::read_file(locked / "report.txt") == old);
    ::chmod(locked.c_str(), 0755);
}

TEST_CASE("report -o to a device writes to it, and says when it cannot", "[report][cli][output]") {
    CHECK(urlsift::test::run_cli("report -o /dev/null -", "http://example.org/\n").status == 0);
    const auto full = urlsift::test::run_cli("report -o /dev/full -", "http://example.org/\n");
    CHECK(full.status == 2);
    CHECK_THAT(full.err, Catch::Contains("No space left on device"));
}

TEST_CASE("report: --help teaches", "[report][cli]") {
    const small_tree t;
    const auto help = run_in(t.dir.path, "report --help");
    CHECK(help.status == 0);
    for (const char* word : {"Usage: urlsift report", "--merge", "--partial", "--jobs", "--top", "--no-timestamp",
                             "Examples:", "Exit status:"})
        CHECK(help.out.find(word) != std::string::npos);
    CHECK(run_in(t.dir.path, "--help").out.find("  report ") != std::string::npos);
}

TEST_CASE("report: nothing from the input reaches a terminal raw", "[report][safety]") {
    const urlsift::test::scratch_dir dir;
    // A file name with an escape sequence (clear screen), and URLs next to
    // a C1 control (CSI) and an ESC.
    const fs::path name = dir.path / "f\x1b[2Jx.txt";
    urlsift::test::write_file(name, "see http://x.org/a\xc2\x9b" "31mred and <http://y.org/\x1b[31m>\n");
    const auto text = report_in_process({"--no-timestamp", name.string()}, dir.path / "out.txt");
    CHECK(text.status == 0);
    CHECK(text.out.find('\x1b') == std::string::npos);
    CHECK(text.out.find("\xc2\x9b") == std::string::npos);
    CHECK(text.out.find("f\\x1b[2Jx.txt") != std::string::npos);
    const auto json = report_in_process({"--no-timestamp", "-f", "json", name.string()}, dir.path / "out.json");
    CHECK(json.out.find('\x1b') == std::string::npos);
    CHECK(json.out.find("f\\u001b[2Jx.txt") != std::string::npos);
}

TEST_CASE("report --input mail counts a mailbox's references, decoded and resolved", "[report][mail][cli]") {
    using namespace urlsift::test;
    const scratch_dir dir;
    write_file(dir.path / "list.mbox",
               "From alice@example.org Mon Nov 23 10:00:00 2026\n"
               "From: Alice <alice@example.org>\n"
               "Subject: notes\n"
               "List-Unsubscribe: <https://lists.example.org/unsub>\n"
               "Content-Type: text/plain; charset=utf-8\n"
               "Content-Transfer-Encoding: quoted-printable\n"
               "\n"
               "The draft is at https://example.org/draft?id=3D42 now.\n"
               "\n"
               "From bob@example.net Mon Nov 23 11:00:00 2026\n"
               "From: Bob <bob@example.net>\n"
               "Content-Type: text/html\n"
               "Content-Base: https://www.example.net/docs/\n"
               "\n"
               "<p>See <a href=\"guide.html\">the guide</a>.</p>\n");
    const auto r = run_cli("report --no-timestamp --input mbox -f csv --table url " +
                           shell_quote((dir.path / "list.mbox").string()));
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    const std::string name = (dir.path / "list.mbox").string();
    // QP decoded (=3D is =), the HTML link resolved against Content-Base.
    // First seen at lines of the file: a header URL at its header's line,
    // a quoted-printable part's at the line its body starts on.
    CHECK(r.out == "key,count,first_input,first_file,first_line\n"
                   "https://example.org/draft?id=42,1,0," + name + ",8\n"
                   "https://lists.example.org/unsub,1,0," + name + ",4\n"
                   "https://www.example.net/docs/,1,0," + name + ",13\n"
                   "https://www.example.net/docs/guide.html,1,0," + name + ",15\n");
    // As text, the same mailbox gives the raw, still-encoded forms.
    const auto text = run_cli("report --no-timestamp -f csv --table url " + shell_quote((dir.path / "list.mbox").string()));
    CHECK(text.out.find("id=3D42") != std::string::npos);
    const auto bad = run_cli("report --input maildir " + shell_quote((dir.path / "list.mbox").string()));
    CHECK(bad.status == 2);
    CHECK_THAT(bad.err, Catch::Contains("unknown --input 'maildir'"));
}

TEST_CASE("report: a sketch survives the json round trip and the merge command", "[report][cli]") {
    const report r = numbered_urls(0, 6, 2000);
    REQUIRE_FALSE(r.distinct_urls().exact);
    std::string json;
    urlsift::cli::append_report_json(json, r, {.partial = true, .top = 10, .generated = std::nullopt});
    CHECK(json.find("\"method\": \"hll\"") != std::string::npos);
    CHECK(json.find("\"duplicate_urls\": null") != std::string::npos);
    const report back = urlsift::cli::read_report_json(json);
    CHECK(back == r);
    CHECK(back.exact_url_limit() == 2000);

    // Damaged registers are refused.
    std::string damaged = json;
    const auto at = damaged.find("\"registers\": \"") + 14;
    damaged.replace(at, 2, "zz");
    CHECK_THROWS_WITH(urlsift::cli::read_report_json(damaged), Catch::Contains("checksum does not match"));
    CHECK_THROWS_WITH(urlsift::cli::read_report_json(urlsift::test::restamped(damaged)),
                      Catch::Contains("registers"));

    // Through the command line: parts made with another limit are refused.
    const urlsift::test::scratch_dir dir;
    urlsift::test::write_file(dir.path / "a.txt", "http://a.example/1 http://a.example/2 http://a.example/3\n");
    urlsift::test::write_file(dir.path / "b.txt", "http://b.example/1\n");
    CHECK(run_in(dir.path, "report --partial --exact-urls 2 a.txt -o a.json").status == 0);
    CHECK(run_in(dir.path, "report --partial --exact-urls 3 b.txt -o b.json").status == 0);
    const auto refused = run_in(dir.path, "report --merge a.json b.json", (dir.path / "err").string());
    CHECK(refused.status == 2);
    CHECK_THAT(urlsift::test::read_file(dir.path / "err"), Catch::Contains("--exact-urls"));
    CHECK(run_in(dir.path, "report --partial --exact-urls 2 b.txt -o b.json").status == 0);
    const auto merged = run_in(dir.path, "report --merge --no-timestamp -f json a.json b.json");
    const auto one = run_in(dir.path, "report --exact-urls 2 --no-timestamp -f json a.txt b.txt");
    CHECK(merged.status == 0);
    CHECK(merged.out == one.out);
    CHECK(one.out.find("\"method\": \"hll\", \"count\": 4") != std::string::npos);
}

TEST_CASE("report --input mail: a phishing message's signals", "[report][mail][cli]") {
    using namespace urlsift::test;
    const scratch_dir dir;
    write_file(dir.path / "m.eml",
               "From: \"Accounts\" <accounts@example.net>\n"
               "To: ada@example.org\n"
               "Subject: Your account\n"
               "MIME-Version: 1.0\n"
               "Content-Type: multipart/alternative; boundary=\"b1\"\n"
               "\n"
               "--b1\n"
               "Content-Type: text/plain; charset=utf-8\n"
               "\n"
               "Sign in at https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fwww.example.com%2Flogin&data=05\n"
               "\n"
               "--b1\n"
               "Content-Type: text/html; charset=utf-8\n"
               "\n"
               "<p>Sign in at <a href=\"http://login.evil.example/paypal\">www.paypal.com</a>\n"
               "or <a href=\"https://docs.example.com/\">here</a>.</p>\n"
               "\n"
               "--b1--\n");
    const auto run = [&](const std::string& table) {
        return run_cli("report --no-timestamp --input mail -f tsv --table " + table + " " +
                       shell_quote((dir.path / "m.eml").string()));
    };
    const std::string name = (dir.path / "m.eml").string();
    CHECK(run("gateway").out == "key\tcount\tfirst_input\tfirst_file\tfirst_line\nsafelinks\t1\t0\t" + name + "\t10\n");
    CHECK(run("anchor_mismatch").out ==
          "key\tcount\tfirst_input\tfirst_file\tfirst_line\npaypal.com -> login.evil.example\t1\t0\t" + name + "\t15\n");
    CHECK(run("part_kind").out == "key\tcount\tfirst_input\tfirst_file\tfirst_line\ntext/html\t2\t0\t" + name +
                                      "\t15\ntext/plain\t1\t0\t" + name + "\t10\n");
}

TEST_CASE("report: text that is no reference stays out of the relative table", "[report][cli][regression]") {
    // Seen in a report over /usr/share/doc: an ellipsis in a link, a media
    // type, an address spelled out in a TODO file and a member in a code
    // example were listed as unresolved relative references.
    using namespace urlsift::test;
    const scratch_dir dir;
    write_file(dir.path / "notes.txt",
               "Tobias Burnus <burnus(at)net-b.de> suggested it.\n"
               "Attached as <application/octet-stream> or as URL: application/octet-stream\n"
               "Export it with <module.exports> or URL: module.exports\n"
               "Images: <../images/a.png>, the index <docs/index.html>,\n"
               "the section <#section> and the next page <?page=2>.\n");
    // A link the format declares is a link whatever it looks like
    // (`README.Debian` is a file); only a placeholder is none.
    write_file(dir.path / "page.md", "# Links\n\nSee [more](...), [the notes](README.Debian) and "
                                     "[the guide](docs/index.html).\n");
    write_file(dir.path / "page.html", "<p><a href=\"...\">more</a> <a href=\"#section\">s</a></p>\n");
    const auto r = run_in(dir.path, "report --no-timestamp -f csv --table relative notes.txt page.md page.html");
    CHECK(r.status == 0);
    CHECK(r.out == "key,count,first_input,first_file,first_line\n"
                   "#section,2,0,notes.txt,5\n"
                   "docs/index.html,2,0,notes.txt,4\n"
                   "../images/a.png,1,0,notes.txt,4\n"
                   "?page=2,1,0,notes.txt,5\n"
                   "README.Debian,1,1,page.md,3\n");
    // extract --relative reads the same references: the report is one of
    // the pipeline's sinks, not a reading of its own.
    const auto listed = run_in(dir.path, "extract --relative notes.txt page.md page.html");
    CHECK(listed.out == "notes.txt:../images/a.png\nnotes.txt:docs/index.html\nnotes.txt:#section\n"
                        "notes.txt:?page=2\npage.md:README.Debian\npage.md:docs/index.html\npage.html:#section\n");
}
