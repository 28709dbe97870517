#pragma once
// The link-rewriting filter: copies text through, byte for byte, changing
// only the references it makes absolute.

#include <urlsift/export.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/scanner.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift {

/// What the rewriter changes (`--only`).
enum class rewrite_kind : std::uint8_t {
    relative = 1u << 0,    ///< a relative reference, when a base is known, to absolute form
    abbreviated = 1u << 1, ///< `www.w3.org/x` to `http://www.w3.org/x` (Appendix F)
    joined = 1u << 2,      ///< a reference broken across lines to one piece (Appendix E)
};
using rewrite_set = std::uint8_t;
inline constexpr rewrite_set rewrite_all = 0x7;

/// Parses a comma-separated list of `relative`, `abbreviated`, `joined`, or
/// `all`. nullopt on an unknown name.
URLSIFT_EXPORT std::optional<rewrite_set> parse_rewrite_list(std::string_view list);

struct rewrite_options {
    scan_options scan{};           ///< abbreviations, hyphen rule, length limit
    /// Base for relative references (Section 5.1); without one they are
    /// left as written.
    std::optional<resolver> base{};
    rewrite_set only = rewrite_all;
    bool normalize = false;   ///< also rewrite absolute URLs whose normal form differs (Section 6)
    bool angle_style = false; ///< wrap bare URLs in `<...>`, Appendix E's recommended delimiter
};

/// One change: the input bytes [offset, offset+length) become `replacement`.
struct rewrite_edit {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::string replacement;
};

/// Receives output bytes in order; valid only during the call. Return false to stop.
using text_sink = std::function<bool(std::string_view)>;
/// Told of each edit as it is applied, in input order (for counts and diffs).
using edit_observer = std::function<void(const rewrite_edit&)>;

/// Streaming rewriter: feed text in chunks of any size; the output equals the
/// input except inside the spans of rewritten references.
///
/// Contract: lossless (bytes outside edits pass unchanged: invalid UTF-8,
/// NUL, CR, long lines, a missing final newline), independent of chunk
/// boundaries, and idempotent (rewriting the output again changes nothing).
/// Each reference the scanner reports is resolved against `base` (the
/// resolution stage) and changed as `edit_for` says; the rewriter reads
/// nothing itself. Wrappers (`<>`, quotes, `URL:`) stay as written. Output
/// is handed to the sink as soon as the scanner has committed it, so memory
/// stays bounded by the scanner's `max_url_length`.
///
///     std::string out;
///     urlsift::rewriter w(opts, [&](std::string_view s) { out += s; return true; });
///     w.feed("See <../g>.\n"); w.finish();   // with base http://a/b/c/d;p?q: "See <http://a/b/g>.\n"
///
/// Spec: Appendix E and F and Section 5.2 of 001_*.txt.
class URLSIFT_EXPORT rewriter {
public:
    rewriter(rewrite_options options, text_sink out, edit_observer on_edit = {});
    rewriter(rewriter&&) noexcept;
    rewriter& operator=(rewriter&&) noexcept;
    ~rewriter();

    /// Rewrites the next chunk. Returns false once the sink asked to stop.
    bool feed(std::string_view chunk);
    /// Ends the input and writes everything still held. Returns false when the sink stopped.
    bool finish();
    /// Edits applied so far.
    std::uint64_t edit_count() const noexcept;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

/// One-shot form: the rewritten text of `text`.
URLSIFT_EXPORT std::string rewrite(std::string_view text, const rewrite_options& options = {});

/// The edit a reference calls for under `options`, or nullopt to leave it
/// as written. So that a second pass reads the output as the first pass
/// wrote it, these are left alone (the scanner's `around` tells which): a
/// reference that touches a `<` or `>` it is not wrapped by or starts
/// `in_brackets`; one written across lines of different mail quote depth
/// (joining it would move the rest of its last line to another depth); one
/// the rewrite would make start with `URL:` (Appendix E's prefix); and a
/// bare or `URL:` reference followed by a line break whose edit would make
/// it end in a different character after which a URL may go on
/// (`/ . - ? & = _ # % ~ +`), since the next pass could continue it onto
/// the next line. `--style angle` wraps only a URL that stands apart from
/// the text on both sides. `ref` is taken as the resolution stage left it.
/// Exposed for tools that list changes without copying text.
URLSIFT_EXPORT std::optional<rewrite_edit> edit_for(const found_reference& ref, const rewrite_options& options);

}  // namespace urlsift
