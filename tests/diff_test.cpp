// The streaming unified diff of --diff: the same hunks as `diff -u` between
// the text and its rewrite, however the text is cut into chunks, and
// bounded memory.

#include "cli/diff.hpp"
#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace urlsift::test;
using urlsift::rewrite_edit;

namespace {

// The text with `edits` (in order, not overlapping) applied.
std::string apply(const std::string& text, const std::vector<rewrite_edit>& edits) {
    std::string out;
    std::uint64_t at = 0;
    for (const auto& e : edits) {
        out.append(text, at, e.offset - at);
        out += e.replacement;
        at = e.offset + e.length;
    }
    out.append(text, at);
    return out;
}

// The diff unified_diff writes when `text` arrives in chunks of `chunk`
// bytes and each edit is told once the text holding it has arrived, the
// way the rewriter reports them.
std::string streamed_diff(const std::string& text, const std::vector<rewrite_edit>& edits, std::size_t chunk) {
    std::string out;
    urlsift::cli::unified_diff d("doc.txt", [&out](std::string_view s) { out += s; }, 1 << 20);
    std::size_t next = 0;
    for (std::size_t at = 0; at < text.size(); at += chunk) {
        const std::size_t end = std::min(text.size(), at + chunk);
        d.text(std::string_view(text).substr(at, end - at));
        while (next < edits.size() && edits[next].offset + edits[next].length <= end) d.edit(edits[next++]);
        d.settle(next < edits.size() ? std::min<std::uint64_t>(end, edits[next].offset) : end);
    }
    while (next < edits.size()) d.edit(edits[next++]);
    d.finish();
    return out;
}

// `diff -u` of the text and its rewrite, with the file names of ours.
std::string reference_diff(const std::string& text, const std::vector<rewrite_edit>& edits) {
    const scratch_dir dir;
    write_file(dir.path / "a", text);
    write_file(dir.path / "b", apply(text, edits));
    const auto r = run_shell("cd " + shell_quote(dir.path.string()) + " && diff -u a b");
    if (r.out.empty()) return {};
    const auto body = r.out.find("\n@@");
    return "--- a/doc.txt\n+++ b/doc.txt" + r.out.substr(body);
}

// A text of `lines` distinct lines (the last without a line feed when
// `newline_at_end` is false) and edits drawn from `seed`: words replaced,
// lines joined, lines split, near and far from each other.
struct sample {
    std::string text;
    std::vector<rewrite_edit> edits;
};

sample make_sample(unsigned seed, std::size_t lines, bool newline_at_end) {
    std::mt19937 rng(seed);
    sample s;
    std::vector<std::uint64_t> starts;
    for (std::size_t i = 0; i < lines; ++i) {
        starts.push_back(s.text.size());
        s.text += "line " + std::to_string(i) + " see www.example.org/p" + std::to_string(i) + " here";
        if (i + 1 < lines || newline_at_end) s.text += '\n';
    }
    std::uint64_t after = 0;
    for (std::size_t i = 0; i < lines; ++i) {
        // Runs of nearby edits, then long quiet stretches.
        if (rng() % 10 >= (i % 40 < 12 ? 4u : 1u)) continue;
        const std::uint64_t word = starts[i] + s.text.substr(starts[i]).find("www.");
        if (word < after) continue;
        switch (rng() % 3) {
        case 0: s.edits.push_back({word, 3, "http://www"}); break;
        case 1:
            if (i + 1 < lines) {  // a join: the line feed goes
                const std::uint64_t nl = starts[i + 1] - 1;
                s.edits.push_back({nl - 4, 5, "here "});
            }
            break;
        default: s.edits.push_back({word, 0, "\n"}); break;
        }
        if (!s.edits.empty()) after = s.edits.back().offset + s.edits.back().length;
    }
    return s;
}

}  // namespace

TEST_CASE("the streamed diff has the hunks diff -u finds, at any chunk size", "[cli][diff]") {
    for (unsigned seed = 1; seed <= 6; ++seed) {
        for (const bool newline_at_end : {true, false}) {
            const sample s = make_sample(seed, 300, newline_at_end);
            REQUIRE(!s.edits.empty());
            const std::string expected = reference_diff(s.text, s.edits);
            for (const std::size_t chunk : {std::size_t{1}, std::size_t{13}, std::size_t{4096}, s.text.size()}) {
                INFO("seed " << seed << ", newline at end " << newline_at_end << ", chunks of " << chunk);
                CHECK(streamed_diff(s.text, s.edits, chunk) == expected);
            }
        }
    }
}

TEST_CASE("the streamed diff writes hunks as it goes and holds only what it may show", "[cli][diff]") {
    std::string out;
    urlsift::cli::unified_diff d("doc.txt", [&out](std::string_view s) { out += s; }, 4096);
    const std::string line = "a quiet line of text that changes nothing at all\n";
    d.text("see www.example.org/\n");
    d.edit({4, 3, "http://www"});
    std::uint64_t fed = 21;
    for (int i = 0; i < 20000; ++i) {
        d.text(line);
        fed += line.size();
        REQUIRE(d.settle(fed));  // a megabyte of text, never more than 4 KiB held
    }
    // The hunk was written once the next edit could no longer join it.
    CHECK(out == "--- a/doc.txt\n+++ b/doc.txt\n@@ -1,4 +1,4 @@\n-see www.example.org/\n+see http://www.example.org/\n " +
                     line + " " + line + " " + line);
    d.finish();
}

TEST_CASE("the streamed diff gives up on a line longer than its limit", "[cli][diff]") {
    urlsift::cli::unified_diff d("doc.txt", [](std::string_view) {}, 1000);
    d.text(std::string(600, 'x'));
    CHECK(d.settle(600));
    d.text(std::string(600, 'x'));
    CHECK_FALSE(d.settle(1200));
}
