// urlsift rewrite from the command line: streaming, in-place editing and
// its failure paths, and the review modes.

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace urlsift::test;
namespace fs = std::filesystem;

namespace {

const std::string doc = "See <../g> and <URL:g;x?y#s>, or www.w3.org/Addressing/ and\n"
                        "<http://www.ics.uci.edu/pub/\n"
                        " ietf/uri/historical.html#WARNING>.\n";
const std::string rewritten = "See <http://a/b/g> and <URL:http://a/b/c/g;x?y#s>, or http://www.w3.org/Addressing/ and\n"
                              "<http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING>.\n";
const std::string base_arg = "rewrite --base 'http://a/b/c/d;p?q' ";

// Runs as an unprivileged user when the tests run as root, so that
// permissions mean what they say.
std::string as_unprivileged() {
    return ::geteuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup --clear-groups" : "";
}

}  // namespace

TEST_CASE("rewrite copies stdin to stdout with references made absolute", "[cli][rewrite]") {
    const auto r = run_cli(base_arg + "-", doc);
    CHECK(r.status == 0);
    CHECK(r.out == rewritten);
    CHECK(r.err.empty());
}

TEST_CASE("rewrite completes only www. and ftp. abbreviations, unless asked", "[cli][rewrite]") {
    // A bare host name in a man page or a message is as often a file, a
    // unit or a relay as a site: left as written by default.
    const std::string text = "Received: from mx2.example.net\nEnable default.target; see example.org and www.example.org.\n";
    CHECK(run_cli("rewrite -", text).out ==
          "Received: from mx2.example.net\nEnable default.target; see example.org and http://www.example.org.\n");
    CHECK(run_cli("rewrite --abbrev www,domain -", text).out ==
          "Received: from mx2.example.net\nEnable default.target; see http://example.org and http://www.example.org.\n");
    // A host in single quotes is a string in a program's text.
    const std::string code = "  const options = { hostname: 'www.example.org', port: 80 };\n";
    CHECK(run_cli("rewrite -", code).out == code);
    // openssl's README.md: a Markdown link label, matched by its spelling
    // where it is used and where it is defined; a host beside brackets is
    // still completed.
    const std::string markdown = "[![openssl logo]][www.openssl.org]\n"
                                 "The official Home Page is [www.openssl.org].\n\n"
                                 "[www.openssl.org]:\n    <https://www.openssl.org>\n";
    CHECK(run_cli("rewrite -", markdown).out == markdown);
    CHECK(run_cli("rewrite -", "See [the site at www.openssl.org] now.\n").out ==
          "See [the site at http://www.openssl.org] now.\n");
    // A changelog names news servers; only --abbrev news completes them.
    const std::string news = "- Updated the Gmane domain from news.gmane.org to news.gmane.io; see ftp.gnu.org\n";
    CHECK(run_cli("rewrite -", news).out ==
          "- Updated the Gmane domain from news.gmane.org to news.gmane.io; see ftp://ftp.gnu.org\n");
    CHECK(run_cli("rewrite --abbrev news -", news).out ==
          "- Updated the Gmane domain from news://news.gmane.org to news://news.gmane.io; see ftp.gnu.org\n");
}

TEST_CASE("rewrite -s: no message about a file that cannot be read, exit status still 2", "[cli][rewrite]") {
    const scratch_dir dir;
    write_file(dir.path / "a.txt", doc);
    const std::string files = shell_quote((dir.path / "missing.txt").string()) + " " + shell_quote((dir.path / "a.txt").string());
    const auto loud = run_cli(base_arg + files);
    CHECK(loud.status == 2);
    CHECK_THAT(loud.err, Catch::Contains("missing.txt: No such file or directory"));
    CHECK(loud.out == rewritten);
    const auto quiet = run_cli(base_arg + "-s " + files);
    CHECK(quiet.status == 2);
    CHECK(quiet.err.empty());
    CHECK(quiet.out == rewritten);
    // Only messages about reading: a usage error is still said.
    CHECK_FALSE(run_cli(base_arg + "-s -i").err.empty());
}

TEST_CASE("rewrite -i edits files atomically, keeping mode and making backups", "[cli][rewrite]") {
    scratch_dir dir;
    const auto a = dir.path / "a.txt", b = dir.path / "b.txt";
    write_file(a, doc);
    write_file(b, "nothing to change here\n");
    ::chmod(a.c_str(), 0640);
    struct stat before_b {};
    ::stat(b.c_str(), &before_b);

    const auto r = run_cli(base_arg + "-i.bak " + shell_quote(a.string()) + " " + shell_quote(b.string()));
    CHECK(r.status == 0);
    CHECK(r.out.empty());
    CHECK(read_file(a) == rewritten);
    CHECK(read_file(dir.path / "a.txt.bak") == doc);
    struct stat after_a {};
    ::stat(a.c_str(), &after_a);
    CHECK((after_a.st_mode & 07777) == 0640);
    // A file with nothing to rewrite is not replaced, and gets no backup.
    struct stat after_b {};
    ::stat(b.c_str(), &after_b);
    CHECK(after_b.st_ino == before_b.st_ino);
    CHECK_FALSE(fs::exists(dir.path / "b.txt.bak"));
    // Nothing is left behind.
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++entries;
    CHECK(entries == 3);

    SECTION("running it again changes nothing") {
        const auto again = run_cli(base_arg + "--in-place " + shell_quote(a.string()));
        CHECK(again.status == 0);
        CHECK(read_file(a) == rewritten);
    }
}

TEST_CASE("rewrite -i in a directory it cannot write leaves the original intact", "[cli][rewrite][failure]") {
    scratch_dir dir;
    const auto locked = dir.path / "locked", open = dir.path / "open";
    fs::create_directory(locked);
    fs::create_directory(open);
    write_file(locked / "doc.txt", doc);
    write_file(open / "doc.txt", doc);
    ::chmod(dir.path.c_str(), 0755);
    ::chmod(locked.c_str(), 0555);
    ::chmod(open.c_str(), 0777);
    ::chmod((locked / "doc.txt").c_str(), 0644);
    ::chmod((open / "doc.txt").c_str(), 0666);

    const auto r = run_cli(base_arg + "-i " + shell_quote((locked / "doc.txt").string()) + " " +
                               shell_quote((open / "doc.txt").string()),
                           {}, as_unprivileged());
    CHECK(r.status == 2);
    CHECK(r.err.find("locked/doc.txt") != std::string::npos);
    CHECK(r.err.find("left unchanged") != std::string::npos);
    CHECK(read_file(locked / "doc.txt") == doc);
    // The other file was still processed.
    CHECK(read_file(open / "doc.txt") == rewritten);
    ::chmod(locked.c_str(), 0755);
}

TEST_CASE("rewrite -i that fails while writing leaves the original intact", "[cli][rewrite][failure]") {
    scratch_dir dir;
    const auto big = dir.path / "big.txt";
    // More than the file-size limit below, with something to rewrite at the start.
    std::string text = doc;
    while (text.size() < 64 * 1024) text += "Ordinary prose, line after line, with nothing to change.\n";
    write_file(big, text);
    // A simulated full disk: the shell's file-size limit (in 1 KiB blocks)
    // makes write() fail with EFBIG part way through.
    const auto r = run_cli(base_arg + "-i " + shell_quote(big.string()), {}, "ulimit -f 8;");
    CHECK(r.status == 2);
    CHECK(r.err.find("left unchanged") != std::string::npos);
    CHECK(read_file(big) == text);
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++entries;
    CHECK(entries == 1);  // the temporary file was removed
}

TEST_CASE("rewrite --diff and --dry-run review without writing", "[cli][rewrite]") {
    scratch_dir dir;
    const auto a = dir.path / "a.txt";
    write_file(a, doc);
    const auto d = run_cli(base_arg + "--diff " + shell_quote(a.string()));
    CHECK(d.status == 0);
    CHECK(d.out.find("--- a/" + a.string() + "\n+++ b/" + a.string() + "\n@@ -1,3 +1,2 @@\n") == 0);
    CHECK(d.out.find("\n-<http://www.ics.uci.edu/pub/\n- ietf/uri/historical.html#WARNING>.\n") != std::string::npos);
    CHECK(d.out.find("\n+<http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING>.\n") != std::string::npos);
    CHECK(read_file(a) == doc);

    const auto n = run_cli(base_arg + "--dry-run " + shell_quote(a.string()));
    CHECK(n.status == 0);
    CHECK(n.out == a.string() + ": 4 edits\n");

    const auto none = run_cli("rewrite --diff -", "nothing here\n");
    CHECK(none.status == 1);
    CHECK(none.out.empty());
}

TEST_CASE("rewrite -r edits the files under a directory", "[cli][rewrite]") {
    scratch_dir dir;
    fs::create_directories(dir.path / "docs" / "sub");
    write_file(dir.path / "docs" / "sub" / "a.txt", doc);
    const auto without = run_cli(base_arg + "-i " + shell_quote((dir.path / "docs").string()));
    CHECK(without.status == 2);
    CHECK(without.err.find("Is a directory (use -r") != std::string::npos);
    CHECK(read_file(dir.path / "docs" / "sub" / "a.txt") == doc);
    const auto with = run_cli(base_arg + "-r -i " + shell_quote((dir.path / "docs").string()));
    CHECK(with.status == 0);
    CHECK(read_file(dir.path / "docs" / "sub" / "a.txt") == rewritten);
}

TEST_CASE("rewrite reports bad usage and unreadable files clearly", "[cli][rewrite][failure]") {
    auto r = run_cli("rewrite --bogus", "");
    CHECK(r.err.find("--bogus") != std::string::npos);
    CHECK(r.status == 2);
    r = run_cli("rewrite --only sideways -", "x");
    CHECK(r.status == 2);
    CHECK(r.err.find("--only") != std::string::npos);
    r = run_cli("rewrite --base 'not a url' -", "x");
    CHECK(r.status == 2);
    CHECK(r.err.find("--base") != std::string::npos);
    r = run_cli("rewrite -i", "x");
    CHECK(r.status == 2);
    r = run_cli("rewrite /nonexistent/file.txt -", "plain text\n");
    CHECK(r.status == 2);
    CHECK(r.err.find("/nonexistent/file.txt") != std::string::npos);
    CHECK(r.out == "plain text\n");
}
