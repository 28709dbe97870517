// The scanner against Appendix E of 001_*.txt, the wrappers of 003_*.txt,
// and realistic mail and news lines. Every case also runs split at every
// offset and one byte at a time (scan_test_util.hpp).

#include "scan_test_util.hpp"

#include <urlsift/resolver.hpp>
#include <urlsift/scanner.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using urlsift::found_reference;
using urlsift::reference_form;
using urlsift::wrapper_kind;
using urlsift::test::scheme_only;
using urlsift::test::urls_of;
using strings = std::vector<std::string>;

namespace {

struct row {
    const char* name;
    const char* text;
    strings urls;
};

void check_rows(const std::vector<row>& rows, const urlsift::scan_options& options = scheme_only()) {
    for (const auto& r : rows) {
        DYNAMIC_SECTION(r.name) {
            INFO("text: " << r.text);
            CHECK(urls_of(r.text, options) == r.urls);
        }
    }
}

std::vector<found_reference> refs_of(std::string_view text, const urlsift::scan_options& options = scheme_only()) {
    urlsift::test::check_chunk_invariance(text, options);
    return urlsift::scan(text, options);
}

}  // namespace

TEST_CASE("Appendix E example", "[scanner][spec]") {
    const std::string text = "Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n"
                             "but you can probably pick it up from <ftp://ds.internic.\n"
                             "net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/\n"
                             "ietf/uri/historical.html#WARNING>.\n";
    const auto refs = refs_of(text);
    REQUIRE(refs.size() == 3);
    CHECK(refs[0].url == "http://www.w3.org/Addressing/");
    CHECK(refs[0].wrapper == wrapper_kind::quote);
    CHECK(refs[0].line == 1);
    CHECK(refs[0].column == 29);
    CHECK(refs[0].outer.offset == refs[0].offset - 1);
    CHECK(refs[0].outer.length == refs[0].length + 2);
    CHECK_FALSE(refs[0].joined);

    CHECK(refs[1].url == "ftp://ds.internic.net/rfc/");
    CHECK(refs[1].wrapper == wrapper_kind::angle);
    CHECK(refs[1].joined);
    CHECK(refs[1].raw == "ftp://ds.internic.\nnet/rfc/");
    CHECK(refs[1].cleaned == "ftp://ds.internic.net/rfc/");
    REQUIRE(refs[1].pieces.size() == 2);
    CHECK(text.substr(refs[1].pieces[0].offset, refs[1].pieces[0].length) == "ftp://ds.internic.");
    CHECK(text.substr(refs[1].pieces[1].offset, refs[1].pieces[1].length) == "net/rfc/");
    CHECK(text.substr(refs[1].outer.offset, refs[1].outer.length) == "<ftp://ds.internic.\nnet/rfc/>");
    CHECK(refs[1].line == 2);

    CHECK(refs[2].url == "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING");
    CHECK(refs[2].form == reference_form::absolute);
    CHECK(refs[2].line == 3);
}

TEST_CASE("1994 draft: angle-bracket wrappers", "[scanner][spec]") {
    // 003_*.txt, "Wrappers for URIs in plain text", and its reference list.
    check_rows({
        {"example",
         "Yes, Jim, I found it under <ftp://info.cern.ch/pub/www/doc> but\n"
         "    you can probably pick it up from <ftp://ds.internic.net/rfc>.\n",
         {"ftp://info.cern.ch/pub/www/doc", "ftp://ds.internic.net/rfc"}},
        {"reference list, broken after a slash",
         "                         December 1991, <ftp://boombox.micro.umn.edu/pub/gopher/\n"
         "                         gopher_protocol> . See also\n",
         {"ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol"}},
        {"closing bracket alone on the next line",
         "                         <ftp://info.cern.ch/pub/www/doc/http-spec.txt\n"
         "                         >\n",
         {"ftp://info.cern.ch/pub/www/doc/http-spec.txt"}},
        {"spaces in the path joined too (Appendix E ignores all of them)",
         "                         <gopher://gopher.micro.umn.edu/00/Information\n"
         "                         About Gopher/About Gopher>\n",
         {"gopher://gopher.micro.umn.edu/00/InformationAboutGopher/AboutGopher"}},
        {"broken inside a word",
         "                         <ftp://quake.think.com/pub/wa\n"
         "                         is/doc/protspec.txt>\n",
         {"ftp://quake.think.com/pub/wais/doc/protspec.txt"}},
    });
}

TEST_CASE("Section 1.3 example URLs", "[scanner][spec]") {
    check_rows({
        {"ftp", "ftp://ftp.is.co.za/rfc/rfc1808.txt\n -- ftp scheme", {"ftp://ftp.is.co.za/rfc/rfc1808.txt"}},
        {"gopher", "gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles\n -- gopher scheme",
         {"gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles"}},
        {"http", "http://www.math.uio.no/faq/compression-faq/part1.html\n\n-- http scheme",
         {"http://www.math.uio.no/faq/compression-faq/part1.html"}},
        {"mailto", "mailto:mduerst@ifi.unizh.ch\n\n-- mailto scheme", {"mailto:mduerst@ifi.unizh.ch"}},
        {"news", "news:comp.infosystems.www.servers.unix\n -- news scheme", {"news:comp.infosystems.www.servers.unix"}},
        {"telnet", "telnet://melvyl.ucop.edu/\n\n-- telnet scheme", {"telnet://melvyl.ucop.edu/"}},
    });
}

TEST_CASE("Appendix E: delimiters are not part of the URL", "[scanner][spec]") {
    check_rows({
        {"double quotes", "He said \"http://test.com/\" twice.", {"http://test.com/"}},
        {"angle brackets", "See <http://test.com/> for more.", {"http://test.com/"}},
        {"whitespace", "See http://test.com/ for more.", {"http://test.com/"}},
        {"fragment inside the brackets", "See <http://test.com/doc#sec2>.", {"http://test.com/doc#sec2"}},
        {"tab delimited", "a\thttp://a.example/\tb", {"http://a.example/"}},
        {"start and end of input", "http://a.example/x", {"http://a.example/x"}},
        {"CRLF line ends", "first http://a.example/x\r\nsecond line\r\n", {"http://a.example/x"}},
        {"two on a line", "http://a.example/ and http://b.example/", {"http://a.example/", "http://b.example/"}},
    });
}

TEST_CASE("Appendix E: the URL: prefix", "[scanner][spec]") {
    check_rows({
        {"inside brackets", "<URL:http://www.w3.org/>", {"http://www.w3.org/"}},
        {"inside brackets with a space", "<URL: http://www.w3.org/>", {"http://www.w3.org/"}},
        {"outside brackets", "URL:http://www.w3.org/ is it", {"http://www.w3.org/"}},
        {"outside brackets with a space", "URL: http://www.w3.org/.", {"http://www.w3.org/"}},
        {"broken inside brackets", "<URL:http://www.w3.org/pub/\n    WWW/TheProject.html>", {"http://www.w3.org/pub/WWW/TheProject.html"}},
        {"lower case", "url: http://x.example/", {"http://x.example/"}},
        // Section 5's absolute example: after the prefix any scheme name counts.
        {"a scheme no registry knows", "The URL <URL:g:h> is absolute.", {"g:h"}},
        {"no prefix, no known scheme", "The pair <g:h> is not.", {}},
    });
    check_rows({
        // Appendix F's reading is the only one there is without a base.
        {"an abbreviated URL after the prefix", "Web URL: www.LL.com", {"http://www.LL.com"}},
        {"an address spelled out", "On Monday, keith.packard at intel.com wrote:", {}},
        // Mail quoted in a reply: its trace lines name relays, its
        // attribution the message replied to.
        {"a quoted trace line", "> from py-out-1112.google.com [64.233.166.178]\n>   by mx.example.org with ESMTP\n", {}},
        {"a message named in an attribution", "In message <200701151234.l0FC@CORPEXCH1.corp.example.com> you wrote:", {}},
        {"quoted prose that starts with from", "> from the docs: example.org has it", {"http://example.org"}},
        // RFC 4151: a tag URI names an authority and a date.
        {"a search term, no tag URI", "notmuch search tag:inbox and <tag:name>", {}},
        {"a tag URI", "see tag:example.com,2005:x", {"tag:example.com,2005:x"}},
        // 003_*.txt: news:groupart, groupart = "*" | group | article; the
        // fields of /etc/group and /etc/passwd are neither.
        {"group file fields, no news URI", "news:x:9:\nfax:x:21:\n", {}},
        {"a passwd line", "news:x:9:9:news:/var/spool/news:/usr/sbin/nologin", {}},
        {"a news group", "see news:comp.infosystems.www and news:*", {"news:comp.infosystems.www", "news:*"}},
        {"a news article", "news:199405251415.AA01234@info.cern.ch", {"news:199405251415.AA01234@info.cern.ch"}},
        {"a news server", "news://news.example.org/comp.lang.c", {"news://news.example.org/comp.lang.c"}},
        // RFC 3966 and RFC 2806: a number starts with `+`, a digit, `*`, `#` or `(`.
        {"telephone and fax numbers", "tel:+1-201-555-0123 fax:+358.555.1234567 tel:*123#",
         {"tel:+1-201-555-0123", "fax:+358.555.1234567", "tel:*123#"}},
        {"no number", "tel:home fax:x:21 fax:*::", {}},
    }, urlsift::scan_options{});
    const auto refs = refs_of("see <URL: http://x.example/a> and URL: http://y.example/b.");
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].wrapper == wrapper_kind::angle);
    CHECK(refs[0].raw == "http://x.example/a");
    CHECK(refs[0].outer.offset == 4);
    CHECK(refs[0].outer.length == 25);
    CHECK(refs[1].wrapper == wrapper_kind::url_prefix);
    CHECK(refs[1].outer.offset == 34);
    CHECK(refs[1].outer.length == std::string("URL: http://y.example/b").size());
}

TEST_CASE("Appendix E: whitespace inside brackets is joined", "[scanner][spec]") {
    check_rows({
        {"spaces", "<http://a.example/ b/ c>", {"http://a.example/b/c"}},
        {"indented continuation", "<http://a.example/one/\n      two/three.html>", {"http://a.example/one/two/three.html"}},
        {"CRLF", "<http://a.example/one/\r\n   two.html>", {"http://a.example/one/two.html"}},
        {"tabs", "<http://a.example/one/\n\t\ttwo.html>", {"http://a.example/one/two.html"}},
        {"several lines", "<http://a.example/\n  one/\n  two/\n  three>", {"http://a.example/one/two/three"}},
        {"break at ? and &", "<http://a.example/q?\n   a=1&\n   b=2>", {"http://a.example/q?a=1&b=2"}},
        {"mail quote prefix on each line", "> see <http://a.example/one/\n> two.html> ok", {"http://a.example/one/two.html"}},
        {"deeper quote", ">> <http://a.example/one/\n>> two.html>", {"http://a.example/one/two.html"}},
    });
}

TEST_CASE("Appendix E: a line break after a hyphen", "[scanner][spec]") {
    const std::string text = "see <http://a.example/long-\n    name.html> and http://b.example/x-\ny.html ok";
    const auto refs = refs_of(text);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].url == "http://a.example/long-name.html");
    CHECK(refs[0].alternatives == strings{"http://a.example/longname.html"});
    CHECK(refs[1].url == "http://b.example/x-y.html");
    CHECK(refs[1].alternatives == strings{"http://b.example/xy.html"});
    CHECK(refs[1].joined);

    auto drop = scheme_only();
    drop.hyphen = urlsift::hyphen_policy::drop;
    const auto dropped = refs_of(text, drop);
    REQUIRE(dropped.size() == 2);
    CHECK(dropped[0].url == "http://a.example/longname.html");
    CHECK(dropped[0].alternatives == strings{"http://a.example/long-name.html"});
    CHECK(dropped[1].url == "http://b.example/xy.html");

    // An abbreviated URL (Appendix F) read both ways: each reading gets its
    // scheme, and dropping the hyphen swaps them, as for the others.
    const std::string abbreviated = "see <www.w3.org/Address-\ning/> for it";
    urlsift::scan_options keep;
    const auto kept = urlsift::scan(abbreviated, keep);
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].url == "http://www.w3.org/Address-ing/");
    CHECK(kept[0].alternatives == strings{"http://www.w3.org/Addressing/"});
    keep.hyphen = urlsift::hyphen_policy::drop;
    const auto swapped = urlsift::scan(abbreviated, keep);
    REQUIRE(swapped.size() == 1);
    CHECK(swapped[0].url == "http://www.w3.org/Addressing/");
    CHECK(swapped[0].alternatives == strings{"http://www.w3.org/Address-ing/"});
}

TEST_CASE("Appendix E: trailing punctuation and brackets", "[scanner][spec]") {
    check_rows({
        {"period", "Go to http://a.example/x.", {"http://a.example/x"}},
        {"comma", "http://a.example/x, then", {"http://a.example/x"}},
        {"several", "(really: http://a.example/x?!)", {"http://a.example/x"}},
        {"semicolon colon", "http://a.example/x; http://b.example/y:", {"http://a.example/x", "http://b.example/y"}},
        {"single quotes", "'http://a.example/x'", {"http://a.example/x"}},
        {"parenthesized", "(see http://a.example/x)", {"http://a.example/x"}},
        {"Wikipedia disambiguation", "http://en.wikipedia.org/wiki/Mercury_(planet)",
         {"http://en.wikipedia.org/wiki/Mercury_(planet)"}},
        {"disambiguation in parentheses", "(http://en.wikipedia.org/wiki/Mercury_(planet))",
         {"http://en.wikipedia.org/wiki/Mercury_(planet)"}},
        {"square brackets", "[http://a.example/x]", {"http://a.example/x"}},
        {"IPv6 literal", "at http://[2001:db8::1]/index.html.", {"http://[2001:db8::1]/index.html"}},
        {"IPv6 literal with port", "[http://[2001:db8::1]:8080/]", {"http://[2001:db8::1]:8080/"}},
        {"query kept", "http://a.example/s?q=a+b&x=1.", {"http://a.example/s?q=a+b&x=1"}},
        {"inner punctuation kept", "http://a.example/a.b,c;d:e!f", {"http://a.example/a.b,c;d:e!f"}},
    });
}

TEST_CASE("Scheme URLs: registered schemes and any scheme://", "[scanner]") {
    check_rows({
        {"mailto", "write to mailto:fielding@ics.uci.edu.", {"mailto:fielding@ics.uci.edu"}},
        {"urn", "urn:isbn:0451450523 is a book", {"urn:isbn:0451450523"}},
        {"tel", "call tel:+1-201-555-0123.", {"tel:+1-201-555-0123"}},
        {"upper-case scheme", "HTTP://A.EXAMPLE/X", {"HTTP://A.EXAMPLE/X"}},
        {"unknown scheme with //", "clone git+ssh://git@host.example/repo.git", {"git+ssh://git@host.example/repo.git"}},
        {"file", "open file:///etc/hosts now", {"file:///etc/hosts"}},
        {"data", "data:text/plain,hello", {"data:text/plain,hello"}},
        {"inside a parameter", "redirect=http://a.example/x", {"http://a.example/x"}},
        {"after prose colon", "Subject: http://a.example/", {"http://a.example/"}},
    });
}

TEST_CASE("Not URLs: prose colons, times, empty schemes", "[scanner]") {
    check_rows({
        {"Note:", "Note: the server is down.", {}},
        {"Re:", "Re: Re: your message", {}},
        {"Subject:", "Subject: lunch", {}},
        {"time", "meet at 10:30 or 11:45:00", {}},
        {"http:// alone", "the prefix http:// alone is not a URL", {}},
        {"mailto: alone", "mailto: is a scheme", {}},
        {"http: in prose", "the http: scheme", {}},
        {"ratio", "a ratio of 3:1", {}},
        {"e.g.", "e.g. this, i.e. that", {}},
        {"emoticon", "ok :-) fine", {}},
        {"less-than in prose", "if a < b and c > d then http is fine", {}},
        {"unknown scheme without //", "Warning:careful", {}},
        {"angle placeholder with colon", "<Note: read this>", {}},
    });
}

TEST_CASE("Bare URLs at a line end do not swallow the next line", "[scanner]") {
    check_rows({
        {"prose after a slash", "I found it under http://www.w3.org/Addressing/\nbut you can pick it up",
         {"http://www.w3.org/Addressing/"}},
        {"sentence end", "Look at http://a.example/x.\nThe next line.", {"http://a.example/x"}},
        {"new URL on the next line", "http://a.example/\nhttp://b.example/", {"http://a.example/", "http://b.example/"}},
        {"www on the next line", "http://a.example/\nwww.b.example", {"http://a.example/"}},
        {"blank line", "http://a.example/x/\n\nx/y", {"http://a.example/x/"}},
        {"wrapped path", "see http://a.example/one/\n  two/three.html for it", {"http://a.example/one/two/three.html"}},
        {"wrapped host", "see http://ds.internic.\nnet/rfc/ today", {"http://ds.internic.net/rfc/"}},
        {"wrapped query", "http://a.example/search?\nq=1&r=2 ok", {"http://a.example/search?q=1&r=2"}},
        {"quoted reply wrapped", "> at http://a.example/one/\n> two/x.html ok", {"http://a.example/one/two/x.html"}},
        {"quoted reply prose", "> at http://a.example/one/\n> but not this", {"http://a.example/one/"}},
        {"different quote depth", "> at http://a.example/one/\n>> two/x.html", {"http://a.example/one/"}},
        // Oniguruma's changelog: the next entry starts with its date.
        {"a date after a period", "     see https://bugs.php.net/64769.\n2013/10/21: [impl] remove unused variable.",
         {"https://bugs.php.net/64769"}},
    });
}

TEST_CASE("Appendix E: groff's angle brackets around a URL broken across lines", "[scanner][spec]") {
    // man-pages rendered in UTF-8 (glibc(7), getnameinfo(3)): groff writes
    // a URL between U+27E8 and U+27E9 and breaks a long one before a `/`
    // or a `.`; the next line's first word closes the brackets.
    check_rows({
        {"before a dot",
         "libraries are uClibc \u27E8http://www.uclibc.org/\u27E9, dietlibc \u27E8http://www\n"
         "       .fefe.de/dietlibc/\u27E9, and musl libc \u27E8http://www.musl-libc.org/\u27E9.\n",
         {"http://www.uclibc.org/", "http://www.fefe.de/dietlibc/", "http://www.musl-libc.org/"}},
        {"before a slash",
         "       Addresses, internet draft, work in progress \u27E8ftp://ftp.ietf.org\n"
         "       /internet-drafts/draft-ietf-ipngwg-scopedaddr-format-02.txt\u27E9.\n",
         {"ftp://ftp.ietf.org/internet-drafts/draft-ietf-ipngwg-scopedaddr-format-02.txt"}},
        {"closed on its own line", "see \u27E8http://a.example/x/\u27E9,\n       .profile is read",
         {"http://a.example/x/"}},
        {"not closed on the next line", "see \u27E8http://a.example/x\n       /etc/hosts is read",
         {"http://a.example/x"}},
        {"a new URL on the next line", "see \u27E8http://a.example/\n\u27E8http://b.example/\u27E9",
         {"http://a.example/", "http://b.example/"}},
    });
}

TEST_CASE("Unicode text around and inside URLs", "[scanner]") {
    check_rows({
        {"no-break space", "see http://a.example/x\xC2\xA0" "next", {"http://a.example/x"}},
        {"ideographic space", "http://a.example/x\xE3\x80\x80" "next", {"http://a.example/x"}},
        {"CJK quotes", "\xE3\x80\x8Chttp://a.example/x\xE3\x80\x8D", {"http://a.example/x"}},
        {"curly quotes", "\xE2\x80\x9Chttp://a.example/x\xE2\x80\x9D", {"http://a.example/x"}},
        {"ideographic full stop", "http://a.example/x\xE3\x80\x82", {"http://a.example/x"}},
        {"ideographic comma", "http://a.example/x\xE3\x80\x81http://b.example/", {"http://a.example/x", "http://b.example/"}},
        {"fullwidth parentheses", "\xEF\xBC\x88http://a.example/x\xEF\xBC\x89", {"http://a.example/x"}},
        {"IDN host", "http://\xE3\x81\x82\xE3\x81\x82.com/ ok", {"http://\xE3\x81\x82\xE3\x81\x82.com/"}},
        {"IRI path", "http://a.example/caf\xC3\xA9.", {"http://a.example/caf\xC3\xA9"}},
        {"em dash", "http://a.example/x\xE2\x80\x94" "and more", {"http://a.example/x"}},
        {"invalid UTF-8 ends a URL", "http://a.example/x\xFF\xFE" "y http://b.example/", {"http://a.example/x", "http://b.example/"}},
        {"invalid UTF-8 in brackets", "<http://a.example/\xC3(>", {"http://a.example/"}},
        {"zero-width space", "http://a.example/x\xE2\x80\x8B" "next", {"http://a.example/x"}},
    });
    CHECK(urls_of(std::string_view("a\0http://a.example/\0b", 21), scheme_only()) == strings{"http://a.example/"});
}

TEST_CASE("Angle brackets that wrap no URL", "[scanner]") {
    check_rows({
        {"empty", "a <> b", {}},
        {"unclosed", "a <http://a.example/x and more", {"http://a.example/x"}},
        {"blank line inside", "<http://a.example/\n\nmore>", {"http://a.example/"}},
        {"markup holding a quoted URL", "<a href=\"http://a.example/\">", {"http://a.example/"}},
        {"nested less-than", "<<http://a.example/>>", {"http://a.example/"}},
    });
}

TEST_CASE("Relative references need a wrapper, and a base resolves them", "[scanner]") {
    auto options = scheme_only();
    auto base = urlsift::resolver::make("http://a/b/c/d;p?q");
    REQUIRE(base);
    const auto refs = scan("See <../g> or URL: g;x and <URL:/x/y> but not ../h in prose.", options, &*base);
    REQUIRE(refs.size() == 3);
    CHECK(refs[0].url == "http://a/b/g");
    CHECK(refs[0].form == reference_form::relative);
    CHECK(refs[0].raw == "../g");
    CHECK(refs[1].url == "http://a/b/c/g;x");
    CHECK(refs[1].wrapper == wrapper_kind::url_prefix);
    CHECK(refs[2].url == "http://a/x/y");

    const auto unresolved = refs_of("See <../g> now.");
    REQUIRE(unresolved.size() == 1);
    CHECK(unresolved[0].form == reference_form::relative);
    CHECK(unresolved[0].url == "../g");
}

TEST_CASE("Long candidates are cut at max_url_length", "[scanner]") {
    auto options = scheme_only();
    options.max_url_length = 40;
    const std::string text = "x http://a.example/" + std::string(100, 'a') + " then http://b.example/ y";
    const auto refs = refs_of(text, options);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].truncated);
    CHECK(refs[0].length == 40);
    CHECK(refs[1].url == "http://b.example/");
    CHECK_FALSE(refs[1].truncated);

    // A bracket pair longer than the limit is no wrapper.
    const std::string angle = "<http://a.example/\n" + std::string(60, 'b') + ">";
    const auto a = refs_of(angle, options);
    REQUIRE(a.size() == 1);
    CHECK(a[0].url == "http://a.example/");

    // A very long word streams through; a scheme name is the whole run of
    // scheme characters before the colon, so `www...whttp:` is none.
    const std::string word = std::string(300, 'w') + "http://c.example/ " + std::string(100, 'z') + "/http://d.example/";
    CHECK(urls_of(word, options) == strings{"http://d.example/"});
}

TEST_CASE("committed_offset trails the references", "[scanner]") {
    std::vector<std::uint64_t> outers;
    urlsift::scanner s(scheme_only(), [&](const found_reference& r) {
        outers.push_back(r.outer.offset);
        return true;
    });
    s.feed("plain text with no links at all\nand more ");
    CHECK(s.committed_offset() >= 30);
    s.feed("<http://a.example/x");
    const auto c = s.committed_offset();
    CHECK(c == 41);
    // The byte after the `>` belongs to the reference's surroundings.
    s.feed("y>");
    s.feed("\n");
    REQUIRE(outers.size() == 1);
    CHECK(outers[0] >= c);
    s.finish();
    CHECK(s.committed_offset() == s.fed_offset());
}

TEST_CASE("The sink can stop the scan", "[scanner]") {
    int seen = 0;
    urlsift::scanner s(scheme_only(), [&](const found_reference&) { return ++seen < 2; });
    CHECK_FALSE(s.feed("http://a.example/ http://b.example/ http://c.example/ "));
    CHECK_FALSE(s.finish());
    CHECK(seen == 2);
}

TEST_CASE("reset starts a new input, whatever the last one left", "[scanner]") {
    // One scanner for many small files: what the last file left (a stopped
    // sink, carried bytes, a `<` open, a URL just given, a quoted line, a
    // line count) must not reach the next one.
    urlsift::scan_options options;
    options.surroundings = true;
    std::vector<found_reference> seen;
    bool stop = true;
    urlsift::scanner s(options, [&](const found_reference& r) {
        seen.push_back(r);
        return !stop;
    });
    s.feed("http://a.example/ http://b.example/ ");
    CHECK(seen.size() == 1);
    s.reset();
    stop = false;
    s.feed(">> ftp://ftp.example.org/pub/ and <http://c.example/\n>>  d");
    seen.clear();
    s.reset();
    const std::string text = "ftp.example.org/pub/ or\nhttp://e.example/x>";
    REQUIRE(s.feed(text));
    REQUIRE(s.finish());
    // A new scanner: the site is no name of a URL given before, the first
    // line is line 1 at offset 0, no bracket is open and no quote marks
    // lead the line.
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].url == "ftp://ftp.example.org/pub/");
    CHECK(seen[0].offset == 0);
    CHECK(seen[0].line == 1);
    CHECK(seen[0].around.quote_depth == 0);
    CHECK(seen[1].url == "http://e.example/x");
    CHECK(seen[1].line == 2);
    CHECK(seen[1].column == 1);
    CHECK(seen[1].wrapper == wrapper_kind::none);
    CHECK_FALSE(seen[1].around.in_brackets);
    CHECK(s.committed_offset() == text.size());
    CHECK(s.fed_offset() == text.size());
    // And every reference is what a new scanner reports.
    std::vector<std::string> fresh, reused;
    for (const auto& r : urlsift::scan(text, options)) fresh.push_back(urlsift::test::describe(r));
    for (const auto& r : seen) reused.push_back(urlsift::test::describe(r));
    CHECK(reused == fresh);

    // An input that ended inside a URL cut at the length limit, whose rest
    // the scanner was skipping: the next input is read from its start.
    urlsift::scan_options cut;
    cut.max_url_length = 32;
    std::vector<std::string> urls;
    urlsift::scanner c(cut, [&](const found_reference& r) {
        urls.push_back(r.url);
        return true;
    });
    c.feed("see http://a.example/" + std::string(100, 'x'));
    urls.clear();
    c.reset();
    c.feed("http://b.example/ ok");
    c.finish();
    CHECK(urls == std::vector<std::string>{"http://b.example/"});

    // The URLs given before a reset are forgotten, though their memory is
    // kept for the next input: one given after the reset takes the place
    // of the first, and the second is not named by its site.
    std::vector<std::string> given;
    urlsift::scanner r(urlsift::scan_options{}, [&](const found_reference& f) {
        given.push_back(f.url);
        return true;
    });
    r.feed("ftp://ftp.one.example.org/pub/ and ftp://ftp.two.example.org/pub/\n");
    r.finish();
    given.clear();
    r.reset();
    r.feed("see ftp://ftp.three.example.org/pub/\nthen ftp.two.example.org/pub/ and ftp.three.example.org/pub/\n");
    r.finish();
    CHECK(given == std::vector<std::string>{"ftp://ftp.three.example.org/pub/", "ftp://ftp.two.example.org/pub/"});
}

TEST_CASE("Chunk invariance on generated text", "[scanner]") {
    // Fragments that exercise every rule, glued at random; a fixed seed
    // keeps the run reproducible.
    static const char* const fragments[] = {
        "http://a.example/", "x", " ", "\n", "\r\n", "<", ">", "\"", "URL:", "URL: ", "-", "-\n", ".", ",", ")",
        "(", "[", "]", ":", "//", "www.", "w3.org", "@", "ietf/", "> ", "\n> ", "\t", "  ", "mailto:", "a@b.example",
        "\xE3\x80\x82", "\xC2\xA0", "\xFF", "\xE3\x81\x82", "ftp", "'s", "*", "?q=1&r=2", "#frag", "\n\n",
    };
    std::uint32_t seed = 12345;
    auto next = [&seed] {
        seed = seed * 1103515245u + 12345u;
        return (seed >> 16) & 0x7FFFu;
    };
    for (int round = 0; round < 500; ++round) {
        std::string text;
        const unsigned pieces = 5 + next() % 25;
        for (unsigned k = 0; k < pieces; ++k) text += fragments[next() % (sizeof fragments / sizeof *fragments)];
        INFO("text: " << text);
        urlsift::scan_options options;
        options.max_url_length = 16 + next() % 48;
        urlsift::test::check_chunk_invariance(text, options);
        urlsift::test::check_chunk_invariance(text, scheme_only());
    }
}

TEST_CASE("Appendix F: abbreviated URLs and what angle brackets hold", "[scanner][spec]") {
    const urlsift::scan_options defaults;
    const auto refs = refs_of("Try www.w3.org/Addressing/. Mail Roy <fielding@ics.uci.edu>; "
                              "press <Enter>, see <b>bold</b> and <file>.",
                              defaults);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].form == reference_form::abbreviated);
    CHECK(refs[0].raw == "www.w3.org/Addressing/");
    CHECK(refs[0].url == "http://www.w3.org/Addressing/");
    CHECK(refs[0].wrapper == wrapper_kind::none);
    CHECK(refs[1].form == reference_form::abbreviated);
    CHECK(refs[1].wrapper == wrapper_kind::angle);
    CHECK(refs[1].raw == "fielding@ics.uci.edu");
    CHECK(refs[1].url == "mailto:fielding@ics.uci.edu");

    // Off: only scheme URLs and wrapped references.
    CHECK(urls_of("Try www.w3.org/Addressing/ or <fielding@ics.uci.edu>.", scheme_only()).empty());
    // Prose words with periods are not candidates.
    CHECK(urls_of("The end. Really, e.g. this and i.e. that.", defaults).empty());
}

TEST_CASE("Regressions found by fuzzing", "[scanner]") {
    urlsift::scan_options small;
    small.max_url_length = 64;

    // A `"` that closes one reference does not open the next: outer spans never overlap.
    const auto refs = refs_of("\"http://a.example/x\"http://b.example/y\"", small);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].wrapper == wrapper_kind::quote);
    CHECK(refs[1].wrapper == wrapper_kind::none);
    CHECK(refs[1].outer.offset >= refs[0].outer.offset + refs[0].outer.length);

    // `URL:` followed by no reference leaves the rest of the run to be scanned.
    const std::string prefixed = "URL:" + std::string(25, '^') + "ath:}}}}}" + std::string(13, '^') + "Path^^^^^,^^^https://^^^^}" +
                                 std::string(9, '^') + "s://P";
    CHECK(urls_of(prefixed, small) == strings{"https://^^^^", "s://P"});

    // A candidate rejected at a closing bracket does not split the run there.
    const std::string closers = "rom}}}}}}}%}}}}}https://" + std::string(62, '}') + "s.int";
    urlsift::test::check_chunk_invariance(closers, small);

    // A dotted word after a `/` and punctuation, after a run too long to
    // judge whole: the word was judged as part of the path `/?a.th` in one
    // reading and alone after the `?` in another. A `/` before a word's
    // first letter makes it a path in every reading.
    urlsift::scan_options tiny;
    tiny.max_url_length = 16;
    CHECK(urls_of(".tht((.com/v((url? /?a.th ", tiny).empty());
    CHECK(urls_of(".tht((.com/v((url? /!a.th ", tiny).empty());
    CHECK(urls_of("see /?a.th, (/a.th) and ?a.th", {}) == strings{"http://a.th"});
}

// The anchor search reads 64 bytes at a time and leaves out a `.` or `:`
// followed by a blank; a word's place against those blocks must not matter.
TEST_CASE("what is found does not depend on where words fall in the anchor blocks", "[scanner][streaming]") {
    const std::string body =
        "see URL: http://example.org/a. Then e.g. foo.c: or Makefile.in and www.example.com/x.\n"
        "> quoted: <mailto:a@example.org> and 1.2.3 and libs/x/y.hpp, Note: done.";
    const strings expected = urls_of(body, urlsift::scan_options{});
    REQUIRE(expected == strings{"http://example.org/a", "http://www.example.com/x", "mailto:a@example.org"});
    for (std::size_t pad = 0; pad <= 130; ++pad) {
        INFO("padding: " << pad);
        CHECK(urls_of(std::string(pad, 'x') + " " + body, urlsift::scan_options{}) == expected);
        CHECK(urls_of(std::string(pad, ' ') + body, urlsift::scan_options{}) == expected);
    }
}

// The scanner settles most dotted words of prose before the full rules
// of Appendix F see them: a last label that is no TLD or a number, a host
// cut by a `/` before the first dot, a word ending in its first dot. Each
// settled shape next to the same shape the rules complete.
TEST_CASE("words settled without the full rules are those the rules turn down", "[scanner][precision]") {
    urlsift::scan_options all;
    all.abbrev.kinds = urlsift::abbrev_all;
    // Numbers: a dotted quad needs a port or a path.
    CHECK(urls_of("see BSL-1.0 and 2.1, v2.36.1: done\n", all).empty());
    CHECK(urls_of("host 10.0.0.1 and 10.0.0.1:8080 and 10.0.0.1/x\n", all) ==
          strings{"http://10.0.0.1:8080", "http://10.0.0.1/x"});
    // A `/` before the first dot: the host is the one label before it.
    CHECK(urls_of("see src/Makefile.am and src/example.com then example.com/src\n", all) ==
          strings{"http://example.com/src"});
    CHECK(urls_of("(src/x.org) [lib/y.net], a/b/c.d.io/x and www.x.org/a/b.c\n", all) ==
          strings{"http://www.x.org/a/b.c"});
    // The first dot ends the word: `etc.,`, `file.:`.
    CHECK(urls_of("etc., Inc., file.: and example.org.\n", all) == strings{"http://example.org"});
    // A host with its TLD, alone, is still one.
    CHECK(urls_of("see example.com now and x/y then example.net, done\n", all) ==
          strings{"http://example.com", "http://example.net"});
}

TEST_CASE("URLs listed without blanks end at the comma before the next one", "[scanner][precision]") {
    // OpenSSL's x509v3_config: `OCSP;URI:URL,caIssuers;URI:URL`.
    CHECK(urls_of("authorityInfoAccess = OCSP;URI:http://ocsp.example.com/,caIssuers;URI:http://myca.example.com/ca.cer\n") ==
          std::vector<std::string>{"http://ocsp.example.com/", "http://myca.example.com/ca.cer"});
    CHECK(urls_of("mirrors: http://a.example/x,http://b.example/y\n") ==
          std::vector<std::string>{"http://a.example/x", "http://b.example/y"});
    // A comma in the query is the query's; one with no URL after it is the path's.
    CHECK(urls_of("see https://e.example/r?u=a,http://c.example/ now\n") ==
          std::vector<std::string>{"https://e.example/r?u=a,http://c.example/"});
    CHECK(urls_of("see http://d.example/a,b/c now\n") == std::vector<std::string>{"http://d.example/a,b/c"});
    // The Wayback Machine's form has no comma: one URL.
    CHECK(urls_of("https://web.archive.org/web/2020/http://x.example/\n") ==
          std::vector<std::string>{"https://web.archive.org/web/2020/http://x.example/"});
}
