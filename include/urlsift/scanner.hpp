#pragma once
// Finding URL references in plain text, streamed (Appendix E delimiting,
// Appendix F abbreviations).

#include <urlsift/export.hpp>
#include <urlsift/abbrev.hpp>
#include <urlsift/found_reference.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift {

class resolver;

/// Whether a hyphen at a line break belongs to the URL (Appendix E).
enum class hyphen_policy {
    keep, ///< `foo-\nbar` reads `foo-bar`; `foobar` is the alternative
    drop, ///< `foo-\nbar` reads `foobar`; `foo-bar` is the alternative
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
    /// Fill each reference's `around` (the rewriter needs it; a list of
    /// references does not). The scanner then waits for the few bytes after
    /// a reference that `around` describes before it reports it.
    bool surroundings = false;
    /// Leave out an abbreviated URL that names a URL written with its
    /// scheme just before it (`ftp.x.org/pub/` after `ftp://ftp.x.org/pub/`,
    /// docs/abbreviations.md). The rewriter turns it off: what it completes
    /// or resolves would become such a URL on a second pass, and leaving a
    /// reference out changes how the text around it is read.
    bool skip_named_urls = true;
};

/// Streaming scanner: finds references in text fed in chunks of any size.
///
/// Contract: the references reported, and every field of them, do not
/// depend on how the input is split into chunks. A reference is reported as
/// soon as its end is certain and the few bytes after it that its
/// `around` describes are in (at the latest by `finish()`). Memory held
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

    /// Starts a new input, with the same options and sink: from here on the
    /// scanner reports what a new one would (offsets from 0, lines from 1,
    /// nothing carried or remembered from before), whether or not the last
    /// input was finished or the sink had stopped. The memory the scanner
    /// has grown is kept, so that reading many small files one after
    /// another does not allocate it again for each.
    ///
    ///     for (const auto& text : files) { s.reset(); s.feed(text); s.finish(); }
    void reset();

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

/// One-shot form: scans the whole of `text` and returns every reference,
/// resolved against `base` when one is given (the resolution stage).
///
///     auto refs = urlsift::scan("Yes, Jim, under \"http://www.w3.org/Addressing/\".");
///     // refs[0].url == "http://www.w3.org/Addressing/", refs[0].wrapper == wrapper_kind::quote
///
/// Spec: Appendix E of 001_*.txt.
URLSIFT_EXPORT std::vector<found_reference> scan(std::string_view text, const scan_options& options = {},
                                                 const resolver* base = nullptr);

}  // namespace urlsift
