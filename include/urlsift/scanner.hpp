#pragma once
// Finding URL references in plain text, streamed (Appendix E delimiting,
// Appendix F abbreviations).

#include <urlsift/export.hpp>
#include <urlsift/abbrev.hpp>
#include <urlsift/resolver.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift {

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

/// Whether a hyphen at a line break belongs to the URL (Appendix E).
enum class hyphen_policy {
    keep, ///< `foo-\nbar` reads `foo-bar`; `foobar` is the alternative
    drop, ///< `foo-\nbar` reads `foobar`; `foo-bar` is the alternative
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
    std::string url;          ///< absolute form when known (resolved or completed), else `cleaned`
    wrapper_kind wrapper = wrapper_kind::none;
    reference_form form = reference_form::absolute;
    bool joined = false;    ///< written across more than one line
    bool truncated = false; ///< cut at `max_url_length`; the rest of the run was skipped
    std::vector<std::string> alternatives; ///< other readings (the hyphen rule), in `url` form
    std::vector<byte_range> pieces;        ///< the source ranges `cleaned` was taken from
};

/// Options for `scanner` and `scan`.
struct scan_options {
    /// Longest reference kept, in bytes. A longer bare URL is reported cut
    /// at this length with `truncated` set and the rest skipped; a longer
    /// `<...>` is not taken as a wrapper. Bounds the scanner's memory.
    std::size_t max_url_length = 64 * 1024;
    hyphen_policy hyphen = hyphen_policy::keep;
    /// Appendix F heuristics for bare words; `abbrev_none` to report scheme
    /// URLs (and wrapped references) only.
    abbrev_options abbrev{};
    /// Base for relative references inside `<...>` and after `URL:`
    /// (Section 5.1). Absolute URLs are passed through it too, so its mode
    /// and normalization apply. Without it relative references keep their
    /// written form.
    std::optional<resolver> base{};
};

/// Receives each reference, in input order. The reference (and everything it
/// owns) is valid only during the call. Return false to stop the scan.
using reference_sink = std::function<bool(const found_reference&)>;

/// Streaming scanner: finds references in text fed in chunks of any size.
///
/// Contract: the references reported, and every field of them, do not
/// depend on how the input is split into chunks. A reference is reported as
/// soon as its end is certain (at the latest by `finish()`). Memory held
/// between calls is bounded by `max_url_length` plus a little context, never
/// by the input. Bad input (binary, invalid UTF-8, NUL) is scanned as text and
/// never throws; only the sink's own exceptions propagate.
///
///     urlsift::scanner s({}, [](const urlsift::found_reference& r) { puts(r.url.c_str()); return true; });
///     s.feed("see <http://example.org/a/\n  b.html> and http://x.org/.");
///     s.finish(); // prints http://example.org/a/b.html, http://x.org/
///
/// Spec: Appendix E (delimiting) and F (abbreviated URLs) of 001_*.txt;
/// the `URL:` prefix and `<...>` wrappers of 003_*.txt.
class URLSIFT_EXPORT scanner {
public:
    scanner(scan_options options, reference_sink sink);
    scanner(scanner&&) noexcept;
    scanner& operator=(scanner&&) noexcept;
    ~scanner();

    /// Scans the next chunk. Returns false once the sink has asked to stop
    /// (later calls do nothing).
    bool feed(std::string_view chunk);
    /// Ends the input: reports what is still pending. Returns false when the
    /// sink stopped. Further feeds are ignored.
    bool finish();

    /// Every byte before this offset is final: no reference reported later
    /// starts, or has its `outer` span start, before it. A rewriting filter
    /// may copy the input out up to here.
    std::uint64_t committed_offset() const noexcept;
    /// Bytes fed so far.
    std::uint64_t fed_offset() const noexcept;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

/// One-shot form: scans the whole of `text` and returns every reference.
///
///     auto refs = urlsift::scan("Yes, Jim, under \"http://www.w3.org/Addressing/\".");
///     // refs[0].url == "http://www.w3.org/Addressing/", refs[0].wrapper == wrapper_kind::quote
///
/// Spec: Appendix E of 001_*.txt.
URLSIFT_EXPORT std::vector<found_reference> scan(std::string_view text, const scan_options& options = {});

}  // namespace urlsift
