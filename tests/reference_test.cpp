// Appendix B: splitting a reference into its components, and Section 5.2
// step 7: putting them back together.

#include <urlsift/reference.hpp>

#include "uri/uri_form.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <random>
#include <string>
#include <string_view>

using urlsift::parse_reference;
using urlsift::recompose;

namespace {

using opt = std::optional<std::string_view>;

void check(std::string_view ref, opt scheme, opt site, std::string_view path, opt query, opt fragment) {
    const std::string copy(ref);  // exact-size heap copy: sanitizers see over-reads
    const auto p = parse_reference(copy);
    INFO("reference: " << ref);
    CHECK(p.scheme == scheme);
    CHECK(p.site == site);
    CHECK(p.path == path);
    CHECK(p.query == query);
    CHECK(p.fragment == fragment);
    CHECK(recompose(p) == ref);
}

}  // namespace

TEST_CASE("Appendix B example splits into its components", "[reference][spec]") {
    // $2 = http, $4 = www.ics.uci.edu, $5 = /pub/ietf/uri/, $7 undefined, $9 = Related
    check("http://www.ics.uci.edu/pub/ietf/uri/#Related", "http", "www.ics.uci.edu", "/pub/ietf/uri/",
          std::nullopt, "Related");
}

TEST_CASE("undefined components are kept apart from empty ones", "[reference][spec]") {
    check("", std::nullopt, std::nullopt, "", std::nullopt, std::nullopt);
    check("?", std::nullopt, std::nullopt, "", "", std::nullopt);
    check("#", std::nullopt, std::nullopt, "", std::nullopt, "");
    check("?#", std::nullopt, std::nullopt, "", "", "");
    check("//", std::nullopt, "", "", std::nullopt, std::nullopt);
    check("http:", "http", std::nullopt, "", std::nullopt, std::nullopt);
    check("http://", "http", "", "", std::nullopt, std::nullopt);
    check("file:///etc/motd", "file", "", "/etc/motd", std::nullopt, std::nullopt);
}

TEST_CASE("relative forms of Section 5 parse as Appendix B says", "[reference][spec]") {
    check("g;x?y#s", std::nullopt, std::nullopt, "g;x", "y", "s");
    check("//g", std::nullopt, "g", "", std::nullopt, std::nullopt);
    check("../g", std::nullopt, std::nullopt, "../g", std::nullopt, std::nullopt);
    check("g:h", "g", std::nullopt, "h", std::nullopt, std::nullopt);
    check("./this:that", std::nullopt, std::nullopt, "./this:that", std::nullopt, std::nullopt);
    // A colon after the first "/", "?" or "#" does not make a scheme.
    check("/a:b", std::nullopt, std::nullopt, "/a:b", std::nullopt, std::nullopt);
    check("?a:b", std::nullopt, std::nullopt, "", "a:b", std::nullopt);
    check(":x", std::nullopt, std::nullopt, ":x", std::nullopt, std::nullopt);
    check("mailto:mduerst@ifi.unizh.ch", "mailto", std::nullopt, "mduerst@ifi.unizh.ch", std::nullopt,
          std::nullopt);
    check("http://a/b?c#d#e?f", "http", "a", "/b", "c", "d#e?f");
}

TEST_CASE("recomposition round-trips random references", "[reference][property]") {
    std::mt19937 rng(20261121);
    constexpr std::string_view alphabet = "ab:/?#.%@;=&+-_~[]\\ \t\x01\xC3\xA9";
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    std::uniform_int_distribution<int> length(0, 24);
    for (int i = 0; i < 20000; ++i) {
        std::string s;
        for (int n = length(rng); n > 0; --n) s += alphabet[pick(rng)];
        const auto p = parse_reference(s);
        REQUIRE(recompose(p) == s);
        // Parsing the recomposed text again gives the same components.
        const std::string again = recompose(p);
        REQUIRE(parse_reference(again) == parse_reference(s));
    }
}

TEST_CASE("a decoded URL in URI form: what no URL holds as written is escaped (Section 2.4)", "[reference][uri-form]") {
    using urlsift::detail::uri_form;
    CHECK(uri_form("http://example.org/a/b.html?x=1#y") == "http://example.org/a/b.html?x=1#y");
    CHECK(uri_form("docs/the guide.md") == "docs/the%20guide.md");
    CHECK(uri_form("http://x.example/\x1B]8;;http://evil/\x1B\\x") == "http://x.example/%1B]8;;http://evil/%1B%5Cx");
    CHECK(uri_form("a\"b<c>d{e}|^`") == "a%22b%3Cc%3Ed%7Be%7D%7C%5E%60");
    // Letters of other scripts stay; spaces, format characters and C1
    // controls of Unicode, and bytes that are not UTF-8, do not.
    CHECK(uri_form("https://de.example/K\xC3\xB6ln") == "https://de.example/K\xC3\xB6ln");
    CHECK(uri_form("\xC2\xA0/") == "%C2%A0/");
    CHECK(uri_form("https://ex.org/a\xE2\x80\xAE" "b\xE2\x80\x8B") == "https://ex.org/a%E2%80%AEb%E2%80%8B");
    CHECK(uri_form("x\xC2\x85y\xFFz") == "x%C2%85y%FFz");
    // Escaping is done once: a second pass changes nothing.
    CHECK(uri_form("a%20b") == "a%20b");
    // A host is never escaped: such a value names no host.
    CHECK_FALSE(uri_form("http://\"><script>alert(5)</script>.example/"));
    CHECK_FALSE(uri_form("//exa mple.org/"));
    CHECK_FALSE(uri_form("http://ex\x1B.org/"));
    CHECK(uri_form("http://[2001:db8::1]:8080/") == "http://[2001:db8::1]:8080/");
}

TEST_CASE("references to the current document (Section 4.2)", "[reference][spec]") {
    CHECK(urlsift::is_same_document(""));
    CHECK(urlsift::is_same_document("#s"));
    CHECK(urlsift::is_same_document("#"));
    CHECK_FALSE(urlsift::is_same_document("?y#s"));
    CHECK_FALSE(urlsift::is_same_document("g#s"));
    CHECK_FALSE(urlsift::is_same_document("//a#s"));
    CHECK_FALSE(urlsift::is_same_document("http:#s"));
}
