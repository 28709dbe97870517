#pragma once
// A URL that a decoder handed over (an HTML attribute with its character
// references decoded, a mail header with its encoded words, a Markdown
// destination with its escapes), written as a URL is written.

#include <optional>
#include <string>
#include <string_view>

namespace urlsift::detail {

/// `value` in the form Section 2.4 writes a URL in: each character the
/// scanner never reads inside a URL (controls, blanks, `<`, `>`, `"`,
/// Unicode spaces and format characters, bytes that are not UTF-8) and
/// each unwise one (`\ ^ ` { | }`) escaped as `%XX`, so that the URL reads
/// back as written and shows nothing hidden. Letters of other scripts stay
/// as they are. Nullopt when the authority holds such a character: a host
/// is never escaped, so the value names no host.
///
///     uri_form("a b.png")           // "a%20b.png"
///     uri_form("http://x/\x1B]8")   // "http://x/%1B]8"
///     uri_form("http://\"><s>/")    // nullopt
std::optional<std::string> uri_form(std::string_view value);

}  // namespace urlsift::detail
