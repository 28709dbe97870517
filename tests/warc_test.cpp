// WARC and WET records: fields read, payloads handed on with the URI they
// came from and the line they start on, HTTP headers left out of response
// payloads, input fed in any pieces, and broken files reported.

#include "cli_util.hpp"

#include <urlsift/warc.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using urlsift::warc_reader;
using urlsift::warc_record;

namespace {

/// One record as a WARC writer lays it out: CRLF line breaks, the content,
/// then two CRLFs.
std::string record(std::string_view type, std::string_view uri, std::string_view content_type, std::string_view content) {
    std::string r = "WARC/1.0\r\nWARC-Type: " + std::string(type) + "\r\n";
    if (!uri.empty()) r += "WARC-Target-URI: " + std::string(uri) + "\r\n";
    r += "WARC-Date: 2026-11-20T10:00:00Z\r\n";
    r += "Content-Type: " + std::string(content_type) + "\r\n";
    r += "Content-Length: " + std::to_string(content.size()) + "\r\n\r\n";
    r += content;
    r += "\r\n\r\n";
    return r;
}

struct seen {
    warc_record record;
    std::string payload;
    bool ended = false;
};

struct read_result {
    std::vector<seen> records;
    bool ok = false;
    std::string error;
};

/// Reads `bytes` in pieces of `piece` bytes, keeping every record's payload.
read_result read(std::string_view bytes, std::size_t piece = 1 << 20) {
    read_result out;
    warc_reader in({.record = [&](const warc_record& r) {
                        out.records.push_back({r, {}, false});
                        return r.type != "request";
                    },
                    .payload = [&](std::string_view p) {
                        out.records.back().payload += p;
                        return true;
                    },
                    .record_end = [&] { out.records.back().ended = true; }});
    bool going = true;
    for (std::size_t i = 0; going && i < bytes.size(); i += piece) going = in.feed(bytes.substr(i, piece));
    out.ok = going && in.finish();
    out.error = in.error();
    return out;
}

const std::string wet_text = "Opening hours\nSee https://example.org/hours and www.example.org/map\n";
const std::string http_response =
    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\nServer: test\r\n\r\n"
    "<p><a href=\"/about\">About</a> https://example.org/news</p>\n";

const std::string archive = "WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Type: application/warc-fields\r\n"
                            "Content-Length: 20\r\n\r\nsoftware: test 1.0\r\n\r\n\r\n" +
                            record("request", "https://example.org/", "application/http; msgtype=request",
                                   "GET / HTTP/1.1\r\nHost: example.org\r\n\r\n") +
                            record("response", "<https://example.org/>", "application/http; msgtype=response",
                                   http_response) +
                            record("conversion", "https://example.org/hours", "text/plain", wet_text);

}  // namespace

TEST_CASE("starts_warc knows a WARC file by its version line", "[warc]") {
    CHECK(warc_reader::starts_warc("WARC/1.0\r\nWARC-Type: warcinfo\r\n"));
    CHECK(warc_reader::starts_warc("WARC/1.1\r\n"));
    CHECK_FALSE(warc_reader::starts_warc("WARC/2.0\r\n"));
    CHECK_FALSE(warc_reader::starts_warc("WARC files are described in ISO 28500.\n"));
    CHECK_FALSE(warc_reader::starts_warc(""));
}

TEST_CASE("Each record's payload comes with its type, target URI and media type", "[warc]") {
    const read_result r = read(archive);
    REQUIRE(r.ok);
    REQUIRE(r.records.size() == 4);
    CHECK(r.records[0].record.type == "warcinfo");
    CHECK(r.records[0].payload == "software: test 1.0\r\n");
    CHECK(r.records[1].record.type == "request");
    CHECK(r.records[1].payload.empty()); // not asked for
    CHECK_FALSE(r.records[1].ended);
    // Response: the HTTP header is left out, its Content-Type is the payload's;
    // WARC 1.0's angle brackets around the URI are removed.
    CHECK(r.records[2].record.type == "response");
    CHECK(r.records[2].record.target_uri == "https://example.org/");
    CHECK(r.records[2].record.content_type == "text/html");
    CHECK(r.records[2].payload == "<p><a href=\"/about\">About</a> https://example.org/news</p>\n");
    CHECK(r.records[2].ended);
    CHECK(r.records[3].record.type == "conversion");
    CHECK(r.records[3].record.content_type == "text/plain");
    CHECK(r.records[3].record.target_uri == "https://example.org/hours");
    CHECK(r.records[3].payload == wet_text);
}

TEST_CASE("A payload's line is the line of the input it starts on", "[warc]") {
    const read_result r = read(archive);
    REQUIRE(r.ok);
    for (const seen& s : r.records) {
        if (s.payload.empty()) continue;
        const std::size_t at = archive.find(s.payload);
        REQUIRE(at != std::string::npos);
        const auto line = 1 + static_cast<std::uint64_t>(std::count(archive.begin(), archive.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        CHECK(s.record.line == line);
    }
}

TEST_CASE("Records read the same whatever pieces the input comes in", "[warc]") {
    const read_result whole = read(archive);
    for (const std::size_t piece : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{64}}) {
        INFO(piece);
        const read_result r = read(archive, piece);
        REQUIRE(r.ok);
        REQUIRE(r.records.size() == whole.records.size());
        for (std::size_t i = 0; i < r.records.size(); ++i) {
            CHECK(r.records[i].payload == whole.records[i].payload);
            CHECK(r.records[i].record.line == whole.records[i].record.line);
            CHECK(r.records[i].record.content_type == whole.records[i].record.content_type);
        }
    }
}

TEST_CASE("Empty content, and a response with no blank line after its header", "[warc]") {
    const std::string input = record("resource", "https://example.org/empty", "text/plain", "") +
                              record("response", "https://example.org/odd", "application/http", "HTTP/1.1 204 No Content\r\n");
    const read_result r = read(input);
    REQUIRE(r.ok);
    REQUIRE(r.records.size() == 1); // the response had no payload to offer
    CHECK(r.records[0].payload.empty());
}

TEST_CASE("Broken WARC input is reported with the record and line", "[warc]") {
    SECTION("not WARC") {
        const read_result r = read("Hello\r\n\r\n");
        CHECK_FALSE(r.ok);
        CHECK(r.error == "record 1 (line 1): does not start with a WARC version line");
    }
    SECTION("no Content-Length") {
        const read_result r = read("WARC/1.0\r\nWARC-Type: resource\r\n\r\nabc");
        CHECK_FALSE(r.ok);
        CHECK(r.error.find("has no Content-Length") != std::string::npos);
    }
    SECTION("bad Content-Length") {
        const read_result r = read("WARC/1.0\r\nContent-Length: 12x\r\n\r\nabc");
        CHECK_FALSE(r.ok);
        CHECK(r.error.find("bad Content-Length: 12x") != std::string::npos);
    }
    SECTION("truncated content") {
        const std::string full = record("conversion", "https://example.org/", "text/plain", wet_text);
        const read_result r = read(full.substr(0, full.size() - 20));
        CHECK_FALSE(r.ok);
        CHECK(r.error.find("ends 16 bytes before the end of its content") != std::string::npos);
    }
    SECTION("the second record broken") {
        const read_result r = read(record("conversion", "https://example.org/", "text/plain", wet_text) + "garbage\r\n\r\n");
        CHECK_FALSE(r.ok);
        CHECK(r.error.starts_with("record 2 "));
    }
}

TEST_CASE("report reads a WARC file record by record, each against its target URI", "[warc][report][cli]") {
    using namespace urlsift::test;
    const std::string html =
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
        "<html><head><base href=\"/2026/\"></head>\n<body><a href=\"../about?a=1&amp;b=2\">About</a>\n"
        "<img src=\"pic.png\"></body></html>\n";
    const std::string warc =
        record("warcinfo", "", "application/warc-fields", "software: test\r\n") +
        record("request", "https://news.example.org/", "application/http; msgtype=request", "GET / HTTP/1.1\r\n\r\n") +
        record("response", "https://news.example.org/2026/11/story.html", "application/http; msgtype=response", html) +
        record("response", "https://news.example.org/logo.png", "application/http; msgtype=response",
               std::string("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\0\0 http://not.scanned/", 57)) +
        record("conversion", "https://blog.example.net/post/1", "text/plain", "Read https://docs.example.com/guide today.\n");
    const scratch_dir dir;
    write_file(dir.path / "crawl.warc", warc);
    const auto r = run_cli("report --no-timestamp -f csv --table url " + shell_quote((dir.path / "crawl.warc").string()));
    CHECK(r.status == 0);
    // Lines are those of the WARC file: the HTML's second line is line 32.
    CHECK(r.out == "key,count,first_input,first_file,first_line\n"
                   "https://docs.example.com/guide,1,0," + (dir.path / "crawl.warc").string() + ",55\n"
                   "https://news.example.org/2026/pic.png,1,0," + (dir.path / "crawl.warc").string() + ",33\n"
                   "https://news.example.org/about?a=1&b=2,1,0," + (dir.path / "crawl.warc").string() + ",32\n");

    // Compressed a record a member, as crawl archives publish them.
    const auto gz = run_shell("cd " + shell_quote(dir.path.string()) + " && gzip -k crawl.warc && '" URLSIFT_CLI_PATH
                              "' report -z --no-timestamp -f csv --table host crawl.warc.gz");
    CHECK(gz.out == "key,count,first_input,first_file,first_line\n"
                    "news.example.org,2,0,crawl.warc.gz,32\n"
                    "docs.example.com,1,0,crawl.warc.gz,55\n");

    write_file(dir.path / "cut.warc", warc.substr(0, warc.size() - 30));
    const auto cut = run_cli("report --no-timestamp " + shell_quote((dir.path / "cut.warc").string()));
    CHECK(cut.status == 2);
    CHECK_THAT(cut.err, Catch::Contains("WARC: record 5"));
}

TEST_CASE("report reads an HTML record as it reads an HTML file", "[warc][report][cli]") {
    using namespace urlsift::test;
    // The links HTML declares (a background, not a src on a div; an in-page
    // anchor and a script link too) and the URLs of its prose, not of its
    // code; the same page saved as a file, with its URI as the base, counts
    // the same.
    const std::string page =
        "<html><body><p>Mirrors: https://mirror.example.net/pub/ and <a href=\"#top\">top</a>.</p>\n"
        "<table background=\"bg.png\"><tr><td><div src=\"no.png\">x</div></td></tr></table>\n"
        "<a href=\" guide.html \">Guide</a> <a href=\"javascript:void(0)\">js</a>"
        " <code>https://code.example/not</code></body></html>\n";
    const scratch_dir dir;
    write_file(dir.path / "crawl.warc",
               record("response", "https://site.example/a/page.html", "application/http; msgtype=response",
                      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page));
    write_file(dir.path / "page.html", page);
    const auto warc = run_cli("report --no-timestamp -f csv --table url " + shell_quote((dir.path / "crawl.warc").string()));
    CHECK(warc.status == 0);
    const std::string file = (dir.path / "crawl.warc").string();
    CHECK(warc.out == "key,count,first_input,first_file,first_line\n"
                      "https://mirror.example.net/pub/,1,0," + file + ",11\n"
                      "https://site.example/a/bg.png,1,0," + file + ",12\n"
                      "https://site.example/a/guide.html,1,0," + file + ",13\n"
                      "https://site.example/a/page.html#top,1,0," + file + ",11\n"
                      "javascript:void(0),1,0," + file + ",13\n");
    const auto html = run_cli("report --no-timestamp -f csv --table url --base https://site.example/a/page.html " +
                              shell_quote((dir.path / "page.html").string()));
    const std::string name = (dir.path / "page.html").string();
    CHECK(html.out == "key,count,first_input,first_file,first_line\n"
                      "https://mirror.example.net/pub/,1,0," + name + ",1\n"
                      "https://site.example/a/bg.png,1,0," + name + ",2\n"
                      "https://site.example/a/guide.html,1,0," + name + ",3\n"
                      "https://site.example/a/page.html#top,1,0," + name + ",1\n"
                      "javascript:void(0),1,0," + name + ",3\n");
}

TEST_CASE("report reads each text record of a WET file as a text of its own", "[warc][report][cli]") {
    using namespace urlsift::test;
    // The first record ends inside a `<` and right after a URL with its
    // scheme; neither reaches into the next record, whose site written
    // again is a link of its own and whose `<c.html>` is resolved against
    // its own target URI. Lines are the WET file's.
    const std::string wet = record("conversion", "https://one.example/a/", "text/plain",
                                   "See https://www.one.org/files/ or <docs/") +
                            record("conversion", "https://two.example/b/", "text/plain",
                                   "index.html> and www.one.org/files/ and <c.html>\n");
    const scratch_dir dir;
    write_file(dir.path / "crawl.wet", wet);
    const auto r = run_cli("report --no-timestamp -f csv --table url " + shell_quote((dir.path / "crawl.wet").string()));
    CHECK(r.status == 0);
    const std::string file = (dir.path / "crawl.wet").string();
    CHECK(r.out == "key,count,first_input,first_file,first_line\n"
                   "http://www.one.org/files/,1,0," + file + ",17\n"
                   "https://two.example/b/c.html,1,0," + file + ",17\n"
                   "https://www.one.org/files/,1,0," + file + ",8\n");
}
