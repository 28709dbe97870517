// Links rewritten by mail security gateways, read back as their targets.
// Every vector below was built by hand from the gateway's documented format
// (src/uri/unwrap.cpp cites each).

#include <urlsift/unwrap.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

using urlsift::gateway_kind;

namespace {

/// `url` through an exact-size heap copy: sanitizers see an over-read.
std::optional<urlsift::unwrapped> unwrap_copy(std::string_view url, bool deep = false, unsigned max_layers = 4) {
    const auto copy = std::make_unique<char[]>(url.size());
    if (!url.empty()) std::memcpy(copy.get(), url.data(), url.size());
    const std::string_view view(copy.get(), url.size());
    return deep ? urlsift::unwrap_gateways(view, max_layers) : urlsift::unwrap_gateway(view);
}

/// One row: `wrapped` unwraps (one layer) to `target`, from `gateway`.
void check(std::string_view wrapped, std::string_view target, gateway_kind gateway) {
    INFO("wrapped: " << wrapped);
    const auto u = unwrap_copy(wrapped);
    REQUIRE(u.has_value());
    CHECK(u->url == target);
    CHECK(urlsift::to_string(u->gateway) == urlsift::to_string(gateway));
    CHECK(u->layers == 1u);
}

/// One row: `url` is left alone.
void check_alone(std::string_view url) {
    INFO("url: " << url);
    if (const auto u = unwrap_copy(url)) FAIL_CHECK("unwrapped to " << u->url);
    if (const auto u = unwrap_copy(url, true)) FAIL_CHECK("unwrapped (deep) to " << u->url);
}

/// Percent-encodes every byte but unreserved ones, as a gateway encodes its
/// query parameter.
std::string pct(std::string_view s) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~') {
            out += ch;
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

constexpr auto safelinks = gateway_kind::safelinks;
constexpr auto v1 = gateway_kind::proofpoint_v1;
constexpr auto v2 = gateway_kind::proofpoint_v2;
constexpr auto v3 = gateway_kind::proofpoint_v3;
constexpr auto google = gateway_kind::google;

}  // namespace

TEST_CASE("gateway names are stable", "[unwrap]") {
    CHECK(urlsift::to_string(safelinks) == "safelinks");
    CHECK(urlsift::to_string(v1) == "proofpoint-v1");
    CHECK(urlsift::to_string(v2) == "proofpoint-v2");
    CHECK(urlsift::to_string(v3) == "proofpoint-v3");
    CHECK(urlsift::to_string(google) == "google");
}

TEST_CASE("Safe Links: the url parameter, percent-decoded once", "[unwrap]") {
    check("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2Fdocs%2Freport.pdf"
          "&data=05%7C02%7C%7C2e9f06b0%7C1%7C0%7C638403423578665559%7CUnknown&sdata=bMPrbif%2B96Qo%3D&reserved=0",
          "https://example.org/docs/report.pdf", safelinks);
    // Query string and fragment of the target; `+` stays a plus.
    check("https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2Fsearch%3Fq%3Da%2Bb"
          "%26lang%3Dde%23top&data=05&sdata=x&reserved=0",
          "https://example.org/search?q=a+b&lang=de#top", safelinks);
    check("https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2F%3Fq%3Da+b&data=05",
          "https://example.org/?q=a+b", safelinks);
    // Parameters in another order, names and host in another case, no path.
    check("https://nam11.safelinks.protection.outlook.com?data=05%7C01&URL=http%3A%2F%2Fexample.org%2F&reserved=0",
          "http://example.org/", safelinks);
    check("HTTPS://APC01.SAFELINKS.PROTECTION.OUTLOOK.COM/?url=https%3A%2F%2Fexample.org%2F&reserved=0",
          "https://example.org/", safelinks);
    // Microsoft's US government clouds have their own domain.
    check("https://gcc02.safelinks.protection.office365.us/?url=https%3A%2F%2Fexample.gov%2Fnotice&data=05",
          "https://example.gov/notice", safelinks);
    // Non-ASCII: the target's UTF-8 comes back as UTF-8 (an IRI), and an
    // escape the target itself had stays one.
    check("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fde.wikipedia.org%2Fwiki%2FK%C3%B6ln"
          "&data=05",
          "https://de.wikipedia.org/wiki/K\xC3\xB6ln", safelinks);
    check("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fde.wikipedia.org%2Fwiki%2FK%25C3%25B6ln"
          "&data=05",
          "https://de.wikipedia.org/wiki/K%C3%B6ln", safelinks);
    check("https://nam02.safelinks.protection.outlook.com/?url=" + pct("https://例え.テスト/パス?q=日本#節") + "&data=05",
          "https://例え.テスト/パス?q=日本#節", safelinks);
    // What a URL cannot hold as it is goes back into escapes: bytes that are
    // not UTF-8, spaces, controls.
    check("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2Fcaf%E9&data=05",
          "https://example.org/caf%E9", safelinks);
    check("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2Fa%20b%0D%0A&data=05",
          "https://example.org/a%20b%0D%0A", safelinks);
    // An escape that is no escape is kept as written.
    check("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2F100%ZZ&data=05",
          "https://example.org/100%ZZ", safelinks);
    // Other schemes urlsift accepts.
    check("https://nam02.safelinks.protection.outlook.com/?url=ftp%3A%2F%2Fftp.example.org%2Fpub%2F&data=05",
          "ftp://ftp.example.org/pub/", safelinks);
    check("https://nam02.safelinks.protection.outlook.com/?url=mailto%3Ajane%40example.org%3Fsubject%3DHi&data=05",
          "mailto:jane@example.org?subject=Hi", safelinks);
}

TEST_CASE("Proofpoint v1: u, percent-decoded, then character references", "[unwrap]") {
    check("https://urldefense.proofpoint.com/v1/url?u=http://www.bouncycastle.org/&k=oIvRg1%2BdGAgOoM1BIlLLqw%3D%3D%0A"
          "&r=IKM5u8%2B%2F%2Fi8EBhWOS%2BqGbTqCC%2BrMqWI%2FVfEAEsQO%2F0Y%3D%0A&m=Ww6iaHO73mDQ%3D%0A&s=d3583cfa53dade97",
          "http://www.bouncycastle.org/", v1);
    check("https://urldefense.proofpoint.com/v1/url?u=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1%26c%3D2%23f&k=abc%3D%0A"
          "&r=x&m=y&s=z",
          "https://example.org/a?b=1&c=2#f", v1);
    // The rewriter took the link from HTML source: `&amp;` stood for `&`.
    check("https://urldefense.proofpoint.com/v1/url?u=https%3A%2F%2Fexample.org%2F%3Fa%3D1%26amp%3Bb%3D2%26%2360%3B"
          "&k=x",
          "https://example.org/?a=1&b=2%3C", v1);
    check("https://urldefense.proofpoint.com/v1/url?u=https%3A%2F%2Fexample.org%2FM%C3%BCnchen&k=x",
          "https://example.org/M\xC3\xBCnchen", v1);
}

TEST_CASE("Proofpoint v2: u with '-' for '%' and '_' for '/'", "[unwrap]") {
    check("https://urldefense.proofpoint.com/v2/url?u=http-3A__www.example.org_url&d=BwdwBAg&c=TIwfCwdwWnrHy3gMA"
          "&r=abc&m=def&s=ghi&e=",
          "http://www.example.org/url", v2);
    // A '_', a '-' and a '%' of the target are escaped, and so are its
    // query and fragment delimiters.
    check("https://urldefense.proofpoint.com/v2/url?u=https-3A__example.org_path-5Fname_file-2D1.html-3Fq-3Da-26b-3Dc"
          "-23frag&d=DwMFaQ&c=euGZstcaTDllvimEN8b7jXrwqOf-v5A_CdpgnVfiiMM&r=x&m=y&s=z&e=",
          "https://example.org/path_name/file-1.html?q=a&b=c#frag", v2);
    check("https://urldefense.proofpoint.com/v2/url?u=https-3A__example.org_a-2520b&d=x&c=y",
          "https://example.org/a%20b", v2);
    check("https://urldefense.proofpoint.com/v2/url?u=https-3A__example.org_K-C3-B6ln&d=x&c=y",
          "https://example.org/K\xC3\xB6ln", v2);
    check("https://urldefense.proofpoint.com/v2/url?u=https-3A__example.org_-3Fa-3D1-26amp-3Bb-3D2&d=x&c=y",
          "https://example.org/?a=1&b=2", v2);
}

TEST_CASE("Proofpoint v3: each star filled from the base64url token after the double underscore", "[unwrap]") {
    // JSM = base64url("%#"): the first '*' is '%', the second '#'.
    check("https://urldefense.com/v3/__https://example.org/a*20b?x=1*top__;JSM!!Fjc1LPEtn8I!G8B4H-3lBw6AFgv$",
          "https://example.org/a%20b?x=1#top", v3);
    // Nothing replaced: an empty token.
    check("https://urldefense.com/v3/__https://example.org/plain?q=1&r=2__;!!Fjc1LPEtn8I!sig$",
          "https://example.org/plain?q=1&r=2", v3);
    // Replaced characters are code points, not bytes: 'ö' fills one '*';
    // '**A' is a run of 2 ('日本'). w7bml6XmnKw = base64url("ö日本").
    check("https://urldefense.com/v3/__https://example.org/K*ln/**A__;w7bml6XmnKw!!Org!sig$",
          "https://example.org/K\xC3\xB6ln/\xE6\x97\xA5\xE6\x9C\xAC", v3);
    // '**C' is a run of 4 (A=2, B=3, C=4, ...); IyMjIw = base64url("####").
    check("https://urldefense.com/v3/__https://example.org/x**C__;IyMjIw!!o!s$", "https://example.org/x####", v3);
    // Padding on the token is allowed.
    check("https://urldefense.com/v3/__https://example.org/x**C__;IyMjIw==!!o!s$", "https://example.org/x####", v3);
    // '*' for each '%' of an escape: JSUl = base64url("%%%").
    check("https://urldefense.com/v3/__https://example.org/*E2*82*AC__;JSUl!!o!s$",
          "https://example.org/%E2%82%AC", v3);
    // A run whose length letter is the last of the table: '_' = 65.
    // The token is base64url of 65 '~'.
    std::string token;
    for (int i = 0; i < 21; ++i) token += "fn5-";
    check("https://urldefense.com/v3/__https://example.org/**___;" + token + "fn4!!o!s$",
          "https://example.org/" + std::string(65, '~'), v3);
    // A scheme whose '//' lost a slash gets it back.
    check("https://urldefense.com/v3/__https:/example.org/p__;!!o!s$", "https://example.org/p", v3);
    // The older host name too.
    check("https://urldefense.proofpoint.com/v3/__https://example.org/__;!!o!s$", "https://example.org/", v3);
}

TEST_CASE("Google's redirector: q or url, percent-decoded", "[unwrap]") {
    check("https://www.google.com/url?q=https://example.org/page%3Fa%3D1%26b%3D2&sa=D&source=editors&ust=1700000000"
          "&usg=AOvVaw3x",
          "https://example.org/page?a=1&b=2", google);
    check("https://www.google.de/url?sa=t&rct=j&esrc=s&source=web&url=https%3A%2F%2Fexample.org%2F&ved=2ahUKEw",
          "https://example.org/", google);
    check("http://google.co.uk/url?q=https%3A%2F%2Fexample.org%2F%23f", "https://example.org/#f", google);
    check("https://www.google.com.au/url?q=http://example.org/", "http://example.org/", google);
    check("https://www.google.com/url?q=https://example.org/%E6%97%A5%E6%9C%AC", "https://example.org/日本", google);
    // q that is no URL gives way to url.
    check("https://www.google.com/url?q=hello&url=https%3A%2F%2Fexample.org%2F", "https://example.org/", google);
}

TEST_CASE("wrapped wrappers are unwrapped layer by layer", "[unwrap]") {
    const std::string v2_link = "https://urldefense.proofpoint.com/v2/url?u=https-3A__example.org_a&d=DwMF&c=x";
    const std::string outer = "https://nam02.safelinks.protection.outlook.com/?url=" + pct(v2_link) + "&data=05";
    check(outer, v2_link, safelinks);
    const auto deep = unwrap_copy(outer, true);
    REQUIRE(deep.has_value());
    CHECK(deep->url == "https://example.org/a");
    CHECK(deep->gateway == safelinks);
    CHECK(deep->layers == 2u);

    // A single layer is one layer deep too.
    const auto one = unwrap_copy(v2_link, true);
    REQUIRE(one.has_value());
    CHECK(one->url == "https://example.org/a");
    CHECK(one->layers == 1u);

    // Five Google layers: at most max_layers are removed.
    std::string link = "https://example.org/end";
    for (int i = 0; i < 5; ++i) link = "https://www.google.com/url?q=" + pct(link);
    const auto four = unwrap_copy(link, true, 4);
    REQUIRE(four.has_value());
    CHECK(four->layers == 4u);
    CHECK(four->url == "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2Fend");
    const auto all = unwrap_copy(link, true, 8);
    REQUIRE(all.has_value());
    CHECK(all->layers == 5u);
    CHECK(all->url == "https://example.org/end");
    CHECK_FALSE(unwrap_copy(link, true, 0).has_value());
}

TEST_CASE("lookalike hosts are not gateways", "[unwrap]") {
    const std::string target = "url=https%3A%2F%2Fbank.example%2F&data=05";
    check_alone("https://safelinks.protection.outlook.com.evil.example/?" + target);
    check_alone("https://nam02.safelinks.protection.outlook.com.evil.example/?" + target);
    check_alone("https://gcc02.safelinks.protection.office365.us.evil.example/?" + target);
    check_alone("https://safelinks.protection.office365.us/?" + target);
    check_alone("https://evilsafelinks.protection.outlook.com/?" + target);
    check_alone("https://safelinks.protection.outlook.com/?" + target);  // no region label
    check_alone("https://nam02.safelinks.protection.outlook.com@evil.example/?" + target);
    check_alone("https://user@nam02.safelinks.protection.outlook.com/?" + target);
    check_alone("https://nam02.safelinks.protection.outlook.com:8443/?" + target);
    check_alone("https://nam02.safelinks-protection.outlook.com/?" + target);
    check_alone("https://urldefense.proofpoint.com.evil.example/v2/url?u=https-3A__bank.example_&d=x");
    check_alone("https://xurldefense.com/v3/__https://bank.example/__;!!o!s$");
    check_alone("https://urldefense.co/v3/__https://bank.example/__;!!o!s$");
    check_alone("https://www.google.com.evil.example/url?q=https://bank.example/");
    check_alone("https://google.evil/url?q=https://bank.example/");
    check_alone("https://notgoogle.com/url?q=https://bank.example/");
    check_alone("https://www.google.example.com/url?q=https://bank.example/");
    check_alone("https://mail.google.com/url?q=https://bank.example/");
    // The gateway's host in the path or query of another site.
    check_alone("https://evil.example/nam02.safelinks.protection.outlook.com/?" + target);
    check_alone("https://evil.example/?u=https://urldefense.com/v3/__https://bank.example/__;!!o!s$");
    // Not http(s).
    check_alone("ftp://nam02.safelinks.protection.outlook.com/?" + target);
}

TEST_CASE("malformed gateway links are left alone", "[unwrap]") {
    const std::string sl = "https://nam02.safelinks.protection.outlook.com/";
    check_alone(sl);
    check_alone(sl + "?data=05&reserved=0");  // no url
    check_alone(sl + "?url=&data=05");        // empty
    check_alone(sl + "?url=%2Flocal%2Fpath&data=05");           // relative
    check_alone(sl + "?url=example.org%2Fx&data=05");           // no scheme
    check_alone(sl + "?url=javascript%3Aalert(1)&data=05");     // a script
    check_alone(sl + "?url=JavaScript%3A%2F%2F%250Aalert(1)");  // a script that looks hierarchical
    check_alone(sl + "?url=Note%3A%20call%20me&data=05");        // `Note:` is no scheme
    check_alone(sl + "?url=https%3Aexample.org&data=05");       // http without //
    check_alone(sl + "?url=https%3A%2F%2F&data=05");            // no site
    check_alone(sl + "other?url=https%3A%2F%2Fexample.org%2F");  // another path
    check_alone(sl + "#url=https%3A%2F%2Fexample.org%2F");       // in the fragment
    check_alone("https://urldefense.proofpoint.com/v2/url?d=x&c=y");          // no u
    check_alone("https://urldefense.proofpoint.com/v2/other?u=https-3A__x.example_");
    check_alone("https://urldefense.proofpoint.com/v9/url?u=https-3A__x.example_");
    check_alone("https://urldefense.com/v3/__https://example.org/*__;!!o!s$");          // '*' with nothing to fill it
    check_alone("https://urldefense.com/v3/__https://example.org/**A__;JQ!!o!s$");       // a run longer than the token
    check_alone("https://urldefense.com/v3/__https://example.org/**~__;JSUl!!o!s$");     // no such run length
    check_alone("https://urldefense.com/v3/__https://example.org/*__;J$M!!o!s$");        // not base64url
    check_alone("https://urldefense.com/v3/__https://example.org/*__;J!!o!s$");          // a lone sextet
    check_alone("https://urldefense.com/v3/__https://example.org/*__;_w!!o!s$");         // not UTF-8 (0xFF)
    check_alone("https://urldefense.com/v3/__https://example.org/__!!o!s$");             // no '__;'
    check_alone("https://urldefense.com/v3/__https://example.org/__;JSM");               // no '!'
    check_alone("https://urldefense.com/v3/https://example.org/__;!!o!s$");              // no '__' before it
    check_alone("https://urldefense.com/v3/____;!!o!s$");                                // nothing wrapped
    check_alone("https://www.google.com/url?q=hello+world&sa=D");
    check_alone("https://www.google.com/search?q=https://example.org/");
    check_alone("https://www.google.com/url?q=javascript:alert(1)");
    // Not gateways at all.
    check_alone("");
    check_alone("https://example.org/?url=https%3A%2F%2Fexample.net%2F");
    check_alone("mailto:jane@example.org");
    check_alone("urn:isbn:0451450523");
    check_alone("https://");
    check_alone("https:");
    check_alone("%");
}

TEST_CASE("long and hostile gateway links cost linear work and never throw", "[unwrap]") {
    // Many '*' and a short token: rejected, not read past the token.
    check_alone("https://urldefense.com/v3/__https://example.org/" + std::string(200000, '*') + "__;JSM!!o!s$");
    // Many runs, each satisfied: the result is read in one pass.
    std::string stars, token;
    for (int i = 0; i < 20000; ++i) stars += "**A";
    for (int i = 0; i < 10000; ++i) token += "IyMj";  // "###" a quad: 30000 bytes
    // 40000 characters wanted, 30000 given.
    check_alone("https://urldefense.com/v3/__https://example.org/" + stars + "__;" + token + "!!o!s$");
    const auto u = unwrap_copy("https://urldefense.com/v3/__https://example.org/" + stars.substr(0, 45000) + "__;" +
                               token + "!!o!s$");
    REQUIRE(u.has_value());
    CHECK(u->url == "https://example.org/" + std::string(30000, '#'));
    // A long query of many parameters, and a long escaped target.
    std::string params;
    for (int i = 0; i < 50000; ++i) params += "a=b&";
    check_alone("https://nam02.safelinks.protection.outlook.com/?" + params);
    const std::string long_target = "https://example.org/" + std::string(300000, 'x');
    const auto s = unwrap_copy("https://nam02.safelinks.protection.outlook.com/?" + params + "url=" + pct(long_target));
    REQUIRE(s.has_value());
    CHECK(s->url == long_target);
    // Bytes of every value in odd places.
    std::string noise;
    for (int c = 0; c < 256; ++c) noise += static_cast<char>(c);
    check_alone("https://nam02.safelinks.protection.outlook.com/?url=" + noise);
    check_alone("https://urldefense.com/v3/__" + noise + "__;" + noise + "!!");
    check_alone("https://urldefense.proofpoint.com/v2/url?u=" + noise);
    CHECK_NOTHROW(unwrap_copy(noise + "https://www.google.com/url?q=" + noise, true));
}
