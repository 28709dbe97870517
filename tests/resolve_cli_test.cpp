// `urlsift resolve` end to end: the built binary run through the shell.

#include "cli_util.hpp"
#include "jsonl.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

namespace {

// Runs `urlsift resolve ARGS` through /bin/sh with stderr sent to stdout
// when `with_stderr` is set; `args` is shell text, quoted by the caller.
urlsift::test::cli_result run(const std::string& args, bool with_stderr = false, const std::string& stdin_text = "") {
    std::string command;
    if (!stdin_text.empty()) command = "printf '" + stdin_text + "' | ";  // printf reads the escapes
    command += std::string("'") + URLSIFT_CLI_PATH + "' resolve " + args;
    command += with_stderr ? " 2>&1" : " 2>/dev/null";
    if (stdin_text.empty() && args.find("--help") == std::string::npos) command += " </dev/null";
    return urlsift::test::run_shell(command);
}

}  // namespace

TEST_CASE("cli resolve: references as arguments", "[cli][resolver]") {
    const auto r = run("--base 'http://a/b/c/d;p?q' ../g '?y' 'g;x?y#s'");
    CHECK(r.status == 0);
    CHECK(r.out == "http://a/b/g\nhttp://a/b/c/d;p?y\nhttp://a/b/c/g;x?y#s\n");
    const auto r2 = run("--resolver rfc2396 --base 'http://a/b/c/d;p?q' ../../../g '?y'");
    CHECK(r2.status == 0);
    CHECK(r2.out == "http://a/../g\nhttp://a/b/c/?y\n");
}

TEST_CASE("cli resolve: a user-typed URL without a base", "[cli][resolver]") {
    const auto r = run("'<URL: http://www.ics.uci.edu/pub/ ietf/uri/>'");
    CHECK(r.status == 0);
    CHECK(r.out == "http://www.ics.uci.edu/pub/ietf/uri/\n");
    const auto n = run("--normalize 'HTTP://www.XEROX.com:80/%7euser'");
    CHECK(n.out == "http://www.xerox.com/~user\n");
}

TEST_CASE("cli resolve: references on standard input", "[cli][resolver]") {
    const auto r = run("--base http://example.org/a/b", false, "../x\\n#top\\n");
    CHECK(r.status == 0);
    CHECK(r.out == "http://example.org/x\nhttp://example.org/a/b#top\n");
    // A CR before the newline is dropped, an empty line is the base, and a
    // last line without a newline still counts.
    const auto crlf = run("--base http://example.org/a/b", false, "c\\r\\n\\r\\n\\nd");
    CHECK(crlf.status == 0);
    CHECK(crlf.out == "http://example.org/a/c\nhttp://example.org/a/b\nhttp://example.org/a/b\nhttp://example.org/a/d\n");
}

TEST_CASE("cli resolve: a bad base resolves nothing", "[cli][resolver][errors]") {
    const auto r = run("--base 'not a base' g h", true);
    CHECK(r.status == 2);
    CHECK(r.out.find("bad --base 'not a base'") != std::string::npos);
    CHECK(r.out.find("absolute URL") != std::string::npos);
    CHECK(r.out.find("urlsift resolve --help") != std::string::npos);  // and what to do
    CHECK(run("--base 'not a base' g h").out.empty());  // nothing resolved
    const auto port = run("--base 'http://a:x/' g", true);
    CHECK(port.status == 2);
    CHECK(port.out.find("invalid port at byte 9") != std::string::npos);
    const auto rel = run("--base /a/b g");
    CHECK(rel.status == 2);
    CHECK(rel.out.empty());
}

TEST_CASE("cli resolve: a bad reference among good ones", "[cli][resolver][errors]") {
    const auto out = run("--base http://a/b/c g 'x%zz' h");
    CHECK(out.status == 2);
    CHECK(out.out == "http://a/b/g\n\nhttp://a/b/h\n");  // an empty line keeps outputs in step
    // Control characters are not echoed to the terminal.
    const auto ctl = run("--base http://a/", true, "a\\033[31mred\\n");
    CHECK(ctl.status == 2);
    CHECK(ctl.out.find('\033') == std::string::npos);
    CHECK(ctl.out.find("line 1: 'a\\x1b[31mred': character not allowed in a URL at byte 1") != std::string::npos);
    const auto err = run("--base http://a/b/c g 'x%zz' h", true);
    CHECK(err.out.find("urlsift resolve: 'x%zz': '%' not followed by two hex digits at byte 1\n") != std::string::npos);
    // Without a base a relative reference is an error; absolute ones pass.
    const auto nobase = run("http://a/ g", true);
    CHECK(nobase.status == 2);
    CHECK(nobase.out.find("http://a/\n") != std::string::npos);
    CHECK(nobase.out.find("'g': relative reference needs --base") != std::string::npos);
}

TEST_CASE("cli resolve: jsonl output", "[cli][resolver]") {
    const auto r = run("--format jsonl --base 'http://a/b/c/d;p?q' 'g#s' '<URL:../h>'");
    CHECK(r.status == 0);
    const auto first = r.out.substr(0, r.out.find('\n'));
    const auto row = urlsift::test::parse_jsonl_line(first);
    REQUIRE(row);
    CHECK(row->string("ref") == "g#s");
    CHECK(row->string("url") == "http://a/b/c/g#s");
    CHECK(row->string("scheme") == "http");
    CHECK(row->string("site") == "a");
    CHECK(row->string("path") == "/b/c/g");
    CHECK(row->has("query"));
    CHECK_FALSE(row->string("query"));  // undefined is null
    CHECK(row->string("fragment") == "s");
    CHECK(row->string("base") == "http://a/b/c/d;p?q");
    const auto second = urlsift::test::parse_jsonl_line(r.out.substr(first.size() + 1));
    REQUIRE(second);
    CHECK(second->string("ref") == "<URL:../h>");
    CHECK(second->string("url") == "http://a/b/h");
    const auto nobase = run("--format jsonl 'mailto:x@y'");
    const auto row2 = urlsift::test::parse_jsonl_line(nobase.out);
    REQUIRE(row2);
    CHECK(row2->has("base"));
    CHECK_FALSE(row2->string("base"));
    CHECK_FALSE(row2->string("site"));
    CHECK(row2->string("path") == "x@y");
}

TEST_CASE("cli resolve: help and usage errors", "[cli][resolver]") {
    const auto help = run("--help");
    CHECK(help.status == 0);
    CHECK(help.out.find("Usage: urlsift resolve") != std::string::npos);
    CHECK(help.out.find("rfc2396") != std::string::npos);
    CHECK(help.out.find("Examples:") != std::string::npos);
    CHECK(run("--resolver nonsense g").status == 2);
    CHECK(run("--format csv http://a/").status == 2);
}

TEST_CASE("cli resolve: a line longer than the limit is reported, not held", "[cli][resolver][errors]") {
    // One output line per input line, the long one empty; its message
    // quotes only its start.
    const std::string longest(70000, 'a');
    const auto r = urlsift::test::run_cli("resolve --base http://a/b/c", "../x\n" + longest + "\n../y\r\n");
    CHECK(r.status == 2);
    CHECK(r.out == "http://a/x\n\nhttp://a/y\n");
    CHECK(r.err.find("line 2: 'aaaa") != std::string::npos);
    CHECK(r.err.find("longer than --max-url-length (70000 bytes)") != std::string::npos);
    CHECK(r.err.size() < 400);
    // The limit is an option; a line just within it is resolved.
    const auto within = urlsift::test::run_cli("resolve --max-url-length 70000 --base http://a/b/c", longest + "\n");
    CHECK(within.status == 0);
    CHECK(within.out == "http://a/b/" + longest + "\n");
    const auto bad = urlsift::test::run_cli("resolve --max-url-length 3 --base http://a/b/c", "g\n");
    CHECK(bad.status == 2);
    CHECK(bad.err.find("--max-url-length must be") != std::string::npos);
}

TEST_CASE("cli resolve: a bad reference leaves a jsonl record with its error", "[cli][resolver][errors]") {
    const auto r = run("--format jsonl --base http://a/b/c g 'x%zz'");
    CHECK(r.status == 2);
    const auto second = r.out.substr(r.out.find('\n') + 1);
    const auto row = urlsift::test::parse_jsonl_line(second.substr(0, second.find('\n')));
    REQUIRE(row);
    CHECK(row->string("ref") == "x%zz");
    CHECK(row->has("url"));
    CHECK_FALSE(row->string("url"));
    CHECK(row->string("error") == "'%' not followed by two hex digits at byte 1");
}

TEST_CASE("cli: a base must be a place to resolve against", "[cli][resolver][errors]") {
    // Section 4.3: relative references need a base in the generic syntax.
    for (const std::string command : {"resolve", "extract", "rewrite"}) {
        for (const auto& [base, why] : std::vector<std::pair<std::string, std::string>>{
                 {"''", "empty"},
                 {"'javascript:alert(1)'", "a script"},
                 {"'mailto:someone@example.org'", "opaque"},
                 {"news:comp.lang.c", "opaque"},
                 {"/docs/", "no scheme"}}) {
            INFO(command << " --base " << base);
            const auto r = urlsift::test::run_cli(command + " --base " + base + " g", "");
            CHECK(r.status == 2);
            CHECK(r.err.find("bad --base") != std::string::npos);
            CHECK(r.err.find(why) != std::string::npos);
            CHECK(r.out.empty());
        }
    }
    CHECK(urlsift::test::run_cli("resolve --base file:///tmp/ g").out == "file:///tmp/g\n");
}
