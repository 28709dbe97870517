// Fuzz target: reference parsing and resolution in all three modes.
//
// Input: one byte of settings, then "BASE\nREF". In the byte, bits 0-1 are
// the mode (rfc3986, rfc2396, browser; 3: rfc3986) and bit 2 normalization.
// Properties checked: recomposing a parsed reference gives it back; a
// successful resolution is absolute; resolving a result again against the
// same base gives it back (in the rfc modes it cannot fail), and checking
// it without a base agrees.

#include <urlsift/reference.hpp>
#include <urlsift/resolver.hpp>

#include "fuzz_check.hpp"

#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const urlsift::resolve_options options{static_cast<urlsift::resolve_mode>((data[0] & 0x3u) % 3),
                                           (data[0] & 0x4u) != 0};
    const auto mode = options.mode;
    const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto cut = input.find('\n');
    const std::string base = input.substr(0, cut);
    const std::string ref = cut == std::string::npos ? std::string() : input.substr(cut + 1);

    URLSIFT_FUZZ_CHECK(urlsift::recompose(urlsift::parse_reference(ref)) == ref);

    auto r = urlsift::resolver::make(base, options);
    if (!r) return 0;
    auto resolved = r->resolve(ref);
    if (!resolved) return 0;
    URLSIFT_FUZZ_CHECK(urlsift::parse_reference(*resolved).is_absolute());
    auto again = r->resolve(*resolved);
    if (mode != urlsift::resolve_mode::browser) {
        URLSIFT_FUZZ_CHECK(again.has_value() && *again == *resolved);
    } else if (again) {
        // Browser canonicalization is idempotent on its own output.
        URLSIFT_FUZZ_CHECK(*again == *resolved);
    }
    if (again) {
        const auto alone = urlsift::resolve_absolute(*resolved, options);
        URLSIFT_FUZZ_CHECK(alone.has_value() && *alone == *resolved);
    }
    return 0;
}
