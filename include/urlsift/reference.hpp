#pragma once
// A URL reference split into its five components (Section 4.3, Appendix B).

#include <urlsift/export.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace urlsift {

/// The components of a URL reference, as views into the parsed text.
///
/// Undefined and empty are kept apart (Section 5.2, closing note): `query` is
/// `std::nullopt` when no `?` was written and `""` for a bare `?`. The path is
/// never undefined, though it may be empty. The views live as long as the
/// string that was parsed.
///
///     http://www.ics.uci.edu/pub/ietf/uri/#Related
///     \__/   \_____________/\____________/ \_____/
///    scheme       site           path      fragment   (query undefined)
struct reference_parts {
    std::optional<std::string_view> scheme;
    std::optional<std::string_view> site;
    std::string_view path;
    std::optional<std::string_view> query;
    std::optional<std::string_view> fragment;

    bool is_absolute() const noexcept { return scheme.has_value(); }
    friend bool operator==(const reference_parts&, const reference_parts&) = default;
};

/// Splits `ref` the way Appendix B's expression does:
///
///     ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
///
/// Every string matches, so this never fails; validating the components is
/// the resolver's job.
///
///     auto p = urlsift::parse_reference("g;x?y#s");
///     // p.scheme, p.site undefined; p.path == "g;x"; *p.query == "y"
URLSIFT_EXPORT reference_parts parse_reference(std::string_view ref) noexcept;

/// Section 4.2: whether `ref` is to the current document, wherever that is
/// read: it has no scheme, site, path or query (it is empty, or a fragment
/// alone), and so needs no base.
constexpr bool is_same_document(std::string_view ref) noexcept { return ref.empty() || ref.front() == '#'; }

/// Appends the components to `out` as step 7 of Section 5.2 does.
/// `recompose(parse_reference(s)) == s` for every string `s`.
URLSIFT_EXPORT void recompose_to(std::string& out, const reference_parts& parts);

/// Returns the reference that `parts` describe (Section 5.2, step 7).
URLSIFT_EXPORT std::string recompose(const reference_parts& parts);

}  // namespace urlsift
