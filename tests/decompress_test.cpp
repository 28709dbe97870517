// Compressed input: each format read back as the text it holds, streams
// concatenated, truncated and corrupt data reported, and the CLI's -z.
// The compressed bytes are made here with each library's own encoder.

#include "cli_util.hpp"
#include "text_read_util.hpp"

#include "text/decompress.hpp"

#include <urlsift/text_source.hpp>

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <catch2/catch.hpp>

#include <string>

using namespace urlsift;
using detail::compression;
using urlsift::test::run_cli;
using urlsift::test::scratch_dir;
using urlsift::test::shell_quote;
using urlsift::test::write_file;

namespace {

std::string gzip(std::string_view text) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string bzip2(std::string_view text) {
    std::string out(text.size() + text.size() / 100 + 600, '\0');
    auto size = static_cast<unsigned>(out.size());
    REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(text.data()),
                                     static_cast<unsigned>(text.size()), 9, 0, 0) == BZ_OK);
    out.resize(size);
    return out;
}

std::string xz(std::string_view text) {
    std::string out(lzma_stream_buffer_bound(text.size()), '\0');
    std::size_t size = 0;
    REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                    text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &size,
                                    out.size()) == LZMA_OK);
    out.resize(size);
    return out;
}

std::string zstd(std::string_view text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    const std::size_t size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
    REQUIRE(ZSTD_isError(size) == 0);
    out.resize(size);
    return out;
}

/// `text` as zstd writes it to a pipe with `--long=LOG`: a frame whose
/// window is 2^LOG bytes, since the size is not told ahead. The window is
/// what the decoder has to keep; the long-distance matching --long also
/// turns on changes only how the compressor searches (and costs it 130 MB),
/// so it is left off.
std::string zstd_window(std::string_view text, int log) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    REQUIRE(c != nullptr);
    REQUIRE(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, log)) == 0);
    std::string out(ZSTD_compressBound(text.size()) + 64, '\0');
    ZSTD_outBuffer dst{out.data(), out.size(), 0};
    ZSTD_inBuffer src{text.data(), text.size(), 0};
    REQUIRE(ZSTD_isError(ZSTD_compressStream2(c, &dst, &src, ZSTD_e_continue)) == 0);
    ZSTD_inBuffer none{nullptr, 0, 0};
    std::size_t left = 0;
    do {
        left = ZSTD_compressStream2(c, &dst, &none, ZSTD_e_end);
        REQUIRE(ZSTD_isError(left) == 0);
    } while (left != 0);
    ZSTD_freeCCtx(c);
    out.resize(dst.pos);
    return out;
}

std::string zstd_long31(std::string_view text) { return zstd_window(text, 31); }

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

const std::string letter = "See <https://example.org/notes> and ftp://ftp.example.net/pub/ for more.\n";

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

TEST_CASE("extract -z reads compressed files, and without it they are skipped with a hint", "[decompress][cli]") {
    const scratch_dir dir;
    write_file(dir.path / "NEWS.gz", gzip(letter));
    write_file(dir.path / "README.xz", xz("Home page: https://urlsift.example/\n"));
    const std::string files = shell_quote((dir.path / "NEWS.gz").string()) + " " + shell_quote((dir.path / "README.xz").string());

    const auto with = run_cli("extract -z --no-filename " + files);
    CHECK(with.status == 0);
    CHECK(with.out == "https://example.org/notes\nftp://ftp.example.net/pub/\nhttps://urlsift.example/\n");

    const auto without = run_cli("extract " + shell_quote((dir.path / "NEWS.gz").string()));
    CHECK(without.status == 1);
    CHECK_THAT(without.err, Catch::Contains("binary file skipped (it is gzip-compressed: use -z"));

    const auto piped = run_cli("extract -z", gzip(letter));
    CHECK(piped.out == "https://example.org/notes\nftp://ftp.example.net/pub/\n");

    const auto report = run_cli("report -z --no-timestamp -f json " + files);
    CHECK(report.status == 0);
    CHECK_THAT(report.out, Catch::Contains("urlsift.example"));

    const auto rewrite = run_cli("rewrite --diff " + shell_quote((dir.path / "NEWS.gz").string()));
    CHECK_THAT(rewrite.err, Catch::Contains("rewrite edits only uncompressed files"));
}

TEST_CASE("extract -z on a truncated file reports it and exits 2", "[decompress][cli]") {
    const scratch_dir dir;
    const std::string packed = gzip(letter);
    write_file(dir.path / "cut.gz", packed.substr(0, packed.size() - 6));
    const auto r = run_cli("extract -z " + shell_quote((dir.path / "cut.gz").string()));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("cut.gz: the gzip data ends early"));
}

TEST_CASE("extract -z on a zstd --long=31 file says how to read it and exits 2", "[decompress][cli]") {
    const scratch_dir dir;
    write_file(dir.path / "big.zst", zstd_long31(letter));
    const auto r = run_cli("extract -z " + shell_quote((dir.path / "big.zst").string()));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("big.zst: the zstd data asks for a window of 2048 MiB"));
    CHECK_THAT(r.err, Catch::Contains("zstd -d --long=31"));
    CHECK_THAT(r.err, !Catch::Contains("corrupt"));
}

TEST_CASE("extract -z reads a compressed mailbox as mail", "[decompress][cli][mail]") {
    const std::string mbox =
        "From alice@example.org Mon Nov 23 10:00:00 2026\n"
        "From: Alice <alice@example.org>\n"
        "Subject: notes\n"
        "Message-ID: <1@example.org>\n"
        "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: quoted-printable\n"
        "\n"
        "The draft is at https://example.org/draft?id=3D42 now.\n"
        "\n"
        "From bob@example.net Mon Nov 23 11:00:00 2026\n"
        "From: Bob <bob@example.net>\n"
        "Subject: Re: notes\n"
        "Message-ID: <2@example.net>\n"
        "\n"
        "Mirror: ftp://ftp.example.net/pub/draft\n";
    const scratch_dir dir;
    const auto path = dir.path / "lists.mbox.bz2";
    write_file(path, bzip2(mbox));
    const std::string expected = "https://example.org/draft?id=42\nftp://ftp.example.net/pub/draft\n";
    for (const char* kind : {"mbox", "auto"}) {
        INFO(kind);
        const auto r = run_cli(std::string("extract -z --input ") + kind + " " + shell_quote(path.string()));
        CHECK(r.status == 0);
        CHECK(r.out == expected);
        CHECK(r.err.empty());
    }
    const auto piped = run_cli("extract -z --input auto", zstd(mbox));
    CHECK(piped.out == expected);
    const auto without = run_cli("extract --input auto " + shell_quote(path.string()));
    CHECK(without.status == 1);
    CHECK_THAT(without.err, Catch::Contains("it is bzip2-compressed: use -z"));
}
