// Fuzz target: the rewriting filter, under every option it has.
//
// Input: six bytes of settings, then the text.
//
//   byte 0  bit 0     a base, byte 1 says which
//           bit 1     abbreviations: all (else none), then byte 2
//           bit 2     --style angle
//           bit 3     length limit 1088 (else 64), unless byte 3 or 5 says
//           bits 4-7  chunk size 1 + 5n
//   byte 1  bits 0-1  base: http://a/b/c/d;p?q, https://example.org/docs/,
//                     file:///tmp/x/y, http://[::1]:8080/%7Euser/
//           bit 2     --normalize (the base resolves with it too)
//           bit 3     hyphen rule drop (else keep)
//           bit 4     abbreviations completed with https://
//           bits 5-7  the kinds --only leaves out: relative, abbreviated,
//                     joined (all three: the empty set)
//   byte 2  abbreviation kinds switched the other way
//   byte 3  bits 0-1  resolver: rfc3986, rfc2396, browser (3: rfc3986)
//           bits 2-3  length limit 24, 1000 or 64 KiB (0: as byte 0 says)
//           bits 4-7  also fed in chunks of 1 + 97n bytes (0: not)
//   byte 4  also fed in chunks that end just after each such byte (0: not)
//   byte 5  length limit 1 to 255 bytes (0: as bytes 0 and 3 say)
//
// Zero in a byte after the first keeps the meaning the bytes before it had.
//
// Properties checked, under every combination:
// - lossless: the output is the input with the reported edits applied and
//   nothing else (no edits, no change); edits lie inside the input, in
//   order, without overlap; each changes the bytes it replaces, and
//   edit_count() counts them;
// - no edit writes a URL that runs a script;
// - fed in chunks, at any of the boundaries above, the output and the
//   edits are those of the text fed whole;
// - idempotent: rewriting the output again makes no edit.

#include <urlsift/rewriter.hpp>
#include <urlsift/warnings.hpp>

#include "chunks.hpp"
#include "fuzz_check.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct result {
    std::string out;
    std::vector<urlsift::rewrite_edit> edits;
};

bool same(const result& a, const result& b) {
    if (a.out != b.out || a.edits.size() != b.edits.size()) return false;
    for (std::size_t i = 0; i < a.edits.size(); ++i) {
        const auto& x = a.edits[i];
        const auto& y = b.edits[i];
        if (x.offset != y.offset || x.length != y.length || x.replacement != y.replacement) return false;
    }
    return true;
}

result run(std::string_view text, const urlsift::rewrite_options& options, urlsift::fuzz::cuts cuts) {
    result r;
    urlsift::rewriter w(
        options,
        [&r](std::string_view s) {
            r.out += s;
            return true;
        },
        [&r](const urlsift::rewrite_edit& e) { r.edits.push_back(e); });
    urlsift::fuzz::feed_in_chunks(text, cuts, [&w](std::string_view chunk) { w.feed(chunk); });
    w.finish();
    URLSIFT_FUZZ_CHECK(w.edit_count() == r.edits.size());
    return r;
}

// The options the settings bytes describe; `cuts` gets the ways to feed
// the text in chunks besides whole.
urlsift::rewrite_options options_from(const std::uint8_t* b, std::vector<urlsift::fuzz::cuts>& cuts) {
    static constexpr const char* bases[] = {"http://a/b/c/d;p?q", "https://example.org/docs/", "file:///tmp/x/y",
                                            "http://[::1]:8080/%7Euser/"};
    static constexpr std::size_t limits[] = {0, 24, 1000, 65536};
    urlsift::rewrite_options o;
    urlsift::resolve_options ro;
    ro.normalize = (b[1] & 0x4u) != 0;
    ro.mode = static_cast<urlsift::resolve_mode>((b[3] & 0x3u) % 3);
    if ((b[0] & 0x1u) != 0) o.base = *urlsift::resolver::make(bases[b[1] & 0x3u], ro);
    o.normalize = ro.normalize;
    o.scan.hyphen = (b[1] & 0x8u) != 0 ? urlsift::hyphen_policy::drop : urlsift::hyphen_policy::keep;
    o.scan.abbrev.https = (b[1] & 0x10u) != 0;
    o.only = static_cast<urlsift::rewrite_set>(urlsift::rewrite_all & ~(b[1] >> 5u));
    o.scan.abbrev.kinds =
        static_cast<urlsift::abbrev_set>(((b[0] & 0x2u) != 0 ? urlsift::abbrev_all : urlsift::abbrev_none) ^ b[2]);
    o.angle_style = (b[0] & 0x4u) != 0;
    const std::size_t limit = b[5] != 0 ? std::size_t{b[5]} : limits[(b[3] >> 2u) & 0x3u];
    o.scan.max_url_length = limit != 0 ? limit : 64 + (b[0] & 0x8u) * 128;
    cuts = {{std::size_t{1} + (b[0] >> 4u) * 5, '\0'}};
    if ((b[3] >> 4u) != 0) cuts.push_back({std::size_t{1} + (b[3] >> 4u) * 97, '\0'});
    if (b[4] != 0) cuts.push_back({0, static_cast<char>(b[4])});
    return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    constexpr std::size_t settings_size = 6;
    if (size < settings_size) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + settings_size), size - settings_size);
    std::vector<urlsift::fuzz::cuts> cuts;
    const urlsift::rewrite_options options = options_from(data, cuts);

    const result whole = run(text, options, urlsift::fuzz::whole(text));
    std::string expected;
    std::uint64_t at = 0;
    for (const auto& e : whole.edits) {
        URLSIFT_FUZZ_CHECK(e.offset >= at && e.offset + e.length <= text.size());
        const std::string_view replaced = text.substr(e.offset, e.length);
        URLSIFT_FUZZ_CHECK(e.replacement != replaced);
        expected.append(text.substr(at, e.offset - at));
        expected += e.replacement;
        at = e.offset + e.length;
        const std::string_view written = std::string_view(e.replacement).substr(e.replacement.starts_with('<') ? 1 : 0);
        URLSIFT_FUZZ_CHECK(!urlsift::is_script_url(written));
    }
    expected.append(text.substr(at));
    URLSIFT_FUZZ_CHECK(whole.out == expected);

    for (const auto c : cuts) URLSIFT_FUZZ_CHECK(same(run(text, options, c), whole));

    const result again = run(whole.out, options, urlsift::fuzz::whole(whole.out));
    URLSIFT_FUZZ_CHECK(again.edits.empty());
    URLSIFT_FUZZ_CHECK(again.out == whole.out);
    return 0;
}
