#pragma once
// Which `name:` starts a URL in running text (Section 4.1, Appendix E).

#include <cstddef>
#include <string_view>

namespace urlsift::detail {

/// How a recognized scheme must continue.
enum class scheme_kind {
    none,         ///< not a scheme here: `Note:`, `Re:`, `10:30`
    hierarchical, ///< must be followed by `//` (`http:`, `ftp:`, or any unknown `name://`)
    opaque,       ///< a registered scheme whose part need not start with `//` (`mailto:`, `urn:`)
    file,         ///< `file:` must be followed by `/`
};

/// Longest scheme name accepted; longer runs of scheme characters are words.
inline constexpr std::size_t max_scheme_length = 32;

/// Longest name in the table of registered schemes (`prospero`): a longer
/// name is not looked up.
inline constexpr std::size_t max_registered_scheme_length = 8;

/// True for the characters Section 4.1 allows in a scheme name.
constexpr bool is_scheme_char(unsigned char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
           c == '.';
}

/// Judges `name` (the characters before `:`) followed by `rest` (what comes
/// after the colon; may be cut short). Registered schemes come from a table;
/// any other syntactically valid name counts only when `rest` starts with `//`.
scheme_kind classify_scheme(std::string_view name, std::string_view rest) noexcept;

/// classify_scheme that also says whether `name` is in the table of
/// registered schemes: one lookup where asking both apart takes two.
scheme_kind classify_scheme(std::string_view name, std::string_view rest, bool& registered) noexcept;

/// classify_scheme for a registered name; scheme_kind::none for any other.
scheme_kind classify_registered_scheme(std::string_view name, std::string_view rest) noexcept;

/// True for a URI of a scheme whose syntax it breaks, which text writes
/// for something else:
/// - `tag:` without the authority and date RFC 4151 gives every one
///   (`tag:example.com,2005:x`): notmuch's search term `tag:inbox`;
/// - `news:` that is neither `*`, a group nor an article (003_*.txt,
///   groupart): the fields of /etc/group, `news:x:9:`;
/// - `tel:`, `fax:`, `modem:` and `sms:` with no number (RFC 3966, RFC
///   2806, RFC 5724): `fax:x:21:`, `fax:*::` (/etc/gshadow), `tel:home`.
/// False for any other URL.
bool breaks_its_scheme(std::string_view url) noexcept;


}  // namespace urlsift::detail
