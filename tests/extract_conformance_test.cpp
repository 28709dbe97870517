// The scheme-URL cases of the peer suites in shared/conformance/extract, run
// through the scanner with abbreviations off. Every failure is either fixed
// or listed, with its reason, in tests/data/extract-known-differences.tsv;
// the test also checks that every listed case still fails.

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

/// The fields of one suite line this test reads: strings and arrays of
/// strings. Other values (numbers, nested arrays such as twitter-text's
/// `indices`) are skipped. Written here because the suites' lines hold
/// nested arrays that a flat-object reader rejects.
struct json_row {
    std::map<std::string, std::string> strings_;
    std::map<std::string, std::vector<std::string>> arrays_;
    std::optional<std::string> string(const std::string& k) const {
        auto it = strings_.find(k);
        if (it == strings_.end()) return std::nullopt;
        return it->second;
    }
    std::vector<std::string> strings(const std::string& k) const {
        auto it = arrays_.find(k);
        return it == arrays_.end() ? std::vector<std::string>{} : it->second;
    }
};

class json_line {
public:
    explicit json_line(std::string_view s) : s_(s) {}

    std::optional<json_row> object() {
        json_row row;
        if (!eat('{')) return std::nullopt;
        if (eat('}')) return row;
        do {
            std::string key;
            if (!str(key) || !eat(':')) return std::nullopt;
            ws();
            if (peek() == '"') {
                std::string v;
                if (!str(v)) return std::nullopt;
                row.strings_[key] = v;
            } else if (peek() == '[') {
                std::vector<std::string> items;
                bool flat = true;
                if (!array(items, flat)) return std::nullopt;
                if (flat) row.arrays_[key] = items;
            } else if (!skip_value()) {
                return std::nullopt;
            }
        } while (eat(','));
        if (!eat('}')) return std::nullopt;
        return row;
    }

private:
    void ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    }
    char peek() {
        ws();
        return i_ < s_.size() ? s_[i_] : '\0';
    }
    bool eat(char c) {
        if (peek() != c) return false;
        ++i_;
        return true;
    }
    static void put_utf8(std::string& out, std::uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }
    bool hex4(std::uint32_t& v) {
        if (i_ + 4 > s_.size()) return false;
        v = static_cast<std::uint32_t>(std::stoul(std::string(s_.substr(i_, 4)), nullptr, 16));
        i_ += 4;
        return true;
    }
    bool str(std::string& out) {
        if (!eat('"')) return false;
        while (i_ < s_.size() && s_[i_] != '"') {
            char c = s_[i_++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i_ >= s_.size()) return false;
            c = s_[i_++];
            switch (c) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp)) return false;
                if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
                    i_ += 2;
                    std::uint32_t lo = 0;
                    if (!hex4(lo)) return false;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                put_utf8(out, cp);
                break;
            }
            default: out += c;
            }
        }
        return eat('"');
    }
    bool array(std::vector<std::string>& items, bool& flat) {
        if (!eat('[')) return false;
        if (eat(']')) return true;
        do {
            if (peek() == '"') {
                std::string v;
                if (!str(v)) return false;
                items.push_back(v);
            } else {
                flat = false;
                if (!skip_value()) return false;
            }
        } while (eat(','));
        return eat(']');
    }
    bool skip_value() {
        const char c = peek();
        if (c == '"') {
            std::string ignored;
            return str(ignored);
        }
        if (c == '[') {
            std::vector<std::string> ignored;
            bool flat = true;
            return array(ignored, flat);
        }
        if (c == '{') {
            ++i_;
            if (eat('}')) return true;
            do {
                std::string k;
                if (!str(k) || !eat(':') || !skip_value()) return false;
            } while (eat(','));
            return eat('}');
        }
        while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']') ++i_;
        return true;
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

std::vector<json_row> read_suite(const fs::path& path) {
    std::vector<json_row> rows;
    std::ifstream in(path, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        auto row = json_line(line).object();
        REQUIRE(row);
        rows.push_back(std::move(*row));
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
