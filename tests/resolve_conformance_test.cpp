// The resolver against the peer suites in shared/conformance/resolve: the
// RFC 3986 section 5.4 examples (rfc3986 mode) and Roy Fielding's
// roytest1-5 pages (rfc2396 mode). The browser suite (wpt) is checked by
// the browser mode's own tests.

#include <urlsift/resolver.hpp>

#include "jsonl.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace {

const std::string resolve_dir = std::string(URLSIFT_SHARED_DIR) + "/conformance/resolve";

// Runs every row of `file` in `mode`; a row passes when the result is its
// `expect` or one of its `alt_expect`. Returns the bases seen.
std::set<std::string> run_suite(const std::string& file, urlsift::resolve_mode mode, std::size_t expected_rows) {
    std::set<std::string> bases;
    const auto lines = urlsift::test::read_jsonl(resolve_dir + "/" + file);
    CHECK(lines.size() == expected_rows);
    urlsift::resolve_options options;
    options.mode = mode;
    for (const auto& line : lines) {
        const auto& row = line.row;
        DYNAMIC_SECTION(file << ":" << line.number << " " << (row ? row->string("id").value_or("?") : "?")) {
            REQUIRE(row);
            const auto base = row->string("base");
            const auto ref = row->string("ref");
            const auto expect = row->string("expect");
            REQUIRE(base);
            REQUIRE(ref);
            REQUIRE(expect);
            bases.insert(*base);
            std::vector<std::string> accepted = row->strings("alt_expect");
            accepted.push_back(*expect);
            const std::string base_copy(*base);  // exact-size heap copies
            const std::string ref_copy(*ref);
            const auto r = urlsift::resolve(base_copy, ref_copy, options);
            INFO("base " << *base << ", reference '" << *ref << "', expected " << *expect);
            REQUIRE(r);
            INFO("got " << *r);
            CHECK(std::find(accepted.begin(), accepted.end(), *r) != accepted.end());
        }
    }
    return bases;
}

}  // namespace

TEST_CASE("conformance: RFC 3986 section 5.4 examples in rfc3986 mode", "[conformance][resolver]") {
    if (!std::filesystem::is_directory(resolve_dir)) {
        WARN("no conformance suites at " << resolve_dir << "; skipped");
        return;
    }
    run_suite("rfc3986-5.4.jsonl", urlsift::resolve_mode::rfc3986, 42);
}

TEST_CASE("conformance: roytest1-5 (RFC 2396) in rfc2396 mode", "[conformance][resolver]") {
    if (!std::filesystem::is_directory(resolve_dir)) {
        WARN("no conformance suites at " << resolve_dir << "; skipped");
        return;
    }
    run_suite("rfc2396-roytest.jsonl", urlsift::resolve_mode::rfc2396, 103);
}

TEST_CASE("the JSONL reader decodes escapes, arrays and nulls", "[conformance][jsonl]") {
    using urlsift::test::parse_jsonl_line;
    const auto row = parse_jsonl_line(
        R"({"id": "x/1", "text": "a\"b\\c\/d\n\u00e9\ud83d\ude00", "list": ["p", "q\t"], "none": null, "n": 42, "ok": true, "empty": []})");
    REQUIRE(row);
    CHECK(row->string("id") == "x/1");
    CHECK(row->string("text") == "a\"b\\c/d\n\xC3\xA9\xF0\x9F\x98\x80");
    CHECK(row->strings("list") == std::vector<std::string>{"p", "q\t"});
    CHECK_FALSE(row->string("none"));
    CHECK(row->has("none"));
    CHECK(row->string("n") == "42");
    CHECK(row->string("ok") == "true");
    CHECK(row->strings("empty").empty());
    CHECK(row->strings("text").size() == 1);
    CHECK_FALSE(row->has("missing"));
    CHECK_FALSE(parse_jsonl_line(R"({"a": "unterminated})"));
    CHECK_FALSE(parse_jsonl_line(R"({"a": "x"} trailing)"));
    CHECK_FALSE(parse_jsonl_line(R"(["not", "an object"])"));
    CHECK(parse_jsonl_line("{}"));
}
