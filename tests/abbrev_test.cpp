// Appendix F: abbreviated URLs completed by heuristics, the `--abbrev`
// switches, what angle brackets hold, and the TLD table behind them.
// The decision rules are docs/abbreviations.md.

#include <urlsift/abbrev.hpp>

#include "abbrev/non_reference.hpp"
#include "abbrev/tld_table.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using urlsift::abbrev_all;
using urlsift::abbrev_default;
using urlsift::abbrev_kind;
using urlsift::abbrev_none;
using urlsift::abbrev_options;
using urlsift::abbrev_set;
using urlsift::angle_content;
using urlsift::classify_angle;
using urlsift::complete_abbreviated;
using urlsift::parse_abbrev_list;

namespace {

struct row {
    int line = 0;
    std::vector<std::string> fields;
};

/// A tab-separated table from tests/data; `#` lines are comments. Empty
/// fields are kept (the `before` column is often empty).
std::vector<row> load_table(const std::string& name, std::size_t columns) {
    std::ifstream in(std::string(URLSIFT_TEST_DATA_DIR) + "/" + name);
    REQUIRE(in.good());
    std::vector<row> rows;
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
        ++line;
        if (text.empty() || text.front() == '#') continue;
        row r;
        r.line = line;
        std::size_t start = 0;
        while (true) {
            const std::size_t tab = text.find('\t', start);
            r.fields.push_back(text.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        INFO(name << ":" << line);
        REQUIRE(r.fields.size() == columns);
        rows.push_back(std::move(r));
    }
    return rows;
}

abbrev_options with(abbrev_set kinds, bool https = false) {
    abbrev_options o;
    o.kinds = kinds;
    o.https = https;
    return o;
}

abbrev_set bit(abbrev_kind kind) { return static_cast<abbrev_set>(kind); }

/// The completion of `token`, or "" when there is none; inputs go through
/// exact-size heap copies so that sanitizers see over-reads.
std::string completed(std::string_view token, std::string_view before = "",
                      const abbrev_options& options = abbrev_options{}) {
    const std::string t(token);
    const std::string b(before);
    const auto m = complete_abbreviated(t, b, options);
    return m ? m->url : std::string();
}

std::optional<abbrev_kind> kind_of(std::string_view token, std::string_view before = "",
                                   const abbrev_options& options = abbrev_options{}) {
    const std::string t(token);
    const std::string b(before);
    const auto m = complete_abbreviated(t, b, options);
    return m ? std::optional<abbrev_kind>(m->kind) : std::nullopt;
}

angle_content angle(std::string_view content) {
    const std::string c(content);
    return classify_angle(c);
}

}  // namespace

// --- data tables --------------------------------------------------------------

TEST_CASE("tokens from prose and code are not taken for URLs", "[abbrev][data]") {
    const auto rows = load_table("abbrev-negatives.tsv", 3);
    CHECK(rows.size() >= 40);
    for (const auto& r : rows) {
        DYNAMIC_SECTION("line " << r.line << ": " << r.fields[0]) {
            INFO("before: '" << r.fields[1] << "', why: " << r.fields[2]);
            CHECK(completed(r.fields[0], r.fields[1]).empty());
            CHECK(completed(r.fields[0], r.fields[1], with(abbrev_all)).empty());
        }
    }
}

TEST_CASE("abbreviated URLs are completed as the table says", "[abbrev][data]") {
    const auto rows = load_table("abbrev-positives.tsv", 4);
    for (const auto& r : rows) {
        DYNAMIC_SECTION("line " << r.line << ": " << r.fields[0]) {
            INFO("before: '" << r.fields[1] << "'");
            const std::string t(r.fields[0]);
            const auto m = complete_abbreviated(t, r.fields[1], with(abbrev_all));
            REQUIRE(m);
            CHECK(m->url == r.fields[2]);
            CHECK(urlsift::to_string(m->kind) == r.fields[3]);
            // The defaults differ from `all` only in ipv4.
            const std::string by_default = completed(r.fields[0], r.fields[1]);
            CHECK(by_default == (r.fields[3] == "ipv4" ? std::string() : r.fields[2]));
        }
    }
}

TEST_CASE("may_complete_host never rules out a host the rules complete", "[abbrev][data]") {
    // The scanner drops a word early on this verdict; a wrong "no" would
    // lose a URL. Every ASCII host-only token of the table must pass.
    for (const auto& r : load_table("abbrev-positives.tsv", 4)) {
        const std::string& t = r.fields[0];
        if (t.find_first_of("@:/?#") != std::string::npos) continue;
        if (std::any_of(t.begin(), t.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) continue;
        INFO("abbrev-positives.tsv:" << r.line << ": " << t);
        CHECK(urlsift::may_complete_host(t));
    }
    CHECK_FALSE(urlsift::may_complete_host("cron.daily"));
    CHECK_FALSE(urlsift::may_complete_host("BSL-1.0"));
    CHECK_FALSE(urlsift::may_complete_host("localhost"));
    CHECK_FALSE(urlsift::may_complete_host("example."));
    CHECK(urlsift::may_complete_host("192.0.2.1"));
    CHECK(urlsift::may_complete_host("EXAMPLE.COM"));
}

// --- each kind ------------------------------------------------------------------

TEST_CASE("www: a www. host is an http URL", "[abbrev][www]") {
    CHECK(completed("www.w3.org/Addressing/", "see ") == "http://www.w3.org/Addressing/");
    CHECK(completed("www.example.co.uk") == "http://www.example.co.uk");
    CHECK(completed("www3.example.com") == "http://www3.example.com");
    CHECK(kind_of("www.example.com") == abbrev_kind::www);
    // The TLD must be known, and a registered name must follow www.
    CHECK(completed("www.marselisl").empty());
    CHECK(completed("www.example").empty());
    CHECK(completed("wwwx.example.com") == "http://wwwx.example.com");  // an ordinary domain
    CHECK(kind_of("wwwx.example.com") == abbrev_kind::domain);
    CHECK(kind_of("www.com") == abbrev_kind::domain);
}

TEST_CASE("ftp, gopher and wais hosts take their own scheme", "[abbrev][ftp][gopher][wais]") {
    CHECK(completed("ftp.ds.internic.net/rfc/") == "ftp://ftp.ds.internic.net/rfc/");
    CHECK(kind_of("ftp.example.org") == abbrev_kind::ftp);
    CHECK(completed("gopher.example.edu:70/1/") == "gopher://gopher.example.edu:70/1/");
    CHECK(kind_of("gopher.example.edu") == abbrev_kind::gopher);
    CHECK(completed("wais.example.com/db") == "wais://wais.example.com/db");
    CHECK(kind_of("wais.example.com") == abbrev_kind::wais);
    // https is for the web kinds only.
    CHECK(completed("ftp.example.org", "", with(abbrev_default, true)) == "ftp://ftp.example.org");
}

TEST_CASE("news: the path chooses between news:// and nntp://", "[abbrev][news]") {
    CHECK(completed("news.example.org") == "news://news.example.org");
    CHECK(completed("news.example.org/") == "news://news.example.org/");
    CHECK(completed("news.example.org/comp.lang.c") == "news://news.example.org/comp.lang.c");
    CHECK(completed("nntp.example.org/comp.lang.c/1234") == "nntp://nntp.example.org/comp.lang.c/1234");
    CHECK(completed("news.example.org/comp.lang.c/1234") == "nntp://news.example.org/comp.lang.c/1234");
    CHECK(completed("nntp.example.org") == "news://nntp.example.org");
    CHECK(kind_of("nntp.example.org") == abbrev_kind::news);
    // A web page on a news site is for the domain rule.
    CHECK(completed("news.example.com/2024/05/story.html") == "http://news.example.com/2024/05/story.html");
    CHECK(kind_of("news.example.com/2024/05/story.html") == abbrev_kind::domain);
    CHECK(completed("news.example.com/?id=3") == "http://news.example.com/?id=3");
    // `news.com` is a web site: no registered name follows the prefix.
    CHECK(completed("news.com") == "http://news.com");
    // A newsgroup name is no host.
    CHECK(completed("news.answers").empty());
}

TEST_CASE("domain: a known TLD with evidence", "[abbrev][domain]") {
    CHECK(completed("example.com") == "http://example.com");
    CHECK(completed("example.com", "", with(abbrev_default, true)) == "https://example.com");
    CHECK(completed("example.org/a/b?c#d") == "http://example.org/a/b?c#d");
    CHECK(completed("example.net:8080") == "http://example.net:8080");
    CHECK(completed("example.net:0").empty());
    CHECK(completed("example.net:/x").empty());
    CHECK(completed("example.com:80:90").empty());
    // File extensions need a registry name, a path, or a strong cue.
    CHECK(completed("setup.py").empty());
    CHECK(completed("example.com.py") == "http://example.com.py");
    CHECK(completed("allegro.pl/oferta") == "http://allegro.pl/oferta");
    CHECK(completed("allegro.pl", "visit ") == "http://allegro.pl");
    CHECK(completed("allegro.pl", "see ").empty());
    CHECK(completed("Changes.pl/x").empty());
    // Word TLDs need a path, a port, three labels or a strong cue: a weak
    // one comes before a unit or a file as often (`from sysinit.target`,
    // `to testsuite.at`, `on dir.info`).
    CHECK(completed("about.me").empty());
    CHECK(completed("about.me", "visit ") == "http://about.me");
    CHECK(completed("about.me", "see ").empty());
    CHECK(completed("sysinit.target", "from ").empty());
    CHECK(completed("about.me/jane") == "http://about.me/jane");
    CHECK(completed("user.name").empty());
    CHECK(completed("user.name", "see ").empty());  // a code receiver is never a host
    // Keys of git's configuration (git's release notes) and Node's
    // process.report.directory.
    CHECK(completed("safe.directory").empty());
    CHECK(completed("lfs.storage", "honor ").empty());
    CHECK(completed("report.directory").empty());
    // WebAssembly's and GObject's members (Node's and PyGObject's docs).
    CHECK(completed("i32.store").empty());
    CHECK(completed("gobject.property").empty());
    CHECK(completed("example.storage/x") == "http://example.storage/x");
    // Shapes of case.
    CHECK(completed("GOOGLE.COM") == "http://GOOGLE.COM");
    CHECK(completed("VB.NET").empty());
    CHECK(completed("done.Com").empty());
    CHECK(completed("myApp.club").empty());
    CHECK(completed("GitHub.com") == "http://GitHub.com");
    // After `&`, a proper name ends a company's name, no host of its own.
    CHECK(completed("Noble.com", "I bought it at Barnes & ").empty());
    CHECK(completed("Noble.com", "Barnes &\t").empty());
    CHECK(completed("Amazon.com", "I bought it at ") == "http://Amazon.com");
    CHECK(completed("example.com", "Tea & ") == "http://example.com");
    CHECK(completed("Example.com/shop", "Tea & ") == "http://Example.com/shop");
    // Section 4.3.1 syntax.
    CHECK(completed("a-.com").empty());
    CHECK(completed("a..com").empty());
    CHECK(completed(std::string(64, 'a') + ".com").empty());
    CHECK(completed(std::string(63, 'a') + ".com") == "http://" + std::string(63, 'a') + ".com");
    CHECK(completed("example.com.").empty());  // the scanner trims the dot first
}

TEST_CASE("domain: internationalized names go through IDNA", "[abbrev][domain][idn]") {
    CHECK(completed("президент.рф") == "http://президент.рф");
    CHECK(completed("bücher.de") == "http://bücher.de");
    CHECK(completed("example.xn--p1ai") == "http://example.xn--p1ai");
    CHECK(completed("例え.テスト").empty());  // テスト is no delegated TLD
    // IDNA maps U+3002 to a dot: text glued by an ideographic full stop is
    // not one host.
    CHECK(completed("example.com\xE3\x80\x82" "foo.com").empty());
    CHECK(completed("bad\xFF.com").empty());
}

TEST_CASE("email: local@host.tld becomes mailto:", "[abbrev][email]") {
    CHECK(completed("fielding@ics.uci.edu") == "mailto:fielding@ics.uci.edu");
    CHECK(kind_of("fielding@ics.uci.edu") == abbrev_kind::email);
    CHECK(completed("a.b+c@example.org") == "mailto:a.b+c@example.org");
    CHECK(completed("a@b@example.org").empty());
    CHECK(completed(".a@example.org").empty());
    CHECK(completed("a.@example.org").empty());
    CHECK(completed("a(b)@example.org").empty());
    CHECK(completed("a@example.org/x").empty());
    CHECK(completed("a@example.org:25").empty());
    CHECK(completed(std::string(65, 'a') + "@example.org").empty());
    CHECK(completed("root@example.org", "ssh ").empty());
    CHECK(completed("root@example.org", "scp file ") == "mailto:root@example.org");
    // A path before the @ is no mail address.
    CHECK(kind_of("example.com/~user@x") == abbrev_kind::domain);
}

TEST_CASE("ipv4: a dotted quad needs a path or a port", "[abbrev][ipv4]") {
    const auto all = with(abbrev_all);
    CHECK(completed("192.0.2.1/index.html", "", all) == "http://192.0.2.1/index.html");
    CHECK(completed("192.0.2.1:8080", "", all) == "http://192.0.2.1:8080");
    CHECK(completed("192.0.2.1", "", all).empty());
    CHECK(completed("192.0.2.0/24", "", all).empty());
    CHECK(completed("255.255.255.255/x", "", all) == "http://255.255.255.255/x");
    CHECK(completed("256.1.1.1/x", "", all).empty());
    CHECK(completed("1.2.3.4.5/x", "", all).empty());
    CHECK(completed("1.2.3/x", "", all).empty());
    CHECK(completed("01.2.3.4/x", "", all).empty());
    CHECK(completed("192.0.2.1/x", "", with(abbrev_all, true)) == "https://192.0.2.1/x");
    // Off by default.
    CHECK(completed("192.0.2.1/index.html").empty());
}

// --- switches -----------------------------------------------------------------

TEST_CASE("abbreviation lists (--abbrev) parse to kind sets", "[abbrev][options]") {
    CHECK(parse_abbrev_list("all") == abbrev_all);
    CHECK(parse_abbrev_list("none") == abbrev_none);
    CHECK(parse_abbrev_list("www") == bit(abbrev_kind::www));
    CHECK(parse_abbrev_list("www,ftp,email") ==
          static_cast<abbrev_set>(bit(abbrev_kind::www) | bit(abbrev_kind::ftp) | bit(abbrev_kind::email)));
    CHECK(parse_abbrev_list("nntp") == bit(abbrev_kind::news));
    CHECK(parse_abbrev_list("www, domain") ==
          static_cast<abbrev_set>(bit(abbrev_kind::www) | bit(abbrev_kind::domain)));
    CHECK(parse_abbrev_list("gopher,news,wais,domain,ipv4").has_value());
    CHECK_FALSE(parse_abbrev_list(""));
    CHECK_FALSE(parse_abbrev_list("http"));
    CHECK_FALSE(parse_abbrev_list("www,"));
    CHECK_FALSE(parse_abbrev_list("WWW"));
    CHECK_FALSE(parse_abbrev_list("none,www"));
    for (abbrev_set b = 1; b <= 0x80; b = static_cast<abbrev_set>(b << 1)) {
        const auto kind = static_cast<abbrev_kind>(b);
        INFO("bit " << b);
        CHECK(parse_abbrev_list(urlsift::to_string(kind)) == b);
    }
    CHECK(urlsift::to_string(static_cast<abbrev_kind>(0x100)).empty());
}

TEST_CASE("each kind can be switched off alone", "[abbrev][options]") {
    struct sample {
        abbrev_kind kind;
        std::string_view token;
    };
    const sample samples[] = {
        {abbrev_kind::www, "www.example.com"},     {abbrev_kind::ftp, "ftp.example.com"},
        {abbrev_kind::gopher, "gopher.example.com"}, {abbrev_kind::news, "news.example.com"},
        {abbrev_kind::wais, "wais.example.com"},   {abbrev_kind::domain, "example.com"},
        {abbrev_kind::email, "a@example.com"},     {abbrev_kind::ipv4, "192.0.2.1/x"},
    };
    for (const auto& s : samples) {
        INFO(s.token);
        CHECK(kind_of(s.token, "", with(abbrev_all)) == s.kind);
        CHECK(kind_of(s.token, "", with(bit(s.kind))) == s.kind);
        // A prefix host belongs to its kind alone: the domain rule does not
        // take it over.
        CHECK_FALSE(kind_of(s.token, "", with(static_cast<abbrev_set>(abbrev_all & ~bit(s.kind)))));
        CHECK_FALSE(kind_of(s.token, "", with(abbrev_none)));
    }
}

// --- angle brackets -----------------------------------------------------------

TEST_CASE("what angle brackets hold", "[abbrev][angle]") {
    struct expectation {
        std::string_view content;
        angle_content kind;
    };
    constexpr auto ref = angle_content::reference;
    constexpr auto address = angle_content::address;
    constexpr auto markup = angle_content::markup;
    constexpr auto placeholder = angle_content::placeholder;
    const expectation table[] = {
        // empty
        {"", angle_content::empty},
        {"  ", angle_content::empty},
        // references: a scheme or URL:, a leading / ./ ../ ? #, a path
        {"http://www.w3.org/", ref},
        {"URL:http://www.w3.org/", ref},
        {"URL: ../x.html", ref},
        {"mailto:fielding@ics.uci.edu", ref},
        {"news:comp.infosystems.www", ref},
        {"/pub/ietf/uri/", ref},
        {"/index.html", ref},
        {"./this:that", ref},
        {"../x.html", ref},
        {"..", ref},
        {".", ref},
        {"?y", ref},
        {"#s", ref},
        {"g;x?y#s", ref},
        {"g?y", ref},
        {"pub/ietf/", ref},
        {"www.w3.org/Addressing/", ref},
        {"www.w3.org", ref},
        {"index.html", ref},
        {"x.html#frag", ref},
        // addresses
        {"fielding@ics.uci.edu", address},
        {"user@localhost", address},
        {"CAH+x=abc.123@mail.example.com", address},
        {"joe@[192.0.2.1]", address},
        // markup
        {"b", markup},
        {"P", markup},
        {"/p", markup},
        {"/div ", markup},
        {"br/", markup},
        {"br /", markup},
        {"img src=\"x.png\" /", markup},
        {"a href=\"http://example.com/\"", markup},
        {"A HREF=x.html", markup},
        {"td nowrap", markup},
        {"xsl:template match=\"/\"", markup},
        {"!-- comment --", markup},
        {"!DOCTYPE html", markup},
        {"![CDATA[ x ]]", markup},
        {"?xml version=\"1.0\"?", markup},
        {"?php echo 1; ?", markup},
        {"%= value %", markup},
        // placeholders and keys
        {"file", placeholder},
        {"Enter", placeholder},
        {"TAB", placeholder},
        {"C-x", placeholder},
        {"C-x C-f", placeholder},
        {"your-name", placeholder},
        {"your name here", placeholder},
        {"Ctrl+C", placeholder},
        {"Leader", placeholder},
        {"F1", placeholder},
        {"3", placeholder},
        {"...", placeholder},
        {"Note: this", placeholder},
        {"Del", placeholder},
        {"foo/", markup},  // an empty element; a directory has a second segment
        {"docs/intro/", ref},
        {"allow_anonymous/", markup},
        {"p/", markup},
        // code
        {"stdio.h", angle_content::code},
        {"sys/types.h", angle_content::code},
        {"boost/asio.hpp", angle_content::code},
        {"1..2^16-1", angle_content::code},
        {"0..255", angle_content::code},
        {"c:\\Program Files\\x", angle_content::code},
        {"C:/Windows", angle_content::code},
        {"a|b", angle_content::code},
        // a date, a fraction, an address written with two @, SGML's empty end tag
        {"2002/01/16", angle_content::code},
        {"1/2", angle_content::code},
        {"mtk@manpages@gmail.com", angle_content::code},
        {"/", angle_content::markup},
        // blanks on one line: words apart, not a URL broken across lines
        {"std::string, int", placeholder},
        {"tmp.pack ", placeholder},
        {"../a/\n   b.html", ref},
        // a scheme only where running text takes one
        {"std::vector", placeholder},
        {"foo:bar", placeholder},
        {"foo://bar", ref},
        {"urn:isbn:0451450523", ref},
        // no reference at all (is_non_reference): a media type, an address
        // spelled out, a member or key in program text; beside them the
        // paths and file names they must not take with them
        {"application/octet-stream", placeholder},
        {"image/svg+xml", placeholder},
        {"application/vnd.ms-excel", placeholder},
        {"burnus(at)net-b.de", placeholder},
        {"module.exports", placeholder},
        {"sys.prefix", placeholder},
        {"commons.release.version", placeholder},
        {"image/logo.png", ref},
        {"images/a.png", ref},
        {"../images/a.png", ref},
        {"docs/index.html", ref},
        {"#section", ref},
        {"?page=2", ref},
        {"favicon.ico", ref},
        {"filename.tar", ref},
        {"README.md", ref},
        {"ls.1", ref},
        {"example.com", ref},
    };
    for (const auto& e : table) {
        INFO("<" << e.content << ">");
        CHECK(static_cast<int>(angle(e.content)) == static_cast<int>(e.kind));
    }
}

TEST_CASE("text with a relative reference's syntax that is no reference", "[abbrev][angle]") {
    using urlsift::detail::is_non_reference;
    for (const std::string_view junk : {"...", "....", "application/octet-stream", "text/plain", "image/svg+xml",
                                        "application/vnd.oasis.opendocument.text", "burnus(at)net-b.de",
                                        "langton(AT)gcc.gnu.org", "module.exports", "sys.prefix", "time.spent",
                                        "v.opt", "commons.release.version"}) {
        INFO(junk);
        CHECK(is_non_reference(junk));
    }
    for (const std::string_view reference :
         {".", "..", "../images/a.png", "docs/index.html", "#section", "?page=2", "image/logo.png", "text/",
          "texts/plain", "index.html", "ctype.c", "Makefile.am", "README.md", "COPYING", "ls.1", "www.w3.org",
          "example.com", ".mailmap", "a(at)/b", "search", "underscore-esm.js.map"}) {
        INFO(reference);
        CHECK_FALSE(is_non_reference(reference));
    }
}

// --- the TLD table ------------------------------------------------------------

TEST_CASE("the TLD table knows the Public Suffix List's top labels", "[abbrev][tld]") {
    using urlsift::detail::is_known_tld;
    using urlsift::detail::known_tlds;
    CHECK(is_known_tld("com"));
    CHECK(is_known_tld("COM"));
    CHECK(is_known_tld("Org"));
    CHECK(is_known_tld("uk"));
    CHECK(is_known_tld("travel"));
    CHECK(is_known_tld("bayern"));
    CHECK(is_known_tld("xn--p1ai"));
    CHECK(is_known_tld("XN--P1AI"));
    CHECK(is_known_tld("\xD1\x80\xD1\x84"));  // рф
    CHECK(is_known_tld("xn--fiqs8s"));        // 中国
    CHECK(is_known_tld("\xE4\xB8\xAD\xE5\x9B\xBD"));
    CHECK_FALSE(is_known_tld(""));
    CHECK_FALSE(is_known_tld("js"));
    CHECK_FALSE(is_known_tld("txt"));
    CHECK_FALSE(is_known_tld("example"));
    CHECK_FALSE(is_known_tld("localhost"));
    CHECK_FALSE(is_known_tld("co.uk"));
    CHECK_FALSE(is_known_tld(std::string(200, 'a')));

    const auto all = known_tlds();
    CHECK(all.size() > 1400);
    CHECK(std::is_sorted(all.begin(), all.end()));
    CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
    // The hash index finds every entry, in any ASCII case, and no entry
    // with a letter added or removed.
    std::size_t found = 0, found_upper = 0, found_altered = 0;
    for (const auto e : all) {
        std::string upper(e);
        for (auto& c : upper) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
        found += is_known_tld(e);
        found_upper += is_known_tld(upper);
        const std::string longer = std::string(e) + "q";
        found_altered += is_known_tld(longer) && !std::binary_search(all.begin(), all.end(), longer);
        const std::string_view shorter = e.substr(0, e.size() - 1);
        found_altered += is_known_tld(shorter) && !std::binary_search(all.begin(), all.end(), shorter);
    }
    CHECK(found == all.size());
    CHECK(found_upper == all.size());
    CHECK(found_altered == 0);
    // Labels of one to three bytes are answered from a bitmap: every one
    // made of letters and the bytes beside them in ASCII (`@ [ ` {`, which
    // folding by `| 0x20` must not take for letters) is checked against the list.
    std::string bytes = "@[`{0-_";
    for (char c = 'a'; c <= 'z'; ++c) bytes += {c, static_cast<char>(c - 'a' + 'A')};
    std::size_t short_wrong = 0;
    const auto check_short = [&](const std::string& label) {
        std::string lower = label;
        for (auto& c : lower) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        short_wrong += is_known_tld(label) != std::binary_search(all.begin(), all.end(), lower);
    };
    for (const char a : bytes) {
        check_short({a});
        for (const char b : bytes) {
            check_short({a, b});
            for (const char c : bytes) check_short({a, b, c});
        }
    }
    CHECK(short_wrong == 0);
    // Every Unicode TLD has its A-label beside it: as many xn-- entries as
    // non-ASCII ones.
    const auto non_ascii = std::count_if(all.begin(), all.end(), [](std::string_view s) {
        return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    });
    const auto a_labels = std::count_if(all.begin(), all.end(), [](std::string_view s) { return s.starts_with("xn--"); });
    CHECK(non_ascii > 100);
    CHECK(a_labels == non_ascii);
    for (const auto tld : all) {
        INFO(tld);
        CHECK(is_known_tld(tld));
        CHECK(std::none_of(tld.begin(), tld.end(), [](char c) { return c >= 'A' && c <= 'Z'; }));
    }
}
