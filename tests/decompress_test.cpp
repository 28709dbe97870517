// Compressed input: each format read back as the text it holds, streams
// concatenated, truncated and corrupt data reported. The compressed bytes
// are made with each library's own encoder (compress_util.hpp); the tool's
// -z is in decompress_cli_test.cpp.

#include "compress_util.hpp"
#include "text_read_util.hpp"

#include "text/decompress.hpp"

#include <urlsift/text_source.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace urlsift;
using detail::compression;
using urlsift::test::bzip2;
using urlsift::test::gzip;
using urlsift::test::letter;
using urlsift::test::xz;
using urlsift::test::zstd;
using urlsift::test::zstd_long31;
using urlsift::test::zstd_window;

namespace {

using compressor = std::string (*)(std::string_view);
struct format_case {
    const char* name;
    compressor compress;
};
const format_case formats[] = {{"gzip", gzip}, {"bzip2", bzip2}, {"xz", xz}, {"zstd", zstd}};

using urlsift::test::read_back;

read_back read(std::string_view bytes, bool decompress = true) {
    return urlsift::test::read_through({.decompress = decompress}, bytes);
}

}  // namespace

TEST_CASE("Each compression is told by its magic number", "[decompress]") {
    for (const auto& f : formats) {
        INFO(f.name);
        CHECK(detail::to_string(detail::compression_of(f.compress(letter))) == f.name);
    }
    CHECK(detail::compression_of(letter) == compression::none);
    CHECK(detail::compression_of("BZh") == compression::none);  // too short for the block size digit
    CHECK(detail::compression_of("BZhx rest") == compression::none);
    CHECK(detail::compression_of("") == compression::none);
}

TEST_CASE("Compressed input is read as the text it holds", "[decompress]") {
    for (const auto& f : formats) {
        INFO(f.name);
        const read_back r = read(f.compress(letter));
        CHECK(r.result.what == text_read::status::done);
        CHECK(r.result.compression == f.name);
        CHECK(r.text == letter);
    }
}

TEST_CASE("Without decompress, compressed input is binary and says what it is", "[decompress]") {
    for (const auto& f : formats) {
        INFO(f.name);
        const std::string packed = f.compress(letter);
        if (packed.find('\0') == std::string::npos) continue;  // no NUL byte: read as (odd) text
        const read_back r = read(packed, false);
        CHECK(r.result.what == text_read::status::binary);
        CHECK(r.result.compression == f.name);
        CHECK(r.text.empty());
    }
}

TEST_CASE("Concatenated streams read as one text", "[decompress]") {
    const std::string second = "Then http://second.example.com/ came.\n";
    for (const auto& f : formats) {
        INFO(f.name);
        const read_back r = read(f.compress(letter) + f.compress(second));
        CHECK(r.result.what == text_read::status::done);
        CHECK(r.text == letter + second);
    }
}

TEST_CASE("A text much larger than its compressed form comes out whole", "[decompress]") {
    // Many times the output buffer, from one read of compressed input.
    std::string big;
    for (int i = 0; big.size() < 3'000'000; ++i) big += "line " + std::to_string(i) + " http://example.com/" + std::to_string(i % 97) + "\n";
    for (const auto& f : formats) {
        INFO(f.name);
        const read_back r = read(f.compress(big));
        CHECK(r.result.what == text_read::status::done);
        CHECK(r.text.size() == big.size());
        CHECK(r.text == big);
    }
}

TEST_CASE("Fed a byte at a time, a decompressor gives the same text", "[decompress]") {
    for (const auto& f : formats) {
        INFO(f.name);
        const std::string packed = f.compress(letter) + f.compress(letter);
        auto d = detail::decompressor::open(detail::compression_of(packed));
        REQUIRE(d);
        std::string text, error;
        const auto take = [&](std::string_view s) {
            text += s;
            return true;
        };
        for (char c : packed) REQUIRE(d->feed(std::string_view(&c, 1), take, error) == detail::decompressor::outcome::more);
        CHECK(d->finish(take, error) == detail::decompressor::outcome::more);
        CHECK(text == letter + letter);
    }
}

TEST_CASE("A truncated compressed file fails with a message and gives what came before", "[decompress]") {
    std::string big;
    for (int i = 0; i < 20000; ++i) big += "row " + std::to_string(i * 7919 % 10007) + " https://example.com/\n";
    for (const auto& f : formats) {
        INFO(f.name);
        const std::string packed = f.compress(big);
        const read_back r = read(packed.substr(0, packed.size() * 3 / 4));
        CHECK(r.result.what == text_read::status::failed);
        CHECK_THAT(r.result.error, Catch::Contains(f.name));
        CHECK(big.starts_with(r.text));
    }
}

TEST_CASE("Corrupt compressed data fails with a message", "[decompress]") {
    for (const auto& f : formats) {
        INFO(f.name);
        std::string packed = f.compress(letter + letter + letter);
        for (std::size_t i = packed.size() / 2; i < packed.size() * 3 / 4; ++i) packed[i] = static_cast<char>(packed[i] ^ 0x5A);
        const read_back r = read(packed);
        CHECK(r.result.what == text_read::status::failed);
        CHECK_FALSE(r.result.error.empty());
    }
}

TEST_CASE("zstd data made with --long=31 is refused with the window it asks for and what to do", "[decompress]") {
    const std::string packed = zstd_long31(letter);
    REQUIRE(packed.size() > 5);
    REQUIRE(static_cast<unsigned char>(packed[5]) == 0xA8);  // RFC 8878 Window_Descriptor: 2^(10 + 21)
    const auto says_what_to_do = [](const std::string& error) {
        CHECK_THAT(error, Catch::Contains("asks for a window of 2048 MiB"));
        CHECK_THAT(error, Catch::Contains("zstd --long=31 makes such data"));
        CHECK_THAT(error, Catch::Contains("at most 128 MiB"));
        CHECK_THAT(error, Catch::Contains("decompress it first (zstd -d --long=31)"));
        CHECK_THAT(error, !Catch::Contains("corrupt"));
    };
    const read_back r = read(packed);
    CHECK(r.result.what == text_read::status::failed);
    says_what_to_do(r.result.error);
    // After a whole frame it is no trailing garbage to pass over: its text would be lost.
    const read_back after = read(zstd(letter) + packed);
    CHECK(after.result.what == text_read::status::failed);
    CHECK(after.text == letter);
    says_what_to_do(after.result.error);
    // The frame's header read a byte at a time says the same.
    auto d = detail::decompressor::open(compression::zstd);
    std::string error;
    const auto ignore = [](std::string_view) { return true; };
    auto outcome = detail::decompressor::outcome::more;
    for (std::size_t i = 0; i < packed.size() && outcome == detail::decompressor::outcome::more; ++i)
        outcome = d->feed(packed.substr(i, 1), ignore, error);
    CHECK(outcome == detail::decompressor::outcome::failed);
    says_what_to_do(error);
}

TEST_CASE("zstd windows up to the 128 MiB cap are read", "[decompress]") {
    const std::string packed = zstd_window(letter, 27);  // zstd --long
    REQUIRE(static_cast<unsigned char>(packed[5]) == 0x88);
    const read_back r = read(packed);
    CHECK(r.result.what == text_read::status::done);
    CHECK(r.text == letter);
}

TEST_CASE("Zero bytes after the last gzip member are ignored, as gzip -d ignores them", "[decompress]") {
    const read_back r = read(gzip(letter) + std::string(512, '\0'));
    CHECK(r.result.what == text_read::status::done);
    CHECK(r.text == letter);
}

TEST_CASE("A compressed binary file is binary after decompression", "[decompress]") {
    const read_back r = read(gzip(std::string("tar\0header\0", 11) + letter));
    CHECK(r.result.what == text_read::status::binary);
    CHECK(r.result.compression == "gzip");
}
