// Fuzz target: mail security gateways' links read back as their targets.
//
// Input: the link. Properties checked: a target is an absolute URL that
// holds no byte a URL cannot hold as it is (controls, space, `"<>`), no
// longer than three times the link (escapes at most triple a byte); a
// layer at a time agrees with unwrapping deeply; and nothing throws.

#include <urlsift/reference.hpp>
#include <urlsift/unwrap.hpp>

#include "fuzz_check.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace {

void check_target(const std::string& url, std::size_t link_size) {
    URLSIFT_FUZZ_CHECK(urlsift::parse_reference(url).is_absolute());
    URLSIFT_FUZZ_CHECK(url.size() <= 3 * link_size);
    for (const char ch : url) {
        const auto c = static_cast<unsigned char>(ch);
        URLSIFT_FUZZ_CHECK(c > 0x20 && c != 0x7F && c != '"' && c != '<' && c != '>');
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string link(reinterpret_cast<const char*>(data), size);
    const auto one = urlsift::unwrap_gateway(link);
    const auto deep = urlsift::unwrap_gateways(link, 4);
    URLSIFT_FUZZ_CHECK(one.has_value() == deep.has_value());
    if (!one) return 0;
    check_target(one->url, size);
    check_target(deep->url, size);
    URLSIFT_FUZZ_CHECK(one->layers == 1 && deep->layers >= 1 && deep->layers <= 4);
    URLSIFT_FUZZ_CHECK(one->gateway == deep->gateway);
    // Peeling the first layer by hand leaves one layer fewer to peel.
    if (deep->layers > 1) {
        const auto rest = urlsift::unwrap_gateways(one->url, 3);
        URLSIFT_FUZZ_CHECK(rest.has_value() && rest->url == deep->url && rest->layers == deep->layers - 1);
    } else {
        URLSIFT_FUZZ_CHECK(deep->url == one->url);
    }
    return 0;
}
