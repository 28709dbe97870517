#pragma once
// Abbreviated URLs (Appendix F): `www.w3.org/Addressing/`, bare host names
// and mail addresses, completed to absolute form by context heuristics.

#include <urlsift/export.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace urlsift {

/// The heuristics, each switched on or off by `--abbrev`.
enum class abbrev_kind : std::uint16_t {
    www = 1u << 0,    ///< `www.` host            -> http://
    ftp = 1u << 1,    ///< `ftp.` host            -> ftp://
    gopher = 1u << 2, ///< `gopher.` host         -> gopher://
    news = 1u << 3,   ///< `news.` / `nntp.` host -> news:// or nntp:// (by path)
    wais = 1u << 4,   ///< `wais.` host           -> wais://
    domain = 1u << 5, ///< host ending in a known top-level domain -> http://
    email = 1u << 6,  ///< `local@host.tld`       -> mailto:
    ipv4 = 1u << 7,   ///< dotted quad with a path or port -> http://
};

/// A set of `abbrev_kind` bits.
using abbrev_set = std::uint16_t;
inline constexpr abbrev_set abbrev_none = 0;
inline constexpr abbrev_set abbrev_all = 0xFF;
/// Everything but `ipv4`, whose false positives (version numbers, addresses
/// in logs) outweigh its finds in prose.
inline constexpr abbrev_set abbrev_default = abbrev_all & ~static_cast<abbrev_set>(abbrev_kind::ipv4);

/// Parses `all`, `none`, or a comma-separated list of kind names
/// (`www,ftp,email`; `nntp` is another name for `news`; spaces around
/// names are ignored). nullopt on an unknown or empty name.
URLSIFT_EXPORT std::optional<abbrev_set> parse_abbrev_list(std::string_view list);

/// The name of one kind, as `parse_abbrev_list` accepts it.
URLSIFT_EXPORT std::string_view to_string(abbrev_kind kind) noexcept;

struct abbrev_options {
    abbrev_set kinds = abbrev_default;
    bool https = false; ///< complete with https:// instead of http://
    /// `<www.w3.org/x>` and `<host.tld>` read as written: a relative path,
    /// as Appendix F has it. By default they are read as the abbreviated
    /// URLs their writers meant, base or no base.
    bool literal_in_brackets = false;
};

/// An abbreviated URL and the absolute URL it stands for.
struct abbrev_match {
    std::string url;
    abbrev_kind kind;
};

/// Completes `token`, a bare word the scanner has already delimited
/// (wrappers removed, trailing punctuation trimmed), or returns nullopt when
/// it is not taken to be an abbreviated URL. `before` is the text
/// preceding the token on its line, from the line's start, used as
/// evidence ("see", "at", a header field's name).
///
///     complete_abbreviated("www.w3.org/Addressing/", "see ")->url
///         == "http://www.w3.org/Addressing/"
///     complete_abbreviated("README.md", "") == std::nullopt
///
/// The URL is the token as written with a scheme put in front. An ASCII
/// token costs no allocation unless a URL is returned; ICU is used only
/// for hosts with non-ASCII characters. The rules, with examples: docs/abbreviations.md.
///
/// Spec: Appendix F of 001_*.txt; hostnames as Section 4.3.1.
URLSIFT_EXPORT std::optional<abbrev_match> complete_abbreviated(std::string_view token, std::string_view before,
                                                 const abbrev_options& options);

/// The text before a token on its line, as `abbreviated_completion` reads
/// it: `before` of `complete_abbreviated`, and where it starts.
struct text_before {
    std::string_view text;
    /// Whether `text` starts where its line does. A scanner that keeps only
    /// the end of a long line says false: a `Name:` or an address at the
    /// start of `text` is then no header field, trace line or hosts-table
    /// line, and a word at its start may be the end of a longer one.
    bool line_start = true;
    /// When `text` does not start the line: the name of the header field
    /// the line starts with (`Received` of `Received: from ...`), if any.
    std::string_view field = {};
};

/// What `complete_abbreviated` decides, before it makes the URL: the URL is
/// `scheme` followed by the token.
struct abbrev_completion {
    std::string_view scheme; ///< static text: "http://", "https://", "ftp://", "mailto:", "news://", ...
    abbrev_kind kind;
};

/// As `complete_abbreviated`, without making the URL: for a caller that
/// asks many tokens, or makes the URL in a buffer of its own.
URLSIFT_EXPORT std::optional<abbrev_completion> abbreviated_completion(std::string_view token, text_before before,
                                                                       const abbrev_options& options);

/// A quick verdict for a scanner's hot path, agreeing with
/// `complete_abbreviated`: false when no kind can complete a token whose
/// host is exactly `host` (ASCII), because it has no dot or its last label
/// is no known top-level domain and it is not a dotted quad. True means
/// "maybe": the full rules still decide.
///
///     may_complete_host("cron.daily") == false   // no such TLD
///     may_complete_host("example.com") == true
URLSIFT_EXPORT bool may_complete_host(std::string_view host) noexcept;

/// What the text between `<` and `>` is, judged from its shape (Appendix F:
/// with a base in effect, only a reference is resolved against it).
enum class angle_content {
    reference,   ///< a scheme, `/ ./ ../ ? #`, a path with `/`, or `URL:`
    address,     ///< a mail address: `fielding@ics.uci.edu`
    markup,      ///< an HTML or XML tag: `b`, `/p`, `br/`, `x/`, `a href=...`
    code,        ///< program text: `stdio.h`, `c:\x`, `1..2^16-1`
    placeholder, ///< a word or key name: `file`, `Enter`, `TAB`
    empty,       ///< `<>`
};
/// Precedence: empty, markup, address, code, reference, placeholder
/// (docs/abbreviations.md). `content` may start with whitespace. Unless it
/// starts with a scheme, blanks on one line inside it or at its end make it
/// no reference (Appendix E joins only the blanks of a URL broken across
/// lines).
///
///     classify_angle("fielding@ics.uci.edu") == angle_content::address
///     classify_angle("../x.html") == angle_content::reference
URLSIFT_EXPORT angle_content classify_angle(std::string_view content);

}  // namespace urlsift
