// --encoding: charset conversion to UTF-8, whole and split at every offset.

#include "text/charset.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>

using urlsift::detail::charset_converter;

namespace {

charset_converter open_or_fail(std::string_view name) {
    std::string error;
    auto d = charset_converter::open(name, error);
    INFO("encoding: " << name << ", error: " << error);
    REQUIRE(d);
    CHECK(error.empty());
    return std::move(*d);
}

/// Feeds `in` in pieces of `piece` bytes (0: whole), each piece through an
/// exact-size heap copy so that sanitizers see over-reads.
std::string decode(charset_converter& d, std::string_view in, std::size_t piece = 0) {
    std::string out;
    if (piece == 0) piece = in.size() + 1;
    for (std::size_t at = 0; at < in.size(); at += piece) {
        const std::string_view chunk = in.substr(at, piece);
        const auto copy = std::make_unique<char[]>(chunk.size());
        std::memcpy(copy.get(), chunk.data(), chunk.size());
        d.feed(std::string_view(copy.get(), chunk.size()), out);
    }
    d.finish(out);
    return out;
}

/// Checks that `in` decodes to `expected` whole, split once at every offset,
/// and fed one byte at a time.
void check_chunked(std::string_view encoding, std::string_view in, std::string_view expected) {
    INFO("encoding: " << encoding);
    auto d = open_or_fail(encoding);
    CHECK(decode(d, in) == expected);
    CHECK(decode(d, in, 1) == expected);
    for (std::size_t split = 0; split <= in.size(); ++split) {
        INFO("split at " << split);
        std::string out;
        d.feed(in.substr(0, split), out);
        d.feed(in.substr(split), out);
        d.finish(out);
        CHECK(out == expected);
    }
}

const std::string_view fffd = "\xEF\xBF\xBD";

}  // namespace

TEST_CASE("decode: latin1 and its aliases", "[decode]") {
    for (const char* name : {"latin1", "ISO-8859-1", "iso_8859-1", "l1", "ISO8859-1"}) {
        INFO("name: " << name);
        auto d = open_or_fail(name);
        CHECK(d.name() == "ISO-8859-1");
        CHECK_FALSE(d.is_pass_through());
        CHECK(decode(d, "caf\xE9 <http://example.org/\xE9t\xE9>\n") ==
              "caf\xC3\xA9 <http://example.org/\xC3\xA9t\xC3\xA9>\n");
    }
}

TEST_CASE("decode: single-byte charsets", "[decode]") {
    auto cp1252 = open_or_fail("windows-1252");
    CHECK(decode(cp1252, "\x80 \x93quoted\x94") == "\xE2\x82\xAC \xE2\x80\x9Cquoted\xE2\x80\x9D");
    auto latin9 = open_or_fail("ISO-8859-15");
    CHECK(decode(latin9, "\xA4") == "\xE2\x82\xAC");
    auto koi8 = open_or_fail("KOI8-R");
    CHECK(decode(koi8, "\xF0\xD2\xC9\xD7\xC5\xD4") == "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82");  // Привет
    auto ascii = open_or_fail("US-ASCII");
    CHECK(decode(ascii, "a\xE9z") == "a" + std::string(fffd) + "z");
}

TEST_CASE("decode: UTF-16 split at every offset", "[decode][chunk]") {
    // "a€<URL:x>😀" (U+1F600 is a surrogate pair: a split between its halves
    // must be held back).
    const std::string expected = "a\xE2\x82\xAC<URL:x>\xF0\x9F\x98\x80";
    const std::string le("a\0\xAC\x20<\0U\0R\0L\0:\0x\0>\0\x3D\xD8\x00\xDE", 22);
    const std::string be("\0a\x20\xAC\0<\0U\0R\0L\0:\0x\0>\xD8\x3D\xDE\x00", 22);
    check_chunked("UTF-16LE", le, expected);
    check_chunked("utf-16be", be, expected);
    // UTF-16 picks the byte order from a byte-order mark, and drops it;
    // UTF-16LE reads one as the character U+FEFF.
    check_chunked("UTF-16", "\xFF\xFE" + le, expected);
    check_chunked("UTF-16", "\xFE\xFF" + be, expected);
    check_chunked("UTF-16LE", "\xFF\xFE" + le, "\xEF\xBB\xBF" + expected);
}

TEST_CASE("decode: multi-byte East Asian charsets split at every offset", "[decode][chunk]") {
    // 日本語 <http://例え.jp/>
    const std::string expected = "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E <http://\xE4\xBE\x8B\xE3\x81\x88.jp/>";
    check_chunked("Shift_JIS", "\x93\xFA\x96\x7B\x8C\xEA <http://\x97\xE1\x82\xA6.jp/>", expected);
    check_chunked("EUC-JP", "\xC6\xFC\xCB\xDC\xB8\xEC <http://\xCE\xE3\xA4\xA8.jp/>", expected);
    // GB18030 encodes U+1F600 in four bytes.
    check_chunked("GB18030", "\xC4\xE3\xBA\xC3 \x94\x39\xFC\x36", "\xE4\xBD\xA0\xE5\xA5\xBD \xF0\x9F\x98\x80");
}

TEST_CASE("decode: invalid sequences become U+FFFD and decoding goes on", "[decode]") {
    // Shift_JIS: 0x85 0x40 is an unassigned double-byte code; 0xA0 is no
    // character at all.
    auto sjis = open_or_fail("Shift_JIS");
    const std::string out = decode(sjis, "a\xA0z http://x/");
    CHECK(out.find(fffd) != std::string::npos);
    CHECK(out.starts_with("a"));
    CHECK(out.ends_with("z http://x/"));
    // A sequence cut short by the end of the input.
    CHECK(decode(sjis, "ok\x93") == "ok" + std::string(fffd));
    auto le = open_or_fail("UTF-16LE");
    CHECK(decode(le, std::string("o\0k\0!", 5)) == "ok" + std::string(fffd));
    // An unpaired surrogate.
    CHECK(decode(le, std::string("\x3D\xD8x\0", 4)) == std::string(fffd) + "x");
    // Split anywhere, the result is the same.
    check_chunked("Shift_JIS", "a\xA0z\x93\xFA\xFF", decode(sjis, "a\xA0z\x93\xFA\xFF"));
}

TEST_CASE("decode: UTF-8 passes through byte for byte", "[decode]") {
    for (const char* name : {"utf-8", "UTF8", "Utf_8"}) {
        INFO("name: " << name);
        auto d = open_or_fail(name);
        CHECK(d.is_pass_through());
        CHECK(d.name() == "UTF-8");
        const std::string bytes("ok \xC3\xA9 bad \xFF\xC3 nul \0 end", 22);
        CHECK(decode(d, bytes) == bytes);
        CHECK(decode(d, bytes, 1) == bytes);
    }
}

TEST_CASE("decode: long input, reuse after finish, and a move mid-stream", "[decode]") {
    auto d = open_or_fail("latin1");
    const std::string in(100'000, '\xE9');
    std::string expected;
    for (std::size_t i = 0; i < in.size(); ++i) expected += "\xC3\xA9";
    CHECK(decode(d, in) == expected);
    CHECK(decode(d, in, 4099) == expected);
    CHECK(decode(d, "\xE9") == "\xC3\xA9");

    auto sjis = open_or_fail("Shift_JIS");
    std::string out;
    sjis.feed("\x93", out);  // the first half of 日
    charset_converter moved = std::move(sjis);
    moved.feed("\xFA", out);
    moved.finish(out);
    CHECK(out == "\xE6\x97\xA5");
}

TEST_CASE("decode: an unknown encoding is named, with what to use instead", "[decode][failure]") {
    for (const std::string_view name :
         {std::string_view("klingon-8"), std::string_view(""), std::string_view("utf-8\0x", 7)}) {
        std::string error;
        const auto d = charset_converter::open(name, error);
        CHECK_FALSE(d);
        INFO("error: " << error);
        CHECK(error.find("unknown encoding") != std::string::npos);
        CHECK(error.find("'" + std::string(name) + "'") != std::string::npos);
        CHECK(error.find("--encoding utf-8|latin1|") != std::string::npos);
    }
}
