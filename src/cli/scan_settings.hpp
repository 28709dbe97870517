#pragma once
// The options that steer the scanner and the resolver, shared by the
// commands that scan text (extract, rewrite).

#include "cli/option_table.hpp"

#include <urlsift/document.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/scanner.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace urlsift::cli {

/// The options that steer the scanner and the resolver, as given.
struct scan_settings {
    std::optional<std::string> base; ///< --base, perhaps empty (which is an error)
    std::string base_root;           ///< --base-root: the directory --base is the URL of
    std::string resolver_mode;
    std::string hyphen;
    std::optional<std::string> abbrev; ///< not given: the command's default kinds
    std::string abbrev_scheme;
    long long max_url_length{}; ///< signed, so that "-5" is caught, not wrapped
    bool normalize{};
    bool literal_brackets{}; ///< --literal-brackets
    std::string max_memory;  ///< --max-memory, as typed
};

/// What --max-memory allows the reading of one document, WARC record or
/// message: half for an HTML tree (read_document's parse_memory), a
/// quarter for the bytes of a document held whole to be parsed. A document
/// past either is read as plain text, or left unchanged by rewrite.
struct memory_cap {
    std::size_t parse_memory = default_parse_memory;
    /// Whether a document of `size` bytes may be held whole for its parser.
    bool holds(std::size_t size) const noexcept { return size <= held_document_bytes(parse_memory); }
};

/// The note for a document read as plain text: larger than `cap` holds,
/// or (`unread` from its reader) left unread as `format`.
std::string read_as_text_note(const memory_cap& cap);
std::string read_as_text_note(document_format format, const std::string& unread);

/// The cap --max-memory sets. Throws usage_error for a size that is not
/// one, or is under 4M or over 1T.
memory_cap make_memory_cap(std::string_view command, const scan_settings& s);

/// --resolver, of resolve too.
inline constexpr std::string_view resolver_choices[] = {"rfc3986", "rfc2396", "browser"};
inline constexpr option_spec resolver_option{.name = "resolver", .value = value_kind::choice,
                                             .help = "resolution rules: rfc3986 (default), rfc2396, browser",
                                             .default_value = "rfc3986", .choices = resolver_choices};

/// Which default set of abbreviations the help of --abbrev names.
enum class abbrev_help : unsigned char { all_but_ipv4, www_ftp };

/// Adds --base, --base-root, --resolver, --normalize, --hyphen,
/// --max-url-length, --abbrev, --abbrev-scheme, --literal-brackets and
/// --max-memory to `set`, storing into `s`.
void add_scan_options(option_set& set, scan_settings& s, abbrev_help help);

/// Checks the values and builds the scanner's options; `default_kinds` is
/// used when --abbrev is not given. Throws usage_error naming the bad value
/// (an unknown mode, a base the resolver rejects).
scan_options make_scan_options(std::string_view command, const scan_settings& s, abbrev_set default_kinds);

/// The base for the resolution stage (--base), or nullopt. Throws
/// usage_error when it cannot be a base (see base_from_option).
std::optional<resolver> make_base(std::string_view command, const scan_settings& s);

/// The resolver for a --base value. Throws usage_error, with what is wrong
/// and an example, for a value that cannot be a base: empty, relative,
/// malformed (`http://[zz]/` among them), opaque (`mailto:x`, Section 4.3),
/// a script URL, or a URL of a scheme that names a server without a host
/// (`http://`). Messages
/// quote `as_typed` when it is given (the value before any cleaning).
resolver base_from_option(std::string_view command, std::string_view given, const resolve_options& options,
                          std::string_view as_typed = {});

/// The resolver options (mode, normalization) the settings ask for.
resolve_options make_resolve_options(std::string_view command, const scan_settings& s);

/// The base each input is read against (Section 5.1.2 to 5.1.4: the URI it
/// is published at): --base, or with --base-root DIR, --base joined with the
/// input's path under DIR, so that a tree published under a site URL gets
/// one base a file.
class input_bases {
public:
    /// Checks --base and --base-root; throws usage_error when they cannot
    /// make bases (--base-root without --base, a bad --base).
    input_bases(std::string_view command, const scan_settings& s);
    /// The base of the input `path` (`-`: standard input), or null when
    /// there is none. With --base-root, a path outside DIR, and standard
    /// input, have none: `error` says why. Valid until the next call.
    const resolver* for_input(const std::string& path, std::string& error);
    /// Whether each input has its own base (--base-root).
    bool per_input() const noexcept { return !root_.empty(); }

private:
    std::string command_;
    std::optional<resolver> site_; ///< --base, a directory's URL with --base-root
    std::filesystem::path root_;   ///< --base-root, absolute and normal; empty without it
    std::optional<resolver> current_;
};

}  // namespace urlsift::cli
