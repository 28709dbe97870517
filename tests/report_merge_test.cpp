// `urlsift report --merge` trusts none of what it adds: a partial report
// changed after urlsift wrote it, made by an older urlsift or with other
// options, given twice, or with counts past 2^64 - 1 is refused with what
// is wrong and what to do; and no one-byte corruption of a partial changes
// a merged report without a word.

#include "cli/commands.hpp"
#include "cli/report_format.hpp"
#include "cli_util.hpp"
#include "merge_check.hpp"
#include "partial_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using urlsift::test::cli_result;
using urlsift::test::read_file;
using urlsift::test::replace_first;
using urlsift::test::restamped;
using urlsift::test::shell_quote;
using urlsift::test::write_file;

/// Two parts of a corpus and their partial reports, a.json and b.json.
struct two_parts {
    urlsift::test::scratch_dir dir;
    fs::path a, b;
    explicit two_parts(const std::string& options = "") : a(dir.path / "a.json"), b(dir.path / "b.json") {
        write_file(dir.path / "a.txt", "See http://www.example.com/x and <ftp://ftp.example.org/pub/>.\n"
                                       "And http://www.example.com/x again, and <../rel/g>.\n");
        write_file(dir.path / "b.txt", "More at http://192.168.0.1/admin and http://www.example.com/y\n"
                                       "and mailto:ada@example.net.\n");
        REQUIRE(run("report --partial --no-timestamp " + options + " -o a.json a.txt").status == 0);
        REQUIRE(run("report --partial --no-timestamp " + options + " -o b.json b.txt").status == 0);
    }
    /// `urlsift ARGS` in the directory, standard error in `.err`.
    cli_result run(const std::string& args) const {
        const fs::path err = dir.path / "stderr";
        cli_result r = urlsift::test::run_shell("cd " + shell_quote(dir.path.string()) + " && '" URLSIFT_CLI_PATH "' " +
                                                args + " 2>" + shell_quote(err.string()));
        r.err = read_file(err);
        return r;
    }
};

/// Runs `urlsift report ARGS -o OUT` in this process and returns its status
/// and OUT; what it says on standard error goes to `said`.
cli_result report_in_process(std::vector<std::string> args, const fs::path& out, std::string& said) {
    urlsift::test::report_run r = urlsift::test::report_in_process(std::move(args), out);
    said = std::move(r.said);
    return {r.status, std::move(r.out), {}};
}

/// FNV-1a, 64 bits, as `urlsift report --help` defines the checksum, written
/// here from that text rather than taken from the code it checks.
std::uint64_t fnv1a64(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325;
    for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3;
    return h;
}

}  // namespace

TEST_CASE("report --partial: the checksum covers every byte after its line, as --help says", "[report][merge]") {
    const two_parts p;
    const std::string json = read_file(p.a);
    const std::size_t at = json.find("\"checksum\": \"fnv1a64:");
    REQUIRE(at != std::string::npos);
    CHECK(json.substr(0, at) == "{\n  \"format\": \"urlsift-report\",\n  \"version\": 3,\n  \"partial\": true,\n  ");
    const std::string covered = json.substr(json.find('\n', at) + 1);
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(fnv1a64(covered)));
    CHECK(json.substr(at + 21, 16) == digits);
    CHECK(covered.starts_with("  \"options\": {\"base\": \"\", "));

    // The help's Python lines compute the same, run as they are written.
    const auto help = p.run("report --help").out;
    const std::size_t from = help.find("In\n        Python:\n"), to = help.find("        Its \"options\"");
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    std::string script = "import sys\npath = sys.argv[1]\n";
    std::istringstream lines(help.substr(from + 19, to - from - 19));
    for (std::string line; std::getline(lines, line);) script += line.substr(std::min<std::size_t>(10, line.size())) + '\n';
    write_file(p.dir.path / "checksum.py", script);
    if (urlsift::test::run_shell("command -v python3 >/dev/null").status != 0) {
        WARN("python3 is not installed: the help's recipe is not run");
        return;
    }
    const auto ran = urlsift::test::run_shell("python3 " + shell_quote((p.dir.path / "checksum.py").string()) + " " +
                                              shell_quote(p.a.string()));
    CHECK(ran.out == "fnv1a64:" + std::string(digits) + "\n");
    // Every option the partial records is named in the help.
    for (const std::string_view name : urlsift::cli::count_option_names)
        CHECK(help.find(std::string(name) + (name == urlsift::cli::count_option_names.back() ? ";" : ",")) != std::string::npos);
}

TEST_CASE("report --merge refuses a partial changed after urlsift wrote it", "[report][merge][regression]") {
    const two_parts p;
    const std::string b = read_file(p.b);
    const std::string whole = p.run("report --merge --no-timestamp -f json a.json b.json").out;
    // A host's count edited from 1 to 9: one byte.
    const std::string nine = replace_first(b, "\"key\": \"192.168.0.1\", \"count\": 1,", "\"key\": \"192.168.0.1\", \"count\": 9,");
    write_file(p.b, nine);
    auto r = p.run("report --merge --no-timestamp -f json a.json b.json");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::StartsWith("urlsift report: b.json: at byte "));
    CHECK_THAT(r.err, Catch::Contains("its checksum does not match its content"));
    CHECK_THAT(r.err, Catch::Contains("changed or damaged after urlsift wrote it"));
    CHECK_THAT(r.err, Catch::Contains("make this part again"));
    // The same edit with the checksum made again: the table's total says otherwise.
    write_file(p.b, restamped(nine));
    r = p.run("report --merge a.json b.json");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("\"total\" of table \"host\" is 2, but the report's counts make it 10"));
    // A key renamed: "bytes" to "bUtes".
    const std::string renamed = replace_first(b, "\"bytes\": ", "\"bUtes\": ");
    write_file(p.b, renamed);
    CHECK_THAT(p.run("report --merge a.json b.json").err, Catch::Contains("checksum does not match"));
    write_file(p.b, restamped(renamed));
    r = p.run("report --merge a.json b.json");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("unknown member \"bUtes\" where \"bytes\" belongs"));
    // A member missing, one added, members out of order.
    write_file(p.b, restamped(replace_first(b, "\"interrupted\": false,\n  ", "")));
    CHECK_THAT(p.run("report --merge a.json b.json").err,
               Catch::Contains("unknown member \"generated\" where \"interrupted\" belongs"));
    write_file(p.b, restamped(replace_first(b, "\"files\": [", "\"note\": 1,\n  \"files\": [")));
    CHECK_THAT(p.run("report --merge a.json b.json").err,
               Catch::Contains("unknown member \"note\" where \"files\" belongs"));
    write_file(p.b, restamped(replace_first(b, "\"line\": 1}}", "\"line\": 1, \"column\": 3}}")));
    CHECK_THAT(p.run("report --merge a.json b.json").err, Catch::Contains("unknown member \"column\""));
    // The checksum itself changed.
    const std::size_t digit = b.find("fnv1a64:") + 8;
    std::string other = b;
    other[digit] = other[digit] == '0' ? '1' : '0';
    write_file(p.b, other);
    CHECK_THAT(p.run("report --merge a.json b.json").err, Catch::Contains("checksum does not match"));
    // Put back, it merges as before.
    write_file(p.b, b);
    CHECK(p.run("report --merge --no-timestamp -f json a.json b.json").out == whole);
}

TEST_CASE("report --merge refuses a partial whose strings are not UTF-8, checksum or not", "[report][merge][regression]") {
    // urlsift writes JSON in UTF-8 (a byte that is not is written \ufffd);
    // read as it was, 0xFF would be written back as another byte.
    const two_parts p;
    const std::string valid = read_file(p.a);
    const std::string bad = restamped(replace_first(valid, "\"a.txt\"", "\"a\xFF.txt\""));
    CHECK_THROWS_WITH(urlsift::cli::read_partial_report(bad), Catch::Contains("not UTF-8"));
    CHECK_THROWS_WITH(urlsift::cli::read_partial_report(restamped(replace_first(valid, "\"a.txt\"", "\"a\xC3.txt\""))),
                      Catch::Contains("not UTF-8"));  // a sequence cut short
}

TEST_CASE("report --merge refuses a version 1 partial, which has no checksum", "[report][merge]") {
    const two_parts p;
    // What urlsift wrote before partials had a checksum and options.
    std::string old = read_file(p.b);
    old = replace_first(old, "\"version\": 3", "\"version\": 1");
    old.erase(old.find("  \"checksum\""), old.find("  \"interrupted\"") - old.find("  \"checksum\""));
    write_file(p.b, old);
    const auto r = p.run("report --merge a.json b.json");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("b.json: at byte "));
    CHECK_THAT(r.err, Catch::Contains("format version 1, which has no checksum"));
    CHECK_THAT(r.err, Catch::Contains("make this part again with this urlsift (urlsift report --partial)"));
}

TEST_CASE("report --merge refuses parts made with other options, naming the option and both values",
          "[report][merge][regression]") {
    two_parts p("--base http://a.example/docs/");
    REQUIRE(p.run("report --partial --base http://b.example/ -o b.json b.txt").status == 0);
    auto r = p.run("report --merge a.json b.json");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("b.json: made with --base 'http://b.example/', a.json with --base "
                                      "'http://a.example/docs/'"));
    CHECK_THAT(r.err, Catch::Contains("make this part again with those of the others"));
    REQUIRE(p.run("report --partial -o b.json b.txt").status == 0);
    CHECK_THAT(p.run("report --merge a.json b.json").err,
               Catch::Contains("made with no --base, a.json with --base 'http://a.example/docs/'"));
    for (const char* other : {"--resolver rfc2396", "--normalize", "--abbrev none", "--input text", "-z",
                              "--encoding latin1", "--max-url-length 100", "--literal-brackets", "--hyphen drop",
                              "--binary text", "--abbrev-scheme https"}) {
        INFO(other);
        REQUIRE(p.run(std::string("report --partial --base http://a.example/docs/ ") + other + " -o b.json b.txt")
                    .status == 0);
        r = p.run("report --merge a.json b.json");
        CHECK(r.status == 2);
        CHECK_THAT(r.err, Catch::Contains("b.json: made with --"));
    }
    // The same options written otherwise are the same options.
    REQUIRE(p.run("report --partial --base http://a.example/docs/ --abbrev www,ftp,gopher,news,wais,domain,email "
                  "--encoding UTF-8 --resolver rfc3986 -o b.json b.txt")
                .status == 0);
    CHECK(p.run("report --merge a.json b.json").status == 0);
}

TEST_CASE("report --merge refuses the same partial given twice", "[report][merge][regression]") {
    const two_parts p;
    auto r = p.run("report --merge a.json b.json a.json");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("urlsift report: a.json: given twice (checksum fnv1a64:"));
    CHECK_THAT(r.err, Catch::Contains("counted twice: give each part once"));
    // A copy is the same partial too.
    fs::copy_file(p.b, p.dir.path / "copy of b.json");
    r = p.run("report --merge a.json b.json 'copy of b.json'");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("copy of b.json: the same partial report as b.json"));
    CHECK(p.run("report --merge a.json b.json").status == 0);
}

TEST_CASE("report --merge refuses a part that a merged partial already holds", "[report][merge][regression]") {
    const two_parts p;
    REQUIRE(p.run("report --merge --partial --no-timestamp -o ab.json a.json b.json").status == 0);
    // Either way round: the merge holds b.json's counts.
    for (const char* args : {"ab.json b.json", "b.json ab.json"}) {
        const auto r = p.run(std::string("report --merge ") + args);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains("both hold the partial report (checksum fnv1a64:"));
        CHECK_THAT(r.err, Catch::Contains("counted twice: give each part once"));
    }
    // A merge of merges lists the parts made from inputs, not the merges.
    REQUIRE(p.run("report --merge --partial --no-timestamp -o a1.json a.json").status == 0);
    REQUIRE(p.run("report --merge --partial --no-timestamp -o again.json a1.json b.json").status == 0);
    CHECK(read_file(p.dir.path / "again.json") == read_file(p.dir.path / "ab.json"));
    CHECK(p.run("report --merge ab.json a.json").status == 2);
    // A version 2 partial lists no parts: refused, with what to do.
    std::string old = read_file(p.b);
    old = replace_first(old, "\"version\": 3", "\"version\": 2");
    old.erase(old.find("  \"made_of\""), old.find("  \"interrupted\"") - old.find("  \"made_of\""));
    write_file(p.b, restamped(old));
    const auto r = p.run("report --merge a.json b.json");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("format version 2, which does not list the parts merged into it"));
}

TEST_CASE("report --partial stores text that is not UTF-8 as it reads back", "[report][merge][regression]") {
    // An option value and an error that hold a byte UTF-8 has no use for:
    // written as \ufffd and read back as U+FFFD, a merge of the partial
    // wrote other bytes than the partial, and its checksum changed.
    const two_parts p;
    REQUIRE(p.run("report --partial --no-timestamp --base http://a.example/ --base-root \"$(printf '/x\\377')\" -o odd.json a.txt")
                .status == 2);
    REQUIRE(p.run("report --merge --partial --no-timestamp -o merged.json odd.json").status == 1);
    const std::string odd = read_file(p.dir.path / "odd.json"), merged = read_file(p.dir.path / "merged.json");
    CHECK(odd.find("\\ufffd") == std::string::npos);
    CHECK(odd.find("\"base-root\": \"/x\xEF\xBF\xBD\"") != std::string::npos);
    // All but the checksum's line and the parts listed read back as written.
    const auto from_options = [](const std::string& s) {
        std::string rest = s.substr(s.find("  \"options\""));
        return rest.erase(rest.find("  \"made_of\""), rest.find("  \"interrupted\"") - rest.find("  \"made_of\""));
    };
    CHECK(from_options(odd) == from_options(merged));
}

TEST_CASE("report --merge refuses counts that would add up past 2^64 - 1", "[report][merge][regression]") {
    const two_parts p;
    const std::string max = "18446744073709551615";
    // A host counted 2^64 - 1 times beside another (the checksum made again
    // after the edit): its table's counts add up past the limit.
    const std::string row = "{\"key\": \"192.168.0.1\", \"count\": 1,", huge_row = "{\"key\": \"192.168.0.1\", \"count\": " + max + ",";
    write_file(p.b, restamped(replace_first(read_file(p.b), row, huge_row)));
    auto r = p.run("report --merge a.json b.json");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("b.json: "));
    CHECK_THAT(r.err, Catch::Contains("the counts of table \"host\" add up past 2^64 - 1"));
    // Alone in its table, with the totals that go with it, the count reads;
    // merged with another part that counts the host again, it would wrap to
    // 0 and the row vanish: refused.
    REQUIRE(p.run("report --partial --no-timestamp -o c.json b.txt").status == 0);
    std::string alone = read_file(p.dir.path / "c.json");
    alone = replace_first(alone, "\"ip_host_references\": 1,", "\"ip_host_references\": " + max + ",");
    alone = replace_first(alone, "\"ip_host\": {\"distinct\": 1, \"total\": 1,",
                          "\"ip_host\": {\"distinct\": 1, \"total\": " + max + ",");
    alone.replace(alone.find(row, alone.find("\"ip_host\": {")), row.size(), huge_row);
    write_file(p.b, restamped(alone));
    REQUIRE(p.run("report --merge --partial -o alone.json b.json").status == 0);
    r = p.run("report --merge b.json c.json");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("c.json: adding it, the counts of table \"ip_host\" would pass "
                                      "18446744073709551615"));
    CHECK_THAT(r.err, Catch::Contains("make the parts again"));
}

TEST_CASE("report --merge: no one-byte corruption of a partial changes the merged report silently",
          "[report][merge][property]") {
    // Each corruption of a or b is merged with the other; the merge must
    // either be refused (status 2) or give exactly the valid merge (a
    // changed blank outside the bytes the checksum covers, say).
    const two_parts p;
    const std::string valid[] = {read_file(p.a), read_file(p.b)};
    const fs::path out = p.dir.path / "merged.json", part = p.dir.path / "corrupt.json";
    const std::vector<std::string> merge = {"--merge", "--partial", "--no-timestamp"};
    std::string said;
    auto with = [&](std::vector<std::string> args, const std::string& first, const std::string& second) {
        args.push_back(first);
        args.push_back(second);
        return args;
    };
    const cli_result expected = report_in_process(with(merge, p.a.string(), p.b.string()), out, said);
    REQUIRE(expected.status == 0);
    std::mt19937 random(20240611);
    // 300 in the suite; URLSIFT_MERGE_CORRUPTIONS asks for more in a longer run.
    const char* asked = std::getenv("URLSIFT_MERGE_CORRUPTIONS");
    const int corruptions = asked != nullptr ? std::max(1, std::atoi(asked)) : 300;
    int refused = 0, same = 0, silent = 0;
    for (int i = 0; i < corruptions; ++i) {
        const int which = i % 2;
        std::string bytes = valid[which];
        const auto at = std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(random);
        const auto value = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(random));
        std::string how;
        switch (i % 3) {
        case 0:  // a byte changed, to any other
            if (bytes[at] == value) bytes[at] = static_cast<char>(value ^ 1);
            else bytes[at] = value;
            how = "changed";
            break;
        case 1:
            bytes.erase(at, 1);
            how = "deleted";
            break;
        default:
            bytes.insert(at, 1, value);
            how = "inserted";
        }
        write_file(part, bytes);
        const urlsift::test::report_run got = urlsift::test::report_in_process(
            which == 0 ? with(merge, part.string(), p.b.string()) : with(merge, p.a.string(), part.string()), out);
        const auto verdict = urlsift::test::judge_merge(got, {expected.status, expected.out, {}}, part.string());
        if (verdict == urlsift::test::merge_verdict::refused) {
            ++refused;
        } else if (verdict == urlsift::test::merge_verdict::same) {
            ++same;
        } else {
            ++silent;
            FAIL_CHECK("byte " << at << " of " << (which == 0 ? "a" : "b") << ".json " << how
                               << ": merged with status " << got.status << " and another report");
        }
    }
    std::cout << "report --merge: " << corruptions << " one-byte corruptions of a partial: " << refused
              << " refused, " << same << " merged as the valid one, " << silent << " silent changes\n";
    CHECK(silent == 0);
    CHECK(refused + same == corruptions);
}
