// `urlsift extract --input mail|mbox|auto` end to end: the fields of a
// message's references, and a message, a mailbox and plain text told apart
// (mail_test.cpp reads messages through the library).

#include "cli_util.hpp"
#include "jsonl.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

const std::string mail_dir = URLSIFT_TEST_DATA_DIR "/mail/";

std::string data(const std::string& name) { return urlsift::test::read_file(mail_dir + name); }

}  // namespace

TEST_CASE("extract --input mail -f jsonl: part and header fields", "[mail][cli]") {
    const auto r = urlsift::test::run_cli("extract --input mail -f jsonl " + urlsift::test::shell_quote(mail_dir + "alternative.eml"));
    CHECK(r.status == 0);
    std::vector<urlsift::test::json_row> rows;
    std::size_t start = 0;
    for (std::size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1) {
        auto row = urlsift::test::parse_jsonl_line(r.out.substr(start, nl - start));
        REQUIRE(row);
        rows.push_back(*row);
    }
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].string("part") == "1");
    CHECK(rows[0].string("content_type") == "text/plain");
    CHECK(rows[0].string("message_id") == "release-2.0@example.com");
    CHECK(rows[0].string("base_source") == "none");
    CHECK(rows[1].string("part") == "2");
    CHECK(rows[1].string("content_type") == "text/html");
    CHECK(rows[1].string("url") == "https://example.com/docs/upgrade.html?from=1&to=2");
    CHECK(rows[1].string("anchor_text") == "upgrade guide");
    CHECK(rows[1].string("base_source") == "html");
    CHECK(rows[1].string("base") == "https://example.com/docs/");

    const auto h = urlsift::test::run_cli("extract --input mail -f jsonl " + urlsift::test::shell_quote(mail_dir + "list-headers.eml"));
    CHECK(h.status == 0);
    CHECK(h.out.find(R"("header":"Archived-At")") != std::string::npos);
    CHECK(h.out.find(R"("url":"https://lists.example.org/archives/dev/2025-March/000123.html")") != std::string::npos);
    CHECK(h.out.find("not-a-link") == std::string::npos);
    // In text output, header URLs only with --headers.
    const auto quiet = urlsift::test::run_cli("extract --input mail " + urlsift::test::shell_quote(mail_dir + "list-headers.eml"));
    CHECK(quiet.status == 1);
    CHECK(quiet.out.empty());
    const auto shown = urlsift::test::run_cli("extract --input mail --headers " + urlsift::test::shell_quote(mail_dir + "list-headers.eml"));
    CHECK(shown.out.starts_with("https://lists.example.org/mailman/options/dev\n"));
}

TEST_CASE("extract --input auto: a message, a mailbox and plain text", "[mail][cli]") {
    // On standard input: mutt's <pipe-message>.
    const auto msg = urlsift::test::run_cli("extract --input auto", data("quoted-printable.eml"));
    CHECK(msg.status == 0);
    CHECK(msg.out == "https://reports.example.org/view?id=42&lang=en\n"
                     "https://data.example.org/2025/march/segments/all.csv\n");
    const auto box = urlsift::test::run_cli("extract --input auto -f jsonl " + urlsift::test::shell_quote(mail_dir + "three.mbox"));
    CHECK(box.out.find(R"("message":3,"message_offset":438,"message_id":"m3@example.com")") != std::string::npos);
    // Plain text is read as --input text reads it: the QP stays undecoded.
    const auto text = urlsift::test::run_cli("extract --input auto", "see https://example.org/a=3Db here\n");
    CHECK(text.out == "https://example.org/a=3Db\n");
    const auto bad = urlsift::test::run_cli("extract --input eml", "x");
    CHECK(bad.status == 2);
}

TEST_CASE("regression: parts nested deeper than GMime reads are read as text, with a note", "[mail][cli][regression]") {
    // GMime stops at 1,024 levels and keeps the rest as a preamble: the
    // link below was dropped without a word, hidden from extract and report.
    std::string message = "From: a@example.org\nSubject: deep\nMIME-Version: 1.0\n"
                          "Content-Type: multipart/mixed; boundary=\"b0\"\n\n";
    const int depth = 1100;
    for (int i = 0; i < depth; ++i)
        message += "--b" + std::to_string(i) + "\nContent-Type: multipart/mixed; boundary=\"b" + std::to_string(i + 1) +
                   "\"\n\n";
    message += "--b" + std::to_string(depth) + "\nContent-Type: text/plain\n\nhidden http://hidden.example/x\n";
    for (int i = depth; i >= 0; --i) message += "--b" + std::to_string(i) + "--\n";
    const auto r = urlsift::test::run_cli("extract --input mail", message);
    CHECK(r.status == 0);
    CHECK(r.out == "http://hidden.example/x\n");
    CHECK(r.err.find("note: message 1, part ") != std::string::npos);
    CHECK(r.err.find("read as plain text, undecoded") != std::string::npos);
}

TEST_CASE("regression: a note on a message's own multipart names no empty part", "[mail][cli][regression]") {
    // The boundary is never used, so GMime finds no part in the message's
    // own body: the note read `message 1, part : no part of this ...`.
    const std::string message = "From: a@example.org\nSubject: x\nMIME-Version: 1.0\n"
                                "Content-Type: multipart/mixed; boundary=\"unused\"\n\n"
                                "See http://example.org/kept for the text.\n";
    const auto r = urlsift::test::run_cli("extract --input mail", message);
    CHECK(r.status == 0);
    CHECK(r.out == "http://example.org/kept\n");
    CHECK(r.err.find("note: message 1, no part of this multipart could be read") != std::string::npos);
    CHECK(r.err.find("part :") == std::string::npos);
}

TEST_CASE("regression: extract -n and report's first seen give the mailbox's line, not the part's", "[mail][cli][regression]") {
    // FILE:LINE pointed at the line in the decoded part: `three.mbox:1:`
    // for a URL on line 14 of the file.
    const std::string box = urlsift::test::shell_quote(mail_dir + "three.mbox");
    const auto r = urlsift::test::run_cli("extract --input mbox -n " + box);
    CHECK(r.status == 0);
    const std::string file = data("three.mbox");
    std::size_t start = 0;
    int checked = 0;
    for (std::size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1) {
        const std::string row = r.out.substr(start, nl - start);
        const std::size_t colon = row.find(':');
        REQUIRE(colon != std::string::npos);
        const int line = std::stoi(row.substr(0, colon));
        // The file's line `line` holds the URL.
        std::size_t at = 0;
        for (int i = 1; i < line; ++i) at = file.find('\n', at) + 1;
        CHECK(file.substr(at, file.find('\n', at) - at).find(row.substr(colon + 1)) != std::string::npos);
        ++checked;
    }
    CHECK(checked == 3);
    const auto rows = urlsift::test::run_cli("extract --input mbox -f jsonl " + box);
    CHECK(rows.out.find(R"("header":null,"input_line":)") != std::string::npos);
    const auto piped = urlsift::test::run_cli("extract --input mbox -n -", file);
    CHECK(piped.out == r.out);
    const auto report = urlsift::test::run_cli("report --input mbox " + box);
    const std::size_t first = r.out.find(':');
    CHECK(report.out.find("first seen " + mail_dir + "three.mbox:" + r.out.substr(0, first) + "\n") != std::string::npos);
}
