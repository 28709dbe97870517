// The tool's -z: compressed files and standard input read by extract and
// report, refused by rewrite, and a compressed mailbox read as mail
// (decompress_test.cpp reads compressed input through the library).

#include "cli_util.hpp"
#include "compress_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using urlsift::test::bzip2;
using urlsift::test::gzip;
using urlsift::test::letter;
using urlsift::test::run_cli;
using urlsift::test::scratch_dir;
using urlsift::test::shell_quote;
using urlsift::test::write_file;
using urlsift::test::xz;
using urlsift::test::zstd;
using urlsift::test::zstd_long31;

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
    CHECK_THAT(rewrite.err, Catch::Contains("it is gzip-compressed: -z rewrites the text it holds"));
}

TEST_CASE("rewrite -z writes the text a compressed file holds, rewritten, and -i -z refuses", "[decompress][cli]") {
    const scratch_dir dir;
    const std::string text = "Notes: <../notes/2.0.html> and www.example.org/pub/\n";
    write_file(dir.path / "NEWS.gz", gzip(text));
    write_file(dir.path / "doc.md.xz", xz("See [the notes](../notes/) for more.\n"));
    const std::string news = shell_quote((dir.path / "NEWS.gz").string());
    const std::string base = "--base http://a.example/doc/x ";

    const auto out = run_cli("rewrite -z " + base + news);
    CHECK(out.status == 0);
    CHECK(out.out == "Notes: <http://a.example/notes/2.0.html> and http://www.example.org/pub/\n");
    const auto piped = run_cli("rewrite -z " + base, gzip(text));
    CHECK(piped.out == out.out);
    const auto doc = run_cli("rewrite -z --input markdown " + base + shell_quote((dir.path / "doc.md.xz").string()));
    CHECK(doc.out == "See [the notes](http://a.example/notes/) for more.\n");
    const auto diff = run_cli("rewrite -z --diff " + base + news);
    CHECK(diff.status == 0);
    CHECK_THAT(diff.out, Catch::Contains("+Notes: <http://a.example/notes/2.0.html>"));

    const std::string before = urlsift::test::read_file((dir.path / "NEWS.gz").string());
    const auto in_place = run_cli("rewrite -i -z " + base + news);
    CHECK(in_place.status == 2);
    CHECK_THAT(in_place.err, Catch::Contains("-i would write them back uncompressed"));
    CHECK(urlsift::test::read_file((dir.path / "NEWS.gz").string()) == before);
    // A display filter without -z passes what it cannot read through.
    const auto plain = run_cli("rewrite " + base + news);
    CHECK(plain.out == before);
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
