// rewrite --encoding: input read in a charset, output written in it, and a
// file the charset would not give back unchanged left alone.

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace urlsift::test;

TEST_CASE("rewrite --encoding latin1 writes latin1", "[cli][rewrite][encoding]") {
    const std::string in = "R\xE9sum\xE9: see <../g> and www.example.org/caf\xE9.\n";
    const auto r = run_cli("rewrite --encoding latin1 --base 'http://a/b/c/d;p?q'", in);
    CHECK(r.status == 0);
    CHECK(r.out == "R\xE9sum\xE9: see <http://a/b/g> and http://www.example.org/caf\xE9.\n");
    // Without --encoding the latin1 bytes are invalid UTF-8, passed through as they are.
    CHECK(run_cli("rewrite --base 'http://a/b/c/d;p?q'", in).out ==
          "R\xE9sum\xE9: see <http://a/b/g> and http://www.example.org/caf\xE9.\n");
}

TEST_CASE("rewrite --encoding utf-16le round-trips the text around the edits", "[cli][rewrite][encoding]") {
    const auto utf16 = [](std::string_view ascii) {
        std::string s;
        for (const char c : ascii) {
            s += c;
            s += '\0';
        }
        return s;
    };
    const scratch_dir dir;
    const auto file = dir.path / "notes.txt";
    write_file(file, utf16("See <../g> here.\r\n"));
    const auto r = run_cli("rewrite -i --encoding utf-16le --base 'http://a/b/c/d;p?q' " + shell_quote(file.string()));
    CHECK(r.status == 0);
    CHECK(read_file(file) == utf16("See <http://a/b/g> here.\r\n"));
}

TEST_CASE("rewrite --encoding leaves alone a file that would not come back unchanged", "[cli][rewrite][encoding]") {
    const scratch_dir dir;
    const auto file = dir.path / "notes.txt";
    const std::string bytes = "See <../g>, then a stray \xA0 byte.\n";  // 0xA0 alone is no Shift_JIS character
    write_file(file, bytes);
    const auto r = run_cli("rewrite -i --encoding shift_jis --base 'http://a/b/c/d;p?q' " + shell_quote(file.string()));
    CHECK(r.status == 2);
    CHECK(r.err.find("does not encode back") != std::string::npos);
    CHECK(read_file(file) == bytes);
    const auto unknown = run_cli("rewrite --encoding no-such-charset", "x\n");
    CHECK(unknown.status == 2);
    CHECK(unknown.err.find("no-such-charset") != std::string::npos);
}
