#pragma once
// The browser resolver mode: parsing and canonicalization as browsers do it
// (004_*.txt, whose behaviour the web-platform-tests URL cases pin down).

#include <urlsift/result.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace urlsift::detail {

/// Parses `input` against `base` (none: `input` must be absolute) the way a
/// browser does: control characters and spaces trimmed at both ends, tab and
/// newline removed, `\` read as `/` in hierarchical schemes, same-scheme
/// references (`http:g`) relative for them; then returns the canonical
/// serialization (lower-case host, IDNA, default port dropped, percent-
/// encoding of what browsers encode, empty path as `/`).
result<std::string> browser_resolve(std::string_view input, std::optional<std::string_view> base);

/// A URL parsed as `browser_resolve` parses it, split into the parts the URL
/// Standard's URL API names (its `href`, `protocol`, ... getters), each
/// taken from the parsed record rather than from the serialized string:
///
///   https://user:pass@example.com:8080/a/b?q=1#frag
///   protocol "https:"   username "user"   password "pass"
///   host "example.com:8080"   hostname "example.com"   port "8080"
///   pathname "/a/b"   search "?q=1"   hash "#frag"
struct browser_url {
    std::string href;      ///< the whole canonical serialization, as `browser_resolve` returns it
    std::string protocol;  ///< the scheme, lower case, and `:`
    std::string username;  ///< percent-encoded; may be empty
    std::string password;  ///< percent-encoded; may be empty
    std::string host;      ///< `hostname`, then `:port` when there is a port; "" with no host
    std::string hostname;  ///< the serialized host (`[::1]` keeps its brackets); "" with no host
    std::string port;      ///< decimal; "" when absent or the scheme's default
    std::string pathname;  ///< an opaque path as is, else `/` before each segment (no `/.` guard)
    std::string search;    ///< `?` and the query; "" when the query is absent or empty
    std::string hash;      ///< `#` and the fragment; "" when the fragment is absent or empty
};

/// Parses `input` against `base` exactly as `browser_resolve` does and
/// returns the result split into its parts.
///   browser_parse("?x", "http://h:81/p")->search == "?x"
result<browser_url> browser_parse(std::string_view input, std::optional<std::string_view> base);

}  // namespace urlsift::detail
