#include "cli/color.hpp"

#include "cli/errors.hpp"
#include "cli/escape.hpp"

#include <cstdlib>

namespace urlsift::cli {

bool use_color(std::string_view command, const std::string& when, bool terminal) {
    if (when == "always") return true;
    if (when == "never") return false;
    if (when != "auto")
        throw usage_error(std::string(command), "unknown --color '" + when + "' (choose auto, always or never)");
    const char* term = std::getenv("TERM");
    const char* no_color = std::getenv("NO_COLOR");
    return terminal && term != nullptr && std::string_view(term) != "dumb" && *term != '\0' &&
           (no_color == nullptr || *no_color == '\0');
}

void append_colored(std::string& out, std::string_view s, color_role role, bool color, bool escape) {
    // Indexed by color_role.
    static constexpr std::string_view sgr[] = {"\x1b[35m", "\x1b[32m", "\x1b[1;31m", "\x1b[36m"};
    if (color) out += sgr[static_cast<std::size_t>(role)];
    if (escape)
        append_visible(out, s);
    else
        out += s;
    if (color) out += "\x1b[0m";
}

}  // namespace urlsift::cli
