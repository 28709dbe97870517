// The mail and news input stage: messages and mailboxes read with GMime,
// each checked against the URLs a reader of the message wants
// (mail_cli_test.cpp: `urlsift extract --input mail|mbox|auto`).

#include "file_util.hpp"

#include <urlsift/mail.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <fcntl.h>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

const std::string mail_dir = URLSIFT_TEST_DATA_DIR "/mail/";

std::string data(const std::string& name) { return urlsift::test::read_file(mail_dir + name); }

/// What scanning a message gave: the URLs of its parts, of its headers,
/// and the parts themselves.
struct scanned {
    std::vector<std::string> urls;        ///< from text and HTML parts, in order
    std::vector<std::string> header_urls; ///< "Header: URL"
    std::vector<urlsift::mail_message> messages;
    std::vector<std::string> where;       ///< "PART BASE_SOURCE" of each part URL
    std::vector<std::string> anchors;     ///< anchor text of each HTML link
};

scanned scan_bytes(const std::string& bytes, urlsift::mail_format format = urlsift::mail_format::message,
                   const std::string& base = {}) {
    scanned s;
    urlsift::mail_scan_options options;
    options.base = base;
    // An exact-size heap copy, so that a sanitizer sees an over-read.
    const auto copy = std::make_unique<char[]>(bytes.size());
    std::copy(bytes.begin(), bytes.end(), copy.get());
    const auto got = urlsift::read_mail(std::string_view(copy.get(), bytes.size()), format, [&](urlsift::mail_message& m) {
        urlsift::scan_message(m, options, [&](urlsift::mail_reference& r) {
            if (!r.header.empty()) {
                s.header_urls.push_back(std::string(r.header) + ": " + r.ref.url);
            } else {
                s.urls.push_back(r.ref.url);
                s.where.push_back(std::string(r.path) + " " + std::string(to_string(r.base_from)));
                s.anchors.emplace_back(r.anchor_text);
            }
            return true;
        });
        s.messages.push_back(m);
        return true;
    });
    REQUIRE(got.what == urlsift::mail_read::status::done);
    return s;
}

scanned scan_file(const std::string& name, urlsift::mail_format format = urlsift::mail_format::message,
                  const std::string& base = {}) {
    return scan_bytes(data(name), format, base);
}

/// A message of one HTML part holding `html`.
std::string html_message(const std::string& html) {
    return "From: a@example.org\nTo: b@example.org\nSubject: html\nMIME-Version: 1.0\n"
           "Content-Type: text/html\n\n" + html;
}

using strings = std::vector<std::string>;

}  // namespace

TEST_CASE("mail: quoted-printable, =3D and a soft line break", "[mail]") {
    const scanned s = scan_file("quoted-printable.eml");
    CHECK(s.urls == strings{"https://reports.example.org/view?id=42&lang=en",
                            "https://data.example.org/2025/march/segments/all.csv"});
    CHECK(s.header_urls.empty());
    REQUIRE(s.messages.size() == 1);
    CHECK(s.messages[0].message_id == "qp-1@example.org");
    REQUIRE(s.messages[0].parts.size() == 1);
    CHECK(s.messages[0].parts[0].path == "1");
    CHECK(s.messages[0].parts[0].content_type == "text/plain");
    CHECK(s.messages[0].parts[0].text.find("Caf\xC3\xA9 tomorrow") != std::string::npos);
}

TEST_CASE("mail: a base64 text part in latin-1", "[mail]") {
    const scanned s = scan_file("base64.eml");
    CHECK(s.urls == strings{"https://www.example.de/anleitung.html", "http://ftp.example.de/pub/handbuch/"});
    REQUIRE(s.messages[0].parts.size() == 1);
    CHECK(s.messages[0].parts[0].text.starts_with("Gr\xC3\xBC\xC3\x9F" "e aus K\xC3\xB6ln"));
}

TEST_CASE("mail: an HTML part's links are the URL attributes of the HTML reader", "[mail]") {
    const scanned s = scan_bytes(html_message(
        "<html><head><base href=\"https://example.org/base/\">"
        "<meta http-equiv=\"refresh\" content=\"5; url=refresh.html\"></head>\n"
        "<body background=\"body-bg.png\">\n"
        "<div src=\"div.png\" href=\"div.html\">not a URL on a div</div>\n"
        "<table><tr><td background=\"td-bg.png\">cell</td></tr></table>\n"
        "<img src=\"i.png\" srcset=\"i-1x.png 1x, i-2x.png 2x\" alt=\"A picture\">\n"
        "<form action=\"/submit\"><button formaction=\"/other\">go</button></form>\n"
        "<a href=\"  padded.html  \">padded</a> <a href=\"\">empty</a>\n"
        "<a href=\"text.html\">The <b>text</b> <script>not()</script> here</a>\n"
        "<p><a href=\"reopened.html\">one<p>two</a> three\n"));
    // An href or src on an element where HTML makes it no URL is none;
    // srcset, action, background and a refresh are.
    CHECK(s.urls == strings{"https://example.org/base/refresh.html", "https://example.org/base/body-bg.png",
                            "https://example.org/base/td-bg.png", "https://example.org/base/i.png",
                            "https://example.org/base/i-1x.png", "https://example.org/base/i-2x.png",
                            "https://example.org/submit", "https://example.org/other",
                            "https://example.org/base/padded.html", "https://example.org/base/text.html",
                            "https://example.org/base/reopened.html"});
    // An anchor's text leaves out what a script holds; an image's alt text
    // labels no link to another page.
    CHECK(s.anchors == strings{"", "", "", "", "", "", "", "", "padded", "The text here", "one"});
    const std::vector<urlsift::html_link>& links = s.messages[0].parts[0].links;
    REQUIRE(links.size() == 11);
    CHECK(links[0].attribute == "content");
    CHECK(links[4].attribute == "srcset");
    CHECK(links[6].attribute == "action");
    // Blanks around a value are HTML's to strip: the value and its place
    // are those of the URL.
    CHECK(links[8].value == "padded.html");
    CHECK(links[8].attribute == "href");
    CHECK(links[8].line == 7);
    CHECK(links[8].column == 12);
}

TEST_CASE("mail: a <base href> with blanks around it is the part's base", "[mail]") {
    // HTML strips them, as it does around any URL attribute's value; the
    // part's Content-Location gives a relative base its own base.
    const scanned s = scan_bytes(
        "From: a@example.org\nTo: b@example.org\nSubject: html\nMIME-Version: 1.0\nContent-Type: text/html\n"
        "Content-Location: http://example.org/dir/page.html\n\n<base href=\" rel/ \"><a href=\"a.html\">a</a>\n");
    CHECK(s.urls == strings{"http://example.org/dir/rel/a.html"});
    CHECK(s.where == strings{"1 html"});
}

TEST_CASE("mail: in-page anchors, javascript: and data: values are no links", "[mail]") {
    const scanned s = scan_bytes(html_message(
        "<a href=\"#top\">t</a><a href=\" #top\">t</a><a href=\"javascript:void(0)\">j</a>"
        "<a href=\"JavaScript:go()\">J</a><img src=\"data:image/png;base64,AAAA\">"
        "<img srcset=\"data:image/gif;base64,R0lG 1x, https://example.org/2x.png 2x\">"
        "<a href=\" https://example.org/kept \">kept</a>"));
    CHECK(s.urls == strings{"https://example.org/2x.png", "https://example.org/kept"});
}

TEST_CASE("mail: an HTML link's line and column count characters, tab stops and CR as gumbo does", "[mail]") {
    // Lines end at LF, CR LF and a lone CR; a column is a character, an
    // ill-formed UTF-8 sequence one, a byte-order mark one; a tab moves to
    // the next multiple of 8.
    const std::string html = "<p>caf\xC3\xA9 <a href=\"one.html\">1</a>\t<a href='two.html'>2</a>\r\n"
                             "\t\t<img src=three.png>\r<a href=\"four.html\">4</a>\n"
                             "\xE4\xB8\xAD\xE6\x96\x87 <a href=\"five.html\">5</a>\n"
                             "\xFF\xE0\x80 <a href=\"six.html\">6</a>\n"
                             "\xEF\xBB\xBF<a href=\"seven.html\">7</a>\n";
    const scanned s = scan_bytes(html_message(html), urlsift::mail_format::message, "http://b.example/");
    REQUIRE(s.messages.size() == 1);
    std::vector<std::string> places;
    for (const urlsift::html_link& l : s.messages[0].parts[0].links)
        places.push_back(l.value + " " + std::to_string(l.line) + ":" + std::to_string(l.column) + " @" +
                         std::to_string(l.offset));
    CHECK(places == strings{"one.html 1:18 @18", "two.html 1:49 @43", "three.png 2:25 @71", "four.html 3:10 @91",
                            "five.html 4:13 @124", "six.html 5:14 @154", "seven.html 6:11 @182"});
    // A byte-order mark that starts the part is a character of its first line.
    const scanned bom = scan_bytes(html_message("\xEF\xBB\xBF<html><body><a href=\"bom.html\">b</a>\n\t<a href=x>c</a>"));
    std::vector<std::string> bom_places;
    for (const urlsift::html_link& l : bom.messages[0].parts[0].links)
        bom_places.push_back(std::to_string(l.line) + ":" + std::to_string(l.column) + " @" + std::to_string(l.offset));
    CHECK(bom_places == strings{"1:23 @24", "2:16 @49"});
}

TEST_CASE("mail: multipart/alternative reports only the HTML links the plain part lacks", "[mail]") {
    const scanned s = scan_file("alternative.eml");
    // The release notes are in the plain part; the upgrade guide only in
    // the HTML, relative to its <base href>; "#top" is no link.
    CHECK(s.urls == strings{"https://example.com/releases/2.0", "https://example.com/docs/upgrade.html?from=1&to=2"});
    CHECK(s.where == strings{"1 none", "2 html"});
    CHECK(s.anchors == strings{"", "upgrade guide"});
    const auto& parts = s.messages[0].parts;
    REQUIRE(parts.size() == 2);
    CHECK(parts[1].content_type == "text/html");
    CHECK(parts[1].alternative_of == "1");
    CHECK(parts[1].base == "https://example.com/docs/");
}

TEST_CASE("mail: format=flowed with DelSp joins a URL broken by a soft break", "[mail]") {
    const scanned s = scan_file("flowed.eml");
    CHECK(s.urls == strings{"https://lists.example.org/archives/dev/2025-March/012345.html",
                            "https://git.example.org/project/commit/3f2a9c1d"});
    // The quoted paragraph keeps its depth; the signature separator stays.
    const std::string& text = s.messages[0].parts[0].text;
    CHECK(text.find("> see https://git.example.org/project/commit/3f2a9c1d for the fix.\n") != std::string::npos);
    CHECK(text.find("\n-- \nErin\n") != std::string::npos);
}

TEST_CASE("mail: a forwarded message/rfc822 is read, a non-text attachment is skipped", "[mail]") {
    const scanned s = scan_file("forward.eml");
    CHECK(s.urls == strings{"https://grafana.example.net/d/ops", "https://status.example.net/incidents/77"});
    CHECK(s.where == strings{"1 none", "2.1 none"});
}

TEST_CASE("mail: List-* and Archived-At headers give URLs, trace and identity headers nothing", "[mail]") {
    const scanned s = scan_file("list-headers.eml");
    CHECK(s.urls.empty());
    CHECK(s.header_urls == strings{
        "List-Unsubscribe: https://lists.example.org/mailman/options/dev",
        "List-Unsubscribe: mailto:dev-request@lists.example.org?subject=unsubscribe",
        "List-Archive: https://lists.example.org/archives/dev/",
        "List-Post: mailto:dev@lists.example.org",
        "List-Help: mailto:dev-request@lists.example.org?subject=help",
        "Archived-At: https://lists.example.org/archives/dev/2025-March/000123.html",
    });
}

TEST_CASE("mail: a header line of thousands of URLs gives the first 1024, with a note", "[mail][regression]") {
    // Each URL was checked against every one listed before it: 1.6 MB of
    // List-Archive took 6 s, 12 MB ten minutes.
    std::string archive = "List-Archive:";
    for (int i = 0; i < 3000; ++i) archive += " <http://h" + std::to_string(i) + ".example.org/>";
    const scanned s = scan_bytes("From: a@example.org\nSubject: x\n" + archive + "\n" + archive +
                                 "\n\nSee http://example.org/\n");
    REQUIRE(s.header_urls.size() == 1024);  // the second line repeats the first: listed once
    CHECK(s.header_urls.front() == "List-Archive: http://h0.example.org/");
    CHECK(s.header_urls.back() == "List-Archive: http://h1023.example.org/");
    CHECK(s.urls == strings{"http://example.org/"});
    REQUIRE(s.messages.size() == 1);
    CHECK(s.messages[0].notes ==
          strings{"List-Archive holds 3000 URLs: only the first 1024 are read",
                  "List-Archive holds 3000 URLs: only the first 1024 are read"});
}

TEST_CASE("mail: Content-Base and Content-Location give the base of a part (Section 5.1)", "[mail]") {
    const scanned s = scan_file("content-location.eml");
    CHECK(s.urls == strings{"https://docs.example.org/manual/x",
                            "https://docs.example.org/manual/chapter3/figures/plot.png",
                            "https://docs.example.org/manual/index.html"});
    CHECK(s.where == strings{"1 part", "1 part", "2 enclosing"});
    CHECK(s.header_urls == strings{"Content-Base: https://docs.example.org/manual/",
                                   "Content-Location: https://docs.example.org/manual/chapter3/index.txt"});
}

TEST_CASE("mail: --base is the lowest base, the message's own comes first", "[mail]") {
    const scanned own = scan_file("content-location.eml", urlsift::mail_format::message, "https://other.example/");
    CHECK(own.urls.front() == "https://docs.example.org/manual/x");
    const scanned none = scan_file("alternative.eml", urlsift::mail_format::message, "https://other.example/");
    CHECK(none.where.front() == "1 option");
}

TEST_CASE("mail: an mbox of three messages, with a >From line", "[mail]") {
    const scanned s = scan_file("three.mbox", urlsift::mail_format::mbox);
    CHECK(s.urls == strings{"https://one.example.org/a", "https://two.example.net/b", "https://three.example.com/c"});
    REQUIRE(s.messages.size() == 3);
    CHECK(s.messages[0].number == 1);
    CHECK(s.messages[1].number == 2);
    CHECK(s.messages[2].number == 3);
    CHECK(s.messages[0].message_id == "m1@example.org");
    CHECK(s.messages[1].message_id == "m2@example.net");
    CHECK(s.messages[2].message_id == "m3@example.com");
    CHECK(s.messages[0].offset == 0);
    CHECK(s.messages[1].offset == 216);
    CHECK(s.messages[2].offset == 438);
    // mboxrd: the stored ">From " was "From " as written.
    CHECK(s.messages[1].parts[0].text.starts_with("From the archive: "));
}

TEST_CASE("mail: an mbox read from a file descriptor", "[mail]") {
    const int fd = ::open((mail_dir + "three.mbox").c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    std::vector<std::uint64_t> offsets;
    const auto got = urlsift::read_mail_fd(fd, urlsift::mail_format::mbox, [&](urlsift::mail_message& m) {
        offsets.push_back(m.offset);
        return true;
    });
    ::close(fd);
    CHECK(got.messages == 3);
    CHECK(offsets == std::vector<std::uint64_t>{0, 216, 438});
}

TEST_CASE("mail: sniffing a message, a mailbox and plain text", "[mail]") {
    using urlsift::mail_format;
    using urlsift::sniff_mail;
    CHECK(sniff_mail(data("three.mbox")) == mail_format::mbox);
    CHECK(sniff_mail(data("list-headers.eml")) == mail_format::message);
    CHECK(sniff_mail("Received: from a by b;\n\tTue, 4 Mar 2025\nFrom: x@example.org\n\nbody\n") == mail_format::message);
    CHECK(sniff_mail("Return-Path: <x@example.org>\r\nSubject: hi\r\n\r\nbody") == mail_format::message);
    CHECK_FALSE(sniff_mail("Note: this is prose.\nIt goes on here.\n"));
    CHECK_FALSE(sniff_mail("http://example.org/\n\nsee above\n"));
    CHECK_FALSE(sniff_mail("Just text with http://example.org/ in it.\n"));
    CHECK_FALSE(sniff_mail(""));
}

TEST_CASE("mail: a message GMime cannot read is an error, not a crash", "[mail]") {
    const auto sink = [](urlsift::mail_message&) { return true; };
    const auto got = urlsift::read_mail("no mailbox here\n", urlsift::mail_format::mbox, sink);
    CHECK(got.what == urlsift::mail_read::status::failed);
    CHECK_FALSE(got.error.empty());
    // An empty mailbox is one with no messages.
    const auto empty = urlsift::read_mail("", urlsift::mail_format::mbox, sink);
    CHECK(empty.what == urlsift::mail_read::status::done);
    CHECK(empty.messages == 0);
}

TEST_CASE("mail: bytes a charset cannot decode, a type without subtype, base64 without padding", "[mail]") {
    // Each was read wrong: the invalid byte was dropped and the URL joined
    // across it (caf/menu), the part typed `text` was skipped as an
    // attachment, and the last base64 quantum was lost (xyz1 read as xy).
    const scanned s = scan_file("decoding-faults.eml");
    CHECK(s.urls == strings{"http://example.org/caf", "http://example.org/notype/", "http://example.org/nopad/xyz1"});
    REQUIRE(s.messages.size() == 1);
    REQUIRE(s.messages[0].parts.size() == 3);
    CHECK(s.messages[0].parts[0].text.find("caf\xE9/menu") != std::string::npos);  // kept, as text input keeps it
    CHECK(s.messages[0].parts[1].content_type == "text/plain");  // RFC 2045 5.2
}

TEST_CASE("mail: a message with no header block does not end the mailbox", "[mail]") {
    // A digest pasted into a mailbox: GMime cannot read it as a message,
    // and the messages after it were lost without a word.
    const scanned s = scan_file("no-header.mbox", urlsift::mail_format::mbox);
    CHECK(s.urls == strings{"http://one.example.org/notes", "mailto:ppp@example.org",
                            "http://www.example.org/mailman/listinfo/ppp", "http://three.example.net/"});
    REQUIRE(s.messages.size() == 3);
    CHECK(s.messages[1].number == 2);
    CHECK(s.messages[1].offset == 145);
    CHECK(s.messages[1].parts.at(0).content_type == "text/plain");
    CHECK(s.messages[2].offset == 353);

    // The first message too: the input is a mailbox all the same.
    std::vector<std::string> texts;
    const auto got = urlsift::read_mail("From digest@example.org Mon Nov 23 10:05:00 2026\n"
                                        "Send submissions to ppp@example.org\n\n"
                                        "From bob@example.net Mon Nov 23 11:00:00 2026\n"
                                        "From: Bob <bob@example.net>\n\nhttp://three.example.net/\n",
                                        urlsift::mail_format::mbox, [&](urlsift::mail_message& m) {
                                            for (const auto& p : m.parts) texts.push_back(p.text);
                                            return true;
                                        });
    CHECK(got.what == urlsift::mail_read::status::done);
    CHECK(got.messages == 2);
    CHECK(texts == strings{"Send submissions to ppp@example.org\n\n", "http://three.example.net/\n"});
}

namespace {

std::string base64_lines(std::string_view bytes) {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out, line;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const auto byte = [&](std::size_t at) -> std::uint32_t {
            return at < bytes.size() ? static_cast<unsigned char>(bytes[at]) : 0U;
        };
        const std::uint32_t v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
        // n bytes make n + 1 characters, then `=` up to four.
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        for (std::size_t k = 0; k < 4; ++k) line += k <= n ? alphabet[(v >> (18 - 6 * k)) & 63] : '=';
        if (line.size() >= 76) {
            out += line + "\n";
            line.clear();
        }
    }
    return out + line + "\n";
}

std::string quoted_printable_lines(std::string_view bytes) {
    std::string out;
    std::size_t column = 0;
    for (const char c : bytes) {
        if (c == '\n') {
            out += '\n';
            column = 0;
            continue;
        }
        const std::string piece = c == '=' ? std::string("=3D") : std::string(1, c);
        if (column + piece.size() > 75) {
            out += "=\n";  // a soft line break
            column = 0;
        }
        out += piece;
        column += piece.size();
    }
    return out;
}

}  // namespace

TEST_CASE("mail: a text part longer than a read block decodes whole", "[mail]") {
    // The body is read, decoded and converted a block at a time: URLs,
    // quoted-printable soft breaks and base64 quanta fall across blocks.
    std::string text;
    for (int i = 0; i < 6000; ++i)
        text += "Line " + std::to_string(i) + " links https://example.org/q?id=" + std::to_string(i) + "&x=1 here\n";
    REQUIRE(text.size() > 3 * 65536);
    const auto part_text = [](const std::string& encoding, const std::string& body) {
        const std::string message = "From: a@example.org\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
                                    "Content-Transfer-Encoding: " + encoding + "\n\n" + body;
        std::string got;
        urlsift::read_mail(message, urlsift::mail_format::message, [&](urlsift::mail_message& m) {
            REQUIRE(m.parts.size() == 1);
            got = m.parts[0].text;
            return true;
        });
        return got;
    };
    CHECK(part_text("base64", base64_lines(text)) == text);
    CHECK(part_text("quoted-printable", quoted_printable_lines(text)) == text);
    // Base64 with its last quantum's padding left out: kept all the same.
    std::string odd = text + "end";
    if (odd.size() % 3 == 0) odd += '.';
    std::string unpadded = base64_lines(odd);
    unpadded.erase(std::remove(unpadded.begin(), unpadded.end(), '='), unpadded.end());
    CHECK(part_text("base64", unpadded) == odd);
}

TEST_CASE("mail: a part too large to hold is read a block at a time, the same text", "[mail]") {
    // Over large_part_bytes, a part's text is read when it is scanned, a
    // block at a time, so that memory stays bounded. Its text, mboxrd
    // escapes undone across block edges, and its references are those of
    // the text held whole.
    std::string body, expected;
    for (std::size_t i = 0; body.size() <= urlsift::large_part_bytes; ++i) {
        const std::string n = std::to_string(i);
        const std::string line = "See https://example.org/big/" + n + " now\n";
        body += line;
        expected += line;
        if (i % 7 == 3) {
            body += ">From line " + n + "\n>>From quoted\n> From kept\n>Fromage\n";
            expected += "From line " + n + "\n>From quoted\n> From kept\n>Fromage\n";
        }
    }
    const std::string mbox = "From a@example.org Mon Nov 23 10:00:00 2026\nFrom: a@example.org\n"
                             "Content-Type: text/plain; charset=utf-8\n\n" + body;
    std::string streamed;
    std::uint64_t references = 0, last_line = 0;
    const auto got = urlsift::read_mail(mbox, urlsift::mail_format::mbox, [&](urlsift::mail_message& m) {
        REQUIRE(m.parts.size() == 1);
        CHECK(m.parts[0].text.empty());
        REQUIRE(m.parts[0].read_text);
        CHECK(m.parts[0].read_text([&](std::string_view block) {
            streamed += block;
            return true;
        }));
        return urlsift::scan_message(m, {}, [&](urlsift::mail_reference& r) {
            ++references;
            last_line = r.ref.line;
            return true;
        });
    });
    CHECK(got.what == urlsift::mail_read::status::done);
    CHECK(streamed.size() == expected.size());
    CHECK(streamed == expected);
    const auto whole = urlsift::scan(expected);
    CHECK(references == whole.size());
    CHECK(last_line == whole.back().line);
}

TEST_CASE("mail: cid: and mid: values point into the mail, no links", "[mail][regression]") {
    // RFC 2392: an image shown inline is a part of the message itself.
    const scanned s = scan_bytes(html_message(
        "<img src=\"cid:emedfeb92f-a786@kronos\"><img src=\"CID:icon.png\"><a href=\"mid:m1@host/p2\">m</a>"
        "<a href=\"https://example.org/kept\">kept</a>"));
    CHECK(s.urls == strings{"https://example.org/kept"});
}

TEST_CASE("mail: a bounce names hosts, not sites", "[mail][regression]") {
    // A delivery report (RFC 3464), a bounce sent with the null reverse
    // path and one from MAILER-DAEMON, and a notification from a mailbox
    // no one reads: bare host names are relays and domains; www. names,
    // addresses and URLs are read as ever.
    const std::string text =
        "This is the mail system at host lvmail01.example.com.\n"
        "The original message was received from py-out-1112.google.com [64.233.166.178]\n"
        "<ada@example.org>: host mx.example.org[192.0.2.1] said: 550 unknown user\n"
        "Help: https://help.example.org/bounces or www.example.org/help\n";
    const strings kept{"mailto:ada@example.org", "https://help.example.org/bounces", "http://www.example.org/help"};
    const std::string report = "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\nTo: ada@example.org\n"
                               "MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status;"
                               " boundary=\"b1\"\n\n--b1\nContent-Type: text/plain\n\n" + text +
                               "--b1\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n"
                               "--b1--\n";
    CHECK(scan_bytes(report).urls == kept);
    CHECK(scan_bytes("Return-Path: <>\nFrom: Mail Delivery <bounces@mx.example.org>\nSubject: failure\n\n" + text)
              .urls == kept);
    CHECK(scan_bytes("From: MAILER-DAEMON <>\nSubject: failure notice\n\n" + text).urls == kept);
    CHECK(scan_bytes("From: Service <no-reply@sns.example.com>\nSubject: notice\n\n" + text).urls == kept);
    // The same text from a person: the hosts read as sites.
    CHECK(scan_bytes("From: Ada <ada@example.org>\nSubject: look\n\n" + text).urls.size() > kept.size());
}

TEST_CASE("mail: a text/rfc822-headers part is a header block, not prose", "[mail][regression]") {
    // A bounce returns the headers of the message it could not deliver:
    // their relays, identifiers and addresses are no links; their URL
    // headers are read as a message's own are.
    const scanned s = scan_bytes("From: MAILER-DAEMON@mx.example.org\nTo: ada@example.org\nSubject: Undelivered\n"
                                 "MIME-Version: 1.0\n"
                                 "Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\n\n"
                                 "--b1\nContent-Type: text/plain\n\nSee https://help.example.org/bounces\n"
                                 "--b1\nContent-Type: text/rfc822-headers\n\n"
                                 "Received: from py-out-1112.google.com (py-out-1112.google.com [64.233.166.178])\n"
                                 "\tby relay.example.net (Postfix) with ESMTP id 1234\n"
                                 "List-Unsubscribe: <https://lists.example.org/unsub>\n"
                                 "Message-ID: <abc@host.example.com>\nFrom: Ada <ada@example.org>\n--b1--\n");
    CHECK(s.urls == strings{"https://help.example.org/bounces"});
    CHECK(s.header_urls == strings{"List-Unsubscribe: https://lists.example.org/unsub"});
}

namespace {

/// A mailbox whose references sit on known lines: a plain part, a
/// quoted-printable one with a soft line break, a header.
const std::string placed_mailbox = "From ada@example.org Mon Mar 11 08:14:02 2024\n"  // line 1
                                   "From: Ada <ada@example.org>\n"
                                   "Subject: one\n"
                                   "\n"
                                   "first line\n"                                       // line 5
                                   "see https://one.example.org/a\n"                     // line 6
                                   "\n"
                                   "From bob@example.net Mon Mar 11 09:00:00 2024\n"    // line 8
                                   "From: Bob <bob@example.net>\n"
                                   "List-Archive: <https://lists.example.net/arch/>\n"   // line 10
                                   "MIME-Version: 1.0\n"
                                   "Content-Type: multipart/mixed; boundary=\"b\"\n"
                                   "\n"
                                   "--b\n"
                                   "Content-Type: text/plain\n"
                                   "Content-Transfer-Encoding: quoted-printable\n"
                                   "\n"
                                   "a soft=\n"                                          // line 18
                                   " break=3D\n"
                                   "then https://two.example.net/b\n"                    // line 20
                                   "--b\n"
                                   "Content-Type: text/plain\n"
                                   "\n"
                                   "x\n"                                                // line 24
                                   "https://three.example.com/c\n"                       // line 25
                                   "--b--\n";

/// "URL@LINE" of each reference read from `fd`, header URLs first.
std::vector<std::string> placed_lines(int fd) {
    std::vector<std::string> got;
    urlsift::read_mail_fd(fd, urlsift::mail_format::mbox, [&](urlsift::mail_message& m) {
        return urlsift::scan_message(m, {}, [&](urlsift::mail_reference& r) {
            got.push_back(r.ref.url + "@" + std::to_string(r.input_line));
            return true;
        });
    });
    return got;
}

}  // namespace

TEST_CASE("mail: a quoted-printable part's lines past its soft line breaks", "[mail]") {
    const std::string head = "From: a@example.org\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n";
    const auto lines_of = [&](const std::string& body) {
        std::vector<std::uint64_t> got;
        urlsift::read_mail(head + body, urlsift::mail_format::message, [&](urlsift::mail_message& m) {
            return urlsift::scan_message(m, {}, [&](urlsift::mail_reference& r) {
                got.push_back(r.input_line);
                return true;
            });
        });
        return got;
    };
    // A break, and an `=` with blanks after it, which the decoder keeps
    // as it is: no break; then two breaks in one line of text.
    CHECK(lines_of("one=  \ntwo=\nthree\nhttps://a.example/x\n") == std::vector<std::uint64_t>{8});
    CHECK(lines_of("x=\r\ny\r\nhttps://a.example/x\r\nhttps://b.example/y\n") == std::vector<std::uint64_t>{7, 8});
    // An encoded line break makes lines the input does not have: the line
    // the body starts on, as for base64.
    CHECK(lines_of("x=0Ay\nhttps://a.example/x\n") == std::vector<std::uint64_t>{5});
}

TEST_CASE("mail: each reference's line in the input, not in its decoded part", "[mail]") {
    const strings expected{"https://one.example.org/a@6", "https://lists.example.net/arch/@10",
                           "https://two.example.net/b@20", "https://three.example.com/c@25"};
    std::vector<std::string> in_memory;
    std::vector<std::uint64_t> body_lines;
    urlsift::read_mail(placed_mailbox, urlsift::mail_format::mbox, [&](urlsift::mail_message& m) {
        for (const auto& p : m.parts) body_lines.push_back(p.body_line * 2 + (p.lines_kept ? 1 : 0));
        return urlsift::scan_message(m, {}, [&](urlsift::mail_reference& r) {
            in_memory.push_back(r.ref.url + "@" + std::to_string(r.input_line));
            return true;
        });
    });
    CHECK(in_memory == expected);
    CHECK(body_lines == std::vector<std::uint64_t>{5 * 2 + 1, 18 * 2 + 1, 24 * 2 + 1});

    urlsift::test::scratch_dir dir;
    const std::string path = (dir.path / "placed.mbox").string();
    urlsift::test::write_file(path, placed_mailbox);
    const int file = ::open(path.c_str(), O_RDONLY);
    REQUIRE(file >= 0);
    CHECK(placed_lines(file) == expected);
    ::close(file);

    // From a pipe, the bytes are gone once GMime has read them: no lines.
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    REQUIRE(::write(ends[1], placed_mailbox.data(), placed_mailbox.size()) ==
            static_cast<ssize_t>(placed_mailbox.size()));
    ::close(ends[1]);
    const strings unplaced = placed_lines(ends[0]);
    ::close(ends[0]);
    CHECK(unplaced == strings{"https://one.example.org/a@0", "https://lists.example.net/arch/@0",
                              "https://two.example.net/b@0", "https://three.example.com/c@0"});
}

TEST_CASE("mail: a message GMime would need more than the cap for is read as plain text, in a file or in memory",
          "[mail][regression]") {
    const std::string from = "From a@example.org Mon Jan  1 00:00:00 2024\n";
    const std::string head = "From: a@example.org\nSubject: s\nMIME-Version: 1.0\n";
    // "See http://decoded.example/x\n" in base64: found only when decoded.
    const std::string small = head + "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
                                     "U2VlIGh0dHA6Ly9kZWNvZGVkLmV4YW1wbGUveAo=\n";
    std::string many = head + "Content-Type: multipart/mixed; boundary=\"b\"\n\n";
    for (int i = 0; i < 600; ++i) many += "--b\nContent-Type: text/plain\n\nhttp://example.org/" + std::to_string(i) + "\n";
    many += "--b--\n>From the end http://example.org/last\n";
    const std::string mbox = from + small + "\n" + from + many + "\n" + from + small;
    const std::size_t second = mbox.find(from, 1);
    // 600 parts at about 2 KiB each is over 1 MiB.
    const std::size_t cap = std::size_t{1} << 20;
    const auto check = [&](const urlsift::mail_read& got, const std::vector<urlsift::mail_message>& messages,
                           const std::vector<std::string>& texts) {
        REQUIRE(got.what == urlsift::mail_read::status::done);
        CHECK(got.messages == 3);
        REQUIRE(messages.size() == 3);
        CHECK(messages[0].notes.empty());
        CHECK(messages[1].offset == second);
        CHECK(messages[1].notes == strings{"it has 600 parts: reading it as mail would take more than 1 MiB (half of "
                                           "--max-memory): read as plain text, undecoded"});
        CHECK(messages[1].parts.size() == 1);
        CHECK(messages[1].parts[0].body_line == 1 + static_cast<std::uint64_t>(std::count(
                                                        mbox.begin(), mbox.begin() + static_cast<long>(second), '\n')) + 1);
        // Its bytes after the `From ` line, mboxrd's escape undone.
        CHECK(texts[1] == many + "\n");
        CHECK(texts[0] == "See http://decoded.example/x\n");
        CHECK(texts[2] == "See http://decoded.example/x\n");
    };
    const auto sink_into = [](std::vector<urlsift::mail_message>& messages, std::vector<std::string>& texts) {
        return [&messages, &texts](urlsift::mail_message& m) {
            std::string text;
            for (const auto& p : m.parts) {
                text += p.text;
                if (p.read_text) p.read_text([&text](std::string_view b) { text += b; return true; });
            }
            texts.push_back(text);
            messages.push_back(m);
            return true;
        };
    };
    std::string unescaped = many;
    unescaped.replace(unescaped.find(">From the end"), 1, "");
    many = unescaped;  // what the reading gives

    std::vector<urlsift::mail_message> messages;
    std::vector<std::string> texts;
    const auto copy = std::make_unique<char[]>(mbox.size());
    std::copy(mbox.begin(), mbox.end(), copy.get());
    check(urlsift::read_mail(std::string_view(copy.get(), mbox.size()), urlsift::mail_format::mbox,
                             sink_into(messages, texts), cap),
          messages, texts);

    const urlsift::test::scratch_dir dir;
    urlsift::test::write_file(dir.path / "box", mbox);
    const int fd = ::open((dir.path / "box").c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    std::vector<urlsift::mail_message> from_file;
    std::vector<std::string> file_texts;
    check(urlsift::read_mail_fd(fd, urlsift::mail_format::mbox, sink_into(from_file, file_texts), cap), from_file,
          file_texts);
    ::close(fd);
    // Under a larger cap, read as mail.
    CHECK(scan_bytes(mbox, urlsift::mail_format::mbox).messages[1].notes.empty());
}
