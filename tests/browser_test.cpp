// Tests for the browser resolver mode (src/uri/browser/browser.cpp): a short inline
// table of the behaviours 004_*.txt names, then the web-platform-tests URL
// cases from the shared conformance data, whose known differences must be
// listed in tests/data/wpt-known-differences.tsv and nowhere else.

#include "uri/browser/browser.hpp"
#include "jsonl.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

namespace {

using urlsift::error;
using urlsift::detail::browser_parse;
using urlsift::detail::browser_resolve;

/// An exact-size heap copy of `s`, so that sanitizers see any over-read.
class heap_copy {
public:
    explicit heap_copy(std::string_view s) : data_(std::make_unique<char[]>(s.size())), size_(s.size()) {
        if (!s.empty()) std::memcpy(data_.get(), s.data(), s.size());
    }
    std::string_view view() const noexcept { return {data_.get(), size_}; }

private:
    std::unique_ptr<char[]> data_;
    std::size_t size_;
};

/// Resolves through heap copies; "FAIL" when the parser rejects the input.
std::string resolve(std::string_view ref, std::optional<std::string_view> base) {
    const heap_copy r(ref);
    std::optional<heap_copy> b;
    if (base) b.emplace(*base);
    const auto out = browser_resolve(r.view(), b ? std::optional<std::string_view>(b->view()) : std::nullopt);
    return out ? *out : std::string("FAIL");
}

void check(std::string_view ref, std::optional<std::string_view> base, std::string_view expected) {
    INFO("ref: " << ref << "  base: " << (base ? *base : "(none)"));
    CHECK(resolve(ref, base) == expected);
}

void check_error(std::string_view ref, std::optional<std::string_view> base, error code, std::size_t offset) {
    INFO("ref: " << ref << "  base: " << (base ? *base : "(none)"));
    const auto out = browser_resolve(ref, base);
    REQUIRE_FALSE(out);
    CHECK(out.error() == code);
    CHECK(out.error_offset() == offset);
}

/// The components urltestdata.json gives beside `href`, and where
/// `browser_url` keeps each.
const std::pair<std::string, std::string urlsift::detail::browser_url::*> wpt_components[] = {
    {"protocol", &urlsift::detail::browser_url::protocol}, {"username", &urlsift::detail::browser_url::username},
    {"password", &urlsift::detail::browser_url::password}, {"host", &urlsift::detail::browser_url::host},
    {"hostname", &urlsift::detail::browser_url::hostname}, {"port", &urlsift::detail::browser_url::port},
    {"pathname", &urlsift::detail::browser_url::pathname}, {"search", &urlsift::detail::browser_url::search},
    {"hash", &urlsift::detail::browser_url::hash},
};

/// `wpt/urltestdata.json/0042`: the 1-based index of the object entry, comment
/// strings not counted (the id scheme of wpt-known-differences.tsv).
std::string wpt_id(std::size_t index) {
    std::string number = std::to_string(index);
    if (number.size() < 4) number.insert(0, 4 - number.size(), '0');
    return "wpt/urltestdata.json/" + number;
}

/// id -> reason, from `id<TAB>reason` lines; `#` starts a comment line.
std::map<std::string, std::string> read_known_differences(const std::string& path) {
    std::map<std::string, std::string> known;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        known[line.substr(0, tab)] = tab == std::string::npos ? std::string() : line.substr(tab + 1);
    }
    return known;
}

}  // namespace

TEST_CASE("browser mode: trimming, tabs and newlines", "[browser]") {
    check(" \t\x01http://example.com/a \n\x1f", std::nullopt, "http://example.com/a");
    check("http://exa\nmple.com/p\tq\r", std::nullopt, "http://example.com/pq");
    check("\x7fhttp://example.com/", "http://b/", "http://b/%7Fhttp://example.com/");
    check("", "http://example.com/a?q#f", "http://example.com/a?q");
}

TEST_CASE("browser mode: backslash and slashes", "[browser]") {
    check("http:\\\\example.com\\a\\b", std::nullopt, "http://example.com/a/b");
    check("\\\\other\\x", "https://example.com/", "https://other/x");
    check("http:///example.com//a", std::nullopt, "http://example.com//a");
    // Non-special schemes keep `\` as data.
    check("foo://h/a\\b", std::nullopt, "foo://h/a\\b");
}

TEST_CASE("browser mode: same-scheme references are relative", "[browser]") {
    // 004_*.txt Section 4: `http:g` against an http base is path-relative.
    check("http:g", "http://a/b/c/d;p?q", "http://a/b/c/g");
    check("http:/g", "http://a/b/c/d;p?q", "http://a/g");
    check("https:g", "http://a/b/c/d;p?q", "https://g/");
    check("foo:g", "foo://a/b", "foo:g");
    check("../../../../g", "http://a/b/c/d;p?q", "http://a/g");
    check("?y", "http://a/b/c/d;p?q", "http://a/b/c/d;p?y");
}

TEST_CASE("browser mode: ports", "[browser]") {
    check("http://example.com:80/", std::nullopt, "http://example.com/");
    check("https://example.com:443", std::nullopt, "https://example.com/");
    check("ws://x:80/", std::nullopt, "ws://x/");
    check("ftp://x:021/", std::nullopt, "ftp://x/");
    check("http://example.com:8080/", std::nullopt, "http://example.com:8080/");
    check("https://example.com:80/", std::nullopt, "https://example.com:80/");
    check("foo://x:80/", std::nullopt, "foo://x:80/");
    check("http://example.com:/", std::nullopt, "http://example.com/");
}

TEST_CASE("browser mode: hosts", "[browser]") {
    check("http://EXAMPLE.Com/", std::nullopt, "http://example.com/");
    check("http://B\xc3\xbc" "cher.example/", std::nullopt, "http://xn--bcher-kva.example/");
    check("http://%42%C3%BC" "cher.example/", std::nullopt, "http://xn--bcher-kva.example/");
    // The URL Standard turns CheckHyphens off: these labels are kept.
    check("http://-foo-.example/", std::nullopt, "http://-foo-.example/");
    check("http://ab--c.b\xc3\xbc" "cher.example/", std::nullopt, "http://ab--c.xn--bcher-kva.example/");
    check("http://foo-.b\xc3\xbc" "cher.example/", std::nullopt, "http://foo-.xn--bcher-kva.example/");
    check("http://0x7f.1/", std::nullopt, "http://127.0.0.1/");
    check("http://017700000001/", std::nullopt, "http://127.0.0.1/");
    check("http://[0:0:0:0:0:0:0:1]/", std::nullopt, "http://[::1]/");
    check("http://[1:0:0:2:0:0:0:3]/", std::nullopt, "http://[1:0:0:2::3]/");
    check("http://[::ffff:192.168.0.1]/", std::nullopt, "http://[::ffff:c0a8:1]/");
    check("foo://EXAMPLE.com/", std::nullopt, "foo://EXAMPLE.com/");
    check("file://LOCALHOST/x", std::nullopt, "file:///x");
}

TEST_CASE("browser mode: percent-encoding", "[browser]") {
    check("http://h/a b/\xc3\xa9?c d#e f", std::nullopt, "http://h/a%20b/%C3%A9?c%20d#e%20f");
    check("http://h/?'", std::nullopt, "http://h/?%27");
    check("foo://h/?'", std::nullopt, "foo://h/?'");
    check("http://h/#`", std::nullopt, "http://h/#%60");
    check("http://us er:p@ss@h/", std::nullopt, "http://us%20er:p%40ss@h/");
    check("http://h/%zz%41", std::nullopt, "http://h/%zz%41");
    // Bytes that are not UTF-8 are encoded as they are.
    check("http://h/\xff", std::nullopt, "http://h/%FF");
    check("mailto:a b@example.com", std::nullopt, "mailto:a b@example.com");
}

TEST_CASE("browser mode: dot segments and file URLs", "[browser]") {
    check("http://h/a/./b/../c/%2e%2E/d", std::nullopt, "http://h/a/d");
    check("http://h/a/b/..", std::nullopt, "http://h/a/");
    check("file:///C|/x/../../y", std::nullopt, "file:///C:/y");
    check("/z", "file:///C:/x/y", "file:///C:/z");
    check("file:c:\\a", std::nullopt, "file:///c:/a");
}

TEST_CASE("browser mode: rejected input", "[browser]") {
    check_error("g", std::nullopt, error::invalid_scheme, 0);
    check_error("g", "mailto:x@example.com", error::base_not_hierarchical, 0);
    check_error("g", "not a url", error::base_not_absolute, 0);
    check_error("http://exa mple.com/", std::nullopt, error::invalid_host, 7);
    check_error("  http://h:x/", std::nullopt, error::invalid_port, 11);
    check_error("http://h:99999/", std::nullopt, error::invalid_port, 9);
    check_error("http://[::1/", std::nullopt, error::invalid_host, 7);
    check_error("http://1.2.3.256/", std::nullopt, error::invalid_host, 7);
    check_error("http://user@/", std::nullopt, error::invalid_host, 12);
}

TEST_CASE("browser mode: web-platform-tests URL cases", "[browser][conformance]") {
    const std::string path = URLSIFT_SHARED_DIR "/conformance/resolve/wpt-urltestdata.json";
    if (!std::ifstream(path)) {
        WARN("conformance data not found, skipped: " << path);
        return;
    }
    const auto known = read_known_differences(URLSIFT_TEST_DATA_DIR "/wpt-known-differences.tsv");
    const auto items = urlsift::test::read_json_array(path);
    REQUIRE(items);

    std::size_t total = 0;          // object entries
    std::size_t passed = 0;         // entries right in every respect checked
    std::size_t parses = 0;         // entries with an href
    std::size_t href_passed = 0;    // ... whose href is right
    std::size_t parts_passed = 0;   // ... whose href and every component are right
    std::size_t failures = 0;       // entries that must be rejected
    std::size_t failures_passed = 0;
    std::set<std::string> failed;
    for (const auto& item : *items) {
        if (!item.row) continue;  // a comment between cases
        const auto& row = *item.row;
        ++total;
        const std::string id = wpt_id(total);
        INFO(id);
        const auto input = row.string("input");
        REQUIRE(input);
        const auto base = row.string("base");
        const heap_copy in(*input);
        std::optional<heap_copy> b;
        if (base) b.emplace(*base);
        const auto got =
            browser_parse(in.view(), b ? std::optional<std::string_view>(b->view()) : std::nullopt);

        std::string difference;  // empty when the entry passes
        if (row.string("failure") == "true") {
            ++failures;
            if (got)
                difference = "parsed as " + got->href + ", should fail";
            else
                ++failures_passed;
        } else {
            ++parses;
            const auto href = row.string("href");
            REQUIRE(href);
            if (!got) {
                difference = "failed, should be " + *href;
            } else {
                if (got->href == *href)
                    ++href_passed;
                else
                    difference = "href " + got->href + ", should be " + *href;
                for (const auto& [name, member] : wpt_components) {
                    const auto want = row.string(name);
                    REQUIRE(want);
                    const std::string& have = (*got).*member;
                    if (have != *want) difference += "; " + name + " '" + have + "', should be '" + *want + "'";
                }
                if (difference.empty()) ++parts_passed;
            }
        }
        if (difference.empty()) {
            ++passed;
            continue;
        }
        failed.insert(id);
        // A failure is acceptable only when it is listed, with its reason.
        INFO(id << ": input " << *input << "  base " << (base ? *base : "(null)") << ": " << difference);
        CHECK(known.count(id) == 1);
    }
    // The list stays honest: every listed case still fails.
    for (const auto& [id, reason] : known) {
        INFO(id << " is listed as a known difference (" << reason << ") but passes or is gone");
        CHECK(failed.count(id) == 1);
    }

    REQUIRE(total > 0);
    const double rate = 100.0 * static_cast<double>(passed) / static_cast<double>(total);
    std::ostringstream summary;
    summary << "browser mode: " << passed << "/" << total << " wpt cases (" << rate << " %): href "
            << href_passed << "/" << parses << ", href and components " << parts_passed << "/" << parses
            << ", failures " << failures_passed << "/" << failures;
    std::cout << summary.str() << "\n";
    INFO(summary.str());
    REQUIRE(passed * 10 >= total * 9);
}
