// Text leaving the tool: nothing a terminal acts on, no cell a spreadsheet
// runs as a formula.

#include "cli/escape.hpp"
#include "cli_util.hpp"
#include "jsonl.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace urlsift::test;
using urlsift::cli::visible;

namespace {

std::string csv_field(std::string_view s) {
    std::string out;
    urlsift::cli::append_csv_field(out, s);
    return out;
}

std::string tsv_field(std::string_view s) {
    std::string out;
    urlsift::cli::append_tsv_field(out, s);
    return out;
}

}  // namespace

TEST_CASE("visible text carries no terminal controls", "[cli][escape]") {
    CHECK(visible("http://example.org/a b") == "http://example.org/a b");
    CHECK(visible("caf\xC3\xA9 \xE2\x80\x90") == "caf\xC3\xA9 \xE2\x80\x90");  // UTF-8 passes
    CHECK(visible("a\x1B[2Jb") == "a\\x1b[2Jb");
    CHECK(visible("a\nb\tc\rd\x7F") == "a\\nb\\tc\\rd\\x7f");
    CHECK(visible("x\xC2\x9B" "2J") == "x\\u009b2J");  // C1 CSI, as UTF-8
    CHECK(visible("x\x9B" "2J") == "x\\x9b2J");        // a lone byte some terminals take as CSI
    CHECK(visible("\xC3") == "\\xc3");                  // cut UTF-8
    // Characters a terminal shows as nothing, or that reorder what follows.
    CHECK(visible("gpj.\xE2\x80\xAE" "exe") == "gpj.\\u202eexe");  // U+202E RIGHT-TO-LEFT OVERRIDE
    CHECK(visible("pay\xE2\x80\x8Bpal") == "pay\\u200bpal");    // U+200B ZERO WIDTH SPACE
    CHECK(visible("\xEF\xBB\xBF" "a\xD8\x9C\xE2\x81\xA6") == "\\ufeffa\\u061c\\u2066");
    // Characters next to them pass: U+2010, U+2065 (unassigned), U+FE0F after an emoji.
    CHECK(visible("\xE2\x80\x90\xE2\x81\xA5\xE2\x9D\xA4\xEF\xB8\x8F") == "\xE2\x80\x90\xE2\x81\xA5\xE2\x9D\xA4\xEF\xB8\x8F");
    std::string lines;
    urlsift::cli::append_visible(lines, "-a\x1B\n+b\tc\n", true);
    CHECK(lines == "-a\\x1b\n+b\tc\n");
}

TEST_CASE("CSV cells that a spreadsheet would run are guarded", "[cli][escape]") {
    // OWASP's advice on CSV injection: a leading quote, and the cell quoted.
    CHECK(csv_field("=HYPERLINK(\"http://evil/x\";\"y\")") == "\"'=HYPERLINK(\"\"http://evil/x\"\";\"\"y\"\")\"");
    CHECK(csv_field("+1") == "\"'+1\"");
    CHECK(csv_field("-2") == "\"'-2\"");
    CHECK(csv_field("@SUM(A1)") == "\"'@SUM(A1)\"");
    CHECK(csv_field("\tx") == "\"'\tx\"");
    CHECK(csv_field("http://a/=b") == "http://a/=b");
    CHECK(csv_field("a,b") == "\"a,b\"");
    CHECK(csv_field("") == "");
}

TEST_CASE("TSV cells that a spreadsheet would run are guarded as CSV cells are", "[cli][escape]") {
    // A spreadsheet opens a .tsv as readily as a .csv, and runs the same cells.
    CHECK(tsv_field("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0");
    CHECK(tsv_field("+1") == "'+1");
    CHECK(tsv_field("-2") == "'-2");
    CHECK(tsv_field("@SUM(A1)") == "'@SUM(A1)");
    // A leading tab or CR is written escaped, and so starts with a backslash.
    CHECK(tsv_field("\tx") == "\\tx");
    CHECK(tsv_field("\r=x") == "\\r=x");
    CHECK(tsv_field("http://a/=b") == "http://a/=b");
    CHECK(tsv_field("a\\b\nc") == "a\\\\b\\nc");
    CHECK(tsv_field("") == "");
}

TEST_CASE("extract --format tsv guards formulas in references and in the name of standard input", "[cli][escape]") {
    const scratch_dir dir;
    const auto file = dir.path / "=cmd.txt";
    write_file(file, "see <=HYPERLINK(\"http://evil/x\";\"y\")> and http://example.org/-x\n");
    const auto r = run_cli("extract --format tsv --base http://a/b/ " + shell_quote(file.string()));
    CHECK(r.status == 0);
    // The relative reference resolves inside the base; its raw text is guarded.
    CHECK(r.out.find("\t'=HYPERLINK(") != std::string::npos);
    CHECK(r.out.find("\n=") == std::string::npos);
    CHECK(r.out.find("\t=") == std::string::npos);
    CHECK(r.out.find("http://example.org/-x") != std::string::npos);
    // Standard input, named -, is guarded too.
    CHECK(run_cli("extract -H --format tsv -", "http://example.org/\n").out.starts_with("'-\t1\t1\t"));
}

TEST_CASE("extract --format csv guards formulas in URLs and file names", "[cli][escape]") {
    const scratch_dir dir;
    const auto file = dir.path / "=cmd.txt";
    write_file(file, "see <=HYPERLINK(\"http://evil/x\";\"y\")> and http://example.org/-x\n");
    const auto r = run_cli("extract --format csv --base http://a/b/ " + shell_quote(file.string()));
    CHECK(r.status == 0);
    // The relative reference resolves inside the base; its raw text is guarded.
    CHECK(r.out.find(",\"'=HYPERLINK(") != std::string::npos);
    CHECK(r.out.find("\n=") == std::string::npos);
    CHECK(r.out.find(",=") == std::string::npos);
    CHECK(r.out.find("http://example.org/-x") != std::string::npos);
}

TEST_CASE("jsonl escapes C1 controls", "[cli][escape]") {
    // In a file name, and in a reference echoed by resolve.
    const scratch_dir dir;
    const auto file = dir.path / "a\xC2\x9B" "2J.txt";
    write_file(file, "http://example.org/\n");
    const auto r = run_cli("extract --format jsonl " + shell_quote(file.string()));
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\xC2\x9B") == std::string::npos);
    const auto row = parse_jsonl_line(r.out.substr(0, r.out.find('\n')));
    REQUIRE(row);
    CHECK(row->string("file") == file.string());
    const auto resolved = run_cli("resolve --format jsonl --base http://a/", "x\xC2\x9B" "2J\n");
    CHECK(resolved.status == 0);
    CHECK(resolved.out.find("\xC2\x9B") == std::string::npos);
    CHECK(resolved.out.find("\"url\":\"http://a/x\\u009b2J\"") != std::string::npos);
}

TEST_CASE("output to a terminal shows controls escaped, keeping its layout", "[cli][escape]") {
    // script(1) runs the tool on a pseudo-terminal.
    if (run_shell("command -v script >/dev/null 2>&1").status != 0) {
        WARN("script(1) is not installed: terminal output not checked");
        return;
    }
    const scratch_dir dir;
    const auto file = dir.path / "c1.txt";
    write_file(file, "http://a/x\xC2\x9B" "2J and <../g> \x1B[31m red\n");
    const std::string tool = shell_quote(URLSIFT_CLI_PATH), f = shell_quote(file.string());
    const auto on_terminal = [&](const std::string& args) {
        return run_shell("script -qec " + shell_quote(tool + " " + args) + " /dev/null </dev/null").out;
    };
    const std::string resolved = on_terminal("resolve http://a/x$(printf '\\302\\233')2J");
    CHECK(resolved.find("http://a/x\\u009b2J") != std::string::npos);
    const std::string tsv = on_terminal("extract -f tsv " + f);
    CHECK(tsv.find("\t1\t1\thttp://a/x") != std::string::npos);  // separators kept
    CHECK(tsv.find('\x1B') == std::string::npos);
    // -H names the file as a terminal cannot misshow it.
    const auto bidi = dir.path / "list\xE2\x80\xAEtxt.sh";
    write_file(bidi, "# http://example.org/\n");
    const std::string named = on_terminal("extract -H " + shell_quote(bidi.string()));
    CHECK(named.find("list\\u202etxt.sh") != std::string::npos);
    CHECK(named.find("\xE2\x80\xAE") == std::string::npos);
    const std::string diff = on_terminal("rewrite --diff --base http://h/d/ " + f);
    CHECK(diff.find("\n-http://a/x") != std::string::npos);  // one diff line a line
    CHECK(diff.find("\n+http://a/x") != std::string::npos);
    CHECK(diff.find('\x1B') == std::string::npos);
    CHECK(diff.find("\xC2\x9B") == std::string::npos);
}

TEST_CASE("file names in messages are shown escaped", "[cli][escape]") {
    const auto r = run_cli("extract $(printf 'no\\033[31msuch')");
    CHECK(r.status == 2);
    CHECK(r.err.find('\x1B') == std::string::npos);
    CHECK(r.err.find("no\\x1b[31msuch") != std::string::npos);
    // A right-to-left override in a file name would show its end reversed.
    const auto o = run_cli("extract $(printf 'no\\342\\200\\256txt.exe')");
    CHECK(o.status == 2);
    CHECK(o.err.find("\xE2\x80\xAE") == std::string::npos);
    CHECK(o.err.find("no\\u202etxt.exe") != std::string::npos);
    const auto w = run_cli("rewrite -i $(printf 'no\\033[31msuch')");
    CHECK(w.status == 2);
    CHECK(w.err.find('\x1B') == std::string::npos);
}
