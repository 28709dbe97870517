#pragma once
// What the scanner reports for each reference it finds.

#include <urlsift/export.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift {

struct declared_link;

/// How the reference was set off from the text around it (Appendix E).
enum class wrapper_kind {
    none,       ///< delimited by whitespace and punctuation only
    angle,      ///< `<http://x/>` or `<URL:http://x/>`
    quote,      ///< `"http://x/"`
    url_prefix, ///< `URL:http://x/` or `URL: http://x/` outside brackets
};

/// What kind of reference was written.
enum class reference_form {
    absolute,    ///< has a scheme (Section 4.1)
    relative,    ///< a relative reference inside `<...>` or after `URL:` (Section 5)
    abbreviated, ///< `www.w3.org/Addressing/`, `user@host.tld` (Appendix F)
};

URLSIFT_EXPORT std::string_view to_string(wrapper_kind w) noexcept;   ///< "none", "angle", "quote", "url-prefix"
URLSIFT_EXPORT std::string_view to_string(reference_form f) noexcept; ///< "absolute", "relative", "abbreviated"

/// A run of bytes in the input, in absolute byte offsets.
struct byte_range {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    friend bool operator==(const byte_range&, const byte_range&) = default;
};

/// The text around a reference as the scanner read it: what a filter that
/// edits the reference in place must know so that its edit does not change
/// how the text reads next time (docs/scanning.md). Bytes outside the input
/// read as a line feed.
struct reference_surroundings {
    char before = '\n';             ///< the byte before `outer`
    /// The last byte before `offset` that is not an opening bracket, `,` or `;`.
    char before_punctuation = '\n';
    char after = '\n';              ///< the byte after `outer`
    /// The first byte after the reference (wrappers not skipped) that is not
    /// sentence punctuation or a closing bracket.
    char after_punctuation = '\n';
    int quote_depth = 0;     ///< mail quote depth (`>` marks) of the line the reference starts on
    int quote_depth_end = 0; ///< mail quote depth of the line it ends on
    /// The reference starts inside `<...>` that were not taken as a wrapper
    /// but that a change of their content could make one: the `<` is
    /// unclosed where it starts, and a `>` could close it before anything
    /// that rules a wrapper out for good (another `<`, a blank line, a
    /// delimiter, a line quoted to another depth, the end of the input).
    bool in_brackets = false;
    /// The reference lies in a longer reading that was too long
    /// (`max_url_length`) to take: on the lines of a URL broken across
    /// lines, too long to be an abbreviated URL, or in the first
    /// `max_url_length` bytes of a URL whose cut text was no reference. A
    /// change to this reference could make that reading short enough the
    /// next time.
    bool in_longer_reading = false;
    /// Only blanks (at most a line's indentation) and perhaps a CR lie
    /// between the reference's end and a line feed: Appendix E's rules may
    /// continue a URL that ends in a break character onto the next line.
    bool line_break_after = false;
    friend bool operator==(const reference_surroundings&, const reference_surroundings&) = default;
};

/// One reference found in the text.
///
/// Offsets are absolute byte offsets from the first byte fed. `line` and
/// `column` are 1-based; the column counts bytes (as `rg --column` does), so
/// it can be used with `offset` without decoding the line.
///
///     ...warning in <http://www.ics.uci.edu/pub/\n ietf/uri/x.html#W>.
///                   |<---------------- outer ----------------------->|
///                    |<--- pieces[0] ---------->|   |<- pieces[1] ->|
///                    offset ............................. offset+length
struct found_reference {
    std::uint64_t offset = 0; ///< first byte of the URL text (after `<`, `"`, `URL:`)
    std::uint64_t length = 0; ///< to the end of the last piece (trailing punctuation excluded)
    std::uint64_t line = 0;   ///< line of `offset`, 1-based (LF counts lines)
    std::uint64_t column = 0; ///< byte column of `offset`, 1-based
    byte_range outer;         ///< the span as written including wrappers: `<`..`>`, `"`..`"`, `URL:`..
    std::string raw;          ///< the bytes [offset, offset+length): inner line breaks included
    std::string cleaned;      ///< the pieces joined: whitespace (and mail quote marks) removed
    /// Absolute form when known: completed (Appendix F) by the scanner,
    /// resolved against a base by the resolution stage; else `cleaned`.
    std::string url;
    wrapper_kind wrapper = wrapper_kind::none;
    reference_form form = reference_form::absolute;
    bool joined = false;    ///< written across more than one line
    bool truncated = false; ///< cut at `max_url_length`; the rest of the run was skipped
    std::vector<std::string> alternatives; ///< other readings (the hyphen rule), in `url` form
    std::vector<byte_range> pieces;        ///< the source ranges `cleaned` was taken from
    /// The text around it, for filters that edit in place; filled when
    /// scan_options::surroundings is set, else left as constructed.
    reference_surroundings around;
    /// For a link its document's format declares (document.hpp: a Markdown
    /// `[text](dest)`, an HTML `href`), how it was written and its anchor
    /// text; null for a reference found in prose. Valid as long as the
    /// reference is.
    const declared_link* declared = nullptr;
};

/// Receives each reference, in input order. The reference (and everything it
/// owns) is valid only during the call; a stage may change it before passing
/// it on. Return false to stop the scan.
using reference_sink = std::function<bool(found_reference&)>;

}  // namespace urlsift
