// Fuzz target: reference parsing and resolution in all three modes.
//
// Input: one byte choosing the mode, then "BASE\nREF". Properties checked:
// recomposing a parsed reference gives it back; a successful resolution is
// absolute; resolving an absolute reference returns it as written (rfc
// modes); resolving a result again against the same base changes nothing.

#include <urlsift/reference.hpp>
#include <urlsift/resolver.hpp>

#include "fuzz_check.hpp"

#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const auto mode = static_cast<urlsift::resolve_mode>(data[0] % 3);
    const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto cut = input.find('\n');
    const std::string base = input.substr(0, cut);
    const std::string ref = cut == std::string::npos ? std::string() : input.substr(cut + 1);

    URLSIFT_FUZZ_CHECK(urlsift::recompose(urlsift::parse_reference(ref)) == ref);

    auto r = urlsift::resolver::make(base, {mode, false});
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
    return 0;
}
