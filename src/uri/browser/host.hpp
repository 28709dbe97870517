#pragma once
// Host parsing for the browser resolver mode (004_*.txt Section 5.3, whose
// "TODO: Handle IP addresses" and percent-unescaping are filled in with what
// browsers do: the URL Standard's host parser).

#include <optional>
#include <string>
#include <string_view>

namespace urlsift::detail::browser {

/// Parses the host `input` (still percent-encoded, as written) and returns
/// its canonical serialization, or nullopt when it is not a valid host:
///
///   `[...]`        an IPv6 address, compressed: `[::7f00:1]`
///   opaque         non-special schemes: checked for forbidden code points,
///                  then C0-control percent-encoded (`ñ` -> `%C3%B1`)
///   domain         percent-decoded, IDNA ToASCII (UTS #46), lower case
///   IPv4           a domain that ends in a number: `0xc0.0250.01` ->
///                  `192.168.0.1`
///
/// `opaque` is true for non-special schemes. `input` must not be empty
/// unless `opaque` is true.
///   parse_host("ExAmPlE.CoM", false) == "example.com"
///   parse_host("[0:0::1]", false)    == "[::1]"
///   parse_host("a b", false)         == std::nullopt
std::optional<std::string> parse_host(std::string_view input, bool opaque);

}  // namespace urlsift::detail::browser
