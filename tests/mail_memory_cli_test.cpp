// Mail past what --max-memory lets its reading take: read another way
// (as plain text, passed through unchanged), with a note naming the
// input and the option, never held whole. The smallest cap (4M) keeps the
// inputs small: a message GMime would need more than 2 MiB for (header
// fields of 256 KiB, or 1,024 parts), an input rewrite would hold past
// 1 MiB, a part rewritten past 256 KiB.

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

using urlsift::test::run_cli;
using urlsift::test::shell_quote;

const std::string head = "From: a@example.org\nTo: b@example.org\nSubject: big\nMIME-Version: 1.0\n";

/// A message whose List-Archive header is `size` bytes of URLs long.
std::string long_header_message(std::size_t size) {
    std::string value;
    for (int i = 0; value.size() < size; ++i) value += "<http://h" + std::to_string(i) + ".example.org/> ";
    return head + "List-Archive: " + value + "\n\nSee http://body.example/page\n";
}

/// A multipart message of `parts` tiny text parts, each with a link.
std::string many_parts_message(int parts) {
    std::string m = head + "Content-Type: multipart/mixed; boundary=\"b\"\n\n";
    for (int i = 0; i < parts; ++i) m += "--b\nContent-Type: text/plain\n\nhttp://example.org/" + std::to_string(i) + "\n";
    return m + "--b--\n";
}

/// A message with a base64 text part: its link is found only when the part
/// is decoded, so finding it shows the message was read as mail.
std::string base64_message(const std::string& extra = {}) {
    // "See http://decoded.example/x\n" in base64.
    return head + "Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n"
                  "Content-Transfer-Encoding: base64\n\nU2VlIGh0dHA6Ly9kZWNvZGVkLmV4YW1wbGUveAo=\n" +
           extra + "--b--\n";
}

/// A base64 attachment of about `size` bytes, a part of base64_message.
std::string attachment(std::size_t size) {
    std::string a = "--b\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n";
    while (a.size() < size) a += std::string(76, 'A') + "\n";
    return a;
}

std::size_t count(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("regression: a header line past the cap is read as plain text, not held by GMime", "[mail][cli][regression]") {
    // A 25 MB header line took 321 MiB: GMime holds a header about 8 times.
    const std::string message = long_header_message(300 * 1024);
    const auto r = run_cli("extract --input mail --headers --max-memory 4M", message);
    CHECK(r.status == 0);
    CHECK(r.err.find("(standard input): note: message 1, its header fields come to ") != std::string::npos);
    CHECK(r.err.find("(half of --max-memory): read as plain text, undecoded") != std::string::npos);
    // As plain text every URL of the header is seen (the prose scanner),
    // and the body's.
    CHECK(r.out.find("http://body.example/page\n") != std::string::npos);
    CHECK(r.out.find("http://h0.example.org/\n") != std::string::npos);
    // Under the default cap it is read as mail: the header's URLs, 1,024 of them.
    const auto mail = run_cli("extract --input mail --headers", message);
    CHECK(mail.status == 0);
    CHECK(mail.err.find("read as plain text") == std::string::npos);
    CHECK(count(mail.out, "\n") == 1025);
}

TEST_CASE("regression: a header line past the cap in a forwarded message counts too", "[mail][cli][regression]") {
    const std::string message = head + "Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\n"
                                       "Content-Type: message/rfc822\n\n" +
                                long_header_message(300 * 1024) + "--b--\n";
    const auto r = run_cli("extract --input mail --max-memory 4M", message);
    CHECK(r.status == 0);
    CHECK(r.err.find("note: message 1, its header fields come to ") != std::string::npos);
    CHECK(run_cli("extract --input mail", message).err.find("read as plain text") == std::string::npos);
}

TEST_CASE("regression: a message of more parts than the cap allows is read as plain text, the mailbox goes on",
          "[mail][cli][regression]") {
    // A message of tiny parts took 35 times its size: GMime's object for each.
    const std::string mbox = "From a@example.org Mon Jan  1 00:00:00 2024\n" + base64_message() + "\n" +
                             "From a@example.org Mon Jan  1 00:00:00 2024\n" + many_parts_message(1100) + "\n" +
                             "From a@example.org Mon Jan  1 00:00:00 2024\n" + base64_message() + "\n";
    const auto r = run_cli("extract --input mbox --max-memory 4M", mbox);
    CHECK(r.status == 0);
    CHECK(r.err == "urlsift extract: (standard input): note: message 2, it has 1100 parts: reading it as mail would "
                   "take more than 2 MiB (half of --max-memory): read as plain text, undecoded\n");
    // Messages 1 and 3 are read as mail (their base64 decoded), message 2's
    // links are all found.
    CHECK(count(r.out, "http://decoded.example/x\n") == 2);
    CHECK(r.out.find("http://example.org/0\n") != std::string::npos);
    CHECK(r.out.find("http://example.org/1099\n") != std::string::npos);
    // Lines are the mailbox's.
    const auto n = run_cli("extract --input mbox --max-memory 4M -n", mbox);
    const std::size_t first = mbox.find("http://example.org/0\n");
    CHECK(n.out.find(std::to_string(1 + count(mbox.substr(0, first), "\n")) + ":http://example.org/0\n") !=
          std::string::npos);
    // Under the default cap the message is read as mail.
    CHECK(run_cli("extract --input mbox", mbox).err.empty());
}

TEST_CASE("regression: lines that look like boundaries but are not declared count as no part", "[mail][cli][regression]") {
    std::string body;
    for (int i = 0; i < 1500; ++i) body += "--b\n";  // a boundary only where a Content-Type declares it
    const auto r = run_cli("extract --input mail --max-memory 4M", head + "\n" + body + "http://example.org/\n");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
}

TEST_CASE("regression: mail from a pipe past the cap goes to a temporary file, not memory", "[mail][cli][regression]") {
    // It was read whole: a 125 MB message took its size and more.
    const std::string filler = attachment(1200 * 1024);
    const urlsift::test::scratch_dir dir;
    const auto file = dir.path / "big.eml";
    urlsift::test::write_file(file, base64_message(filler));
    const auto piped = urlsift::test::run_shell("cat " + shell_quote(file.string()) + " | '" URLSIFT_CLI_PATH
                                                "' extract --input auto --max-memory 4M");
    CHECK(piped.status == 0);
    CHECK(piped.out == "http://decoded.example/x\n");
}

TEST_CASE("regression: rewrite leaves an input past a quarter of --max-memory unchanged, passed through",
          "[mail][rewrite][regression]") {
    // rewrite --input mail held a 125 MB message several times over.
    const std::string message = base64_message(attachment(1100 * 1024));
    const auto r = run_cli("rewrite --input mail --base http://base.example/ --max-memory 4M", message);
    CHECK(r.status == 2);
    CHECK(r.out == message);
    CHECK(r.err == "urlsift rewrite: (standard input): left unchanged: larger than 1 MiB, a quarter of --max-memory, "
                   "too large to hold whole (raise --max-memory to rewrite it)\n");
    const urlsift::test::scratch_dir dir;
    const auto file = dir.path / "big.eml";
    urlsift::test::write_file(file, message);
    const auto in_place = run_cli("rewrite --input mail -i --base http://base.example/ --max-memory 4M " +
                                  shell_quote(file.string()));
    CHECK(in_place.status == 2);
    CHECK(in_place.err.find("left unchanged: larger than 1 MiB") != std::string::npos);
    CHECK(urlsift::test::read_file(file) == message);
}

TEST_CASE("regression: rewrite leaves a text part past a sixteenth of --max-memory unchanged, and the rest not",
          "[mail][rewrite][regression]") {
    std::string large;
    while (large.size() < 300 * 1024) large += "See <../notes.txt> again.\n";
    const std::string message = head + "Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\n" +
                                large + "--b\nContent-Type: text/plain\n\nSee <../small.txt>.\n--b--\n";
    const auto r = run_cli("rewrite --input mail --base http://base.example/d/ --max-memory 4M", message);
    CHECK(r.status == 0);
    CHECK(r.err == "urlsift rewrite: (standard input): note: part 1: left unchanged: its body is larger than 256 KiB "
                   "(a sixteenth of --max-memory), the most a part rewritten may be\n");
    CHECK(r.out.find(large) != std::string::npos);
    CHECK(r.out.find("See <http://base.example/small.txt>.") != std::string::npos);
}

TEST_CASE("regression: rewrite leaves a message GMime would need more than the cap for unchanged",
          "[mail][rewrite][regression]") {
    const std::string message = long_header_message(300 * 1024) + "and <../x>\n";
    const auto r = run_cli("rewrite --input mail --base http://base.example/d/ --max-memory 4M", message);
    CHECK(r.status == 0);
    CHECK(r.out == message);
    CHECK(r.err.find("note: its header fields come to ") != std::string::npos);
    CHECK(r.err.find("(half of --max-memory): the input is left unchanged") != std::string::npos);
    const auto mail = run_cli("rewrite --input mail --base http://base.example/d/", message);
    CHECK(mail.out.find("and <http://base.example/x>") != std::string::npos);
}
