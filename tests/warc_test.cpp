// WARC and WET records: fields read, payloads handed on with the URI they
// came from and the line they start on, HTTP headers left out of response
// payloads, input fed in any pieces, and broken files reported
// (warc_cli_test.cpp: `urlsift report` on WARC and WET files).

#include "warc_util.hpp"

#include <urlsift/warc.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using urlsift::test::record;
using urlsift::warc_reader;
using urlsift::warc_record;

namespace {

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
