// Rewriting messages and mailboxes: `urlsift rewrite --input mail|mbox|auto`
// keeps headers, MIME structure and untouched parts byte for byte, and
// writes a changed text/plain part again in its own charset, transfer
// encoding and format.

#include "cli_util.hpp"

#include <urlsift/mail.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

using namespace urlsift::test;

namespace {

const std::string base_arg = "--base 'http://a/b/c/d;p?q' ";

/// The decoded text of each text part of the messages in `bytes`, as
/// extract reads them.
std::vector<std::string> part_texts(const std::string& bytes,
                                    urlsift::mail_format format = urlsift::mail_format::message) {
    std::vector<std::string> texts;
    urlsift::read_mail(bytes, format, [&](urlsift::mail_message& m) {
        for (const auto& p : m.parts) texts.push_back(p.text);
        return true;
    });
    return texts;
}

/// The bytes of `message` up to and including the blank line after its headers.
std::string_view head_of(std::string_view message) {
    const std::size_t blank = message.find("\n\n");
    return message.substr(0, blank == std::string_view::npos ? message.size() : blank + 2);
}

/// The longest line of the body of the part that starts at `from` (up to
/// the next boundary line or the end).
std::size_t longest_line(std::string_view text) {
    std::size_t longest = 0;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        longest = std::max(longest, line.size());
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
    return longest;
}

const std::string qp_message =
    "Return-Path: <editor@example.org>\n"
    "Received: from mx2.example.net (mx2.example.net [192.0.2.25])\n"
    "\tby mail.example.org with ESMTPS id 4QzXk52lKqz9s; Tue, 12 Mar 2024 10:02:11 +0100\n"
    "From: Editor <editor@example.org>\n"
    "To: authors@example.org\n"
    "Subject: =?UTF-8?Q?R=C3=A9vision?= of the style guide\n"
    "Date: Tue, 12 Mar 2024 10:02:09 +0100\n"
    "Message-ID: <20240312090209.GA4711@example.org>\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=utf-8\n"
    "Content-Transfer-Encoding: quoted-printable\n"
    "\n"
    "Bonjour =C3=A0 tous,\n"
    "\n"
    "The r=C3=A9vision of the guide is at <../guide/revision-2024.html>; the ol=\n"
    "d one stays at <../guide/revision-2019.html> for the archives, and the lo=\n"
    "ng discussion about it is at <../../lists/style/2024-March/thread-about-=\n"
    "the-revision.html>.\n"
    "\n"
    "Merci,\n"
    "-- =\n"
    "\n"
    "The editor\n";

}  // namespace

TEST_CASE("rewrite --input mail re-encodes a quoted-printable part against --base", "[mail][rewrite]") {
    const auto r = run_cli("rewrite --input mail " + base_arg + "-", qp_message);
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    // Headers, the Received: line with its host names among them, stay as written.
    CHECK(head_of(r.out) == head_of(qp_message));
    const auto texts = part_texts(r.out);
    REQUIRE(texts.size() == 1);
    CHECK(texts[0] ==
          "Bonjour \xC3\xA0 tous,\n\n"
          "The r\xC3\xA9vision of the guide is at <http://a/b/guide/revision-2024.html>; the old one stays at "
          "<http://a/b/guide/revision-2019.html> for the archives, and the long discussion about it is at "
          "<http://a/lists/style/2024-March/thread-about-the-revision.html>.\n\n"
          "Merci,\n-- \nThe editor\n");
    // RFC 2045 6.7: encoded lines at most 76 characters.
    CHECK(longest_line(r.out.substr(head_of(r.out).size())) <= 76);
    // And again: nothing left to change.
    CHECK(run_cli("rewrite --input mail " + base_arg + "-", r.out).out == r.out);
}

TEST_CASE("rewrite --input mail reads a URL split by a quoted-printable soft break as one", "[mail][rewrite]") {
    const std::string message = "From: a@example.org\n"
                                "Subject: notes\n"
                                "Content-Type: text/plain; charset=us-ascii\n"
                                "Content-Transfer-Encoding: quoted-printable\n"
                                "\n"
                                "The notes are at www.example.org/notes/2024/=\n"
                                "march.html today.\n";
    const auto r = run_cli("rewrite --input mail -", message);
    REQUIRE(r.status == 0);
    const auto texts = part_texts(r.out);
    REQUIRE(texts.size() == 1);
    CHECK(texts[0] == "The notes are at http://www.example.org/notes/2024/march.html today.\n");
    CHECK(head_of(r.out) == head_of(message));
    // As text, the soft break is two pieces: the default is unchanged.
    CHECK(run_cli("rewrite -", message).out != r.out);
    // A body that ends in a soft break still does: no line end is added to its text.
    const std::string open_end = "From: a@example.org\n"
                                 "Subject: notes\n"
                                 "Content-Type: text/plain; charset=us-ascii\n"
                                 "Content-Transfer-Encoding: quoted-printable\n"
                                 "\n"
                                 "The notes: www.example.org/notes/=\n";
    const auto o = run_cli("rewrite --input mail -", open_end);
    CHECK(o.out == std::string(head_of(open_end)) + "The notes: http://www.example.org/notes/=\n");
}

TEST_CASE("rewrite --input mail keeps CRLF line ends in a re-encoded part", "[mail][rewrite]") {
    const std::string message = "From: a@example.org\r\n"
                                "Subject: notes\r\n"
                                "MIME-Version: 1.0\r\n"
                                "Content-Type: text/plain; charset=utf-8\r\n"
                                "Content-Transfer-Encoding: quoted-printable\r\n"
                                "\r\n"
                                "Caf=C3=A9 notes at <../g>.\r\n"
                                "More at www.example.org/more.\r\n";
    const auto r = run_cli("rewrite --input mail " + base_arg + "-", message);
    REQUIRE(r.status == 0);
    CHECK(r.out == message.substr(0, message.find("\r\n\r\n") + 4) +
                       "Caf=C3=A9 notes at <http://a/b/g>.\r\n"
                       "More at http://www.example.org/more.\r\n");
}

TEST_CASE("rewrite --input mail re-encodes a base64 part in 76-character lines", "[mail][rewrite]") {
    // "See <../g> and the index at <../../index.html>, with the r\u00e9sum\u00e9 of what was said.\n" x3
    const std::string line = "See <../g> and the index at <../../index.html>, with the r\xC3\xA9sum\xC3\xA9 of what was said.\n";
    const std::string plain = line + line + line;
    const std::string message =
        "From: a@example.org\n"
        "Subject: minutes\n"
        "MIME-Version: 1.0\n"
        "Content-Type: multipart/mixed; boundary=\"=-sep-1\"\n"
        "\n"
        "--=-sep-1\n"
        "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: base64\n"
        "\n"
        "U2VlIDwuLi9nPiBhbmQgdGhlIGluZGV4IGF0IDwuLi8uLi9pbmRleC5odG1sPiwgd2l0aCB0aGUg\n"
        "csOpc3Vtw6kgb2Ygd2hhdCB3YXMgc2FpZC4KU2VlIDwuLi9nPiBhbmQgdGhlIGluZGV4IGF0IDwu\n"
        "Li8uLi9pbmRleC5odG1sPiwgd2l0aCB0aGUgcsOpc3Vtw6kgb2Ygd2hhdCB3YXMgc2FpZC4KU2Vl\n"
        "IDwuLi9nPiBhbmQgdGhlIGluZGV4IGF0IDwuLi8uLi9pbmRleC5odG1sPiwgd2l0aCB0aGUgcsOp\n"
        "c3Vtw6kgb2Ygd2hhdCB3YXMgc2FpZC4K\n"
        "--=-sep-1\n"
        "Content-Type: application/octet-stream; name=\"notes.bin\"\n"
        "Content-Transfer-Encoding: base64\n"
        "\n"
        "PC4uL2c+\n"
        "--=-sep-1--\n";
    REQUIRE(part_texts(message) == std::vector<std::string>{plain});
    const auto r = run_cli("rewrite --input mail " + base_arg + "-", message);
    REQUIRE(r.status == 0);
    std::string expected_line = "See <http://a/b/g> and the index at <http://a/index.html>, with the r\xC3\xA9sum\xC3\xA9 of what was said.\n";
    CHECK(part_texts(r.out) == std::vector<std::string>{expected_line + expected_line + expected_line});
    const std::size_t body = r.out.find("base64\n\n") + 8;
    const std::size_t end = r.out.find("\n--=-sep-1", body);
    CHECK(longest_line(r.out.substr(body, end - body)) == 76);
    // The attachment, which decodes to "<../g>", is not text: unchanged.
    CHECK(r.out.ends_with("\n--=-sep-1\nContent-Type: application/octet-stream; name=\"notes.bin\"\n"
                          "Content-Transfer-Encoding: base64\n\nPC4uL2c+\n--=-sep-1--\n"));
    CHECK(r.out.starts_with(message.substr(0, message.find("U2Vl"))));
}

TEST_CASE("rewrite --input mail keeps a format=flowed part flowed", "[mail][rewrite]") {
    const std::string head = "From: a@example.org\n"
                             "Subject: Re: the new layout\n"
                             "Content-Type: text/plain; charset=utf-8; format=flowed\n"
                             "Content-Transfer-Encoding: 8bit\n"
                             "\n";
    SECTION("DelSp=no: the soft break moves after the first space past the edit") {
        const std::string body = "> Where is the page about the new layout? It should be \n"
                                 "> linked from the index.\n"
                                 "\n"
                                 "It is at <http://www.example.org/docs/layout/ \n"
                                 "new-layout.html> since \n"
                                 "Monday, and the old one at <../docs/layout/old.html> \n"
                                 "stays for a while.\n"
                                 " From now on, see also www.example.org/design/.\n";
        const auto r = run_cli("rewrite --input mail " + base_arg + "-", head + body);
        REQUIRE(r.status == 0);
        CHECK(r.out == head +
                           "> Where is the page about the new layout? It should be \n"
                           "> linked from the index.\n"
                           "\n"
                           "It is at <http://www.example.org/docs/layout/new-layout.html> \n"
                           "since \n"
                           "Monday, and the old one at <http://a/b/docs/layout/old.html> \n"
                           "stays for a while.\n"
                           " From now on, see also http://www.example.org/design/.\n");
        const auto texts = part_texts(r.out);
        REQUIRE(texts.size() == 1);
        CHECK(texts[0] == "> Where is the page about the new layout? It should be linked from the index.\n"
                          "\n"
                          "It is at <http://www.example.org/docs/layout/new-layout.html> since Monday, and the old one at "
                          "<http://a/b/docs/layout/old.html> stays for a while.\n"
                          "From now on, see also http://www.example.org/design/.\n");
    }
    SECTION("DelSp=yes and quoted lines: the break moves to the end of the edit") {
        const std::string delsp_head = "From: a@example.org\n"
                                       "Subject: Re: the new layout\n"
                                       "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n"
                                       "\n";
        const std::string body = ">> The draft is at <../docs/lay \n"
                                 ">> out/draft.html>, comments welcome.\n"
                                 "Thanks.\n";
        const auto r = run_cli("rewrite --input mail " + base_arg + "-", delsp_head + body);
        REQUIRE(r.status == 0);
        CHECK(r.out == delsp_head +
                           ">> The draft is at <http://a/b/docs/layout/draft.html \n"
                           ">> >, comments welcome.\n"
                           "Thanks.\n");
        const auto texts = part_texts(r.out);
        REQUIRE(texts.size() == 1);
        CHECK(texts[0] == ">> The draft is at <http://a/b/docs/layout/draft.html>, comments welcome.\nThanks.\n");
    }
}

TEST_CASE("rewrite --input mail writes a latin1 part back in latin1", "[mail][rewrite]") {
    const std::string message = "From: a@example.org\n"
                                "Subject: caf\xE9\n"
                                "MIME-Version: 1.0\n"
                                "Content-Type: text/plain; charset=iso-8859-1\n"
                                "Content-Transfer-Encoding: 8bit\n"
                                "\n"
                                "La carte du caf\xE9 est sur <../menu.html>, \xE0 bient\xF4t.\n";
    const auto r = run_cli("rewrite --input mail " + base_arg + "-", message);
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == "From: a@example.org\n"
                   "Subject: caf\xE9\n"
                   "MIME-Version: 1.0\n"
                   "Content-Type: text/plain; charset=iso-8859-1\n"
                   "Content-Transfer-Encoding: 8bit\n"
                   "\n"
                   "La carte du caf\xE9 est sur <http://a/b/menu.html>, \xE0 bient\xF4t.\n");
    // A character latin1 cannot hold: the part stays as it was, with a note.
    const std::string here = replace_first(message, "<../menu.html>", "<menu.html>");
    const auto kept = run_cli("rewrite --input mail --base 'http://example.org/\xE6\x97\xA5\xE6\x9C\xAC/' -", here);
    CHECK(kept.status == 0);
    CHECK(kept.out == here);
    CHECK(kept.err.find("part 1: left unchanged: the rewritten text cannot be written in its charset iso-8859-1") !=
          std::string::npos);
}

TEST_CASE("rewrite --input mail leaves a message with nothing to change byte for byte", "[mail][rewrite]") {
    const std::string eml = read_file(URLSIFT_SAMPLES_DIR "/safelinks-mail.eml");
    REQUIRE(!eml.empty());
    const auto r = run_cli("rewrite --input mail -", eml);
    CHECK(r.status == 0);
    CHECK(r.out == eml);
    CHECK(r.err.empty());
    CHECK(run_cli("rewrite --input mail --dry-run -", eml).status == 1);
}

TEST_CASE("rewrite --input mail keeps the headers as written when the body changes", "[mail][rewrite]") {
    const std::string message = "Received: from ftp.example.net (ftp.example.net [192.0.2.7])\n"
                                "\tby www.example.org (Postfix) with ESMTP id 3F1A2; Mon, 4 Mar 2024 08:00:00 +0000\n"
                                "List-Archive: <www.example.org/archive/>\n"
                                "From: ops@ftp.example.net\n"
                                "Subject: mirror moved, see www.example.org/mirrors\n"
                                "\n"
                                "The mirror list is at www.example.org/mirrors now.\n";
    const auto r = run_cli("rewrite --input mail -", message);
    REQUIRE(r.status == 0);
    CHECK(r.out == std::string(head_of(message)) + "The mirror list is at http://www.example.org/mirrors now.\n");
    // Read as text (the default), the header block is text too.
    const auto t = run_cli("rewrite -", message);
    CHECK(t.out.find("List-Archive: <http://www.example.org/archive/>") != std::string::npos);
}

TEST_CASE("rewrite --input mail leaves multipart/signed parts alone with a note", "[mail][rewrite]") {
    const std::string message = "From: a@example.org\n"
                                "Subject: signed\n"
                                "MIME-Version: 1.0\n"
                                "Content-Type: multipart/signed; micalg=pgp-sha256;\n"
                                " protocol=\"application/pgp-signature\"; boundary=\"sig\"\n"
                                "\n"
                                "--sig\n"
                                "Content-Type: text/plain; charset=us-ascii\n"
                                "\n"
                                "The release notes are at www.example.org/releases/2.4.html\n"
                                "--sig\n"
                                "Content-Type: application/pgp-signature; name=\"signature.asc\"\n"
                                "\n"
                                "-----BEGIN PGP SIGNATURE-----\n"
                                "\n"
                                "iHUEARYIAB0WIQTx3example\n"
                                "-----END PGP SIGNATURE-----\n"
                                "--sig--\n";
    const auto r = run_cli("rewrite --input mail -", message);
    CHECK(r.status == 0);
    CHECK(r.out == message);
    CHECK(r.err.find("part 1: left unchanged: it is signed (multipart/signed body; 1 edit not made)") !=
          std::string::npos);
    CHECK(run_cli("rewrite --input mail --dry-run -", message).status == 1);

    const std::string encrypted = "From: a@example.org\n"
                                  "Subject: encrypted\n"
                                  "MIME-Version: 1.0\n"
                                  "Content-Type: multipart/mixed; boundary=\"out\"\n"
                                  "\n"
                                  "--out\n"
                                  "Content-Type: text/plain\n"
                                  "\n"
                                  "See www.example.org/keys for the key.\n"
                                  "--out\n"
                                  "Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=\"enc\"\n"
                                  "\n"
                                  "--enc\n"
                                  "Content-Type: application/pgp-encrypted\n"
                                  "\n"
                                  "Version: 1\n"
                                  "--enc\n"
                                  "Content-Type: application/octet-stream\n"
                                  "\n"
                                  "-----BEGIN PGP MESSAGE-----\n"
                                  "\n"
                                  "hQEMA0example\n"
                                  "-----END PGP MESSAGE-----\n"
                                  "--enc--\n"
                                  "--out--\n";
    const auto e = run_cli("rewrite --input mail -", encrypted);
    CHECK(e.status == 0);
    CHECK(e.out == replace_first(encrypted, "www.example.org/keys", "http://www.example.org/keys"));
    CHECK(e.err == "urlsift rewrite: (standard input): note: multipart/encrypted part 2: left unchanged: it is encrypted\n");
}

TEST_CASE("rewrite --input mbox changes only the message with something to change", "[mail][rewrite]") {
    const std::string first = "From alice@example.org Mon Mar  4 08:00:00 2024\n"
                              "From: alice@example.org\n"
                              "Subject: lunch\n"
                              "\n"
                              "Lunch at noon?\n"
                              ">From the canteen menu, the soup looks good.\n"
                              "\n";
    const std::string second_head = "From bob@example.org Mon Mar  4 09:30:00 2024\n"
                                    "From: bob@example.org\n"
                                    "Subject: slides\n"
                                    "Content-Base: http://intranet.example.org/talks/2024/\n"
                                    "\n";
    const std::string mbox = first + second_head + "The slides are at <slides/q1.pdf>.\n";
    const auto r = run_cli("rewrite --input mbox -", mbox);
    REQUIRE(r.status == 0);
    // RFC 2110: the message's Content-Base is the base, not --base.
    CHECK(r.out == first + second_head + "The slides are at <http://intranet.example.org/talks/2024/slides/q1.pdf>.\n");
    CHECK(run_cli("rewrite --input auto " + base_arg + "-", mbox).out == r.out);
    const auto texts = part_texts(r.out, urlsift::mail_format::mbox);
    CHECK(texts.size() == 2);
}

TEST_CASE("rewrite --input auto rewrites a display filter's decoded body as text", "[mail][rewrite]") {
    // What a mail reader pipes to its display filter: the headers it shows,
    // a blank line, and the body already decoded.
    const std::string shown = "Date: Tue, 12 Mar 2024 10:02:09 +0100\n"
                              "From: Editor <editor@example.org>\n"
                              "To: authors@example.org\n"
                              "Subject: R\xC3\xA9vision of the guide at www.example.org\n"
                              "\n"
                              "The r\xC3\xA9vision is at www.example.org/guide/ and the long link\n"
                              "<http://www.example.org/guide/chapters/\n"
                              " typography.html> is broken in two.\n";
    const auto r = run_cli("rewrite --input auto -", shown);
    REQUIRE(r.status == 0);
    CHECK(r.out == "Date: Tue, 12 Mar 2024 10:02:09 +0100\n"
                   "From: Editor <editor@example.org>\n"
                   "To: authors@example.org\n"
                   "Subject: R\xC3\xA9vision of the guide at www.example.org\n"
                   "\n"
                   "The r\xC3\xA9vision is at http://www.example.org/guide/ and the long link\n"
                   "<http://www.example.org/guide/chapters/typography.html> is broken in two.\n");
    // Text that is not mail goes through as text.
    const std::string text = "See www.example.org/guide/ for more.\n";
    CHECK(run_cli("rewrite --input auto -", text).out == "See http://www.example.org/guide/ for more.\n");
}

TEST_CASE("rewrite without --input reads a message as text, as before", "[mail][rewrite]") {
    const auto plain = run_cli("rewrite " + base_arg + "-", qp_message);
    CHECK(plain.status == 0);
    CHECK(run_cli("rewrite --input text " + base_arg + "-", qp_message).out == plain.out);
    // As text, the quoted-printable encoding is taken for the link's own
    // characters: the third link comes out corrupted.
    CHECK(plain.out.find("<http://a/b/guide/revision-2024.html>") != std::string::npos);
    CHECK(plain.out.find("<http://a/lists/style/2024-March/thread-about-=the-revision.html>") != std::string::npos);
}

TEST_CASE("rewrite --input mail works with -i, --dry-run and --diff", "[mail][rewrite]") {
    scratch_dir dir;
    const auto file = dir.path / "msg.eml";
    write_file(file, qp_message);
    const auto dry = run_cli("rewrite --input mail --dry-run " + base_arg + "'" + file.string() + "'");
    CHECK(dry.status == 0);
    CHECK(dry.out == file.string() + ": 3 edits\n");
    const auto diff = run_cli("rewrite --input mail --diff " + base_arg + "'" + file.string() + "'");
    CHECK(diff.status == 0);
    CHECK(diff.out.find("-The r=C3=A9vision of the guide is at <../guide/revision-2024.html>; the ol=\n") !=
          std::string::npos);
    CHECK(diff.out.find("+The r=C3=A9vision of the guide is at <http://a/b/guide/revision-2024.html>;=\n") !=
          std::string::npos);
    CHECK(read_file(file) == qp_message);
    const auto edit = run_cli("rewrite --input mail -i.orig " + base_arg + "'" + file.string() + "'");
    CHECK(edit.status == 0);
    CHECK(read_file(file) == run_cli("rewrite --input mail " + base_arg + "-", qp_message).out);
    CHECK(read_file(dir.path / "msg.eml.orig") == qp_message);
    CHECK(run_cli("rewrite --input mail --encoding latin1 -", qp_message).status == 2);
}

TEST_CASE("rewrite --input mail rewrites a forwarded message/rfc822 part against its own base", "[mail][rewrite]") {
    const std::string message = "From: a@example.org\n"
                                "Subject: Fwd: slides\n"
                                "MIME-Version: 1.0\n"
                                "Content-Type: multipart/mixed; boundary=\"outer\"\n"
                                "\n"
                                "--outer\n"
                                "Content-Type: text/plain\n"
                                "\n"
                                "Forwarded below; see <notes.html>.\n"
                                "--outer\n"
                                "Content-Type: message/rfc822\n"
                                "\n"
                                "From: bob@example.org\n"
                                "Subject: slides\n"
                                "Content-Location: http://intranet.example.org/talks/\n"
                                "Content-Type: text/plain; charset=utf-8\n"
                                "Content-Transfer-Encoding: quoted-printable\n"
                                "\n"
                                "The slides are at <q1.pdf>, caf=C3=A9 at noon.\n"
                                "--outer--\n";
    const auto r = run_cli("rewrite --input mail " + base_arg + "-", message);
    REQUIRE(r.status == 0);
    CHECK(part_texts(r.out) == std::vector<std::string>{
                                   "Forwarded below; see <http://a/b/c/notes.html>.",
                                   "The slides are at <http://intranet.example.org/talks/q1.pdf>, caf\xC3\xA9 at noon."});
    // The forwarded message's headers stay as written.
    const std::size_t inner = message.find("From: bob@");
    const std::string inner_head(head_of(std::string_view(message).substr(inner)));
    CHECK(r.out.find(inner_head) != std::string::npos);
    CHECK(r.out.starts_with(message.substr(0, message.find("<notes.html>"))));
}

TEST_CASE("rewrite --input mail rewrites the plain alternative and leaves the HTML one", "[mail][rewrite]") {
    const std::string message = "From: a@example.org\n"
                                "Subject: the wiki\n"
                                "MIME-Version: 1.0\n"
                                "Content-Type: multipart/alternative; boundary=\"alt\"\n"
                                "\n"
                                "--alt\n"
                                "Content-Type: text/plain; charset=us-ascii\n"
                                "\n"
                                "The wiki is at www.example.org/wiki/ now.\n"
                                "--alt\n"
                                "Content-Type: text/html; charset=us-ascii\n"
                                "\n"
                                "<p>The wiki is at www.example.org/wiki/ now.</p>\n"
                                "--alt--\n";
    const auto r = run_cli("rewrite --input mail -", message);
    REQUIRE(r.status == 0);
    CHECK(r.out == replace_first(message, "www.example.org/wiki/", "http://www.example.org/wiki/"));
}

TEST_CASE("rewrite --input mail keeps the last bytes of base64 without its padding", "[mail][rewrite]") {
    // The body is "See www.example.org/x and the end: abcde" with its `=`
    // left out; the rewrite decoded it without the last quantum and wrote
    // "...abcd" back.
    const std::string message =
        "From: a@example.org\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=us-ascii\n"
        "Content-Transfer-Encoding: base64\n"
        "\n"
        "U2VlIHd3dy5leGFtcGxlLm9yZy94IGFuZCB0aGUgZW5kOiBhYmNkZQ\n";
    REQUIRE(part_texts(message) == std::vector<std::string>{"See www.example.org/x and the end: abcde"});
    const auto r = run_cli("rewrite --input mail -", message);
    REQUIRE(r.status == 0);
    CHECK(part_texts(r.out) == std::vector<std::string>{"See http://www.example.org/x and the end: abcde"});
}

TEST_CASE("regression: a raw byte in Content-Location reaches no URL, and the rewrite is idempotent",
          "[mail][rewrite][regression]") {
    // A raw 0xA0 (no charset: GMime reads it as Latin-1, U+00A0) became
    // part of the base, and so of the rewritten URL: raw non-ASCII in a
    // part that says it is ASCII, which the next run read differently.
    const std::string message = "Content-Base:s://d\nContent-Type:multipart/d;boundary=\"parts\"\n\n--parts\n"
                                "Content-Type:text/plain;charset=ascii\nContent-Location:\xa0/\n\n<.>";
    const auto once = urlsift::test::run_cli("rewrite --input mail", message);
    CHECK(once.status == 0);
    CHECK(once.out.ends_with("<s://d/%C2%A0/>"));
    const auto twice = urlsift::test::run_cli("rewrite --input mail", once.out);
    CHECK(twice.out == once.out);
}

TEST_CASE("rewrite --input mail leaves a part that says it is ASCII alone when an edit is not",
          "[mail][rewrite][regression]") {
    const std::string message = "Content-Type: text/plain; charset=us-ascii\n\nSee <caf\xC3\xA9.html>.\n";
    const auto r = urlsift::test::run_cli("rewrite --input mail --base https://example.org/", message);
    CHECK(r.out == message);
    CHECK(r.err.find("cannot be written in its charset us-ascii") != std::string::npos);
}
