// Normalization: Section 6 of 001_*.txt (host case, default ports),
// Section 2.4.2 (unreserved escapes), and the browser draft's canonical
// forms (IDNA, UTF-8 percent-encoding, "/" for an empty http path).

#include <urlsift/normalize.hpp>
#include <urlsift/reference.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

using urlsift::error;
using urlsift::normalize;

namespace {

void check(std::string_view url, std::string_view expected) {
    const std::string copy(url);  // exact-size heap copy: sanitizers see over-reads
    INFO("url: " << url);
    const auto r = normalize(copy);
    REQUIRE(r);
    CHECK(*r == expected);
    // The normal form is a fixed point.
    const auto again = normalize(*r);
    REQUIRE(again);
    CHECK(*again == *r);
}

void check_error(std::string_view url, error e, std::size_t offset) {
    const std::string copy(url);
    INFO("url: " << url);
    const auto r = normalize(copy);
    REQUIRE_FALSE(r);
    CHECK(r.error() == e);
    CHECK(r.error_offset() == offset);
}

}  // namespace

TEST_CASE("Section 6: host names are case independent", "[normalize][spec]") {
    check("http://www.XEROX.com", "http://www.xerox.com/");
    check("http://www.xerox.com", "http://www.xerox.com/");
    check("HTTP://WWW.Xerox.COM/Path/To?Q=A#Frag", "http://www.xerox.com/Path/To?Q=A#Frag");
    check("http://User:Pass@EXAMPLE.org/", "http://User:Pass@example.org/");
    check("http://[2001:DB8::1]:8080/", "http://[2001:db8::1]:8080/");
}

TEST_CASE("Section 6: the scheme's default port is elided", "[normalize][spec]") {
    check("http://a:80/", "http://a/");
    check("https://a:443/x", "https://a/x");
    check("https://a:80/x", "https://a:80/x");
    check("ftp://a:21/f", "ftp://a/f");
    check("gopher://spinaltap.micro.umn.edu:70/00/Weather", "gopher://spinaltap.micro.umn.edu/00/Weather");
    check("telnet://melvyl.ucop.edu:23/", "telnet://melvyl.ucop.edu/");
    check("news://h:119/x", "news://h/x");
    check("nntp://h:119/x", "nntp://h/x");
    check("wais://h:210/x", "wais://h/x");
    check("prospero://h:1525/x", "prospero://h/x");
    check("ws://h:80/", "ws://h/");
    check("wss://h:443/", "wss://h/");
    check("http://a:/", "http://a/");       // an empty port is no port (Section 4.3.1)
    check("http://a:0080/", "http://a/");   // the number, not the digits
    check("http://a:08080/", "http://a:8080/");
    check("foo://a:80/", "foo://a:80/");    // no default known
    CHECK(urlsift::default_port("http") == 80);
    CHECK(urlsift::default_port("gopher") == 70);
    CHECK(urlsift::default_port("mailto") == 0);
}

TEST_CASE("Section 2.4.2: escapes of unreserved characters are decoded", "[normalize][spec]") {
    check("http://a/%7euser", "http://a/~user");
    check("http://a/%7Euser/%41%62%2D%2e%5F", "http://a/~user/Ab-._");
    check("http://a/a%2fb", "http://a/a%2Fb");              // an escaped "/" stays escaped
    check("http://a/?q=%3d%26", "http://a/?q=%3D%26");      // reserved: kept, upper-cased
    check("telnet://h/%0d%0a", "telnet://h/%0D%0A");        // Section 7: never decoded
    check("http://a/%25", "http://a/%25");
    check("http://a/100%", "http://a/100%");                // not an escape; left alone
    check("http://a/%2e%2E/b", "http://a/b");               // decoded dots are dot segments
    check("HTTP://www.XEROX.com:80/%7euser", "http://www.xerox.com/~user");
}

TEST_CASE("non-ASCII hosts go through IDNA, non-ASCII text is percent-encoded", "[normalize][spec]") {
    check("http://b\xC3\xBC" "cher.example/", "http://xn--bcher-kva.example/");
    check("http://B\xC3\x9C" "CHER.example/", "http://xn--bcher-kva.example/");
    check("http://XN--BCHER-KVA.example/", "http://xn--bcher-kva.example/");
    check("http://b%C3%BCcher.example/", "http://xn--bcher-kva.example/");
    check("http://a/caf\xC3\xA9?q=\xE2\x82\xAC#\xC3\xA9", "http://a/caf%C3%A9?q=%E2%82%AC#%C3%A9");
    check("http://a/a%c3%a9", "http://a/a%C3%A9");
    check("http://a/a b\"<>`{}", "http://a/a%20b%22%3C%3E%60%7B%7D");
    check("http://a/?a b", "http://a/?a%20b");
    check("http://a/#a b`", "http://a/#a%20b%60");
    check_error("http://a\xE2\x80\x8D" "b.example/", error::invalid_host, 7);
    check_error("http://xn--a.example/", error::invalid_host, 7);
}

TEST_CASE("paths: dot segments removed, empty http path is /", "[normalize][spec]") {
    check("http://a/b/c/./../../g", "http://a/g");
    check("http://a/../../g", "http://a/g");
    check("http://a/b/.", "http://a/b/");
    check("http://a?q", "http://a/?q");
    check("http://a#f", "http://a/#f");
    check("file:///etc/./motd", "file:///etc/motd");
    check("foo://h", "foo://h");                            // only http-like schemes get "/"
    check("foo:/a/./b/../c", "foo:/a/c");
    check("mailto:Someone@EXAMPLE.org", "mailto:Someone@EXAMPLE.org");  // opaque: untouched but escapes
    check("urn:a/./b", "urn:a/./b");
    check("MAILTO:%7e@x", "mailto:~@x");
}

TEST_CASE("bad ports and hosts fail with their offset", "[normalize][errors]") {
    check_error("http://a:8x/", error::invalid_port, 10);
    check_error("http://a:65536/", error::invalid_port, 9);
    check_error("http://[::1/", error::invalid_host, 7);
    check_error("http://[::1]x/", error::invalid_host, 12);
    check_error("h_t:x", error::invalid_scheme, 1);
}

TEST_CASE("regression: a registry-based site holding ':' is kept as written", "[normalize][regression]") {
    // Section 4.3.1: such a site has no host and port to split; reading
    // `Examlpe.NET::` as host `Examlpe.NET:` and an empty port dropped a
    // ':' on every pass, so normalizing was not idempotent.
    check("HTTP://Examlpe.NET:://%1E/x", "http://Examlpe.NET:://%1E/x");
    check("http://a:b:80/", "http://a:b:80/");
    check("http://u@Ex.COM:80/a", "http://u@ex.com/a");
    const auto once = normalize("HTTP://Examlpe.NET:://%1E/x");
    REQUIRE(once);
    CHECK(*normalize(*once) == *once);
}

TEST_CASE("regression: removing dot segments never makes a path into a site", "[normalize][regression]") {
    // Section 3: "//" after the scheme starts a site. "file:/.//etc/passwd"
    // lost its "/." and became "file://etc/passwd", whose host is "etc".
    check("file:/.//etc/passwd", "file:/.//etc/passwd");
    check("h:/.//:", "h:/.//:");
    check("news:/a/..//x:/y", "news:/.//x:/y");
    check("/.//x", "/.//x");
    check("http://a/.//x", "http://a//x");  // with a site "//" is a path
    const auto once = normalize("file:/.//etc/passwd");
    REQUIRE(once);
    CHECK(urlsift::parse_reference(*once).site == std::nullopt);
}

TEST_CASE("regression: decoding an escape never completes one with a lone '%'", "[normalize][regression]") {
    // The browser mode keeps a "%" that starts no escape. Decoding the
    // "%41" after it gave "%A", and "%Abe" became "%ABe" on the next pass.
    check("http://a/100%%41be", "http://a/100%%41be");
    check("http://a/%4%41", "http://a/%4%41");
    check("http://a/%%7E", "http://a/%~");  // '~' is no hex digit
    check("http://a/%G%41", "http://a/%GA");
}

TEST_CASE("regression: decoding a host's escape never completes one with a lone '%'", "[normalize][regression]") {
    // The same for a registry name: "a%7%41be" gave "a%7abe", and "%7a"
    // decoded to "z" on the next pass.
    check("http://a%7%41be/", "http://a%7%41be/");
    check("http://x%0%41t/", "http://x%0%41t/");
}

TEST_CASE("regression: a host with a '%' left after decoding is no IDNA name", "[normalize][regression]") {
    // IDNA moved the non-ASCII letter out of "%%4\u029Fbe", leaving "%%4be",
    // whose "%4b" the next pass decoded: not idempotent. A DNS label holds
    // no '%', so such a host has no normal form.
    check_error("hp://x@a%0ea%0%%4%CA%9Fbe", error::invalid_host, 7);
    check_error("http://b%%41\xC3\xA9/", error::invalid_host, 7);
}

TEST_CASE("regression: an IDNA result that holds a space is no host", "[normalize][regression]") {
    // U+00B8 CEDILLA maps to a space and U+0327; the A-label then held a
    // space, and the normal form did not read back as a URL.
    check_error("rgt://B\xC2\xB8" "ch8news:/%74e", error::invalid_host, 6);
}
