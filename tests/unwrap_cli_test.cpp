// `urlsift extract --unwrap` end to end: a gateway's link listed as its
// target, in every format, in plain text and in mail.

#include "cli_util.hpp"
#include "jsonl.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace {

using urlsift::test::run_cli;
using urlsift::test::shell_quote;

const std::string safelinks =
    "https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2Freport.pdf"
    "&data=05%7C02%7C%7C2e9f06b0%7C0&sdata=bMPrbif%2B96Qo%3D&reserved=0";
const std::string target = "https://example.org/report.pdf";

std::vector<urlsift::test::json_row> rows_of(const std::string& jsonl) {
    std::vector<urlsift::test::json_row> rows;
    std::istringstream in(jsonl);
    for (std::string line; std::getline(in, line);) {
        auto row = urlsift::test::parse_jsonl_line(line);
        REQUIRE(row.has_value());
        rows.push_back(std::move(*row));
    }
    return rows;
}

std::string sample(const std::string& name) { return shell_quote(std::string(URLSIFT_SAMPLES_DIR) + "/" + name); }

}  // namespace

TEST_CASE("extract --unwrap: text output shows the target", "[unwrap][cli]") {
    const std::string text = "The report: " + safelinks + "\nand https://example.net/plain.\n";
    const auto r = run_cli("extract --unwrap", text);
    CHECK(r.out == target + "\nhttps://example.net/plain\n");
    CHECK(r.status == 0);
    // Without the option the link is listed as found.
    CHECK(run_cli("extract", text).out == safelinks + "\nhttps://example.net/plain\n");
    // --raw shows what was written, unwrapped or not.
    CHECK(run_cli("extract --unwrap --raw", text).out == safelinks + "\nhttps://example.net/plain\n");
}

TEST_CASE("extract --unwrap: a link broken across lines in <...> is joined, then unwrapped", "[unwrap][cli]") {
    const std::string text = "Slides: <https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2F\n"
                             "  example.org%2Fslides.pdf&data=05%7C02&reserved=0>\n";
    CHECK(run_cli("extract --unwrap", text).out == "https://example.org/slides.pdf\n");
}

TEST_CASE("extract --unwrap: each gateway, and one inside another", "[unwrap][cli]") {
    const std::string text =
        "a https://urldefense.proofpoint.com/v2/url?u=https-3A__example.org_v2-5Fpage&d=DwMFaQ&c=x&r=y&m=z&s=w&e=\n"
        "b https://urldefense.com/v3/__https://example.org/v3*20page__;JQ!!Fjc1LPEtn8I!sig$\n"
        "c https://www.google.com/url?q=https://example.org/from-google&sa=D&usg=AOvVaw\n"
        "d https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Furldefense.com%2Fv3%2F__https%3A%2F%2F"
        "example.org%2Fboth__%3B%21%21o%21s%24&data=05\n";
    const auto r = run_cli("extract --unwrap -f jsonl", text);
    const auto rows = rows_of(r.out);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].string("url") == "https://example.org/v2_page");
    CHECK(rows[0].string("gateway") == "proofpoint-v2");
    CHECK(rows[1].string("url") == "https://example.org/v3%20page");
    CHECK(rows[1].string("gateway") == "proofpoint-v3");
    CHECK(rows[2].string("url") == "https://example.org/from-google");
    CHECK(rows[2].string("gateway") == "google");
    CHECK(rows[3].string("url") == "https://example.org/both");
    CHECK(rows[3].string("gateway") == "safelinks");  // the outermost
}

TEST_CASE("extract --unwrap -f jsonl keeps both URLs", "[unwrap][cli]") {
    const std::string text = safelinks + "\nhttps://example.net/plain\n";
    const auto rows = rows_of(run_cli("extract --unwrap -f jsonl", text).out);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].string("url") == target);
    CHECK(rows[0].string("wrapped") == safelinks);
    CHECK(rows[0].string("raw") == safelinks);
    CHECK(rows[0].string("gateway") == "safelinks");
    // Other URLs have the fields, null.
    CHECK(rows[1].string("url") == "https://example.net/plain");
    REQUIRE(rows[1].has("wrapped"));
    CHECK(rows[1].fields.at("wrapped").type == urlsift::test::json_value::kind::null);
    CHECK(rows[1].fields.at("gateway").type == urlsift::test::json_value::kind::null);
    // Without --unwrap the records are as they were.
    const auto plain = rows_of(run_cli("extract -f jsonl", text).out);
    REQUIRE(plain.size() == 2);
    CHECK(plain[0].string("url") == safelinks);
    CHECK_FALSE(plain[0].has("wrapped"));
    CHECK_FALSE(plain[0].has("gateway"));
}

TEST_CASE("extract --unwrap: Section 7 warnings are about the target", "[unwrap][cli]") {
    const std::string text =
        "https://nam02.safelinks.protection.outlook.com/?url=http%3A%2F%2Fexample.org%3A25%2F&data=05\n";
    const auto rows = rows_of(run_cli("extract --unwrap -f jsonl", text).out);
    REQUIRE(rows.size() == 1);
    const auto warnings = rows[0].strings("warnings");
    CHECK(warnings == std::vector<std::string>{"non-default-port", "reserved-port"});
    const auto r = run_cli("extract --unwrap --warnings", text);
    CHECK(r.out == "http://example.org:25/\n");
    CHECK(r.err.find("http://example.org:25/: warning: non-default-port, reserved-port") != std::string::npos);
}

TEST_CASE("extract --unwrap: csv and tsv add wrapped and gateway columns", "[unwrap][cli]") {
    const std::string text = safelinks + "\nhttps://example.net/plain\n";
    const auto csv = run_cli("extract --unwrap -f csv", text).out;
    CHECK(csv.substr(0, csv.find('\n')) == "file,line,column,url,raw,wrapper,form,wrapped,gateway");
    // Standard input is "-", guarded as a cell a spreadsheet would run.
    CHECK(csv.find("\n\"'-\",1,1," + target + "," + safelinks + ",none,absolute," + safelinks + ",safelinks\n") !=
          std::string::npos);
    CHECK(csv.find("\n\"'-\",2,1,https://example.net/plain,https://example.net/plain,none,absolute,,\n") !=
          std::string::npos);
    const auto tsv = run_cli("extract --unwrap -f tsv", text).out;
    CHECK(tsv == "'-\t1\t1\t" + target + "\t" + safelinks + "\tnone\tabsolute\t" + safelinks + "\tsafelinks\n" +
                     "'-\t2\t1\thttps://example.net/plain\thttps://example.net/plain\tnone\tabsolute\t\t\n");
    // Without --unwrap the columns are as they were.
    const auto before = run_cli("extract -f csv", text).out;
    CHECK(before.substr(0, before.find('\n')) == "file,line,column,url,raw,wrapper,form");
}

TEST_CASE("extract --unwrap -u counts the target once", "[unwrap][cli]") {
    const std::string text = target + "\n" + safelinks + "\n";
    CHECK(run_cli("extract --unwrap -u", text).out == target + "\n");
    CHECK(run_cli("extract -u", text).out == target + "\n" + safelinks + "\n");
}

TEST_CASE("extract --unwrap leaves lookalikes and malformed links alone", "[unwrap][cli]") {
    const std::string text = "https://safelinks.protection.outlook.com.evil.example/?url=https%3A%2F%2Fbank.example%2F\n"
                             "https://nam02.safelinks.protection.outlook.com/?url=javascript%3Aalert(1)&data=05\n"
                             "https://urldefense.com/v3/__https://example.org/*__;!!o!s$\n";
    const auto r = run_cli("extract --unwrap", text);
    CHECK(r.out == "https://safelinks.protection.outlook.com.evil.example/?url=https%3A%2F%2Fbank.example%2F\n"
                   "https://nam02.safelinks.protection.outlook.com/?url=javascript%3Aalert(1)&data=05\n"
                   "https://urldefense.com/v3/__https://example.org/*__;!!o!s$\n");
    CHECK(r.status == 0);
}

TEST_CASE("extract --unwrap on a mail from a Safe Links tenant", "[unwrap][cli][mail]") {
    const std::string expected = "https://wiki.example.org/team/Agenda?week=12#items\n"
                                 "https://files.example.org/slides/q1-review.pdf\n"
                                 "https://tickets.example.net/browse/OPS-1432\n"
                                 "https://status.example.org/\n"
                                 "https://www.example.com/\n";
    const auto r = run_cli("extract --input mail --unwrap " + sample("safelinks-mail.eml"));
    CHECK(r.out == expected);
    CHECK(r.status == 0);
    CHECK(run_cli("extract --input auto --unwrap " + sample("safelinks-mail.eml")).out == expected);
    // Without the option, the links as the gateway wrote them.
    const auto wrapped = run_cli("extract --input mail " + sample("safelinks-mail.eml")).out;
    CHECK(wrapped.find("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fwiki.example.org") == 0);

    const auto rows = rows_of(run_cli("extract --input mail --unwrap -f jsonl " + sample("safelinks-mail.eml")).out);
    REQUIRE(rows.size() == 5);
    CHECK(rows[0].string("part") == "1");
    CHECK(rows[0].string("gateway") == "safelinks");
    CHECK(rows[0].string("wrapped")->find("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fwiki") ==
          0);
    CHECK(rows[2].string("gateway") == "proofpoint-v3");
    CHECK(rows[3].fields.at("gateway").type == urlsift::test::json_value::kind::null);
    // The signature link is only in the HTML part.
    CHECK(rows[4].string("part") == "2");
    CHECK(rows[4].string("url") == "https://www.example.com/");
    CHECK(rows[4].string("anchor_text") == "Example Corp");
    CHECK(rows[4].string("gateway") == "safelinks");

    const auto csv = run_cli("extract --input mail --unwrap -f csv " + sample("safelinks-mail.eml")).out;
    CHECK(csv.substr(0, csv.find('\n')) == "file,line,column,url,raw,wrapper,form,wrapped,gateway");
}

TEST_CASE("extract --help names --unwrap", "[unwrap][cli]") {
    const auto r = run_cli("extract --help");
    CHECK(r.out.find("--unwrap") != std::string::npos);
}
