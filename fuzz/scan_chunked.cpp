// Fuzz target: the streaming scanner.
//
// Input: four bytes of settings, then the text.
//
//   byte 0  bits 0-1  length limit 64 + 256n, unless byte 1 says
//           bit 2     abbreviations: all (else none), then byte 2
//           bit 3     hyphen rule drop (else keep)
//           bit 4     resolved against http://a/b/c/d;p?q
//           bit 5     surroundings
//           bits 6-7  chunk size 1 + 3n
//   byte 1  length limit: 1 to 254 bytes, 255 for 64 KiB (0: as byte 0 says)
//   byte 2  abbreviation kinds switched the other way
//   byte 3  also fed in chunks that end just after each such byte (0: not)
//
// Zero in a byte after the first keeps the meaning the bytes before it had.
// Properties checked: the references, and the surroundings reported with
// them, are the same whether the text is fed whole or in chunks; every span
// lies inside the input; spans come in order and do not overlap; `raw` is
// exactly the bytes of its span; pieces lie inside the span, in order.

#include <urlsift/resolution.hpp>
#include <urlsift/scanner.hpp>

#include "chunks.hpp"
#include "fuzz_check.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string fingerprint(const urlsift::found_reference& r) {
    std::string s = std::to_string(r.offset) + ',' + std::to_string(r.length) + ',' + std::to_string(r.line) + ',' +
                    std::to_string(r.column) + ',' + std::to_string(r.outer.offset) + ',' +
                    std::to_string(r.outer.length) + '|' + r.raw + '|' + r.cleaned + '|' + r.url + '|';
    s += static_cast<char>('0' + static_cast<int>(r.wrapper));
    s += static_cast<char>('0' + static_cast<int>(r.form));
    s += r.joined ? 'j' : '-';
    s += r.truncated ? 't' : '-';
    for (const auto& a : r.alternatives) s += a + '|';
    for (const auto& p : r.pieces) s += std::to_string(p.offset) + '+' + std::to_string(p.length) + ';';
    const auto& a = r.around;
    s += {'|', a.before, a.before_punctuation, a.after, a.after_punctuation, a.in_brackets ? 'b' : '-',
          a.line_break_after ? 'n' : '-', a.in_longer_reading ? 'l' : '-'};
    s += std::to_string(a.quote_depth) + '>' + std::to_string(a.quote_depth_end);
    return s;
}

std::vector<std::string> run(std::string_view text, const urlsift::scan_options& options,
                             const urlsift::resolver* base, urlsift::fuzz::cuts cuts) {
    std::vector<std::string> out;
    std::uint64_t last_end = 0;
    urlsift::scanner s(options, [&](urlsift::found_reference& r) {
        if (base != nullptr) urlsift::resolve_reference(r, *base);
        URLSIFT_FUZZ_CHECK(r.offset + r.length <= text.size());
        URLSIFT_FUZZ_CHECK(r.outer.offset <= r.offset && r.offset + r.length <= r.outer.offset + r.outer.length);
        URLSIFT_FUZZ_CHECK(r.outer.offset + r.outer.length <= text.size());
        URLSIFT_FUZZ_CHECK(r.outer.offset >= last_end);
        last_end = r.outer.offset + r.outer.length;
        URLSIFT_FUZZ_CHECK(r.raw == text.substr(r.offset, r.length));
        std::uint64_t at = r.offset;
        for (const auto& p : r.pieces) {
            URLSIFT_FUZZ_CHECK(p.offset >= at && p.offset + p.length <= r.offset + r.length);
            at = p.offset + p.length;
        }
        out.push_back(fingerprint(r));
        return true;
    });
    urlsift::fuzz::feed_in_chunks(text, cuts, [&s](std::string_view chunk) { s.feed(chunk); });
    s.finish();
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    constexpr std::size_t settings_size = 4;
    if (size < settings_size) return 0;
    const std::size_t settings = data[0];
    const std::string_view text(reinterpret_cast<const char*>(data + settings_size), size - settings_size);

    urlsift::scan_options options;
    // Small limits, so that the cut-off path runs, down to below the floor
    // the scanner puts on them.
    options.max_url_length = data[1] == 0 ? 64 + (settings & 0x3u) * 256 : data[1] == 255 ? 65536 : std::size_t{data[1]};
    options.abbrev.kinds = static_cast<urlsift::abbrev_set>(
        ((settings & 0x4u) != 0 ? urlsift::abbrev_all : urlsift::abbrev_none) ^ data[2]);
    options.hyphen = (settings & 0x8u) != 0 ? urlsift::hyphen_policy::drop : urlsift::hyphen_policy::keep;
    const auto made = urlsift::resolver::make("http://a/b/c/d;p?q");
    const urlsift::resolver* base = (settings & 0x10u) != 0 ? &*made : nullptr;
    options.surroundings = (settings & 0x20u) != 0;

    const auto whole = run(text, options, base, urlsift::fuzz::whole(text));
    URLSIFT_FUZZ_CHECK(run(text, options, base, {1 + (settings >> 6u) * 3, '\0'}) == whole);
    if (data[3] != 0) URLSIFT_FUZZ_CHECK(run(text, options, base, {0, static_cast<char>(data[3])}) == whole);
    return 0;
}
