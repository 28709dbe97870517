#pragma once
// Colour in listings, as grep and ripgrep colour theirs: whether to use it
// (--color), and text wrapped in the colour of its role.

#include <string>
#include <string_view>

namespace urlsift::cli {

/// The values of --color.
inline constexpr std::string_view color_choices[] = {"auto", "always", "never"};

/// Whether --color=WHEN (auto, always or never) colours an output; throws
/// usage_error for another value. auto colours a terminal whose TERM is
/// set and not "dumb", unless NO_COLOR is set and not empty (no-color.org).
bool use_color(std::string_view command, const std::string& when, bool terminal);

/// What a piece of a listing is, each with its default colour: grep's and
/// ripgrep's magenta file names, green line numbers and bold red matches,
/// and grep's cyan separators.
enum class color_role { file, line, url, separator };

/// Appends `s` to `out`, made visible (escape.hpp) when `escape`, and
/// wrapped in the SGR sequence of `role` and a reset when `color`. The
/// text is escaped before it is wrapped, so nothing in it can end or
/// change the colour.
void append_colored(std::string& out, std::string_view s, color_role role, bool color, bool escape);

}  // namespace urlsift::cli
