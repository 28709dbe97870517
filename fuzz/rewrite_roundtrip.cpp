// Fuzz target: the rewriting filter, under every option it has.
//
// Input: four bytes of settings, then the text. The first byte is what it
// always was (base, abbreviations, style, length limit, chunk size); the
// other three, all zero for the behaviour of the first alone, choose the
// rest: another base, --normalize, the hyphen rule, https completion,
// --only, single abbreviation kinds, the resolver mode, a wider range of
// length limits and a second chunk size.
//
// Properties checked: the output is the input with the reported edits
// applied and nothing else (lossless), the edits are in order and do not
// overlap, output fed in chunks equals output fed whole, rewriting the
// output again changes nothing (idempotent), and no edit writes a URL that
// runs a script.

#include <urlsift/rewriter.hpp>
#include <urlsift/warnings.hpp>

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

result run(std::string_view text, const urlsift::rewrite_options& options, std::size_t chunk) {
    result r;
    urlsift::rewriter w(
        options,
        [&r](std::string_view s) {
            r.out += s;
            return true;
        },
        [&r](const urlsift::rewrite_edit& e) { r.edits.push_back(e); });
    for (std::size_t i = 0; i < text.size(); i += chunk) {
        const std::string piece(text.substr(i, chunk));
        w.feed(piece);
    }
    w.finish();
    return r;
}

// The options the four settings bytes describe; `chunks` gets the chunk
// sizes to feed the text in.
urlsift::rewrite_options options_from(const std::uint8_t* b, std::vector<std::size_t>& chunks) {
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
    if (o.only == 0) o.only = urlsift::rewrite_all;
    o.scan.abbrev.kinds = static_cast<urlsift::abbrev_set>(((b[0] & 0x2u) != 0 ? urlsift::abbrev_all : urlsift::abbrev_none) ^ b[2]);
    o.angle_style = (b[0] & 0x4u) != 0;
    const std::size_t limit = limits[(b[3] >> 2u) & 0x3u];
    o.scan.max_url_length = limit != 0 ? limit : 64 + (b[0] & 0x8u) * 128;
    chunks = {std::size_t{1} + (b[0] >> 4u) * 5};
    if ((b[3] >> 4u) != 0) chunks.push_back(std::size_t{1} + (b[3] >> 4u) * 97);
    return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    constexpr std::size_t settings_size = 4;
    if (size < settings_size) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + settings_size), size - settings_size);
    std::vector<std::size_t> chunks;
    const urlsift::rewrite_options options = options_from(data, chunks);

    const result whole = run(text, options, text.size() + 1);
    std::string expected;
    std::uint64_t at = 0;
    for (const auto& e : whole.edits) {
        URLSIFT_FUZZ_CHECK(e.offset >= at && e.offset + e.length <= text.size());
        expected.append(text.substr(at, e.offset - at));
        expected += e.replacement;
        at = e.offset + e.length;
        const std::string_view written = std::string_view(e.replacement).substr(e.replacement.starts_with('<') ? 1 : 0);
        URLSIFT_FUZZ_CHECK(!urlsift::is_script_url(written));
    }
    expected.append(text.substr(at));
    URLSIFT_FUZZ_CHECK(whole.out == expected);
    for (const std::size_t chunk : chunks) URLSIFT_FUZZ_CHECK(run(text, options, chunk).out == whole.out);
    URLSIFT_FUZZ_CHECK(run(whole.out, options, whole.out.size() + 1).out == whole.out);
    return 0;
}
