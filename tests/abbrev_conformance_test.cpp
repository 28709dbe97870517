// The abbreviated-URL (schemeless) cases of the peer suites in
// shared/conformance/extract, run through the scanner with the default
// options: abbreviations on, every kind but ipv4. Every failure is either
// fixed or listed, with the rule it follows, in
// tests/data/abbrev-known-differences.tsv; the test also checks that every
// listed case still fails.
//
// Which cases run here. `has_scheme` is the scheme runner's own test
// (extract_conformance_test.cpp), so between the two runners no case of
// these modes is dropped:
//
//   source      mode         positives (expect not empty)      negatives (expect empty)
//   linkify-it  fuzzy        some item has no scheme           every not_links case
//   uri-find    schemeless   some item has no scheme           every case
//   xurls       relaxed      some item has no scheme           every case
//   cmark-gfm   gfm-autolink some item has no scheme           every case
//   linkifyjs   linkifyjs    some item has no scheme           every case
//
// - Positives whose items all have a scheme belong to the scheme runner.
//   Positives mixing scheme and schemeless items run here, and every item
//   found is compared, scheme URLs included.
// - Other modes (uri-find and xurls `strict`, `strict-matching-scheme`) and
//   other sources (twitter-text: autolink links no schemeless text, extract
//   follows Twitter's service rules) are the scheme runner's or no one's.
// - Negatives are run whole, even those with `://` in the text that the
//   scheme runner also runs with abbreviations off: with them on, nothing
//   more may be found.
// - Items without a scheme by that test include a few that are no
//   abbreviation: `file:/etc/motd`, `matrix:r/...`, `//example.com`, bare
//   IPv6 addresses. They run like the others and are listed when they fail.
//
// IPv4: linkify-it's links (fuzzyIP) and xurls' relaxed finder expect
// dotted quads, which urlsift completes only with `--abbrev all`. A case
// with an item whose host is a dotted quad is therefore run with every kind
// on; all other cases (negatives included) run with the defaults.
//
// `check` is honoured as in the scheme runner: `first` compares the first
// reference found with the first expected item (an empty `expect` still
// means nothing may be found), `all` compares the whole list. The `raw`
// text of each reference (the URL as written, wrappers and trailing
// punctuation removed) is compared with the items.

#include "conformance_suite.hpp"

#include <urlsift/scanner.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cctype>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

using urlsift::test::has_scheme;
using urlsift::test::json_row;


/// The sources run here and the finder mode of each that looks for text
/// without a scheme.
struct source_mode {
    std::string_view source;
    std::string_view mode;
};
constexpr std::array<source_mode, 5> sources{{
    {"linkify-it", "fuzzy"},
    {"uri-find", "schemeless"},
    {"xurls", "relaxed"},
    {"cmark-gfm", "gfm-autolink"},
    {"linkifyjs", "linkifyjs"},
}};


bool selected(std::string_view mode_wanted, const json_row& row) {
    if (row.string("mode").value_or("") != mode_wanted) return false;
    const auto expect = row.strings("expect");
    if (expect.empty()) return true;
    for (const auto& e : expect)
        if (!has_scheme(e)) return true;
    return false;
}

/// `1.2.3.4`, `1.2.3.4/x`, `//1.2.3.4:80`: the host is a dotted quad (a
/// mail address is not, whatever its local part).
bool has_ipv4_host(std::string item) {
    if (item.starts_with("//")) item.erase(0, 2);
    item = item.substr(0, item.find_first_of(":/?#"));
    if (item.find('@') != std::string::npos) return false;
    int dots = 0;
    for (const char c : item) {
        if (c == '.')
            ++dots;
        else if (!std::isdigit(static_cast<unsigned char>(c)))
            return false;
    }
    return dots == 3;
}

}  // namespace

TEST_CASE("Peer suites: abbreviated URLs in text", "[abbrev][conformance]") {
    const fs::path dir = urlsift::test::extract_suite_dir();
    if (!fs::exists(dir)) {
        WARN("no conformance suites at " << dir.string() << "; skipped");
        return;
    }
    urlsift::test::known_differences known("abbrev-known-differences.tsv");
    const urlsift::scan_options defaults;
    urlsift::scan_options every_kind;
    every_kind.abbrev.kinds = urlsift::abbrev_all;

    for (const auto& [source, mode] : sources) {
        const fs::path file = dir / (std::string(source) + ".jsonl");
        if (!fs::exists(file)) {
            WARN("no " << file.string() << "; skipped");
            continue;
        }
        std::size_t total = 0, passed = 0;
        for (const json_row& row : urlsift::test::read_suite(file)) {
            if (!selected(mode, row)) continue;
            bool ipv4 = false;
            for (const auto& e : row.strings("expect")) ipv4 = ipv4 || has_ipv4_host(e);
            ++total;
            if (known.check_case(row, ipv4 ? every_kind : defaults, ipv4 ? " (--abbrev all)" : "")) ++passed;
        }
        urlsift::test::print_pass_rate("extract conformance (abbreviated URLs)", source, passed, total);
    }
    known.check_all_listed_ran();
}
