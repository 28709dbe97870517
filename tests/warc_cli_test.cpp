// `urlsift report` on WARC and WET files: each record read against its
// target URI, an HTML record as an HTML file, each text record of a WET
// file as a text of its own (warc_test.cpp reads records through the
// library).

#include "cli_util.hpp"
#include "warc_util.hpp"

#include <catch2/catch.hpp>

#include <string>

TEST_CASE("report reads a WARC file record by record, each against its target URI", "[warc][report][cli]") {
    using namespace urlsift::test;
    const std::string html =
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
        "<html><head><base href=\"/2026/\"></head>\n<body><a href=\"../about?a=1&amp;b=2\">About</a>\n"
        "<img src=\"pic.png\"></body></html>\n";
    const std::string warc =
        record("warcinfo", "", "application/warc-fields", "software: test\r\n") +
        record("request", "https://news.example.org/", "application/http; msgtype=request", "GET / HTTP/1.1\r\n\r\n") +
        record("response", "https://news.example.org/2026/11/story.html", "application/http; msgtype=response", html) +
        record("response", "https://news.example.org/logo.png", "application/http; msgtype=response",
               std::string("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\0\0 http://not.scanned/", 57)) +
        record("conversion", "https://blog.example.net/post/1", "text/plain", "Read https://docs.example.com/guide today.\n");
    const scratch_dir dir;
    write_file(dir.path / "crawl.warc", warc);
    const auto r = run_cli("report --no-timestamp -f csv --table url " + shell_quote((dir.path / "crawl.warc").string()));
    CHECK(r.status == 0);
    // Lines are those of the WARC file: the HTML's second line is line 32.
    CHECK(r.out == "key,count,first_input,first_file,first_line\n"
                   "https://docs.example.com/guide,1,0," + (dir.path / "crawl.warc").string() + ",55\n"
                   "https://news.example.org/2026/pic.png,1,0," + (dir.path / "crawl.warc").string() + ",33\n"
                   "https://news.example.org/about?a=1&b=2,1,0," + (dir.path / "crawl.warc").string() + ",32\n");

    // Compressed a record a member, as crawl archives publish them.
    const auto gz = run_shell("cd " + shell_quote(dir.path.string()) + " && gzip -k crawl.warc && '" URLSIFT_CLI_PATH
                              "' report -z --no-timestamp -f csv --table host crawl.warc.gz");
    CHECK(gz.out == "key,count,first_input,first_file,first_line\n"
                    "news.example.org,2,0,crawl.warc.gz,32\n"
                    "docs.example.com,1,0,crawl.warc.gz,55\n");

    write_file(dir.path / "cut.warc", warc.substr(0, warc.size() - 30));
    const auto cut = run_cli("report --no-timestamp " + shell_quote((dir.path / "cut.warc").string()));
    CHECK(cut.status == 2);
    CHECK_THAT(cut.err, Catch::Contains("WARC: record 5"));
}

TEST_CASE("report reads an HTML record as it reads an HTML file", "[warc][report][cli]") {
    using namespace urlsift::test;
    // The links HTML declares (a background, not a src on a div; an in-page
    // anchor and a script link too) and the URLs of its prose, not of its
    // code; the same page saved as a file, with its URI as the base, counts
    // the same.
    const std::string page =
        "<html><body><p>Mirrors: https://mirror.example.net/pub/ and <a href=\"#top\">top</a>.</p>\n"
        "<table background=\"bg.png\"><tr><td><div src=\"no.png\">x</div></td></tr></table>\n"
        "<a href=\" guide.html \">Guide</a> <a href=\"javascript:void(0)\">js</a>"
        " <code>https://code.example/not</code></body></html>\n";
    const scratch_dir dir;
    write_file(dir.path / "crawl.warc",
               record("response", "https://site.example/a/page.html", "application/http; msgtype=response",
                      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page));
    write_file(dir.path / "page.html", page);
    const auto warc = run_cli("report --no-timestamp -f csv --table url " + shell_quote((dir.path / "crawl.warc").string()));
    CHECK(warc.status == 0);
    const std::string file = (dir.path / "crawl.warc").string();
    CHECK(warc.out == "key,count,first_input,first_file,first_line\n"
                      "https://mirror.example.net/pub/,1,0," + file + ",11\n"
                      "https://site.example/a/bg.png,1,0," + file + ",12\n"
                      "https://site.example/a/guide.html,1,0," + file + ",13\n"
                      "https://site.example/a/page.html#top,1,0," + file + ",11\n"
                      "javascript:void(0),1,0," + file + ",13\n");
    const auto html = run_cli("report --no-timestamp -f csv --table url --base https://site.example/a/page.html " +
                              shell_quote((dir.path / "page.html").string()));
    const std::string name = (dir.path / "page.html").string();
    CHECK(html.out == "key,count,first_input,first_file,first_line\n"
                      "https://mirror.example.net/pub/,1,0," + name + ",1\n"
                      "https://site.example/a/bg.png,1,0," + name + ",2\n"
                      "https://site.example/a/guide.html,1,0," + name + ",3\n"
                      "https://site.example/a/page.html#top,1,0," + name + ",1\n"
                      "javascript:void(0),1,0," + name + ",3\n");
}

TEST_CASE("report reads each text record of a WET file as a text of its own", "[warc][report][cli]") {
    using namespace urlsift::test;
    // The first record ends inside a `<` and right after a URL with its
    // scheme; neither reaches into the next record, whose site written
    // again is a link of its own and whose `<c.html>` is resolved against
    // its own target URI. Lines are the WET file's.
    const std::string wet = record("conversion", "https://one.example/a/", "text/plain",
                                   "See https://www.one.org/files/ or <docs/") +
                            record("conversion", "https://two.example/b/", "text/plain",
                                   "index.html> and www.one.org/files/ and <c.html>\n");
    const scratch_dir dir;
    write_file(dir.path / "crawl.wet", wet);
    const auto r = run_cli("report --no-timestamp -f csv --table url " + shell_quote((dir.path / "crawl.wet").string()));
    CHECK(r.status == 0);
    const std::string file = (dir.path / "crawl.wet").string();
    CHECK(r.out == "key,count,first_input,first_file,first_line\n"
                   "http://www.one.org/files/,1,0," + file + ",17\n"
                   "https://two.example/b/c.html,1,0," + file + ",17\n"
                   "https://www.one.org/files/,1,0," + file + ",8\n");
}
