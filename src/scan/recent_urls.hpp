#pragma once
// The URLs written with their scheme just before the text being scanned,
// for the rule "a URL named again" (docs/abbreviations.md). Included by
// scanner.cpp only.

#include <urlsift/normalize.hpp>

#include "text/ascii.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::detail {

/// A writer who has just given `ftp://ftp.xemacs.org/pub/xemacs/` and goes
/// on about `ftp.xemacs.org/pub/xemacs/` (a directory made from it) or
/// `the ftp.xemacs.org/ part` names that URL; it is no new link. "Just
/// before" is the same line or the five before it; a name with a `%`, a
/// port or a non-ASCII character is compared in normal form.
class recent_urls {
public:
    /// `url`, an absolute URL reported on `line`, was written with a
    /// scheme; only one followed by `//` is kept.
    void remember(std::string_view url, std::uint64_t line) {
        const std::size_t rest = rest_at(url);
        if (url.size() > max_length || rest == std::string_view::npos) return;
        // Grown on demand: a scanner that meets no such URL allocates
        // nothing. The entries outlive `clear`, their strings' memory kept
        // for the next input.
        if (count_ < kept_at_most && entries_.size() == count_) entries_.emplace_back();
        entry& e = entries_[count_++ % kept_at_most];
        e.url.assign(url);
        e.rest = rest;
        e.line = line;
        e.head = head_of(url.substr(e.rest));
    }

    /// Does `token`, an abbreviated URL on `line`, name one of them again:
    /// the whole of one after its `//`, or its site and leading path cut
    /// at `/`, `?`, `#` or `:`?
    bool named_by(std::string_view token, std::uint64_t line) const {
        // A quick test first: the bytes before any that normalizing could
        // spell otherwise must be the same but for case.
        std::size_t fixed = 0;
        while (fixed < std::min<std::size_t>(token.size(), 8) && !respelled(token[fixed])) ++fixed;
        const std::uint64_t mask = fixed == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * fixed)) - 1;
        const std::uint64_t head = head_of(token) & mask;
        for (std::size_t i = 1; i <= std::min(count_, kept_at_most); ++i) {
            const entry& e = entries_[(count_ - i) % kept_at_most];
            if (e.line > line || line - e.line > reach_lines) return false; // older ones are further away
            if ((e.head & mask) != head) continue;
            if (std::any_of(token.begin(), token.end(), respelled) ? names_in_normal_form(token, e.url, e.rest)
                                                                   : prefix_of(token, std::string_view(e.url).substr(e.rest)))
                return true;
        }
        return false;
    }

    /// Forgets every URL.
    void clear() noexcept { count_ = 0; }

private:
    struct entry {
        std::string url;
        std::size_t rest = 0;   ///< where what follows the `//` starts
        std::uint64_t head = 0; ///< head_of that
        std::uint64_t line = 0;
    };

    /// The sentences after the URL: a few lines, not the next paragraph.
    static constexpr std::uint64_t reach_lines = 5;
    static constexpr std::size_t max_length = 512;

    /// The first 8 bytes of `s` (fewer: zeros after), ASCII letters folded
    /// to lower case and other bytes changed alike: equal heads are
    /// necessary for a case-blind prefix, and cheap to compare.
    static std::uint64_t head_of(std::string_view s) noexcept {
        std::uint64_t h = 0;
        const std::size_t n = std::min<std::size_t>(s.size(), 8);
        std::memcpy(&h, s.data(), n);
        const std::uint64_t fold = 0x2020202020202020u;
        return h | (n == 8 ? fold : fold & ((std::uint64_t{1} << (8 * n)) - 1));
    }

    /// A `%`, a port's `:` or a non-ASCII byte: in a name, --normalize may
    /// write the URL another way from there on (`%7e` as `~`, no `:80`,
    /// an A-label). A name with none compares as written.
    static bool respelled(char c) noexcept { return c == '%' || c == ':' || static_cast<unsigned char>(c) >= 0x80; }

    /// `rest` starts with `token` and goes on, if at all, with a new component.
    static bool prefix_of(std::string_view token, std::string_view rest) noexcept {
        if (token.empty() || !starts_with_nocase(rest, token)) return false;
        return token.size() == rest.size() || token.back() == '/' ||
               std::string_view("/?#:").find(rest[token.size()]) != std::string_view::npos;
    }

    /// Where what follows `scheme://` starts in `url`; npos when the
    /// scheme, which the first `:` ends (Section 3.1), is not followed by `//`.
    static std::size_t rest_at(std::string_view url) noexcept {
        const std::size_t colon = url.find(':');
        return colon != std::string_view::npos && url.substr(colon + 1, 2) == "//" ? colon + 3 : std::string_view::npos;
    }

    /// prefix_of on both in normal form (Section 6), `token` written with
    /// the URL's scheme.
    static bool names_in_normal_form(std::string_view token, std::string_view url, std::size_t rest) {
        const auto url_normal = normalize(url);
        if (!url_normal) return false;
        std::string written(url.substr(0, rest));
        written.append(token);
        const auto token_normal = normalize(written);
        if (!token_normal) return false;
        const std::size_t token_rest = rest_at(*token_normal), url_rest = rest_at(*url_normal);
        return token_rest != std::string_view::npos && url_rest != std::string_view::npos &&
               prefix_of(std::string_view(*token_normal).substr(token_rest), std::string_view(*url_normal).substr(url_rest));
    }

    static constexpr std::size_t kept_at_most = 64;
    std::vector<entry> entries_; ///< a ring; the first min(count_, kept_at_most) are URLs
    std::size_t count_ = 0;      ///< URLs remembered since the last `clear`
};

}  // namespace urlsift::detail
