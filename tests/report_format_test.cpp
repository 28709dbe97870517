// `urlsift report`'s markdown, html, csv and tsv formats: hostile names
// escaped in each, only safe URLs made links, the same bytes for any run
// and any -j, the csv columns, and the golden json of the samples.

#include "cli/report_format.hpp"
#include "cli/report_svg.hpp"
#include "cli_util.hpp"

#include <urlsift/report.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using urlsift::input_status;
using urlsift::report;
using urlsift::report_input;
using urlsift::report_table;
using urlsift::cli::report_layout;

const std::string script_name = "<script>alert(1)</script>\"&\x1b[2J.txt";
const std::string formula = "=cmd|' /C calc'!A0";

/// A report built by hand with names and keys meant to break out of each
/// format: markup, quotes, ampersands, a terminal escape, a bell, a
/// spreadsheet formula, Markdown markup, and URLs of schemes that must not
/// become links.
report hostile_report() {
    report r;
    const auto input = [&](std::string name, std::uint64_t bytes, std::uint64_t references, input_status status) {
        report_input in;
        in.name = std::move(name);
        in.bytes = bytes;
        in.references = references;
        in.status = status;
        r.add_input(std::move(in));
    };
    input("a.txt", 100, 5, input_status::read);
    input(script_name, 50, 4, input_status::read);
    input(formula, 0, 0, input_status::binary);
    r.add_count(report_table::scheme, "http", 4, {0, 1});
    r.add_count(report_table::scheme, "javascript", 2, {1, 2});
    r.add_count(report_table::scheme, "mailto", 1, {0, 4});
    r.add_count(report_table::scheme, "ftp", 1, {0, 5});
    r.add_count(report_table::scheme, "file", 1, {0, 3});
    r.add_count(report_table::host, "www.example.com", 3, {0, 1});
    r.add_count(report_table::host, "<script>alert(1)</script>", 2, {1, 1});
    r.add_count(report_table::host, formula, 1, {0, 2});
    r.add_count(report_table::url, "http://www.example.com/?a=1&b=\"<x>\"", 2, {0, 1});
    r.add_count(report_table::url, "javascript:alert(1)", 1, {1, 2});
    r.add_count(report_table::url, "JavaScript:alert(2)", 1, {1, 3});
    r.add_count(report_table::url, "data:text/html,<script>alert(1)</script>", 1, {1, 4});
    r.add_count(report_table::url, "file:///etc/passwd", 1, {0, 3});
    r.add_count(report_table::url, "mailto:ada@example.net", 1, {0, 4});
    r.add_count(report_table::url, "FTP://ftp.example.org/pub/", 1, {0, 5});
    r.add_count(report_table::url, "http://www.example.com/\x07" "bell", 1, {1, 1});
    r.add_count(report_table::relative, "a|b`c`*d*_e_~f~[g](h)$x$\\", 1, {0, 2});
    r.add_count(report_table::wrapper, "none", 9, {0, 1});
    r.add_count(report_table::form, "absolute", 9, {0, 1});
    return r;
}

std::string html_of(const report& r, std::optional<std::string> generated = std::nullopt) {
    std::string out;
    urlsift::cli::append_report_html(out, r, {.partial = false, .top = 10, .generated = std::move(generated)});
    return out;
}

std::string markdown_of(const report& r) {
    std::string out;
    urlsift::cli::append_report_markdown(out, r, {.partial = false, .top = 10, .generated = std::nullopt});
    return out;
}

std::string sheet_of(const report& r, std::string_view table, bool csv, std::size_t limit = 0) {
    std::string out;
    urlsift::cli::append_report_sheet(out, r, table, csv, limit);
    return out;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

/// The values of every `name="..."` attribute in `html`.
std::set<std::string> attribute_values(const std::string& html, const std::string& name) {
    std::set<std::string> values;
    const std::string open = " " + name + "=\"";
    for (std::size_t at = html.find(open); at != std::string::npos; at = html.find(open, at + 1)) {
        const std::size_t from = at + open.size();
        values.insert(html.substr(from, html.find('"', from) - from));
    }
    return values;
}

/// `html` without its line-break opportunities (`<wbr>`), which the page
/// puts inside long keys and names: the text as it reads.
std::string without_wbr(std::string html) {
    for (std::size_t at = html.find("<wbr>"); at != std::string::npos; at = html.find("<wbr>", at)) html.erase(at, 5);
    return html;
}

bool has_raw_controls(const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return (b < 0x20 && b != '\n') || b == 0x7f;
    });
}

/// Runs `urlsift ARGS` in `dir`; standard error goes to `err` when given.
urlsift::test::cli_result run_in(const fs::path& dir, const std::string& args, const std::string& err = "/dev/null") {
    return urlsift::test::run_shell("cd " + urlsift::test::shell_quote(dir.string()) + " && '" URLSIFT_CLI_PATH "' " +
                                    args + " 2>" + urlsift::test::shell_quote(err));
}

}  // namespace

TEST_CASE("report html: hostile names are text, not markup", "[report]") {
    const std::string html = html_of(hostile_report());
    CHECK(lower(html).find("<script") == std::string::npos);
    const std::string text = without_wbr(html);
    CHECK(text.find("<td>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;\\x1b[2J.txt</td>") != std::string::npos);
    CHECK(text.find("http://www.example.com/\\x07bell") != std::string::npos);
    // A break opportunity comes between characters, never inside a
    // character reference.
    CHECK(html.find("&amp;<wbr>") != std::string::npos);
    for (const char* cut : {"&<wbr>", "&l<wbr>", "&#<wbr>", "&#3<wbr>", "&quo<wbr>"}) CHECK(html.find(cut) == std::string::npos);
    CHECK_FALSE(has_raw_controls(html));
    // The elements the page is made of, each closed.
    for (const std::string tag : {"html", "head", "body", "style", "title", "table", "tbody", "figure", "svg"}) {
        CHECK(html.find("<" + tag) != std::string::npos);
        CHECK(html.find("</" + tag + ">") != std::string::npos);
    }
}

TEST_CASE("report html: only http, https, ftp and mailto URLs are links", "[report]") {
    const std::string html = html_of(hostile_report());
    CHECK(attribute_values(html, "href") == std::set<std::string>{
                                                "http://www.example.com/?a=1&amp;b=&quot;&lt;x&gt;&quot;",
                                                "mailto:ada@example.net",
                                                "FTP://ftp.example.org/pub/",
                                            });
    // The others are there as text.
    for (const char* text : {">javascript:alert(1)<", ">JavaScript:alert(2)<", ">file:///etc/passwd<",
                             ">data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;<"})
        CHECK(without_wbr(html).find(text) != std::string::npos);
}

TEST_CASE("report html: self-contained, nothing loads and nothing runs", "[report]") {
    const std::string html = html_of(hostile_report());
    CHECK(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                    "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">") != std::string::npos);
    // The policy comes before the style sheet it allows.
    CHECK(html.find("Content-Security-Policy") < html.find("<style>"));
    for (const char* fetch : {" src=", "url(", "@import", "<link", "<img", "<iframe", "<object", "<embed"})
        CHECK(lower(html).find(fetch) == std::string::npos);
    // No event handler attribute (onload=, onclick=, ...).
    const std::string page = lower(html);
    for (std::size_t at = page.find(" on"); at != std::string::npos; at = page.find(" on", at + 1)) {
        std::size_t end = at + 3;
        while (end < page.size() && std::isalpha(static_cast<unsigned char>(page[end]))) ++end;
        CHECK(page[end] != '=');
    }
    // The charts: hosts, schemes and files, a bar each row.
    CHECK(attribute_values(html, "aria-label") ==
          std::set<std::string>{"Top hosts", "Schemes", "References per file"});
    std::size_t bars = 0;
    for (std::size_t at = html.find("<rect"); at != std::string::npos; at = html.find("<rect", at + 1)) ++bars;
    CHECK(bars == 3 + 5 + 2);
}

TEST_CASE("report html: the same bytes every time, the timestamp apart", "[report]") {
    const report r = hostile_report();
    CHECK(html_of(r) == html_of(report(r)));
    const std::string stamped = html_of(r, "2026-01-02T03:04:05Z");
    CHECK(stamped.find("<time datetime=\"2026-01-02T03:04:05Z\">") != std::string::npos);
    CHECK(html_of(r).find("Generated") == std::string::npos);
    // Without the timestamp's line, the pages are the same.
    std::string without = stamped;
    const std::size_t line = without.find("<p>Generated");
    without.erase(line, without.find('\n', line) + 1 - line);
    CHECK(without == html_of(r));
}

TEST_CASE("report html: an empty report is still a page", "[report]") {
    const std::string html = html_of(report());
    CHECK(html.find("<svg") == std::string::npos);
    CHECK(html.find("None.") != std::string::npos);
    CHECK(html.find("</html>\n") == html.size() - 8);
}

TEST_CASE("report markdown: cells hold no markup", "[report]") {
    const std::string md = markdown_of(hostile_report());
    CHECK_FALSE(has_raw_controls(md));
    CHECK(md.find("\\<script\\>alert(1)\\</script\\>\"\\&\\\\x1b\\[2J.txt") != std::string::npos);
    CHECK(md.find("a\\|b\\`c\\`\\*d\\*\\_e\\_\\~f\\~\\[g\\](h)\\$x\\$\\\\") != std::string::npos);
    CHECK(md.find("http://www.example.com/?a=1\\&b=\"\\<x\\>\"") != std::string::npos);
    CHECK(md.find("| 1 | =cmd\\|' /C calc'!A0 | a.txt:2 |") != std::string::npos);
    // Every row of a table has the cells of its header: count the pipes
    // that are not escaped.
    std::istringstream lines(md);
    std::size_t header_cells = 0, tables = 0;
    bool in_table = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line.front() != '|') {
            in_table = false;
            continue;
        }
        std::size_t cells = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '\\') ++i;
            else if (line[i] == '|') ++cells;
        }
        if (!in_table) header_cells = cells, in_table = true, ++tables;
        INFO(line);
        CHECK(cells == header_cells);
    }
    CHECK(tables == 9);
    CHECK(markdown_of(hostile_report()) == md);
}

TEST_CASE("report csv and tsv: the columns of each table", "[report]") {
    const report r = hostile_report();
    CHECK(sheet_of(r, "host", true) == "key,count,first_input,first_file,first_line\n"
                                       "www.example.com,3,0,a.txt,1\n"
                                       "<script>alert(1)</script>,2,1,\"<script>alert(1)</script>\"\"&\x1b[2J.txt\",1\n"
                                       "\"'=cmd|' /C calc'!A0\",1,0,a.txt,2\n");
    CHECK(sheet_of(r, "host", false) == "key\tcount\tfirst_input\tfirst_file\tfirst_line\n"
                                        "www.example.com\t3\t0\ta.txt\t1\n"
                                        "<script>alert(1)</script>\t2\t1\t" + script_name + "\t1\n"
                                        "'=cmd|' /C calc'!A0\t1\t0\ta.txt\t2\n");
    CHECK(sheet_of(r, "files", true) == "input,name,status,bytes,references,error\n"
                                        "0,a.txt,read,100,5,\n"
                                        "1,\"<script>alert(1)</script>\"\"&\x1b[2J.txt\",read,50,4,\n"
                                        "2,\"'=cmd|' /C calc'!A0\",binary,0,0,\n");
    CHECK(sheet_of(r, "duplicate", true) == "key,count,first_input,first_file,first_line\n"
                                            "\"http://www.example.com/?a=1&b=\"\"<x>\"\"\",2,0,a.txt,1\n");
    CHECK(sheet_of(r, "scheme", true, 2) == "key,count,first_input,first_file,first_line\n"
                                            "http,4,0,a.txt,1\n"
                                            "javascript,2,1,\"<script>alert(1)</script>\"\"&\x1b[2J.txt\",2\n");
    CHECK(sheet_of(r, "relative", false) == "key\tcount\tfirst_input\tfirst_file\tfirst_line\n"
                                            "a|b`c`*d*_e_~f~[g](h)$x$\\\\\t1\t0\ta.txt\t2\n");
    // Every name --table accepts: the report's tables, then two of its own.
    const auto& names = urlsift::cli::report_sheet_names();
    std::vector<std::string_view> expected;
    for (std::size_t t = 0; t < urlsift::report_table_count; ++t)
        expected.push_back(urlsift::to_string(static_cast<report_table>(t)));
    expected.insert(expected.end(), {"duplicate", "files"});
    CHECK(names == expected);
    CHECK(names.front() == "scheme");
    for (const std::string_view name : names) CHECK(sheet_of(r, name, true).find('\n') != std::string::npos);
}

TEST_CASE("report formats through the command line: same bytes for any -j", "[report][cli]") {
    const urlsift::test::scratch_dir dir;
    std::string operands;
    for (int i = 0; i < 24; ++i) {
        const std::string name = "f" + std::to_string(100 + i) + ".txt";
        std::string text = "see http://host" + std::to_string(i % 13) + ".example.org/p" + std::to_string(i % 7) + "\n";
        if (i % 3 == 0) text += "and <https://www.w3.org/TR/> or <../up/" + std::to_string(i % 4) + ">\n";
        if (i % 4 == 1) text += "ftp://10.0.0." + std::to_string(i % 3) + "/pub and mailto:ada@example.net\n";
        if (i == 7) text += "odd \"http://x.example/?a=<b>&c=|=1\" and \"javascript:alert(1)\"\n";
        urlsift::test::write_file(dir.path / name, text);
        operands += " " + name;
    }
    for (const std::string format : {"html", "markdown", "csv --table url", "tsv --table files", "csv --table host"}) {
        INFO(format);
        const auto one = run_in(dir.path, "report --no-timestamp -j 1 -f " + format + operands);
        const auto four = run_in(dir.path, "report --no-timestamp -j 4 -f " + format + operands);
        CHECK(one.status == 0);
        CHECK(one.out.size() > 100);
        CHECK(four.out == one.out);
    }
    const auto html = run_in(dir.path, "report -f html" + operands);
    CHECK(html.out.find("<p>Generated <time datetime=\"20") != std::string::npos);
    const auto csv = run_in(dir.path, "report -f csv --table host" + operands);
    CHECK(csv.out.rfind("key,count,first_input,first_file,first_line\nwww.w3.org,8,0,f100.txt,2\n", 0) == 0);
    CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') > 1 + 10);  // every host, not the top 10
    const auto files = run_in(dir.path, "report -f tsv --table files --top 3" + operands);
    CHECK(files.out.rfind("input\tname\tstatus\tbytes\treferences\terror\n", 0) == 0);
    CHECK(std::count(files.out.begin(), files.out.end(), '\n') == 4);
}

TEST_CASE("report formats: --table is required by csv and tsv, and only there", "[report][cli]") {
    const urlsift::test::scratch_dir dir;
    urlsift::test::write_file(dir.path / "a.txt", "http://a.example/\n");
    const fs::path err = dir.path / "err";
    CHECK(run_in(dir.path, "report -f csv a.txt", err.string()).status == 2);
    const std::string message = urlsift::test::read_file(err);
    CHECK(message.find("--table") != std::string::npos);
    std::string choices;
    for (const std::string_view name : urlsift::cli::report_sheet_names()) choices += std::string(name) + '|';
    choices.pop_back();
    CHECK(message.find("(one of: " + choices + ")") != std::string::npos);
    CHECK(run_in(dir.path, "report -f tsv a.txt").status == 2);
    CHECK(run_in(dir.path, "report -f csv --table nope a.txt", err.string()).status == 2);
    CHECK(urlsift::test::read_file(err).find("unknown --table 'nope'") != std::string::npos);
    CHECK(run_in(dir.path, "report -f html --table host a.txt").status == 2);
    CHECK(run_in(dir.path, "report --table host a.txt").status == 2);
    CHECK(run_in(dir.path, "report -f pdf a.txt", err.string()).status == 2);
    CHECK(urlsift::test::read_file(err).find("text|json|markdown|html|csv|tsv") != std::string::npos);
    CHECK(run_in(dir.path, "report --partial -f html a.txt").status == 2);
    const auto help = run_in(dir.path, "report --help");
    for (const char* word : {"--table", "markdown", "html", "csv, tsv", "Content-Security-Policy",
                             "key,count,first_input,first_file,first_line"})
        CHECK(help.out.find(word) != std::string::npos);
}

TEST_CASE("report json of the samples matches its golden file", "[report][cli]") {
    // To accept an intended change, regenerate the golden file (the
    // command is in the failure's message).
    const fs::path golden = fs::path(URLSIFT_TEST_DATA_DIR) / "report" / "samples.json";
    const auto run = run_in(URLSIFT_SAMPLES_DIR,
                            "report --no-timestamp -f json mail-thread.txt news-article.txt relative-doc.txt rfc-style.txt");
    CHECK(run.status == 0);
    const std::string expected = urlsift::test::read_file(golden);
    REQUIRE_FALSE(expected.empty());
    if (run.out != expected)
        FAIL("urlsift report -f json over samples/ differs from " + golden.string() +
             ". If the change is intended, regenerate it: cd samples && urlsift report --no-timestamp -f json "
             "mail-thread.txt news-article.txt relative-doc.txt rfc-style.txt > ../tests/data/report/samples.json");
}

namespace {

/// A report of one big input: 283,200,568 bytes, 116,057 references to
/// github.com.
report big_report() {
    report r;
    report_input in;
    in.name = "big.txt";
    in.bytes = 283200568;
    in.references = 116057;
    r.add_input(std::move(in));
    r.add_count(report_table::host, "github.com", 116057, {0, 1});
    return r;
}

}  // namespace

TEST_CASE("report text and markdown: counts grouped by thousands, for people only", "[report]") {
    using urlsift::cli::grouped;
    CHECK(grouped(0) == "0");
    CHECK(grouped(999) == "999");
    CHECK(grouped(1000) == "1,000");
    CHECK(grouped(283200568) == "283,200,568");
    CHECK(grouped(18446744073709551615u) == "18,446,744,073,709,551,615");
    const report r = big_report();
    std::string text;
    urlsift::cli::append_report_text(text, r, {.partial = false, .top = 10, .generated = std::nullopt});
    CHECK(text.find("  bytes scanned" + std::string(14, ' ') + "283,200,568\n") != std::string::npos);
    CHECK(text.find("     116,057  github.com  first seen big.txt:1\n") != std::string::npos);
    CHECK(markdown_of(r).find("| 116,057 |") != std::string::npos);
    // The machine-readable forms keep plain digits.
    CHECK(sheet_of(r, "host", true) == "key,count,first_input,first_file,first_line\ngithub.com,116057,0,big.txt,1\n");
}

TEST_CASE("report html: counts grouped by thousands", "[report]") {
    const std::string html = html_of(big_report());
    CHECK(html.find("<td class=\"n\">283,200,568</td>") != std::string::npos);
    CHECK(html.find("<td class=\"n\">116,057</td>") != std::string::npos);
    CHECK(html.find(">116,057</text>") != std::string::npos);  // beside the bar
}

TEST_CASE("report html: chart labels cut in the middle, whole in the tooltip", "[report]") {
    using urlsift::cli::chart_label;
    CHECK(chart_label("github.com", 60) == "github.com");
    // Seen in a report over /usr/share/doc: names cut at their end read
    // `/usr/share/doc/nodejs/changelogs/C…` four times over.
    const std::string dir = "/usr/share/doc/a-package-with-a-rather-long-name/changelogs/";
    std::set<std::string> labels;
    for (const char* file : {"CHANGELOG_V16.md", "CHANGELOG_V18.md", "CHANGELOG_V20.md", "CHANGELOG_ARCHIVE.md"}) {
        const std::string label = chart_label(dir + file, 60);
        INFO(label);
        CHECK(label.starts_with("/usr/share/doc/\u2026"));
        CHECK(label.ends_with(std::string("/changelogs/") + file));
        labels.insert(label);
    }
    CHECK(labels.size() == 4);
    // Counted in characters, not bytes; controls made visible first.
    const std::string wide = chart_label(std::string(30, 'a') + "\u00e9\u00e9\u00e9\u00e9" + std::string(30, 'b'), 21);
    CHECK(wide == std::string(6, 'a') + "\u2026" + std::string(14, 'b'));
    CHECK(chart_label("a\x1b[2J", 60) == "a\\x1b[2J");

    report r;
    for (const char* file : {"CHANGELOG_V18.md", "CHANGELOG_V20.md"}) {
        report_input in;
        in.name = dir + file + "<&>";
        in.references = 3;
        r.add_input(std::move(in));
    }
    const std::string html = html_of(r);
    CHECK(html.find("<g><title>" + dir + "CHANGELOG_V18.md&lt;&amp;&gt;: 3</title>") != std::string::npos);
    CHECK(html.find(">/usr/share/doc/\u2026") != std::string::npos);
}

TEST_CASE("report html: long keys break after separators, the page fits a phone", "[report]") {
    report r;
    r.add_input("docs/a_b.txt");
    r.add_count(report_table::host, "developer.mozilla.org", 2, {0, 1});
    const std::string html = html_of(r);
    CHECK(html.find("<td>developer.<wbr>mozilla.<wbr>org</td><td>docs/<wbr>a_<wbr>b.<wbr>txt:1</td>") !=
          std::string::npos);
    CHECK(html.find("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">") != std::string::npos);
    CHECK(html.find("@media (max-width: 40em)") != std::string::npos);
    CHECK(html.find("max-width: 60em") == std::string::npos);
}
