// Precision and recall of extraction on real text: judged excerpts of man
// pages, changelogs, READMEs, RFC-style YANG modules and mail, kept in
// tests/data/realtext/*.jsonl, and judged blocks of source code,
// configuration and data, kept in tests/data/realtext/code-*.jsonl
// (docs/realtext.md gives the judging rules).
//
// Each excerpt is scanned as `urlsift extract` scans it with its default
// options (a default scan_options is the command's: every abbreviation but
// ipv4, hyphen kept, no base, so no relative references listed); each code
// block is read as `extract --input code` reads a file called its `name`,
// in the language its `language` names, after the opening marker of the
// comment, docstring or POD it starts inside (`starts_in`). The `url`s are
// compared with `expect` as multisets. The totals per kind must stay at or
// above the floors in tests/data/realtext/floors.tsv, a ratchet: raise a
// floor when the scanner gets better, never lower it to make a change pass.
// The prose kinds pool as `all`, the code kinds as `code-all`.

#include "jsonl.hpp"

#include <urlsift/document_scan.hpp>
#include <urlsift/scanner.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path realtext_dir = fs::path(URLSIFT_TEST_DATA_DIR) / "realtext";

struct tally {
    std::size_t excerpts = 0, expected = 0, found = 0, tp = 0, fp = 0, fn = 0;

    double precision() const { return found == 0 ? 1.0 : static_cast<double>(tp) / static_cast<double>(found); }
    double recall() const { return expected == 0 ? 1.0 : static_cast<double>(tp) / static_cast<double>(expected); }
    void add(const tally& o) {
        excerpts += o.excerpts;
        expected += o.expected;
        found += o.found;
        tp += o.tp;
        fp += o.fp;
        fn += o.fn;
    }
};

struct floor_pair {
    double precision = 0, recall = 0;
};

/// `kind TAB precision TAB recall` a line; `#` starts a comment.
std::map<std::string, floor_pair> read_floors() {
    std::map<std::string, floor_pair> floors;
    std::ifstream in(realtext_dir / "floors.tsv");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string kind;
        floor_pair f;
        if (std::getline(fields, kind, '\t') && fields >> f.precision >> f.recall) floors[kind] = f;
    }
    return floors;
}

std::string fixed2(double v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string row(const std::string& kind, const tally& t) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%-11s %8zu %8zu %6zu %5zu %4zu %4zu %9s %7s", kind.c_str(), t.excerpts, t.expected,
                  t.found, t.tp, t.fp, t.fn, fixed2(t.precision()).c_str(), fixed2(t.recall()).c_str());
    return buf;
}

/// The judged files of `tests/data/realtext`, those of code or of prose.
std::vector<fs::path> judged_files(bool code) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(realtext_dir))
        if (entry.path().extension() == ".jsonl" && entry.path().stem().string().starts_with("code-") == code)
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

/// The opening marker of what a code block starts inside, in its language:
/// the block is read after it, as the whole file would be.
std::string opening(const std::string& starts_in, const std::string& language) {
    if (starts_in == "block comment" && (language == "C" || language == "C++" || language == "Go" ||
                                         language == "JavaScript"))
        return "/*\n";
    if (starts_in == "docstring" && language == "Python") return "\"\"\"\n";
    if (starts_in == "pod" && language == "Perl") return "=pod\n";
    if (starts_in == "xml comment" && language == "XML") return "<!--\n";
    FAIL("no opening marker for " << starts_in << " in " << language);
    return {};
}

/// The URLs `extract` lists for a prose excerpt.
std::map<std::string, int> urls_of_prose(const urlsift::test::json_row& r) {
    const auto text = r.string("text");
    REQUIRE(text);
    // An exact-size heap copy, so that sanitizers see over-reads.
    const std::unique_ptr<char[]> copy(new char[text->size()]);
    std::copy(text->begin(), text->end(), copy.get());
    std::map<std::string, int> got;
    for (const auto& ref : urlsift::scan(std::string_view(copy.get(), text->size()))) {
        // extract leaves relative references out when there is no base.
        if (ref.form == urlsift::reference_form::relative) continue;
        ++got[ref.url];
    }
    return got;
}

/// The URLs `extract --input code` lists for a code block.
std::map<std::string, int> urls_of_code(const urlsift::test::json_row& r) {
    const auto text = r.string("text");
    const auto name = r.string("name");
    const auto language = r.string("language");
    REQUIRE(text);
    REQUIRE(name);
    REQUIRE(language);
    // The name must say the language the block was judged in.
    REQUIRE(urlsift::code_language_of(*name, "") == *language);
    const std::string block = (r.has("starts_in") ? opening(*r.string("starts_in"), *language) : std::string()) + *text;
    const std::unique_ptr<char[]> copy(new char[block.size()]);
    std::copy(block.begin(), block.end(), copy.get());
    const std::string_view view(copy.get(), block.size());
    const urlsift::document_layout layout =
        urlsift::read_document(view, urlsift::document_format::code, urlsift::default_parse_memory, *name);
    std::map<std::string, int> got;
    urlsift::scan_document(view, layout, {}, nullptr, [&got](urlsift::found_reference& ref) {
        if (ref.form != urlsift::reference_form::relative) ++got[ref.url];
        return true;
    });
    return got;
}

/// Scores `files` (one kind each, by stem) with `urls_of`, prints the
/// table under `title` with the kinds pooled as `pooled`, and checks every
/// kind and the pool against its floor.
template <typename UrlsOf>
void score(const std::string& title, const std::vector<fs::path>& files, const std::string& pooled, UrlsOf urls_of) {
    REQUIRE(!files.empty());
    const std::map<std::string, floor_pair> floors = read_floors();
    const char* verbose_env = std::getenv("URLSIFT_REALTEXT_VERBOSE");
    const bool verbose = verbose_env != nullptr && std::string(verbose_env) == "1";

    std::map<std::string, tally> kinds;
    std::map<std::string, std::vector<std::string>> misses;  // kind -> "FP id url" / "FN id url"
    for (const auto& file : files) {
        const std::string kind = file.stem().string();
        tally& t = kinds[kind];
        for (auto& line : urlsift::test::read_jsonl(file.string())) {
            INFO(file.filename().string() << ':' << line.number);
            REQUIRE(line.row);
            const auto& r = *line.row;
            const std::string id = r.string("id").value_or("?");
            REQUIRE(r.has("expect"));
            std::map<std::string, int> want;
            for (const auto& e : r.strings("expect")) ++want[e];
            const std::map<std::string, int> got = urls_of(r);

            ++t.excerpts;
            for (const auto& [url, n] : want) t.expected += static_cast<std::size_t>(n);
            for (const auto& [url, n] : got) {
                t.found += static_cast<std::size_t>(n);
                const auto it = want.find(url);
                const int hit = it == want.end() ? 0 : std::min(n, it->second);
                t.tp += static_cast<std::size_t>(hit);
                for (int k = hit; k < n; ++k) misses[kind].push_back("FP " + id + "  " + url);
            }
            for (const auto& [url, n] : want) {
                const auto it = got.find(url);
                const int hit = it == got.end() ? 0 : std::min(n, it->second);
                for (int k = hit; k < n; ++k) misses[kind].push_back("FN " + id + "  " + url);
            }
            t.fp = t.found - t.tp;
            t.fn = t.expected - t.tp;
        }
    }

    tally all;
    std::ostringstream table;
    table << "realtext: " << title << " (tests/data/realtext)\n"
          << "kind        excerpts expected  found    TP   FP   FN precision  recall\n";
    for (const auto& [kind, t] : kinds) {
        table << row(kind, t) << '\n';
        all.add(t);
    }
    table << row(pooled, all) << '\n';
    std::cout << table.str();
    // The pooled totals have a floor of their own, checked like a kind's.
    kinds.emplace(pooled, all);

    bool below = false;
    for (const auto& [kind, t] : kinds) {
        const auto f = floors.find(kind);
        if (f == floors.end()) continue;
        // Floors are stored rounded down to 0.01; a tiny epsilon keeps exact
        // values such as 0.70 from failing on the last bit.
        if (t.precision() + 1e-9 < f->second.precision || t.recall() + 1e-9 < f->second.recall) below = true;
    }
    if (verbose || below) {
        for (const auto& [kind, list] : misses)
            for (const auto& m : list) std::cout << "  " << kind << ": " << m << '\n';
    }

    for (const auto& [kind, t] : kinds) {
        INFO("kind " << kind << " needs a line in tests/data/realtext/floors.tsv");
        REQUIRE(floors.count(kind) == 1);
        const floor_pair f = floors.at(kind);
        INFO(kind << ": precision " << fixed2(t.precision()) << " (floor " << f.precision << "), recall "
                  << fixed2(t.recall()) << " (floor " << f.recall << ")");
        CHECK(t.precision() + 1e-9 >= f.precision);
        CHECK(t.recall() + 1e-9 >= f.recall);
    }
}

}  // namespace

TEST_CASE("Real text: precision and recall of extract", "[realtext]") {
    REQUIRE(fs::is_directory(realtext_dir));
    score("extract on judged excerpts", judged_files(false), "all", urls_of_prose);
}

TEST_CASE("Real text: precision and recall of extract on source code and configuration", "[realtext]") {
    REQUIRE(fs::is_directory(realtext_dir));
    score("extract --input code on judged blocks", judged_files(true), "code-all", urls_of_code);
}
