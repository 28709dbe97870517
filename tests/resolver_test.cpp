// The resolver: Section 5.2 of 001_*.txt (rfc2396 mode) and RFC 3986
// section 5.2 (rfc3986 mode), checked against the Appendix C and RFC 3986
// 5.4 tables, inline cases, the error contract and random references.

#include <urlsift/reference.hpp>
#include <urlsift/resolver.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using urlsift::error;
using urlsift::resolve_mode;
using urlsift::resolve_options;

namespace {

struct table_row {
    std::size_t line;
    std::string base, ref, expect;
};

// Reads a tests/data table of "base <TAB> ref <TAB> expect" rows; lines
// starting with "#" are comments. A missing file fails the test.
std::vector<table_row> read_table(const std::string& name) {
    const std::string path = std::string(URLSIFT_TEST_DATA_DIR) + "/" + name;
    std::ifstream in(path, std::ios::binary);
    INFO("table: " << path);
    REQUIRE(in.good());
    std::vector<table_row> rows;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        const auto t1 = line.find('\t');
        const auto t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
        INFO("line " << n << ": " << line);
        REQUIRE(t2 != std::string::npos);
        rows.push_back({n, line.substr(0, t1), line.substr(t1 + 1, t2 - t1 - 1), line.substr(t2 + 1)});
    }
    return rows;
}

resolve_options mode(resolve_mode m) {
    resolve_options o;
    o.mode = m;
    return o;
}

// Resolves through exact-size heap copies, so sanitizers see over-reads.
urlsift::result<std::string> resolve_copy(std::string_view base, std::string_view ref, resolve_options o = {}) {
    const std::string base_copy(base);
    const std::string ref_copy(ref);
    return urlsift::resolve(base_copy, ref_copy, o);
}

void check(std::string_view base, std::string_view ref, std::string_view expected, resolve_options o = {}) {
    INFO("base " << base << ", reference '" << ref << "', mode " << urlsift::to_string(o.mode));
    const auto r = resolve_copy(base, ref, o);
    REQUIRE(r);
    CHECK(*r == expected);
}

void check_error(std::string_view base, std::string_view ref, error e, std::size_t offset, resolve_options o = {}) {
    INFO("base " << base << ", reference '" << ref << "', mode " << urlsift::to_string(o.mode));
    const auto r = resolve_copy(base, ref, o);
    REQUIRE_FALSE(r);
    CHECK(r.error() == e);
    CHECK(r.error_offset() == offset);
}

void run_table(const std::string& name, resolve_mode m) {
    for (const auto& row : read_table(name)) {
        DYNAMIC_SECTION(name << ":" << row.line << " '" << row.ref << "'") {
            check(row.base, row.ref, row.expect, mode(m));
        }
    }
}

}  // namespace

TEST_CASE("Appendix C: every example, rfc2396 mode", "[resolver][spec]") {
    run_table("resolve-rfc2396-appendix-c.tsv", resolve_mode::rfc2396);
}

TEST_CASE("RFC 3986 section 5.4: every example, rfc3986 mode", "[resolver][spec]") {
    run_table("resolve-rfc3986-5.4.tsv", resolve_mode::rfc3986);
}

TEST_CASE("rfc3986 is the default mode", "[resolver]") {
    CHECK(resolve_options{}.mode == resolve_mode::rfc3986);
    check("http://a/b/c/d;p?q", "?y", "http://a/b/c/d;p?y");
    check("http://a/b/c/d;p?q", "../../../g", "http://a/g");
}

TEST_CASE("Appendix D: the HTML BASE example", "[resolver][spec]") {
    for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986})
        check("http://www.ics.uci.edu/Test/a/b/c", "../x", "http://www.ics.uci.edu/Test/a/x", mode(m));
}

TEST_CASE("the current document is the base without its fragment", "[resolver][spec]") {
    // Section 3 and step 2 of Section 5.2.
    for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986}) {
        check("http://a/b?q#frag", "", "http://a/b?q", mode(m));
        check("http://a/b?q#frag", "#s", "http://a/b?q#s", mode(m));
        check("http://a/b?q#frag", "#", "http://a/b?q#", mode(m));
    }
}

TEST_CASE("bases with an empty path, empty segments and no site", "[resolver]") {
    for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986}) {
        const auto o = mode(m);
        // A site and an empty path: the merge starts at "/" (RFC 3986 5.2.3).
        check("http://a", "g", "http://a/g", o);
        check("http://a", "./g/..", "http://a/", o);
        check("http://a?q", "#f", "http://a?q#f", o);
        // Empty segments are segments (roytest4 and roytest5).
        check("fred:///s//a/b/c", "../../g", "fred:///s//g", o);
        check("fred:///s//a/b/c", "../../../g", "fred:///s/g", o);
        check("http:///s//a/b/c", "//g/x", "http://g/x", o);
        // A path from the root without a site is hierarchical too.
        check("file:/etc/x/y", "../z", "file:/etc/z", o);
        check("foo:/a/b", "c?d", "foo:/a/c?d", o);
        // Fragment-only references work against any base.
        check("mailto:someone@example.org", "#x", "mailto:someone@example.org#x", o);
        check("mailto:someone@example.org", "news:a.b", "news:a.b", o);
    }
    // rfc2396 leaves absolute and network paths as written (steps 4 and 5);
    // rfc3986 removes their dot segments.
    check("http://a/b", "//g/./x/../y", "http://g/./x/../y", mode(resolve_mode::rfc2396));
    check("http://a/b", "//g/./x/../y", "http://g/y", mode(resolve_mode::rfc3986));
    check("http://a/b", "/x/../../y", "http://a/x/../../y", mode(resolve_mode::rfc2396));
    check("http://a/b", "/x/../../y", "http://a/y", mode(resolve_mode::rfc3986));
    // rfc3986 keeps the base path for "?y"; rfc2396 merges it as a path.
    check("http://a/b/c", "?y", "http://a/b/c?y", mode(resolve_mode::rfc3986));
    check("http://a/b/c", "?y", "http://a/b/?y", mode(resolve_mode::rfc2396));
}

TEST_CASE("a result path starting with // keeps its meaning without a site", "[resolver][regression]") {
    // "foo://g" would read g as a site; "/." keeps it in the path.
    check("foo:/a/b", "..//g", "foo:/.//g");
    check("foo:/a/b", "..//g", "foo:/.//g", mode(resolve_mode::rfc2396));
    check("http://a/b", "..//g", "http://a//g");  // with a site "//" is a path
    const auto again = resolve_copy("http://x/", "foo:/.//g");
    REQUIRE(again);
    CHECK(urlsift::parse_reference(*again).site == std::nullopt);
}

TEST_CASE("absolute references come back as written", "[resolver]") {
    for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986}) {
        const auto o = mode(m);
        check("http://a/b/c/d;p?q", "HTTP://Example.COM:80/./x/../y?%7e#f", "HTTP://Example.COM:80/./x/../y?%7e#f", o);
        check("http://a/b/c/d;p?q", "urn:isbn:0451450523", "urn:isbn:0451450523", o);
        check("http://a/b/c/d;p?q", "http://b\xC3\xBC" "cher.example/\xE2\x82\xAC", "http://b\xC3\xBC" "cher.example/\xE2\x82\xAC", o);
    }
}

TEST_CASE("the base must be absolute", "[resolver][errors]") {
    // Section 5.1: the base must have a scheme.
    for (auto base : {"", "//a/b", "/a/b", "a/b", "?q"}) {
        const std::string copy(base);
        const auto r = urlsift::resolver::make(copy);
        INFO("base '" << base << "'");
        REQUIRE_FALSE(r);
        CHECK(r.error() == error::base_not_absolute);
    }
    const auto bad_port = urlsift::resolver::make(std::string("http://a:8x/"));
    REQUIRE_FALSE(bad_port);
    CHECK(bad_port.error() == error::invalid_port);
    CHECK(bad_port.error_offset() == 10);
    const auto bad_char = urlsift::resolver::make(std::string("http://a/b c"));
    REQUIRE_FALSE(bad_char);
    CHECK(bad_char.error() == error::invalid_character);
}

TEST_CASE("a base's IP literal is an IPv6 address or IPvFuture", "[resolver][errors][regression]") {
    // RFC 3986 section 3.2.2. `http://[zz]/` made a base every result of
    // which was as bad.
    for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986, resolve_mode::browser}) {
        INFO(urlsift::to_string(m));
        for (const std::string base : {"http://[zz]/", "http://[::1::2]/a", "http://u@[1.2.3.4]:80/", "http://[]/"}) {
            INFO("base '" << base << "'");
            const auto r = urlsift::resolver::make(base, mode(m));
            REQUIRE_FALSE(r);
            CHECK(r.error() == error::invalid_host);
        }
        check("http://[2001:db8::1]/a/", "g", "http://[2001:db8::1]/a/g", mode(m));
    }
    for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986}) {
        check("http://[::ffff:192.0.2.1]:8080/a/", "../g", "http://[::ffff:192.0.2.1]:8080/g", mode(m));
        check("http://[v7.x:y]/a/", "g", "http://[v7.x:y]/a/g", mode(m));
    }
    // The error says where: the host, past the userinfo.
    const auto r = urlsift::resolver::make(std::string("http://u@[zz]/"));
    REQUIRE_FALSE(r);
    CHECK(r.error_offset() == 9);
}

TEST_CASE("relative paths need a hierarchical base", "[resolver][errors]") {
    for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986}) {
        const auto o = mode(m);
        check_error("mailto:x@y", "g", error::base_not_hierarchical, 0, o);
        check_error("urn:isbn:1", "../g", error::base_not_hierarchical, 0, o);
        check_error("foo:", "g", error::base_not_hierarchical, 0, o);
    }
    check("mailto:x@y", "?subject=hi", "mailto:x@y?subject=hi", mode(resolve_mode::rfc3986));
    check_error("mailto:x@y", "?subject=hi", error::base_not_hierarchical, 0, mode(resolve_mode::rfc2396));
}

TEST_CASE("references with excluded characters are rejected with their offset", "[resolver][errors]") {
    for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986}) {
        const auto o = mode(m);
        const std::string base = "http://a/b/c";
        // Section 2.4.3: controls, space, "<", ">", '"'.
        check_error(base, "a b", error::invalid_character, 1, o);
        check_error(base, "g\tx", error::invalid_character, 1, o);
        check_error(base, std::string_view("g\0", 2), error::invalid_character, 1, o);
        check_error(base, "x\x7F", error::invalid_character, 1, o);
        check_error(base, "<g>", error::invalid_character, 0, o);
        check_error(base, "g\"", error::invalid_character, 1, o);
        check_error(base, "#a b", error::invalid_character, 2, o);
        // Section 2.4.1: "%" hex hex.
        check_error(base, "%", error::invalid_percent, 0, o);
        check_error(base, "a%2", error::invalid_percent, 1, o);
        check_error(base, "a%2g", error::invalid_percent, 1, o);
        check_error(base, "?q=%%41", error::invalid_percent, 3, o);
        check(base, "a%2F%7e", "http://a/b/a%2F%7e", o);
        // Section 4.1: scheme = alpha *( alpha | digit | "+" | "-" | "." ).
        check_error(base, "1http:x", error::invalid_scheme, 0, o);
        check_error(base, "ht_tp:x", error::invalid_scheme, 2, o);
        check_error(base, "\xC3\xA9:x", error::invalid_scheme, 0, o);
        check(base, "svn+ssh:x", "svn+ssh:x", o);
        check(base, "a.b-c:x", "a.b-c:x", o);
        // Section 4.3.1: port = *digit.
        check_error(base, "//h:8o/x", error::invalid_port, 5, o);
        check_error(base, "http://u:p@h:x/", error::invalid_port, 13, o);
        check_error(base, "http://h:99999/", error::invalid_port, 9, o);
        check_error(base, "http://[::1/", error::invalid_host, 7, o);
        check(base, "//h:/x", "http://h:/x", o);
        check(base, "http://u:p@h:8080/", "http://u:p@h:8080/", o);
        check(base, "http://[::1]:80/", "http://[::1]:80/", o);
        // Non-ASCII is passed through (IRIs).
        check(base, "\xC3\xA9t\xC3\xA9", "http://a/b/\xC3\xA9t\xC3\xA9", o);
    }
}

TEST_CASE("resolve_to appends and leaves the string alone on failure", "[resolver]") {
    const auto base = urlsift::resolver::make(std::string("http://a/b/c/d;p?q"));
    REQUIRE(base);
    std::string out = "prefix ";
    CHECK_FALSE(base->resolve_to(out, std::string("../g")));
    CHECK(out == "prefix http://a/b/g");
    const auto f = base->resolve_to(out, std::string("a b"));
    REQUIRE(f);
    CHECK(f->code == error::invalid_character);
    CHECK(out == "prefix http://a/b/g");
    // Dot segments are removed in place after the prefix, never into it.
    out = "/x/";
    CHECK_FALSE(base->resolve_to(out, std::string("../../../../..")));
    CHECK(out == "/x/http://a/");
}

TEST_CASE("resolvers copy and move with their base", "[resolver]") {
    auto made = urlsift::resolver::make(std::string("http://a/b/c#f"), mode(resolve_mode::rfc2396));
    REQUIRE(made);
    urlsift::resolver copy = *made;
    urlsift::resolver moved = std::move(*made);
    CHECK(copy.base() == "http://a/b/c#f");
    CHECK(copy.options().mode == resolve_mode::rfc2396);
    CHECK(*copy.resolve("") == "http://a/b/c");
    CHECK(*moved.resolve("g") == "http://a/b/g");
    urlsift::resolver assigned = moved;
    assigned = copy;
    CHECK(*assigned.resolve("#x") == "http://a/b/c#x");
}

TEST_CASE("resolve modes have names", "[resolver]") {
    for (auto m : {resolve_mode::rfc3986, resolve_mode::rfc2396, resolve_mode::browser})
        CHECK(urlsift::parse_resolve_mode(urlsift::to_string(m)) == m);
    CHECK_FALSE(urlsift::parse_resolve_mode("RFC3986"));
    CHECK_FALSE(urlsift::parse_resolve_mode(""));
}

TEST_CASE("resolve_absolute checks without a base", "[resolver]") {
    CHECK(*urlsift::resolve_absolute(std::string("http://a/./b")) == "http://a/./b");
    const auto rel = urlsift::resolve_absolute(std::string("../g"));
    REQUIRE_FALSE(rel);
    CHECK(rel.error() == error::base_not_absolute);
    const auto bad = urlsift::resolve_absolute(std::string("http://a:x/"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error() == error::invalid_port);
    resolve_options o;
    o.normalize = true;
    CHECK(*urlsift::resolve_absolute(std::string("HTTP://A:80/%7e/./x"), o) == "http://a/~/x");
}

TEST_CASE("the normalize option applies Section 6 to the result", "[resolver][normalize]") {
    resolve_options o;
    o.normalize = true;
    check("http://www.XEROX.com:80/a/", "%7euser/../b", "http://www.xerox.com/a/b", o);
    check("http://www.XEROX.com:80/a/", "%7euser/", "http://www.xerox.com/a/~user/", o);
    check("http://a/b", "//B\xC3\xBC" "cher.example:80", "http://xn--bcher-kva.example/", o);
    o.mode = resolve_mode::rfc2396;
    check("http://a/b/c", "../../../g", "http://a/g", o);
    // A host IDNA rejects fails the reference, at its site.
    check_error("http://a/b", "//a\xE2\x80\x8D" "b.example/", error::invalid_host, 2, o);
    // ... and the base, at make().
    CHECK_FALSE(urlsift::resolver::make(std::string("http://a\xE2\x80\x8D" "b.example/"), o));
}

TEST_CASE("Appendix E: user-typed URLs lose their wrappers and whitespace", "[resolver][spec]") {
    using urlsift::strip_user_typed;
    CHECK(strip_user_typed("<URL: http://www.ics.uci.edu/pub/ ietf/uri/>") == "http://www.ics.uci.edu/pub/ietf/uri/");
    CHECK(strip_user_typed("<URL:http://a/b/ c>") == "http://a/b/c");
    CHECK(strip_user_typed("URL:<http://a/b>") == "http://a/b");
    CHECK(strip_user_typed("url: http://a/b") == "http://a/b");
    CHECK(strip_user_typed("  \"http://www.w3.org/Addressing/\" ") == "http://www.w3.org/Addressing/");
    CHECK(strip_user_typed("<ftp://ds.internic.\n   net/rfc/>") == "ftp://ds.internic.net/rfc/");
    CHECK(strip_user_typed("<http://www.ics.uci.edu/pub/\r\n\tietf/uri/historical.html#WARNING>") ==
          "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING");
    CHECK(strip_user_typed("\"<URL:http://x/>\"") == "http://x/");
    CHECK(strip_user_typed("<>").empty());
    CHECK(strip_user_typed("   ").empty());
    CHECK(strip_user_typed("").empty());
    CHECK(strip_user_typed("../g") == "../g");
    // Unbalanced wrappers are not wrappers.
    CHECK(strip_user_typed("<http://a/") == "<http://a/");
    CHECK(strip_user_typed("URLs:x") == "URLs:x");
}

// --- properties ----------------------------------------------------------------

namespace {

// RFC 3986 section 5.2.4, literally, on separate buffers: the oracle for the
// in-place version.
std::string naive_remove_dot_segments(std::string in) {
    std::string out;
    while (!in.empty()) {
        if (in.starts_with("../")) {
            in.erase(0, 3);
        } else if (in.starts_with("./")) {
            in.erase(0, 2);
        } else if (in.starts_with("/./")) {
            in.erase(0, 2);
        } else if (in == "/.") {
            in = "/";
        } else if (in.starts_with("/../") || in == "/..") {
            in = in == "/.." ? "/" : in.substr(3);
            const auto slash = out.rfind('/');
            out.erase(slash == std::string::npos ? 0 : slash);
        } else if (in == "." || in == "..") {
            in.clear();
        } else {
            const auto next = in.find('/', in[0] == '/' ? 1 : 0);
            out += in.substr(0, next);
            in.erase(0, next == std::string::npos ? in.size() : next);
        }
    }
    return out;
}

// RFC 3986 section 5.2.2 and 5.2.3, literally (references with a scheme
// come back as written, as urlsift documents).
std::string naive_resolve_3986(const std::string& base, const std::string& ref) {
    const auto b = urlsift::parse_reference(base);
    const auto r = urlsift::parse_reference(ref);
    if (r.scheme) return ref;
    urlsift::reference_parts t;
    std::string path;
    t.scheme = b.scheme;
    if (r.site) {
        t.site = r.site;
        path = naive_remove_dot_segments(std::string(r.path));
        t.query = r.query;
    } else {
        t.site = b.site;
        if (r.path.empty()) {
            path = b.path;
            t.query = r.query ? r.query : b.query;
        } else {
            if (r.path.starts_with('/')) {
                path = naive_remove_dot_segments(std::string(r.path));
            } else {
                std::string merged;
                if (b.site && b.path.empty()) {
                    merged = "/" + std::string(r.path);
                } else {
                    const auto slash = b.path.rfind('/');
                    merged = std::string(b.path.substr(0, slash == std::string_view::npos ? 0 : slash + 1)) +
                             std::string(r.path);
                }
                path = naive_remove_dot_segments(merged);
            }
            t.query = r.query;
        }
    }
    // urlsift's one addition: without a site, a path starting with "//"
    // gets "/." in front so that it is not read back as a site.
    if (!t.site && path.starts_with("//")) path.insert(0, "/.");
    t.path = path;
    t.fragment = r.fragment;
    return urlsift::recompose(t);
}

// Section 5.2 step 6c-6f of 001_*.txt, literally, as string replacements
// on a buffer that starts with "/": the oracle for rfc2396 mode.
std::string naive_step6(std::string buf) {
    // A complete segment starts after a "/" (the buffer's first "/" is the
    // root, so nothing before it is a segment).
    auto complete_at = [&](std::size_t p) { return p > 0 && buf[p - 1] == '/'; };
    // c) all occurrences of "./" where "." is a complete segment.
    for (bool again = true; again;) {
        again = false;
        for (std::size_t p = buf.find("./"); p != std::string::npos; p = buf.find("./", p + 1)) {
            if (complete_at(p)) {
                buf.erase(p, 2);
                again = true;
                break;
            }
        }
    }
    // d) a final "." segment.
    if (buf.size() >= 2 && buf.ends_with("/.")) buf.pop_back();
    // e) leftmost "<segment>/../" with <segment> complete and not "..", repeatedly.
    auto segment_before = [&](std::size_t q) -> std::optional<std::size_t> {
        // The start of the segment that ends at q (buf[q] == '/'), if complete.
        if (q == 0) return std::nullopt;
        const auto prev = buf.rfind('/', q - 1);
        if (prev == std::string::npos) return std::nullopt;
        if (buf.compare(prev + 1, q - prev - 1, "..") == 0 && q - prev - 1 == 2) return std::nullopt;
        return prev + 1;
    };
    for (bool again = true; again;) {
        again = false;
        for (std::size_t q = buf.find("/../"); q != std::string::npos; q = buf.find("/../", q + 1)) {
            if (const auto start = segment_before(q)) {
                buf.erase(*start, q + 4 - *start);
                again = true;
                break;
            }
        }
    }
    // f) a final "<segment>/..".
    if (buf.size() >= 3 && buf.ends_with("/..")) {
        if (const auto start = segment_before(buf.size() - 3)) buf.erase(*start);
    }
    return buf;
}

std::string random_reference(std::mt19937& rng) {
    static const std::vector<std::string> segments = {"a", "b", ".", "..", "g;p", "", "x.y", "..g", "g.", "%7E", "\xC3\xA9"};
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
    std::string ref;
    switch (pick(6)) {
    case 0: ref += "//host" + std::to_string(pick(3)); [[fallthrough]];
    case 1: ref += "/"; break;
    default: break;
    }
    const std::size_t n = pick(6);
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) ref += '/';
        ref += segments[pick(segments.size())];
    }
    if (pick(4) == 0) ref += "?q" + std::string(pick(2) == 0 ? "/../x" : "");
    if (pick(4) == 0) ref += "#f" + std::string(pick(2) == 0 ? "/./x" : "");
    return ref;
}

bool has_dot_segment(std::string_view path) {
    while (!path.empty()) {
        const auto slash = path.find('/');
        const auto seg = path.substr(0, slash);
        if (seg == "." || seg == "..") return true;
        if (slash == std::string_view::npos) break;
        path.remove_prefix(slash + 1);
    }
    return false;
}

}  // namespace

TEST_CASE("random references resolve to absolute URLs that resolve to themselves", "[resolver][property]") {
    const std::vector<std::string> bases = {"http://a/b/c/d;p?q", "http://example.org", "https://h:8080/x/y/",
                                            "ftp://u@h/a/b/c#frag", "file:///etc/x/y", "fred:///s//a/b/c",
                                            "foo:/a/b", "http://a/b/../c/./d/..x", "http://a//b//c"};
    std::mt19937 rng(20261121);
    for (int i = 0; i < 3000; ++i) {
        const std::string ref = random_reference(rng);
        for (const auto& base : bases) {
            INFO("base " << base << ", reference '" << ref << "'");
            for (auto m : {resolve_mode::rfc2396, resolve_mode::rfc3986}) {
                const auto r = resolve_copy(base, ref, mode(m));
                REQUIRE(r);
                const auto p = urlsift::parse_reference(*r);
                REQUIRE(p.scheme);
                // An absolute URL resolves to itself against any base.
                for (const auto& other : bases) {
                    const auto again = resolve_copy(other, *r, mode(m));
                    REQUIRE(again);
                    REQUIRE(*again == *r);
                }
                const auto rp = urlsift::parse_reference(ref);
                const auto bp = urlsift::parse_reference(base);
                if (m == resolve_mode::rfc2396 && !rp.site && !rp.path.starts_with('/') &&
                    !(rp.path.empty() && !rp.query)) {
                    const auto slash = bp.path.rfind('/');
                    const std::string dir = bp.site && bp.path.empty() ? "/" : std::string(bp.path.substr(0, slash + 1));
                    std::string expected = naive_step6(dir + std::string(rp.path));
                    if (!bp.site && expected.starts_with("//")) expected.insert(0, "/.");  // as in rfc3986 mode
                    REQUIRE(p.path == expected);
                }
                if (m == resolve_mode::rfc3986) {
                    REQUIRE(*r == naive_resolve_3986(base, ref));
                    // No "." or ".." complete segments are left, unless "/."
                    // protects a leading "//" in a path without a site, or
                    // the base's own path was kept as it is ("?q", "#f").
                    const bool kept_base_path = urlsift::parse_reference(ref).path.empty() &&
                                                !urlsift::parse_reference(ref).site;
                    if (!p.path.starts_with("/.//") && !kept_base_path) REQUIRE_FALSE(has_dot_segment(p.path));
                }
            }
        }
    }
}

TEST_CASE("rfc2396 and rfc3986 agree where the draft's rules are not in play", "[resolver][property]") {
    // Relative paths that do not climb above the root and have a non-empty
    // path resolve the same way in both modes.
    std::mt19937 rng(7);
    const std::string base = "http://a/b/c/d/e/f";
    for (int i = 0; i < 3000; ++i) {
        std::string ref = random_reference(rng);
        if (ref.empty() || ref[0] == '/' || ref[0] == '?' || ref[0] == '#') continue;
        const auto a = resolve_copy(base, ref, mode(resolve_mode::rfc2396));
        const auto b = resolve_copy(base, ref, mode(resolve_mode::rfc3986));
        REQUIRE(a);
        REQUIRE(b);
        if (a->find("/../") != std::string::npos || a->ends_with("/..")) continue;  // above the root
        INFO("reference '" << ref << "'");
        REQUIRE(*a == *b);
    }
}

TEST_CASE("regression: with normalize, a path from the root stays a path", "[resolver][normalize][regression]") {
    resolve_options o;
    o.normalize = true;
    for (const auto m : {resolve_mode::rfc3986, resolve_mode::rfc2396, resolve_mode::browser}) {
        o.mode = m;
        INFO("mode " << static_cast<int>(m));
        check("http://a/b", "news:/.//x:/y", "news:/.//x:/y", o);
        check("news:/a/b", "/.//x", "news:/.//x", o);
    }
    // A file URL always has a site in the browser draft, empty here.
    check("http://a/b", "file:/.//x:/y", "file:////x:/y", o);
    o.mode = resolve_mode::rfc3986;
    check("http://a/b", "file:/.//x:/y", "file:/.//x:/y", o);
}
