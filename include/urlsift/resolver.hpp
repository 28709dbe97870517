#pragma once
// Resolving URL references against a base URL (Section 5.2), three ways.

#include <urlsift/export.hpp>
#include <urlsift/result.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace urlsift {

/// Which rules turn a reference into absolute form.
enum class resolve_mode {
    rfc3986, ///< RFC 3986 section 5.2: `?y` keeps the base path, `..` stops at the root
    rfc2396, ///< Section 5.2 of the draft exactly: `../../../g` gives `http://a/../g`
    browser, ///< the browser-parsing draft: trim controls, `\` as `/`, canonicalize
};

/// Parses "rfc3986", "rfc2396" or "browser".
URLSIFT_EXPORT std::optional<resolve_mode> parse_resolve_mode(std::string_view name) noexcept;
/// The name `parse_resolve_mode` accepts for `mode`.
URLSIFT_EXPORT std::string_view to_string(resolve_mode mode) noexcept;

struct resolve_options {
    resolve_mode mode = resolve_mode::rfc3986;
    bool normalize = false; ///< apply Section 6 normalization to the result
};

/// A parsed base URL, reused for many references.
///
/// Contract: `make` fails with `error::base_not_absolute` unless the base has
/// a scheme (Section 5.1), and with `error::invalid_host` when its host is
/// an IP literal that is neither an IPv6 address nor IPvFuture
/// (`http://[zz]/`; RFC 3986 section 3.2.2). `resolve` returns the absolute form of `ref`, or a
/// failure whose offset points into `ref`. A reference that is already
/// absolute comes back as written (rfc modes, no normalization).
///
///     auto base = urlsift::resolver::make("http://a/b/c/d;p?q");
///     auto url = base->resolve("../g");   // "http://a/b/g"
///
/// Spec: Section 5.2 of 001_*.txt; RFC 3986 section 5.2; 004_*.txt section 4.
class URLSIFT_EXPORT resolver {
public:
    static result<resolver> make(std::string_view base, resolve_options options = {});

    result<std::string> resolve(std::string_view ref) const;
    /// Like `resolve`, appending to `out` (left unchanged on failure).
    std::optional<failure> resolve_to(std::string& out, std::string_view ref) const;

    const std::string& base() const noexcept;
    const resolve_options& options() const noexcept;

    resolver(resolver&&) noexcept;
    resolver& operator=(resolver&&) noexcept;
    resolver(const resolver&);
    resolver& operator=(const resolver&);
    ~resolver();

private:
    struct impl;
    explicit resolver(std::unique_ptr<impl> p);
    std::unique_ptr<impl> impl_;
};

/// One-shot form of `resolver::make(base, options)->resolve(ref)`.
[[nodiscard]] URLSIFT_EXPORT result<std::string> resolve(std::string_view base, std::string_view ref, resolve_options options = {});

/// Checks an absolute reference without a base: rejects what `resolve` would
/// reject and applies the mode's canonicalization (browser) or normalization.
/// A relative reference fails with `error::base_not_absolute`.
[[nodiscard]] URLSIFT_EXPORT result<std::string> resolve_absolute(std::string_view ref, resolve_options options = {});

/// Appendix E, last paragraph: strips what a person typing or pasting a URL
/// wraps it in (`<...>`, `"..."`, `URL:`) and the whitespace embedded in it.
///
///     strip_user_typed("<URL: http://a/b/ c>") == "http://a/b/c"
URLSIFT_EXPORT std::string strip_user_typed(std::string_view typed);

}  // namespace urlsift
