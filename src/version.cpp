#include <urlsift/version.hpp>

#include <urlsift/export.hpp>

namespace urlsift {

URLSIFT_EXPORT const char* version() noexcept { return URLSIFT_VERSION_STRING; }

}  // namespace urlsift
