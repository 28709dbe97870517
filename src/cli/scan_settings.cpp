#include "cli/scan_settings.hpp"

#include "cli/errors.hpp"

#include <string>

namespace urlsift::cli {

void add_scan_options(po::options_description& opts, scan_settings& s, const char* abbrev_default_help) {
    // clang-format off
    opts.add_options()
        ("base", po::value<std::string>(&s.base), "resolve relative references in <...> and after URL: against URL")
        ("resolver", po::value<std::string>(&s.resolver_mode), "resolution rules: rfc3986 (default), rfc2396, browser")
        ("normalize", po::bool_switch(&s.normalize), "normalize URLs (Section 6): case, default port, escapes, IDNA")
        ("hyphen", po::value<std::string>(&s.hyphen), "a hyphen at a line break inside a URL: keep (default) or drop")
        ("max-url-length", po::value<long long>(&s.max_url_length),
            "longest URL in bytes (default 65536); longer ones are cut")
        ("abbrev", po::value<std::string>(&s.abbrev), abbrev_default_help)
        ("abbrev-scheme", po::value<std::string>(&s.abbrev_scheme),
            "scheme for completed host names: http (default) or https");
    // clang-format on
}

resolve_options make_resolve_options(std::string_view command, const scan_settings& s) {
    resolve_options ro;
    ro.normalize = s.normalize;
    if (!s.resolver_mode.empty()) {
        const auto m = parse_resolve_mode(s.resolver_mode);
        if (!m)
            throw usage_error(std::string(command),
                              "unknown --resolver '" + s.resolver_mode + "' (choose rfc3986, rfc2396 or browser)");
        ro.mode = *m;
    }
    return ro;
}

scan_options make_scan_options(std::string_view command, const scan_settings& s, abbrev_set default_kinds) {
    const std::string cmd(command);
    scan_options so;
    if (s.hyphen == "keep")
        so.hyphen = hyphen_policy::keep;
    else if (s.hyphen == "drop")
        so.hyphen = hyphen_policy::drop;
    else
        throw usage_error(cmd, "unknown --hyphen '" + s.hyphen + "' (choose keep or drop)");
    // The limit bounds the scanner's memory; 1 GiB is far beyond any URL.
    if (s.max_url_length < 16 || s.max_url_length > (1LL << 30))
        throw usage_error(cmd, "--max-url-length must be a number of bytes from 16 to 1073741824, not " +
                                   std::to_string(s.max_url_length));
    so.max_url_length = static_cast<std::size_t>(s.max_url_length);
    so.abbrev.kinds = default_kinds;
    if (s.abbrev != "default") {
        const auto set = parse_abbrev_list(s.abbrev);
        if (!set)
            throw usage_error(cmd, "unknown --abbrev '" + s.abbrev +
                                       "' (all, none, or a list of: www,ftp,gopher,news,wais,domain,email,ipv4)");
        so.abbrev.kinds = *set;
    }
    if (s.abbrev_scheme != "http" && s.abbrev_scheme != "https")
        throw usage_error(cmd, "unknown --abbrev-scheme '" + s.abbrev_scheme + "' (choose http or https)");
    so.abbrev.https = s.abbrev_scheme == "https";
    make_base(command, s); // a bad base is a usage error before any input is read
    return so;
}

std::optional<resolver> make_base(std::string_view command, const scan_settings& s) {
    if (s.base.empty()) return std::nullopt;
    auto r = resolver::make(s.base, make_resolve_options(command, s));
    if (!r)
        throw usage_error(std::string(command), "bad --base '" + s.base + "': " + std::string(describe(r.error())) +
                                                    " (a base must be an absolute URL, like https://example.org/docs/)");
    return std::move(*r);
}

}  // namespace urlsift::cli
