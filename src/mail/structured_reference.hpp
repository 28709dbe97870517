#pragma once
// References that are not in prose, where the markup already says where
// each one starts and ends: a header's URL, an HTML attribute's value.

#include <urlsift/scanner.hpp>

#include <optional>
#include <string_view>

namespace urlsift::detail {

/// `value` as a found reference, cleaned as the URL standard cleans an
/// attribute value (outer blanks and controls dropped, tabs and line breaks
/// inside removed) and written in URI form (uri_form: what no URL holds as
/// written escaped), its form told by whether it has a scheme; nullopt when
/// it names no host it could name. Positions are left for the caller.
std::optional<found_reference> structured_reference(std::string_view value, wrapper_kind wrapper);

}  // namespace urlsift::detail
