// Markdown and HTML documents from the command line: which reading a file
// gets, the links extract lists, a base a file with --base-root, and a
// tree rewritten in place.

#include "cli_util.hpp"
#include "jsonl.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

using namespace urlsift::test;
namespace fs = std::filesystem;

namespace {

const std::string readme = "# Project\n\n"
                           "Read [the guide](docs/guide.md) and see ![shot](img/a.png).\n\n"
                           "```sh\ncurl 'Host: www.google.com:80'\n```\n\n"
                           "[changes]: ../CHANGES.md\n\n"
                           "More in [changes][changes] or at www.w3.org/Addressing/.\n";

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

/// Each line of jsonl output, parsed.
std::vector<json_row> parse_rows(const std::string& out) {
    std::vector<json_row> rows;
    for (std::size_t start = 0, nl; (nl = out.find('\n', start)) != std::string::npos; start = nl + 1)
        if (auto row = parse_jsonl_line(std::string_view(out).substr(start, nl - start))) rows.push_back(std::move(*row));
    return rows;
}

}  // namespace

TEST_CASE("extract reads a .md file as Markdown: links with their form and anchor text", "[cli][document]") {
    const scratch_dir dir;
    write_file(dir.path / "README.md", readme);
    const auto r = run_cli("extract -f jsonl --base https://example.org/p/ " + quoted(dir.path / "README.md"));
    REQUIRE(r.status == 0);
    const auto records = parse_rows(r.out);
    REQUIRE(records.size() == 4);
    CHECK(records[0].string("url") == "https://example.org/p/docs/guide.md");
    CHECK(records[0].string("form") == "markdown-link");
    CHECK(records[0].string("anchor_text") == "the guide");
    CHECK(records[1].string("url") == "https://example.org/p/img/a.png");
    CHECK(records[1].string("form") == "markdown-image");
    CHECK(records[2].string("url") == "https://example.org/CHANGES.md");
    CHECK(records[2].string("form") == "markdown-definition");
    CHECK(records[3].string("url") == "http://www.w3.org/Addressing/");
    CHECK(records[3].string("form") == "abbreviated");
}

TEST_CASE("extract --input text reads a .md file as plain text, as before", "[cli][document]") {
    const scratch_dir dir;
    write_file(dir.path / "README.md", readme);
    const auto r = run_cli("extract --input text " + quoted(dir.path / "README.md"));
    CHECK(r.status == 0);
    // Plain text knows no Markdown: the code block's host is read as prose.
    CHECK(r.out.find("http://www.google.com:80") != std::string::npos);
    const auto md = run_cli("extract " + quoted(dir.path / "README.md"));
    CHECK(md.out == "http://www.w3.org/Addressing/\n");
}

TEST_CASE("a file that starts as HTML does is read as HTML whatever its name", "[cli][document]") {
    const scratch_dir dir;
    write_file(dir.path / "page", "<!DOCTYPE html>\n<p><a href=\"https://example.com/x\">x</a>"
                                  "<script>var s = 'https://example.com/not';</script>\n");
    const auto r = run_cli("extract " + quoted(dir.path / "page"));
    CHECK(r.status == 0);
    CHECK(r.out == "https://example.com/x\n");
    // Standard input is text unless asked.
    const auto in = run_cli("extract --input html -", read_file(dir.path / "page"));
    CHECK(in.out == "https://example.com/x\n");
}

TEST_CASE("extract --base-root gives each file of a tree its own base", "[cli][document]") {
    const scratch_dir dir;
    fs::create_directories(dir.path / "docs" / "api");
    write_file(dir.path / "docs" / "api" / "x.md", "See ![a](../img/a.png) and [b](b%20c.md).\n");
    const auto r = run_cli("extract -r --base https://example.org/docs --base-root " + quoted(dir.path / "docs") +
                           " " + quoted(dir.path / "docs"));
    CHECK(r.status == 0);
    CHECK(r.out.find(":https://example.org/docs/img/a.png\n") != std::string::npos);
    CHECK(r.out.find(":https://example.org/docs/api/b%20c.md\n") != std::string::npos);

    write_file(dir.path / "outside.md", "[a](a.md)\n");
    const auto out = run_cli("extract --base https://example.org/docs/ --base-root " + quoted(dir.path / "docs") +
                             " " + quoted(dir.path / "outside.md"));
    CHECK(out.status == 2);
    CHECK(out.err.find("not under --base-root") != std::string::npos);

    const auto no_base = run_cli("extract --base-root " + quoted(dir.path / "docs") + " " + quoted(dir.path / "docs"));
    CHECK(no_base.status == 2);
    CHECK(no_base.err.find("--base-root needs --base") != std::string::npos);
}

TEST_CASE("rewrite -i -r absolutizes a docs tree and a second run changes nothing", "[cli][document][rewrite]") {
    const scratch_dir dir;
    fs::create_directories(dir.path / "docs" / "api");
    write_file(dir.path / "docs" / "README.md", readme);
    write_file(dir.path / "docs" / "api" / "index.html",
               "<!doctype html><a href=\"../README.md\">up</a> <code>../not</code>\n");
    const std::string args = "rewrite -i -r --base https://example.org/docs/ --base-root " +
                             quoted(dir.path / "docs") + " " + quoted(dir.path / "docs");
    const auto r = run_cli(args);
    REQUIRE(r.status == 0);
    const std::string md = read_file(dir.path / "docs" / "README.md");
    CHECK(md == "# Project\n\n"
                "Read [the guide](https://example.org/docs/docs/guide.md) and see "
                "![shot](https://example.org/docs/img/a.png).\n\n"
                "```sh\ncurl 'Host: www.google.com:80'\n```\n\n"
                "[changes]: https://example.org/CHANGES.md\n\n"
                "More in [changes][changes] or at http://www.w3.org/Addressing/.\n");
    CHECK(read_file(dir.path / "docs" / "api" / "index.html") ==
          "<!doctype html><a href=\"https://example.org/docs/README.md\">up</a> <code>../not</code>\n");
    const auto again = run_cli(args.substr(0, 8) + "--dry-run " + args.substr(11));
    CHECK(again.status == 1);
    CHECK(again.out.empty());
}

TEST_CASE("the sample docs page is rewritten as expected, once", "[cli][document][samples]") {
    const std::string dir = URLSIFT_SAMPLES_DIR;
    std::string base = read_file(dir + "/docs-readme.base");
    while (!base.empty() && base.back() == '\n') base.pop_back();
    const std::string expected = read_file(dir + "/docs-readme.rewritten.md");
    REQUIRE_FALSE(expected.empty());
    const auto r = run_cli("rewrite --base '" + base + "' '" + dir + "/docs-readme.md'");
    CHECK(r.status == 0);
    CHECK(r.out == expected);
    const auto again = run_cli("rewrite --base '" + base + "' '" + dir + "/docs-readme.rewritten.md'");
    CHECK(again.out == expected);
}

TEST_CASE("HTML nested too deep is read as plain text by extract and left unchanged by rewrite", "[cli][document]") {
    std::string deep = "<!doctype html><a href=a.html>a</a> Mirror: http://mirror.example.org/ ";
    for (int i = 0; i < 100000; ++i) deep += "<span>";
    const auto listed = run_cli("extract --input html --base https://example.org/", deep);
    CHECK(listed.status == 0);
    CHECK(listed.out == "http://mirror.example.org/\n");
    CHECK(listed.err.find("note: not read as html: its HTML nests more than 4096 elements deep") !=
          std::string::npos);
    CHECK(listed.err.find("; read as plain text") != std::string::npos);
    const auto rewritten = run_cli("rewrite --input html --base https://example.org/", deep);
    CHECK(rewritten.status == 2);
    CHECK(rewritten.out == deep);
    CHECK(rewritten.err.find("left unread and unchanged") != std::string::npos);
}

TEST_CASE("HTML whose tree would pass --max-memory is read as plain text, in a file and in mail",
          "[cli][document]") {
    // Each `<p>x</p>` reopens the thousand formatting elements the first
    // paragraph closed: 33 KB that asked for about 500 MiB.
    std::string page = "<!doctype html><p><a href=a.html>a</a> <a href=http://example.org/b>b</a>";
    for (int i = 0; i < 1000; ++i) page += "<b class=c" + std::to_string(i) + ">";
    page += "</p>";
    for (int i = 0; i < 2000; ++i) page += "<p>x</p>";
    const auto listed = run_cli("extract --input html --base https://example.org/", page);
    CHECK(listed.status == 0);
    CHECK(listed.out == "http://example.org/b\n");
    CHECK(listed.err.find("note: not read as html: its HTML takes more than 32 MiB to parse") != std::string::npos);
    CHECK(run_cli("report --input html -f json --no-timestamp -", page).out.find("\"http://example.org/b\"") !=
          std::string::npos);
    const auto rewritten = run_cli("rewrite --input html --base https://example.org/", page);
    CHECK(rewritten.status == 2);
    CHECK(rewritten.out == page);
    CHECK(rewritten.err.find("left unread and unchanged") != std::string::npos);
    // A mail part is read as plain text instead, with a note: its links
    // stay in sight of a report and the picker.
    const std::string message = "From: a@example.org\nSubject: page\nContent-Type: text/html\n\n"
                                "<p>Mirror: <a href=\"http://mirror.example.org/a\">here</a>" + page;
    const auto mailed = run_cli("extract --input mail", message);
    CHECK(mailed.status == 0);
    CHECK(mailed.out == "http://mirror.example.org/a\nhttp://example.org/b\n");
    CHECK(mailed.err.find("note: message 1, part 1: its HTML takes more than 32 MiB to parse") != std::string::npos);
    CHECK(mailed.err.find("read as plain text") != std::string::npos);
}

TEST_CASE("a document over a quarter of --max-memory is read as plain text, or left unchanged",
          "[cli][document]") {
    // 1.2 MB of links: over the quarter of 4M.
    std::string page = "<!doctype html><title>links</title>\n";
    for (int i = 0; page.size() < 1200000; ++i)
        page += "<p><a href=\"/page" + std::to_string(i) + "\">page</a> or http://h" + std::to_string(i) +
                ".example.org/</p>\n";
    const auto small = run_cli("extract --input html --max-memory 4M --base https://example.org/", page);
    CHECK(small.status == 0);
    CHECK(small.err.find("note: larger than 1 MiB, a quarter of --max-memory: read as plain text") !=
          std::string::npos);
    CHECK(small.out.find("https://example.org/page0") == std::string::npos);  // a link, not text
    CHECK(small.out.find("http://h0.example.org/") != std::string::npos);
    const auto whole = run_cli("extract --input html --base https://example.org/", page);
    CHECK(whole.err.empty());
    CHECK(whole.out.find("https://example.org/page0\n") != std::string::npos);
    const auto rewritten = run_cli("rewrite --input html --max-memory 4m --base https://example.org/", page);
    CHECK(rewritten.status == 2);
    CHECK(rewritten.out == page);
    CHECK(rewritten.err.find("left unchanged: larger than 1 MiB, a quarter of --max-memory") != std::string::npos);
    const std::string message = "From: a@example.org\nSubject: page\nContent-Type: text/html\n\n" + page;
    const auto mailed = run_cli("extract --input mail --max-memory 4M", message);
    CHECK(mailed.err.find("part 1: its HTML is larger than 1 MiB, half the memory a document's parse may take") !=
          std::string::npos);
    CHECK(mailed.out.find("http://h0.example.org/") != std::string::npos);
    for (const char* bad : {"3M", "12X", "M", "-5M", "2T", "99999999999999999999"}) {
        INFO(bad);
        const auto r = run_cli(std::string("extract --max-memory ") + bad + " -", "x");
        CHECK(r.status == 2);
        CHECK(r.err.find("--max-memory must be a size from 4M to 1T") != std::string::npos);
    }
    CHECK(run_cli("extract --max-memory 1GiB -", "http://example.org/\n").status == 0);
}

TEST_CASE("mail is listed as files are: the same notes, URL forms and document bases", "[cli][document][mail]") {
    const std::string message = "From: a@example.org\nSubject: notes\nContent-Type: text/plain\n\n"
                                "Log in at http://admin:secret@example.org:8080/Admin/../panel today.\n";
    // --warnings and the normalization of a URL found without a base were
    // those of plain text only.
    const auto noted = run_cli("extract --input mail --warnings --normalize", message);
    CHECK(noted.status == 0);
    CHECK(noted.out == "http://admin:secret@example.org:8080/panel\n");
    CHECK(noted.err.find("warning: password-in-userinfo, non-default-port") != std::string::npos);
    // Under auto, a document's <base href> is the base jsonl shows.
    const auto page = run_cli("extract --input auto -f jsonl",
                              "<!doctype html><base href=\"https://example.org/docs/\"><a href=\"a.html\">a</a>");
    const std::vector<json_row> rows = parse_rows(page.out);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].string("url") == "https://example.org/docs/a.html");
    CHECK(rows[0].string("base") == "https://example.org/docs/");
}

TEST_CASE("a URL decoded from HTML or a mail header holds no control character, blank or hidden mark",
          "[cli][document][mail]") {
    // Character references and encoded words decode to bytes that plain
    // text would end a URL at: an ESC that starts a terminal sequence, a
    // right-to-left override, markup that is no host.
    const std::string html = "<!doctype html><a href=\"http://arch.example/&#27;]8;;http://evil/&#27;\\x\">x</a> "
                             "<a href='http://\"><script>alert(5)</script>.example/'>y</a> "
                             "<a href=\"https://ex.org/a&#x202E;b\">z</a>\n";
    const auto page = run_cli("extract --input html", html);
    CHECK(page.out == "http://arch.example/%1B]8;;http://evil/%1B%5Cx\nhttps://ex.org/a%E2%80%AEb\n");
    const std::string message = "From: a@example.org\nSubject: x\n"
                                "List-Archive: =?utf-8?q?=3Chttp=3A//arch.example/=1B=5D8=3B=3Bhttp=3A//evil/=1B=3E?=\n"
                                "Content-Type: text/html\n\n" + html;
    const auto mail = run_cli("extract --input mail --headers --raw", message);
    CHECK(mail.out == "http://arch.example/%1B]8;;http://evil/%1B\n"
                      "http://arch.example/%1B]8;;http://evil/%1B%5Cx\nhttps://ex.org/a%E2%80%AEb\n");
}
