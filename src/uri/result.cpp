#include <urlsift/result.hpp>

namespace urlsift {

std::string_view describe(error e) noexcept {
    switch (e) {
    case error::empty: return "empty reference";
    case error::invalid_character: return "character not allowed in a URL";
    case error::invalid_scheme: return "invalid scheme";
    case error::invalid_port: return "invalid port";
    case error::invalid_host: return "invalid host";
    case error::invalid_percent: return "'%' not followed by two hex digits";
    case error::base_not_absolute: return "base URL has no scheme";
    case error::base_not_hierarchical: return "base URL is not hierarchical";
    case error::too_long: return "longer than the length limit";
    }
    return "unknown error";
}

}  // namespace urlsift
