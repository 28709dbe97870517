// Fuzz target: the rewriting filter.
//
// Input: a byte of settings (base, abbreviations, style, chunk size), then
// the text. Properties checked: the output is the input with the reported
// edits applied and nothing else (lossless), the edits are in order and do
// not overlap, chunked output equals whole output, and rewriting the output
// again changes nothing (idempotent).

#include <urlsift/rewriter.hpp>

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::size_t settings = data[0];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    urlsift::rewrite_options options;
    if ((settings & 0x1u) != 0) options.base = *urlsift::resolver::make("http://a/b/c/d;p?q");
    options.scan.abbrev.kinds = (settings & 0x2u) != 0 ? urlsift::abbrev_all : urlsift::abbrev_none;
    options.angle_style = (settings & 0x4u) != 0;
    options.scan.max_url_length = 64 + (settings & 0x8u) * 128;
    const std::size_t chunk = 1 + (settings >> 4u) * 5;

    const result whole = run(text, options, text.size() + 1);
    std::string expected;
    std::uint64_t at = 0;
    for (const auto& e : whole.edits) {
        URLSIFT_FUZZ_CHECK(e.offset >= at && e.offset + e.length <= text.size());
        expected.append(text.substr(at, e.offset - at));
        expected += e.replacement;
        at = e.offset + e.length;
    }
    expected.append(text.substr(at));
    URLSIFT_FUZZ_CHECK(whole.out == expected);
    URLSIFT_FUZZ_CHECK(run(text, options, chunk).out == whole.out);
    URLSIFT_FUZZ_CHECK(run(whole.out, options, whole.out.size() + 1).out == whole.out);
    return 0;
}
