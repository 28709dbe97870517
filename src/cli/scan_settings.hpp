#pragma once
// The options that steer the scanner and the resolver, shared by the
// commands that scan text (extract, rewrite).

#include "cli/options.hpp"

#include <urlsift/scanner.hpp>

#include <optional>
#include <string>

namespace urlsift::cli {

/// Raw option values as Boost.Program_options stores them.
struct scan_settings {
    std::string base;
    std::string resolver_mode;
    std::string hyphen = "keep";
    std::string abbrev = "default";
    std::string abbrev_scheme = "http";
    long long max_url_length = 64 * 1024; ///< signed, so that "-5" is caught, not wrapped
    bool normalize = false;
};

/// Adds --base, --resolver, --normalize, --hyphen, --max-url-length,
/// --abbrev and --abbrev-scheme to `opts`, storing into `s`.
/// `abbrev_default_help` says what the command's default set is.
void add_scan_options(po::options_description& opts, scan_settings& s, const char* abbrev_default_help);

/// Checks the values and builds the scanner's options; `default_kinds` is
/// used when --abbrev is not given. Throws usage_error naming the bad value
/// (an unknown mode, a base the resolver rejects).
scan_options make_scan_options(std::string_view command, const scan_settings& s, abbrev_set default_kinds);

/// The base for the resolution stage (--base), or nullopt. Throws
/// usage_error when the resolver rejects it.
std::optional<resolver> make_base(std::string_view command, const scan_settings& s);

/// The resolver options (mode, normalization) the settings ask for.
resolve_options make_resolve_options(std::string_view command, const scan_settings& s);

}  // namespace urlsift::cli
