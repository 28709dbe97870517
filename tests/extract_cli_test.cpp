// `urlsift extract` end to end: output formats, grep's conventions, exit
// statuses, unreadable and binary inputs.

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using urlsift::test::cli_result;

/// Runs `urlsift ARGS` in `dir` (stderr merged into stdout when `merge`).
cli_result run(const std::string& dir, const std::string& args, bool merge = false) {
    return urlsift::test::run_shell("cd '" + dir + "' && '" URLSIFT_CLI_PATH "' " + args +
                                    (merge ? " 2>&1" : " 2>/dev/null"));
}

/// A scratch directory holding the Appendix E note and a few other inputs.
struct fixture {
    fs::path dir;
    fixture() {
        dir = fs::temp_directory_path() / ("urlsift-extract-cli-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir / "sub");
        write("note.txt",
              "Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n"
              "but you can probably pick it up from <ftp://ds.internic.\n"
              "net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/\n"
              "ietf/uri/historical.html#WARNING>.\n");
        write("none.txt", "No links here. Note: 10:30, Re: lunch.\n");
        write("sub/deep.txt", "see <http://a.example/deep>\n");
        write("binary.bin", std::string("\x7f" "ELF\0\0 http://b.example/ \0", 25));
        write("rel.txt", "See <../g> and <URL: h/i>.\n");
    }
    ~fixture() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    void write(const std::string& name, const std::string& content) const {
        std::ofstream(dir / name, std::ios::binary) << content;
    }
    cli_result operator()(const std::string& args, bool merge = false) const { return run(dir.string(), args, merge); }
};

const std::string note_urls = "http://www.w3.org/Addressing/\n"
                              "ftp://ds.internic.net/rfc/\n"
                              "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING\n";

}  // namespace

TEST_CASE("extract: the Appendix E example", "[cli]") {
    const fixture f;
    const auto r = f("extract note.txt");
    CHECK(r.out == note_urls);
    CHECK(r.status == 0);
    CHECK(f("extract < note.txt").out == note_urls);
    CHECK(f("extract - < note.txt").out == note_urls);
}

TEST_CASE("extract: -n, -H and tsv", "[cli]") {
    const fixture f;
    CHECK(f("extract -n note.txt").out ==
          "1:http://www.w3.org/Addressing/\n2:ftp://ds.internic.net/rfc/\n"
          "3:http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING\n");
    CHECK(f("extract -n -H note.txt").out.substr(0, 40) == "note.txt:1:http://www.w3.org/Addressing/");
    const auto tsv = f("extract -n -H --format tsv note.txt").out;
    CHECK(tsv.substr(0, tsv.find('\n')) ==
          "note.txt\t1\t29\thttp://www.w3.org/Addressing/\thttp://www.w3.org/Addressing/\tquote\tabsolute");
    CHECK(tsv.find("ftp://ds.internic.\\nnet/rfc/\tangle") != std::string::npos);
    // Several files: names by default, as grep does; --no-filename turns them off.
    const auto two = f("extract note.txt sub/deep.txt").out;
    CHECK(two.find("note.txt:http://www.w3.org/Addressing/\n") == 0);
    CHECK(two.find("sub/deep.txt:http://a.example/deep\n") != std::string::npos);
    CHECK(f("extract --no-filename note.txt sub/deep.txt").out == note_urls + "http://a.example/deep\n");
    const auto csv = f("extract --format csv note.txt").out;
    CHECK(csv.find("file,line,column,url,raw,wrapper,form\n") == 0);
    CHECK(csv.find("note.txt,2,39,ftp://ds.internic.net/rfc/,\"ftp://ds.internic.\nnet/rfc/\",angle,absolute") !=
          std::string::npos);
}

TEST_CASE("extract: jsonl", "[cli]") {
    const fixture f;
    const auto out = f("extract --format jsonl note.txt").out;
    const auto second = out.substr(out.find('\n') + 1, out.find('\n', out.find('\n') + 1) - out.find('\n') - 1);
    CHECK(second ==
          R"({"file":"note.txt","line":2,"column":39,"offset":98,"length":27,"raw":"ftp://ds.internic.\nnet/rfc/",)"
          R"("url":"ftp://ds.internic.net/rfc/","wrapper":"angle","form":"absolute","joined":true,"alternatives":[],)"
          R"("pieces":[[98,18],[117,8]],"base":null,"truncated":false,"warnings":[]})");
    const auto rel = f("extract --format jsonl --base http://a/b/c/d rel.txt").out;
    CHECK(rel.find(R"("raw":"../g","url":"http://a/b/g","wrapper":"angle","form":"relative")") != std::string::npos);
    CHECK(rel.find(R"("base":"http://a/b/c/d")") != std::string::npos);
    CHECK(rel.find(R"("url":"http://a/b/c/h/i","wrapper":"angle")") != std::string::npos);
}

TEST_CASE("extract: relative references, base and -0", "[cli]") {
    const fixture f;
    // Without a base a relative reference cannot be made absolute: left
    // out (exit 1: nothing found), unless asked for.
    const auto none = f("extract rel.txt", true);
    CHECK(none.out.empty());
    CHECK(none.status == 1);
    CHECK(f("extract -f jsonl rel.txt", true).out.empty());
    CHECK(f("extract --relative rel.txt").out == "../g\nh/i\n");
    CHECK(f("extract --base http://a/b/c/d rel.txt").out == "http://a/b/g\nhttp://a/b/c/h/i\n");
    CHECK(f("extract --raw note.txt").out.find("ftp://ds.internic.\nnet/rfc/\n") != std::string::npos);
    CHECK(f("extract --relative -0 rel.txt").out == std::string("../g\0h/i\0", 9));
    const auto bad = f("extract --base relative/only rel.txt", true);
    CHECK(bad.status == 2);
    CHECK(bad.out.find("--base") != std::string::npos);
}

TEST_CASE("extract: -c, -u and exit statuses", "[cli]") {
    const fixture f;
    CHECK(f("extract -c note.txt").out == "3\n");
    CHECK(f("extract -c note.txt none.txt").out == "note.txt:3\nnone.txt:0\n");
    CHECK(f("extract -u note.txt note.txt").out.size() < f("extract note.txt note.txt").out.size());
    CHECK(f("extract note.txt").status == 0);
    CHECK(f("extract none.txt").status == 1);
    CHECK(f("extract none.txt").out.empty());
    CHECK(f("extract --format nonsense note.txt").status == 2);
    CHECK(f("extract --hyphen maybe note.txt").status == 2);
}

TEST_CASE("extract: unreadable files, directories, binary files", "[cli]") {
    const fixture f;
    const auto missing = f("extract note.txt missing.txt none.txt", true);
    CHECK(missing.status == 2);
    CHECK(missing.out.find("urlsift extract: missing.txt: No such file or directory\n") != std::string::npos);
    CHECK(missing.out.find("note.txt:ftp://ds.internic.net/rfc/\n") != std::string::npos);

    const auto dir = f("extract sub", true);
    CHECK(dir.status == 2);
    CHECK(dir.out.find("urlsift extract: sub: Is a directory") != std::string::npos);
    const auto rec = f("extract -r sub");
    CHECK(rec.status == 0);
    CHECK(rec.out == "sub/deep.txt:http://a.example/deep\n");

    const auto bin = f("extract binary.bin", true);
    CHECK(bin.out == "urlsift extract: binary.bin: binary file skipped (use --binary text to scan it)\n");
    CHECK(bin.status == 1);
    CHECK(f("extract --binary text binary.bin").out == "http://b.example/\n");
}

TEST_CASE("extract: --help teaches", "[cli]") {
    const fixture f;
    const auto help = f("extract --help");
    CHECK(help.status == 0);
    for (const char* word : {"Usage: urlsift extract", "--format", "--base", "Examples:", "Exit status:"})
        CHECK(help.out.find(word) != std::string::npos);
}

TEST_CASE("extract: nothing from the input reaches a terminal raw", "[cli][safety]") {
    const fixture f;
    // A file name carrying an escape sequence (clear screen), and a bare
    // URL followed by a C1 control; `script` gives urlsift a terminal.
    // Without colour, so that any escape byte is one from the input (the
    // coloured case is in grep_cli_test.cpp).
    f.write("f\x1b[2Jx.txt", "see http://x.org/a\xc2\x9b" "31mred and <http://y.org/\x1b[31m>\n");
    const auto shown = urlsift::test::run_shell("cd '" + f.dir.string() + "' && script -qec \"'" URLSIFT_CLI_PATH
                                                "' extract --color=never -H f*x.txt\" /dev/null");
    CHECK(shown.out.find('\x1b') == std::string::npos);
    CHECK(shown.out.find("\xc2\x9b") == std::string::npos);
    CHECK(shown.out.find("f\\x1b[2Jx.txt:http://x.org/a") != std::string::npos);
    // To a pipe the name is written as it is, as grep does.
    CHECK(f("extract -H f*x.txt").out.find("f\x1b[2Jx.txt:") == 0);
}

TEST_CASE("extract notes what it could not do as asked", "[cli][extract]") {
    using urlsift::test::run_cli;
    using namespace std::string_literals;
    // UTF-16 text is binary to a UTF-8 reader: the message says what to use.
    const auto utf16 = run_cli("extract -", "s\0e\0e\0 \0h\0t\0t\0p\0:\0/\0/\0x\0/\0\n\0"s);
    CHECK(utf16.status == 1);
    CHECK(utf16.err.find("binary file skipped (it looks like UTF-16LE text: use --encoding utf-16le)") !=
          std::string::npos);
    // A wrong --encoding finds nothing, and says why that may be.
    const auto wrong = run_cli("extract --encoding utf-16le -", "see http://example.org/\n");
    CHECK(wrong.status == 1);
    CHECK(wrong.err.find("probably not UTF-16LE text: check --encoding") != std::string::npos);
    // A URL cut at the limit is noted in text output.
    const auto cut = run_cli("extract --max-url-length 32 -", "see http://example.org/" + std::string(40, 'a') + "\n");
    CHECK(cut.status == 0);
    CHECK(cut.err.find("(standard input):1: http://example.org/aaaaaaaaaaaaa: cut at --max-url-length (32 bytes)") !=
          std::string::npos);
    // Section 7 warnings, on request.
    const std::string text = "ftp://u:pw@example.org:25/x\n";
    CHECK(run_cli("extract -", text).err.empty());
    const auto warned = run_cli("extract --warnings -", text);
    CHECK(warned.out == "ftp://u:pw@example.org:25/x\n");
    CHECK(warned.err.find("warning: password-in-userinfo, non-default-port, reserved-port") != std::string::npos);
}

TEST_CASE("extract: <www.x.org> and <host.tld> are the sites their writers meant, base or no base", "[cli]") {
    using urlsift::test::run_cli;
    // Appendix F calls them relative paths where a base is defined; a
    // careful reader of `ACME <www.acme.com>` goes to the site.
    const std::string text = "ACME <www.acme.com>, <example.org/x> and <docs/x.html>\n";
    CHECK(run_cli("extract --base http://a/b/ -", text).out ==
          "http://www.acme.com\nhttp://example.org/x\nhttp://a/b/docs/x.html\n");
    CHECK(run_cli("extract -", text).out == "http://www.acme.com\nhttp://example.org/x\n");
    // The literal reading on request.
    CHECK(run_cli("extract --literal-brackets --base http://a/b/ -", text).out ==
          "http://a/b/www.acme.com\nhttp://a/b/example.org/x\nhttp://a/b/docs/x.html\n");
    // rewrite completes only what its --abbrev names; a bare host it may
    // not complete is left as written, not made a path under the base.
    CHECK(run_cli("rewrite --base http://a/b/ -", text).out ==
          "ACME <http://www.acme.com>, <example.org/x> and <http://a/b/docs/x.html>\n");
}

TEST_CASE("extract and rewrite never read the file they write to", "[cli]") {
    // `extract -r dir > dir/out.txt` would otherwise read its own output
    // and grow without end, as grep guards against.
    const fixture f;
    const auto r = f("extract -r . > out.txt 2> err.txt; echo \"status $?\"; cat err.txt");
    CHECK(r.out.find("out.txt: input file is also the output") != std::string::npos);
    CHECK(r.out.find("status 2") != std::string::npos);
    const auto w = f("rewrite note.txt out2.txt > out2.txt 2> err2.txt; echo \"status $?\"; cat err2.txt");
    CHECK(w.out.find("out2.txt: input file is also the output") != std::string::npos);
    CHECK(w.out.find("status 2") != std::string::npos);
}
