// The bad-input matrix: each row of tests/data/bad-input.tsv runs the built
// CLI on one kind of bad input (unreadable files, invalid options and bases,
// binary and invalid UTF-8 text, a closed pipe, a full disk) and checks that
// it fails cleanly: the right exit status and a message that says what went
// wrong and what to do. The file's header documents the columns.

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace urlsift::test;
namespace fs = std::filesystem;

namespace {

struct row {
    std::string id;
    std::string args;
    std::string input;          ///< unescaped standard input
    int status = 0;
    std::string err;            ///< expectation, escapes still in ("-", "*" or terms)
    std::string out = "*";      ///< likewise; "*" is not checked
    std::string prefix;
    bool pending = false;       ///< a known gap: reported, not failed
    std::size_t line = 0;
};

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Expands \n \r \t \\ and \xHH; any other backslash stays as written.
std::string unescape(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        const char c = s[i + 1];
        if (c == 'n' || c == 'r' || c == 't' || c == '\\') {
            out += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : '\\';
            ++i;
        } else if (c == 'x' && i + 3 < s.size() && hex_digit(s[i + 2]) >= 0 && hex_digit(s[i + 3]) >= 0) {
            out += static_cast<char>(hex_digit(s[i + 2]) * 16 + hex_digit(s[i + 3]));
            i += 3;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::vector<std::string> split(std::string_view s, std::string_view sep) {
    std::vector<std::string> parts;
    for (;;) {
        const auto at = s.find(sep);
        parts.emplace_back(s.substr(0, at));
        if (at == std::string_view::npos) return parts;
        s.remove_prefix(at + sep.size());
    }
}

std::vector<row> load_rows() {
    const fs::path path = fs::path(URLSIFT_TEST_DATA_DIR) / "bad-input.tsv";
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<row> rows;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line.starts_with('#')) continue;
        const auto f = split(line, "\t");
        INFO(path.string() << ":" << n << ": " << line);
        REQUIRE(f.size() >= 5);
        REQUIRE(f.size() <= 7);
        row r;
        r.line = n;
        r.id = f[0];
        if (r.id.starts_with("pending:")) {
            r.pending = true;
            r.id.erase(0, 8);
        }
        r.args = f[1];
        r.input = f[2] == "-" ? std::string() : unescape(f[2]);
        r.status = std::stoi(f[3]);
        r.err = f[4];
        if (f.size() > 5) r.out = f[5];
        if (f.size() > 6) r.prefix = f[6];
        rows.push_back(std::move(r));
    }
    REQUIRE_FALSE(rows.empty());
    std::set<std::string> ids;
    for (const row& r : rows) {
        INFO("bad-input.tsv:" << r.line << ": id " << r.id << " is used twice");
        REQUIRE(ids.insert(r.id).second);
    }
    return rows;
}

/// Lines with a URL and a relative reference: large enough that output to a
/// closed pipe or past a small file-size limit is sure to fail part way.
const std::string& big_text() {
    static const std::string text = [] {
        std::string t;
        for (int i = 0; t.size() < 1'500'000; ++i) {
            const std::string n = std::to_string(i);
            t += "line " + n + " see http://host" + n + ".example/path/" + n + " and <../rel" + n + ">\n";
        }
        return t;
    }();
    return text;
}

/// The fixtures a row can name, created in `dir`, by placeholder.
std::map<std::string, fs::path> make_fixtures(const fs::path& dir, const row& r) {
    // Readable by nobody too, for the rows that drop root.
    fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
    std::map<std::string, fs::path> fx{
        {"{doc}", dir / "doc.txt"},
        {"{locked}", dir / "locked.txt"},
        {"{missing}", dir / "no-such-file.txt"},
        {"{subdir}", dir / "subdir"},
        {"{big}", dir / "big.txt"},
    };
    write_file(fx["{doc}"], "see http://a.example/x and <../g>\n");
    write_file(fx["{locked}"], "see http://locked.example/\n");
    ::chmod(fx["{locked}"].c_str(), 0);
    fs::create_directory(fx["{subdir}"]);
    write_file(fx["{subdir}"] / "f.txt", "see http://b.example/\n");
    if (r.args.find("{big}") != std::string::npos) write_file(fx["{big}"], big_text());
    return fx;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

/// `text` with every fixture placeholder replaced, shell-quoted or plain.
std::string expand(std::string text, const std::map<std::string, fs::path>& fx, bool quote) {
    for (const auto& [name, path] : fx) text = replace_all(std::move(text), name, quote ? shell_quote(path.string()) : path.string());
    return text;
}

/// Runs as an unprivileged user when the tests run as root, so that
/// permissions mean what they say.
std::string unprivileged() {
    return ::geteuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup --clear-groups" : "";
}

/// Whether `actual` meets `expected`: "*" anything, "-" empty, otherwise
/// terms joined by " && " that must occur, or with a leading "!" must not.
/// `why` names the first term that failed.
bool meets(const std::string& actual, const std::string& expected, const std::map<std::string, fs::path>& fx,
           std::string& why) {
    if (expected == "*") return true;
    if (expected == "-") {
        why = "expected nothing";
        return actual.empty();
    }
    for (const auto& term : split(expected, " && ")) {
        const bool negated = term.starts_with('!');
        const std::string text = unescape(expand(negated ? term.substr(1) : term, fx, false));
        if ((actual.find(text) != std::string::npos) == negated) {
            why = (negated ? "expected no \"" : "expected \"") + text + "\"";
            return false;
        }
    }
    return true;
}

}  // namespace

TEST_CASE("bad input: a clear message and the right exit status", "[cli][failure][bad-input]") {
    // Catch runs the test case once per section: read the table once.
    static const std::vector<row> rows = load_rows();
    for (const row& r : rows) {
        DYNAMIC_SECTION(r.id) {
            const scratch_dir dir;
            const auto fx = make_fixtures(dir.path, r);
            const std::string args = expand(r.args, fx, true);
            const std::string prefix = replace_all(expand(r.prefix, fx, true), "{unprivileged}", unprivileged());
            const cli_result got = run_cli(args, r.input, prefix);

            std::string why_err, why_out;
            const bool status_ok = got.status == r.status;
            const bool err_ok = meets(got.err, r.err, fx, why_err);
            const bool out_ok = meets(got.out, r.out, fx, why_out);
            INFO("bad-input.tsv:" << r.line << " " << r.id << (r.pending ? " (pending)" : ""));
            INFO("command: " << prefix << " urlsift " << args);
            INFO("exit status " << got.status << ", expected " << r.status);
            INFO("stderr: " << got.err << (err_ok ? "" : "  <- " + why_err));
            INFO("stdout (first 300 bytes): " << got.out.substr(0, 300) << (out_ok ? "" : "  <- " + why_out));
            if (r.pending) {
                CHECK_NOFAIL(status_ok);
                CHECK_NOFAIL(err_ok);
                CHECK_NOFAIL(out_ok);
            } else {
                CHECK(status_ok);
                CHECK(err_ok);
                CHECK(out_ok);
            }
        }
    }
}
