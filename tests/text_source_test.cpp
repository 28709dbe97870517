// The input stage (text_source): binary input told apart, charsets decoded,
// the round-trip check a filter writing in the input's charset relies on,
// and the encoder that writes that charset.

#include "file_util.hpp"
#include "text_read_util.hpp"

#include <urlsift/text_source.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

using namespace urlsift;
using urlsift::test::scratch_dir;
using urlsift::test::write_file;

namespace {

using urlsift::test::read_back;

read_back read(text_options options, std::string_view bytes) { return urlsift::test::read_through(std::move(options), bytes); }

std::string encode(std::string_view encoding, std::string_view utf8) {
    std::string error, out;
    auto e = text_encoder::open(encoding, error);
    REQUIRE(e);
    e->write(utf8, out);
    e->finish(out);
    return out;
}

}  // namespace

TEST_CASE("text_source: UTF-8 passes through byte for byte", "[text]") {
    const std::string bytes = "caf\xC3\xA9 \xFF\xFE invalid, kept\r\n";
    const auto r = read({}, bytes);
    CHECK(r.result.what == text_read::status::done);
    CHECK(r.text == bytes);
}

TEST_CASE("text_source: a regular file is read to its end, whatever its size", "[text]") {
    // The reader stops at the size fstat gave once a read comes back short;
    // sizes around the 256 KiB block check that no byte is lost and none is
    // read twice. (Compressed files take the same path: decompress_test.)
    constexpr std::size_t block = std::size_t{1} << 18;
    for (const std::size_t size : {std::size_t{1}, block - 1, block, block + 1, 2 * block, 3 * block + 7}) {
        std::string bytes(size, 'a');
        for (std::size_t i = 0; i < size; i += 97) bytes[i] = static_cast<char>('0' + i % 10);
        const auto r = read({}, bytes);
        CHECK(r.result.what == text_read::status::done);
        CHECK(r.text == bytes);
    }
}

TEST_CASE("text_source: a file a walk calls regular is read whole without asking its size", "[text]") {
    // On a disk file system the reader trusts a short read to be the end;
    // the sizes around the 256 KiB block check that no byte is lost.
    constexpr std::size_t block = std::size_t{1} << 18;
    const scratch_dir dir;
    std::string error;
    auto source = text_source::open({}, error);
    REQUIRE(source);
    const auto read_regular = [&](const std::string& path) {
        std::string text;
        const auto r = source->read_file(path, [&](std::string_view chunk) {
            text += chunk;
            return true;
        });
        CHECK(r.what == text_read::status::done);
        return text;
    };
    for (const std::size_t size : {std::size_t{1}, block - 1, block, block + 1, 2 * block + 7}) {
        std::string bytes(size, 'a');
        for (std::size_t i = 0; i < size; i += 89) bytes[i] = static_cast<char>('0' + i % 10);
        const auto path = dir.path / ("f" + std::to_string(size));
        write_file(path, bytes);
        CHECK(read_regular(path.string()) == bytes);
    }
    // /proc gives a page a read, its files' size is 0: there the reader
    // reads to the end as for any other input. This process has far more
    // mappings than a page of /proc/self/smaps holds.
    const std::string smaps = read_regular("/proc/self/smaps");
    CHECK(smaps.size() > 16384);
    CHECK(smaps.find("[stack]") != std::string::npos);
}

TEST_CASE("text_source: files read one after another, directory by directory", "[text]") {
    // A walk's order, and then not: each file's own bytes every time, and
    // a missing file in a directory already open is still missing.
    const scratch_dir dir;
    std::filesystem::create_directories(dir.path / "a");
    std::filesystem::create_directories(dir.path / "b");
    for (const char* name : {"a/1", "a/2", "a/3", "b/1", "b/2"}) write_file(dir.path / name, std::string("text of ") + name);
    std::string error;
    auto source = text_source::open({}, error);
    REQUIRE(source);
    for (const char* name : {"a/1", "a/2", "a/3", "b/1", "b/2", "a/2", "a/1", "b/2", "b/1"}) {
        CAPTURE(name);
        std::string text;
        const auto r = source->read_file((dir.path / name).string(), [&](std::string_view chunk) {
            text += chunk;
            return true;
        });
        CHECK(r.what == text_read::status::done);
        CHECK(text == std::string("text of ") + name);
    }
    const auto missing = source->read_file((dir.path / "b" / "nothing").string(), [](std::string_view) { return true; });
    CHECK(missing.what == text_read::status::failed);
    CHECK(missing.error == "No such file or directory");
    const auto subdir = source->read_file((dir.path / "a").string(), [](std::string_view) { return true; });
    CHECK(subdir.what == text_read::status::failed);
}

TEST_CASE("text_source: a NUL byte in the first block marks binary input", "[text]") {
    const std::string bytes = std::string("see http://x.example/\0 more", 27);
    CHECK(read({}, bytes).result.what == text_read::status::binary);
    CHECK(read({}, bytes).text.empty());
    const auto as_text = read({.binary_as_text = true}, bytes);
    CHECK(as_text.result.what == text_read::status::done);
    CHECK(as_text.text == bytes);
    // UTF-16 is full of NUL bytes and is not binary.
    const auto utf16 = read({.encoding = "utf-16le"}, std::string("h\0i\0", 4));
    CHECK(utf16.result.what == text_read::status::done);
    CHECK(utf16.text == "hi");
}

TEST_CASE("text_source: other charsets are decoded to UTF-8", "[text]") {
    CHECK(read({.encoding = "latin1"}, "caf\xE9").text == "caf\xC3\xA9");
    CHECK(read({.encoding = "shift_jis"}, "\x93\xfa\x96\x7b").text == "\xE6\x97\xA5\xE6\x9C\xAC");
    std::string error;
    CHECK_FALSE(text_source::open({.encoding = "no-such-charset"}, error));
    CHECK(error.find("no-such-charset") != std::string::npos);
}

TEST_CASE("text_source: the round-trip check passes text that encodes back unchanged", "[text]") {
    std::string every_byte;
    for (int b = 1; b < 256; ++b) every_byte += static_cast<char>(b);
    const auto latin1 = read({.encoding = "latin1", .check_round_trip = true}, every_byte);
    CHECK(latin1.result.what == text_read::status::done);
    CHECK(encode("latin1", latin1.text) == every_byte);
    // A long input, so that characters straddle the reads.
    std::string long_sjis;
    for (int i = 0; i < 100000; ++i) long_sjis += "\x93\xfa\x96\x7b a ";
    CHECK(read({.encoding = "shift_jis", .check_round_trip = true}, long_sjis).result.what == text_read::status::done);
}

TEST_CASE("text_source: the round-trip check fails text that would come back changed", "[text]") {
    // 0xA0 alone is no Shift_JIS character: it decodes to U+FFFD, which does
    // not encode back to 0xA0.
    const auto r = read({.encoding = "shift_jis", .check_round_trip = true}, "ok \xA0 then more");
    CHECK(r.result.what == text_read::status::failed);
    CHECK(r.result.error.find("shift_jis") != std::string::npos);
    // Without the check the same input reads, with U+FFFD for the bad byte.
    CHECK(read({.encoding = "shift_jis"}, "ok \xA0 then more").result.what == text_read::status::done);
}

TEST_CASE("text_encoder: UTF-8 back to a charset, split anywhere", "[text]") {
    CHECK(encode("latin1", "caf\xC3\xA9") == "caf\xE9");
    CHECK(encode("utf-16le", "hi") == std::string("h\0i\0", 4));
    std::string error, out;
    auto e = text_encoder::open("latin1", error);
    REQUIRE(e);
    e->write("caf\xC3", out);
    e->write("\xA9!", out);
    e->finish(out);
    CHECK(out == "caf\xE9!");
    CHECK_FALSE(e->passes_through());
}

TEST_CASE("text_source: binary input that is UTF-16 or UTF-32 text says so", "[text]") {
    using namespace std::string_literals;
    const std::string le = "s\0e\0e\0 \0h\0t\0t\0p\0:\0/\0/\0x\0/\0\n\0"s;
    const std::string be = "\0s\0e\0e\0 \0h\0t\0t\0p\0:\0/\0/\0x\0/\0\n"s;
    CHECK(read({}, le).result.looks_like == "UTF-16LE");
    CHECK(read({}, be).result.looks_like == "UTF-16BE");
    CHECK(read({}, "\xFF\xFE"s + le).result.looks_like == "UTF-16LE");
    CHECK(read({}, "\xFF\xFE\0\0s\0\0\0"s).result.looks_like == "UTF-32LE");
    CHECK(read({}, "\x7F" "ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0"s).result.looks_like.empty());
    // A text read as UTF-16 that has no NUL byte is probably 8-bit.
    const read_back wrong = read({.encoding = "utf-16le"}, "see http://x/\n");
    CHECK(wrong.result.what == text_read::status::done);
    CHECK(wrong.result.looks_like == "8-bit");
    CHECK(read({.encoding = "utf-16le"}, le).result.looks_like.empty());
}

TEST_CASE("text_source: sequences a charset cannot read are counted", "[text]") {
    const read_back r = read({.encoding = "utf-16le"}, std::string("a\0\0\xDC", 4));  // a lone low surrogate
    CHECK(r.result.invalid_sequences == 1);
    CHECK(read({.encoding = "latin1"}, "caf\xE9\n").result.invalid_sequences == 0);
    CHECK(read({}, "caf\xE9\n").result.invalid_sequences == 0);  // UTF-8 passes, checked by no one
}
