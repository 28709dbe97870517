// Appendix B: splitting a reference into its components, and Section 5.2
// step 7: putting them back together.

#include <urlsift/reference.hpp>

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
