#pragma once
// What the two runners of the peer extraction suites share: reading the
// suites and the lists of known differences, judging one case, and
// keeping the lists honest.

#include "jsonl.hpp"
#include "scan_test_util.hpp"

#include <urlsift/scanner.hpp>

#include <catch2/catch.hpp>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::test {

/// shared/conformance/extract, when it is there.
inline std::filesystem::path extract_suite_dir() {
    return std::filesystem::path(URLSIFT_SHARED_DIR) / "conformance" / "extract";
}

/// Every line of a suite file; a line that does not parse fails the test.
inline std::vector<json_row> read_suite(const std::filesystem::path& path) {
    std::vector<json_row> rows;
    for (auto& line : read_jsonl(path.string())) {
        INFO(path.filename().string() << ':' << line.number);
        REQUIRE(line.row);
        rows.push_back(std::move(*line.row));
    }
    return rows;
}

/// Whether an expected item is a scheme URL: it has `://`, or starts with
/// one of the schemes written without `//`. The line between the two
/// runners: each case goes to one of them or to both, never to neither.
inline bool has_scheme(std::string_view item) {
    if (item.find("://") != std::string_view::npos) return true;
    for (const std::string_view prefix : {"mailto:", "news:", "urn:", "tel:", "data:", "xmpp:", "sip:", "sms:",
                                          "magnet:", "mid:", "cid:", "geo:", "bitcoin:"}) {
        if (item.size() <= prefix.size()) continue;
        bool same = true;
        for (std::size_t i = 0; i < prefix.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(item[i])) == prefix[i];
        if (same) return true;
    }
    return false;
}

/// A list of known differences in tests/data: `id TAB reason` a line.
class known_differences {
public:
    explicit known_differences(const std::string& file_name) : file_(file_name) {
        std::ifstream in(std::filesystem::path(URLSIFT_TEST_DATA_DIR) / file_name);
        REQUIRE(in.good());
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#') continue;
            const auto tab = line.find('\t');
            INFO(file_name << ": " << line);
            REQUIRE(tab != std::string::npos);
            REQUIRE(reasons_.emplace(line.substr(0, tab), line.substr(tab + 1)).second);
        }
    }

    /// Scans the case's text with `options` and compares the `raw` text of
    /// what is found with `expect`: the first item only when the suite
    /// checks only the first match, else the whole list. A case that fails
    /// must be listed and a listed case must fail. Returns whether it passed.
    bool check_case(const json_row& row, const scan_options& options, std::string_view note = {}) {
        const std::string id = row.string("id").value_or("");
        const std::string text = row.string("text").value_or("");
        const auto expect = row.strings("expect");
        const bool first_only = row.string("check").value_or("all") == "first";
        seen_.insert(id);

        std::vector<std::string> found;
        for (const auto& r : scan(text, options)) found.push_back(r.raw);
        bool ok = false;
        if (expect.empty())
            ok = found.empty();
        else if (first_only)
            ok = !found.empty() && found.front() == expect.front();
        else
            ok = found == expect;

        INFO(id << note << "\ntext: " << text);
        if (const auto listed = reasons_.find(id); listed == reasons_.end()) {
            std::string got;
            for (const auto& f : found) got += "[" + f + "] ";
            INFO("found: " << got);
            CHECK(ok);  // fix it, or list it with the rule it follows
        } else {
            INFO("listed: " << listed->second);
            CHECK_FALSE(ok);  // the list is honest: a listed case does fail
        }
        // The chunked scanner agrees with the whole-buffer one.
        if (text.size() < 400) CHECK(scan_in_chunks(text, options, {text.size() / 2}).refs == scan_whole(text, options));
        return ok;
    }

    /// Every listed id belongs to a case that ran.
    void check_all_listed_ran() const {
        for (const auto& [id, reason] : reasons_) {
            INFO(file_ << ": listed id " << id << " did not run");
            CHECK(seen_.count(id) == 1);
        }
    }

private:
    std::string file_;
    std::map<std::string, std::string> reasons_;
    std::set<std::string> seen_;
};

/// Prints "LABEL: SOURCE: N/M cases pass (P%)" for the log.
inline void print_pass_rate(std::string_view label, std::string_view source, std::size_t passed, std::size_t total) {
    if (total == 0) return;
    std::cout << label << ": " << source << ": " << passed << "/" << total << " cases pass (" << (100 * passed / total)
              << "%)\n";
}

}  // namespace urlsift::test
