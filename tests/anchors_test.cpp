// The scanner's anchor search (src/scan/anchors.hpp): the scalar, SSE2 and
// AVX2 paths find the same anchors. The AVX2 path may also leave out plain
// word ends (a `.` or `:` before a blank), which the scanner passes over
// anyway; everything else must match.

#include "scan/anchors.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using urlsift::detail::anchor_cursor;
using urlsift::detail::anchor_path;
using urlsift::detail::anchor_path_available;

namespace {

/// The anchors `path` finds in `text`, through an exact-size heap copy so
/// that sanitizers see over-reads.
std::vector<std::size_t> anchors(std::string_view text, bool abbrev, anchor_path path) {
    auto copy = std::make_unique<unsigned char[]>(text.size() + 1);
    std::copy(text.begin(), text.end(), copy.get());
    anchor_cursor cursor(copy.get(), text.size(), abbrev, path);
    std::vector<std::size_t> found;
    for (std::size_t i = cursor.next(0); i < text.size(); i = cursor.next(i + 1)) found.push_back(i);
    return found;
}

/// Whether the anchor at t[i] is a plain word end the AVX2 path may skip.
bool plain_word_end(std::string_view t, std::size_t i) {
    if (i + 1 >= t.size()) return false;
    const auto next = static_cast<unsigned char>(t[i + 1]);
    const bool blank = next == ' ' || (next >= 0x09 && next <= 0x0D);
    if (!blank) return false;
    if (t[i] == '.') return true;
    return t[i] == ':' && !(i > 0 && (t[i - 1] | 0x20) == 'l');
}

void check_paths_agree(std::string_view text) {
    for (const bool abbrev : {false, true}) {
        const auto scalar = anchors(text, abbrev, anchor_path::scalar);
        // The scalar path is the definition: every anchor byte, in order.
        std::vector<std::size_t> expected;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if (c == ':' || c == '<' || (abbrev && (c == '.' || c == '@'))) expected.push_back(i);
        }
        REQUIRE(scalar == expected);
        if (anchor_path_available(anchor_path::sse2)) CHECK(anchors(text, abbrev, anchor_path::sse2) == scalar);
        if (anchor_path_available(anchor_path::avx2)) {
            std::vector<std::size_t> kept;
            for (const std::size_t i : scalar)
                if (!plain_word_end(text, i)) kept.push_back(i);
            const auto avx2 = anchors(text, abbrev, anchor_path::avx2);
            // Every anchor AVX2 reports is real, and it misses only plain word ends.
            for (const std::size_t i : avx2) CHECK(std::binary_search(scalar.begin(), scalar.end(), i));
            for (const std::size_t i : kept) CHECK(std::binary_search(avx2.begin(), avx2.end(), i));
        }
    }
}

}  // namespace

TEST_CASE("The anchor paths agree on every length and at block edges", "[scanner][anchors]") {
    const std::string pattern = "see http://x.example/a. Note: <b> a@b.example URL: x\n\xc3\xa9:. ";
    for (std::size_t len = 0; len <= 200; ++len) {
        std::string text;
        while (text.size() < len) text += pattern;
        text.resize(len);
        DYNAMIC_SECTION("length " << len) { check_paths_agree(text); }
    }
    // An anchor on each side of every 64-byte boundary, before a blank and not.
    for (const char anchor : {':', '.', '<', '@'}) {
        for (std::size_t at = 60; at < 200; ++at) {
            std::string text(210, 'a');
            text[at] = anchor;
            text[at + 1] = at % 2 == 0 ? ' ' : 'b';
            check_paths_agree(text);
        }
    }
}

TEST_CASE("The anchor paths agree on random text", "[scanner][anchors]") {
    std::mt19937 rng(20261122);
    const std::string alphabet = "ab:.<@ \n\tl L\x80\xff";
    for (int round = 0; round < 300; ++round) {
        std::string text(std::uniform_int_distribution<std::size_t>(0, 400)(rng), 'x');
        for (auto& c : text) c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
        check_paths_agree(text);
    }
}

TEST_CASE("URLSIFT_ANCHORS chooses the scanner's path", "[scanner][anchors]") {
    // The suite runs once a path under ctest with the variable set; each
    // run must really take that path where the processor has it.
    const char* env = std::getenv("URLSIFT_ANCHORS");
    if (env == nullptr) return;
    const std::string_view name(env);
    const anchor_path wanted = name == "scalar" ? anchor_path::scalar : name == "sse2" ? anchor_path::sse2 : anchor_path::avx2;
    if (anchor_path_available(wanted)) CHECK(urlsift::detail::active_anchor_path() == wanted);
}

TEST_CASE("count_newlines counts every line feed, whatever the length and offset", "[scanner][anchors]") {
    std::mt19937 rng(20261129);
    std::string text(700, 'x');
    for (char& c : text) c = rng() % 5 == 0 ? '\n' : 'a';
    for (std::size_t from = 0; from < 40; ++from) {
        for (std::size_t n = 0; from + n <= text.size(); n += n < 100 ? 1 : 37) {
            // An exact-size heap copy, so that sanitizers see over-reads.
            auto copy = std::make_unique<char[]>(n + 1);
            std::copy(text.begin() + static_cast<std::ptrdiff_t>(from), text.begin() + static_cast<std::ptrdiff_t>(from + n),
                      copy.get());
            const auto expected = static_cast<std::size_t>(std::count(copy.get(), copy.get() + n, '\n'));
            INFO("from " << from << ", " << n << " bytes");
            REQUIRE(urlsift::detail::count_newlines(copy.get(), n) == expected);
        }
    }
}

TEST_CASE("url_byte_classes finds each class at every position and length", "[scanner][anchors]") {
    using urlsift::detail::url_byte_classes;
    const std::pair<char, unsigned> marks[] = {{'(', urlsift::detail::url_bracket}, {'}', urlsift::detail::url_bracket},
                                               {'\xC3', urlsift::detail::url_bracket}, {'&', urlsift::detail::url_escape},
                                               {'\\', urlsift::detail::url_escape}, {',', urlsift::detail::url_comma}};
    for (std::size_t n = 0; n <= 40; ++n) {
        for (std::size_t at = 0; at <= n; ++at) {
            for (const auto& [mark, cls] : marks) {
                std::string text(n, 'a');
                if (at < n) text[at] = mark;
                text += "(&,";  // past the end: must not count
                // Read through an exact-size copy, with `readable` at the text's end.
                auto copy = std::make_unique<unsigned char[]>(text.size());
                std::copy(text.begin(), text.end(), copy.get());
                INFO(n << " bytes, '" << mark << "' at " << at);
                CHECK(url_byte_classes(copy.get(), 0, n, text.size()) == (at < n ? cls : 0u));
            }
        }
    }
}
