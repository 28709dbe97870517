// The scheme-URL cases of the peer suites in shared/conformance/extract, run
// through the scanner with abbreviations off. Every failure is either fixed
// or listed, with its reason, in tests/data/extract-known-differences.tsv;
// the test also checks that every listed case still fails.

#include "jsonl.hpp"
#include "scan_test_util.hpp"

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

namespace fs = std::filesystem;

using urlsift::test::json_row;

std::vector<json_row> read_suite(const fs::path& path) {
    std::vector<json_row> rows;
    for (auto& line : urlsift::test::read_jsonl(path.string())) {
        INFO(path.filename().string() << ':' << line.number);
        REQUIRE(line.row);
        rows.push_back(std::move(*line.row));
    }
    return rows;
}

const fs::path suite_dir = fs::path(URLSIFT_SHARED_DIR) / "conformance" / "extract";

/// Scheme prefixes that make an expected item a scheme URL without `//`.
bool has_scheme(const std::string& item) {
    if (item.find("://") != std::string::npos) return true;
    for (const char* p : {"mailto:", "news:", "urn:", "tel:", "data:", "xmpp:", "sip:", "sms:", "magnet:", "mid:",
                          "cid:", "geo:", "bitcoin:"}) {
        const std::string prefix = p;
        if (item.size() > prefix.size()) {
            std::string head = item.substr(0, prefix.size());
            for (auto& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (head == prefix) return true;
        }
    }
    return false;
}

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

std::map<std::string, std::string> read_known_differences() {
    std::map<std::string, std::string> known;
    std::ifstream in(fs::path(URLSIFT_TEST_DATA_DIR) / "extract-known-differences.tsv");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        known[line.substr(0, tab)] = line.substr(tab + 1);
    }
    return known;
}

}  // namespace

TEST_CASE("Peer suites: scheme URLs in text", "[scanner][conformance]") {
    if (!fs::exists(suite_dir)) {
        WARN("no conformance suites at " << suite_dir.string() << "; skipped");
        return;
    }
    const auto known = read_known_differences();
    std::set<std::string> seen_ids;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(suite_dir))
        if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    const auto options = urlsift::test::scheme_only();

    for (const auto& file : files) {
        const std::string source = file.stem().string();
        std::size_t total = 0, passed = 0;
        for (const json_row& row : read_suite(file)) {
            if (!selected(source, row)) continue;
            const std::string id = row.string("id").value_or("");
            const std::string text = row.string("text").value_or("");
            const auto expect = row.strings("expect");
            const bool first_only = row.string("check").value_or("all") == "first";
            seen_ids.insert(id);

            std::vector<std::string> found;
            for (const auto& r : urlsift::scan(text, options)) found.push_back(r.raw);
            bool ok = false;
            if (expect.empty())
                ok = found.empty();
            else if (first_only)
                ok = !found.empty() && found.front() == expect.front();
            else
                ok = found == expect;
            ++total;
            if (ok) ++passed;

            const auto listed = known.find(id);
            INFO(id << "\ntext: " << text);
            if (listed == known.end()) {
                std::string got;
                for (const auto& f : found) got += "[" + f + "] ";
                INFO("found: " << got);
                CHECK(ok); // fix it, or list it with the rule it follows
            } else {
                INFO("listed: " << listed->second);
                CHECK_FALSE(ok); // the list is honest: a listed case does fail
            }
            // The chunked scanner agrees with the whole-buffer one.
            if (text.size() < 400) {
                const auto split = urlsift::test::scan_in_chunks(text, options, {text.size() / 2});
                CHECK(split.refs == urlsift::test::scan_whole(text, options));
            }
        }
        if (total > 0)
            std::cout << "extract conformance: " << source << ": " << passed << "/" << total << " scheme-URL cases pass ("
                      << (100 * passed / total) << "%)\n";
    }
    for (const auto& [id, reason] : known) {
        INFO("listed id " << id);
        CHECK(seen_ids.count(id) == 1);
    }
}
