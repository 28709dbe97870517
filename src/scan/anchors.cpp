// Which anchor search the scanner takes (anchors.hpp). Kept out of the
// header so that every translation unit sees the one decision.

#include "scan/anchors.hpp"

#include <cstdlib>
#include <string_view>

namespace urlsift::detail {

anchor_path active_anchor_path() noexcept {
    static const anchor_path path = [] {
        const auto widest = anchor_path_available(anchor_path::avx2)   ? anchor_path::avx2
                            : anchor_path_available(anchor_path::sse2) ? anchor_path::sse2
                                                                       : anchor_path::scalar;
        anchor_path wanted = widest;
#if defined(URLSIFT_ANCHORS_SCALAR)
        wanted = anchor_path::scalar;
#elif defined(URLSIFT_ANCHORS_SSE2)
        wanted = anchor_path::sse2;
#elif defined(URLSIFT_ANCHORS_AVX2)
        wanted = anchor_path::avx2;
#else
        if (const char* env = std::getenv("URLSIFT_ANCHORS")) {
            const std::string_view name(env);
            if (name == "scalar") wanted = anchor_path::scalar;
            else if (name == "sse2") wanted = anchor_path::sse2;
            else if (name == "avx2") wanted = anchor_path::avx2;
        }
#endif
        return anchor_path_available(wanted) ? wanted : widest;
    }();
    return path;
}

}  // namespace urlsift::detail
