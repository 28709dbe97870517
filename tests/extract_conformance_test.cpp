// The scheme-URL cases of the peer suites in shared/conformance/extract, run
// through the scanner with abbreviations off. Every failure is either fixed
// or listed, with its reason, in tests/data/extract-known-differences.tsv;
// the test also checks that every listed case still fails.

#include "conformance_suite.hpp"

#include <urlsift/scanner.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <set>
#include <string>
#include <vector>

namespace {

using urlsift::test::has_scheme;
using urlsift::test::json_row;

/// Is the case about scheme URLs, the scanner's job with abbreviations off?
/// Positives: every expected item has a scheme. Negatives: only from finders
/// that look for scheme URLs alone (a negative of a schemeless finder says
/// nothing about us).
bool selected(const std::string& source, const json_row& row) {
    const auto expect = row.strings("expect");
    const std::string mode = row.string("mode").value_or("");
    const std::string id = row.string("id").value_or("");
    if (!expect.empty()) {
        for (const auto& e : expect)
            if (!has_scheme(e)) return false;
        // The scheme regexp of StrictMatchingScheme limits which schemes count.
        return mode != "strict-matching-scheme" || id.find("StrictMatchingSchemeAny") != std::string::npos;
    }
    const std::string text = row.string("text").value_or("");
    if (source == "xurls") return mode == "strict";
    if (source == "uri-find") return mode == "strict";
    if (source == "twitter-text-autolink") return true;
    if (source == "cmark-gfm" || source == "linkify-it") return text.find("://") != std::string::npos;
    return false;
}

}  // namespace

TEST_CASE("Peer suites: scheme URLs in text", "[scanner][conformance]") {
    namespace fs = std::filesystem;
    const fs::path dir = urlsift::test::extract_suite_dir();
    if (!fs::exists(dir)) {
        WARN("no conformance suites at " << dir.string() << "; skipped");
        return;
    }
    urlsift::test::known_differences known("extract-known-differences.tsv");
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    const auto options = urlsift::test::scheme_only();

    for (const auto& file : files) {
        const std::string source = file.stem().string();
        std::size_t total = 0, passed = 0;
        for (const json_row& row : urlsift::test::read_suite(file)) {
            if (!selected(source, row)) continue;
            ++total;
            if (known.check_case(row, options)) ++passed;
        }
        urlsift::test::print_pass_rate("extract conformance (scheme URLs)", source, passed, total);
    }
    known.check_all_listed_ran();
}
