// read_mail's reader of simple messages (src/mail/simple_message.hpp):
// which messages it takes, and that read_mail gives the same with it as
// with every message read by GMime, from memory and from a file.

#include <urlsift/mail.hpp>

#include "mail/simple_message.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>

namespace {

using urlsift::detail::simple_read;

/// Everything read_mail and scan_message give for an input, as text.
std::string described(std::string_view bytes, urlsift::mail_format format, bool simple, bool through_file) {
    urlsift::detail::set_simple_messages(simple);
    std::string out;
    const auto sink = [&out](urlsift::mail_message& m) {
        out += "message " + std::to_string(m.number) + " at " + std::to_string(m.offset) + " id " + m.message_id +
               (m.automatic ? " automatic" : "") + "\n";
        for (const auto& n : m.notes) out += "note " + n + "\n";
        for (const auto& h : m.header_urls)
            out += "header " + h.header + " " + h.value + " path " + h.path + " base " + h.base.value_or("-") +
                   " line " + std::to_string(h.line) + "\n";
        for (const auto& p : m.parts)
            out += "part " + p.path + " " + p.content_type + " base " + p.base.value_or("-") + " " +
                   std::string(urlsift::to_string(p.base_from)) + " line " + std::to_string(p.body_line) +
                   (p.lines_kept ? " kept" : "") + " text [" + p.text + "]\n";
        urlsift::mail_scan_options o;
        urlsift::scan_message(m, o, [&out](urlsift::mail_reference& r) {
            out += "ref " + r.ref.url + " line " + std::to_string(r.ref.line) + " input line " +
                   std::to_string(r.input_line) + " part " + std::string(r.path) + " header " +
                   std::string(r.header) + " base " + std::string(r.base) + "\n";
            return true;
        });
        return true;
    };
    urlsift::mail_read got;
    if (through_file) {
        const int fd = ::memfd_create("simple-message-test", 0);
        REQUIRE(fd >= 0);
        REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
        REQUIRE(::lseek(fd, 0, SEEK_SET) == 0);
        got = urlsift::read_mail_fd(fd, format, sink);
        ::close(fd);
    } else {
        // An exact-size heap copy, so that a sanitizer sees an over-read.
        const std::string copy(bytes);
        got = urlsift::read_mail(copy, format, sink);
    }
    urlsift::detail::set_simple_messages(true);
    return out + "status " + std::to_string(static_cast<int>(got.what)) + " " + got.error + " messages " +
           std::to_string(got.messages) + "\n";
}

struct simple_case {
    const char* name;
    bool mbox;
    std::string bytes;
    simple_read first; ///< what read_simple_message makes of the first message
};

const std::string list_message =
    "From dev-bounces@lists.example.org Mon Mar 11 08:14:02 2024\n"
    "Received: from mx.example.net\n\tby lists.example.org; Mon, 11 Mar 2024 08:14:02 +0000\n"
    "From: Alice <alice@example.net>\nSubject: [dev] release\nMessage-ID: <20240311.1@mail.example.net>\n"
    "Content-Type: text/plain; charset=\"utf-8\"; format=fixed\nContent-Transfer-Encoding: 8bit\n"
    "Content-Location: https://lists.example.org/archive/1\n"
    "List-Unsubscribe: <https://lists.example.org/options/dev>,\n <mailto:dev-request@lists.example.org>\n"
    "List-Archive: (the archive) <https://lists.example.org/pipermail/dev/>\n\n"
    "> see https://wiki.example.org/Release\n>From here on: www.example.com/notes\nrelative/page.html\n-- \nAlice\n\n";

const simple_case cases[] = {
    {"a list message", true, list_message + list_message, simple_read::read},
    {"one message", false, "From: a@example.org\nMessage-Id: <x.y@z>\n\nhttp://example.org/a\n", simple_read::read},
    {"latin1", false, "Content-Type: text/plain; charset=iso-8859-1\n\nCaf\xe9 http://example.org/caf\xe9\n",
     simple_read::read},
    // Simple as it is, read_mail leaves a mailbox with a CR to GMime: whether
    // GMime counts a CR before a `From ` line in the body depends on where
    // its reads end (a fuzzing finding).
    {"CR LF lines", true,
     "From a Mon\r\nFrom: a@example.org\r\nList-Post: <mailto:dev@example.org>\r\n\r\nhttp://example.org/a\r\n"
     "From b Mon\r\nSubject: b\r\n\r\nhttp://example.org/b\r\n",
     simple_read::read},
    {"a CR LF message alone", false, "From: a@example.org\r\n\r\nhttp://example.org/a\r\n", simple_read::read},
    {"empty bodies", true, "From a Mon\nSubject: a\n\nFrom b Mon\nSubject: b\n\n\nFrom c Mon\nSubject: c\n\nx\n",
     simple_read::read},
    {"a From line that ends the input", true, "From a Mon\nSubject: a\n\nhttp://example.org/a\nFrom b Mon\n",
     simple_read::not_simple},
    {"a From line cut by the end", true, "From a Mon\nSubject: a\n\nhttp://example.org/a\nFrom b", simple_read::not_simple},
    {"quoted-printable", true,
     "From a Mon\nContent-Transfer-Encoding: quoted-printable\n\nhttp://example.org/=\nlong\n" + list_message,
     simple_read::not_simple},
    {"format=flowed", false, "Content-Type: text/plain; format=flowed\n\nhttp://example.org/a \nb\n",
     simple_read::not_simple},
    {"multipart", false, "Content-Type: multipart/mixed; boundary=x\n\n--x\n\nhttp://example.org/\n--x--\n",
     simple_read::not_simple},
    // Its headers are simple; read_mail opens the charset and, failing,
    // hands the message to GMime.
    {"a charset ICU lacks", false, "Content-Type: text/plain; charset=x-unknown\n\nhttp://example.org/\n",
     simple_read::read},
    {"an encoded word in a URL header", false, "Content-Base: =?utf-8?q?http://example.org/?=\n\nrel\n",
     simple_read::not_simple},
    {"two Content-Locations", false, "Content-Location: http://a.example/\nContent-Location: http://b.example/\n\nr\n",
     simple_read::not_simple},
    {"a Message-ID with a comment", false, "Message-ID: <a@b> (c)\n\nhttp://example.org/\n", simple_read::not_simple},
    {"a blank before the colon", false, "Subject : a\n\nhttp://example.org/\n", simple_read::not_simple},
    {"no blank line after the headers", false, "Subject: a\n", simple_read::not_simple},
    {"garbage before the first From line", true, "junk\n" + list_message, simple_read::not_simple},
    // Sent by a program: its bare host names are not sites.
    {"a bounce", true,
     "From MAILER-DAEMON Mon\nReturn-Path: <>\nFrom: Mail Delivery System <MAILER-DAEMON@mx.example.org>\n\n"
     "The mail system at host relay.example.org said: see www.example.org/help\n"
     "From b Mon\nFrom:\tMAILER-DAEMON <>\n\nhost mx.example.org refused\n"
     "From c Mon\nFrom: Notices\n <do-not-reply@example.com>\nReturn-Path: <bob@example.com>\n\nat relay.example.org\n"
     "From d Mon\nReturn-Path:\n <>\n\nrelay.example.org\n"
     "From e Mon\nFrom: postmasters@example.com\n\nrelay.example.org\n",
     simple_read::read},
    {"a header-less message between simple ones", true,
     list_message + "From x Mon\nno header here\nhttp://example.org/x\n\n" + list_message, simple_read::read},
};

}  // namespace

TEST_CASE("simple messages are read as GMime reads them", "[mail]") {
    for (const simple_case& c : cases) {
        DYNAMIC_SECTION(c.name) {
            urlsift::detail::simple_message s;
            CHECK(urlsift::detail::read_simple_message(c.bytes, c.mbox, true, urlsift::large_part_bytes, s) == c.first);
            const auto format = c.mbox ? urlsift::mail_format::mbox : urlsift::mail_format::message;
            for (const bool file : {false, true}) {
                const std::string by_gmime = described(c.bytes, format, false, file);
                CHECK(described(c.bytes, format, true, file) == by_gmime);
            }
        }
    }
}

TEST_CASE("a simple message longer than the first look is read whole", "[mail]") {
    // The reader looks at 64 KiB of a file first, then at more.
    std::string body;
    while (body.size() < (300u << 10)) body += "a line of prose with http://example.org/" + std::to_string(body.size()) + "\n";
    const std::string box = "From a Mon\nSubject: long\n\n" + body + "\nFrom b Mon\nSubject: b\n\nhttp://example.org/b\n";
    urlsift::detail::simple_message s;
    REQUIRE(urlsift::detail::read_simple_message(box, true, true, urlsift::large_part_bytes, s) == simple_read::read);
    CHECK(urlsift::detail::read_simple_message(std::string_view(box).substr(0, 65536), true, false,
                                               urlsift::large_part_bytes, s) == simple_read::needs_more);
    CHECK(described(box, urlsift::mail_format::mbox, true, true) ==
          described(box, urlsift::mail_format::mbox, false, true));
}
