#include "cli/scan_settings.hpp"

#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "text/ascii.hpp"
#include "uri/site.hpp"

#include <urlsift/reference.hpp>
#include <urlsift/warnings.hpp>

#include <filesystem>
#include <string>

namespace urlsift::cli {

namespace {

constexpr std::string_view hyphen_choices[] = {"keep", "drop"};
constexpr std::string_view abbrev_alone[] = {"all", "none"};
constexpr std::string_view abbrev_kinds[] = {"www", "ftp", "gopher", "news", "wais", "domain", "email", "ipv4"};
constexpr std::string_view scheme_choices[] = {"http", "https"};

/// --abbrev but for the help text, which says the command's own default.
constexpr option_spec abbrev_option{.name = "abbrev", .value = value_kind::choice_list,
                                    .choices = abbrev_kinds, .alone = abbrev_alone};

/// The options of every command that scans text; --abbrev is added after
/// --max-url-length, with the command's own help.
constexpr option_row<scan_settings> scan_options_before_abbrev[] = {
    {{.name = "base", .value = value_kind::url,
      .help = "resolve relative references in <...> and after URL: against URL, and a document's relative links"},
     &scan_settings::base},
    {{.name = "base-root", .value = value_kind::directory,
      .help = "with --base, the directory that --base is the URL of: each file's base is --base joined with "
              "its path under DIR (docs/api/x.md under --base https://example.org/docs/ --base-root docs has "
              "the base https://example.org/docs/api/x.md)"},
     &scan_settings::base_root},
    {resolver_option, &scan_settings::resolver_mode},
    {{.name = "normalize", .help = "normalize URLs (Section 6): case, default port, escapes, IDNA"},
     &scan_settings::normalize},
    {{.name = "hyphen", .value = value_kind::choice,
      .help = "a hyphen at a line break inside a URL: keep (default) or drop", .default_value = "keep",
      .choices = hyphen_choices},
     &scan_settings::hyphen},
    {{.name = "max-url-length", .value = value_kind::number,
      .help = "longest URL in bytes (default 65536); longer ones are cut", .default_value = "65536"},
     &scan_settings::max_url_length},
};

constexpr option_row<scan_settings> scan_options_after_abbrev[] = {
    {{.name = "abbrev-scheme", .value = value_kind::choice,
      .help = "scheme for completed host names: http (default) or https", .default_value = "http",
      .choices = scheme_choices},
     &scan_settings::abbrev_scheme},
    {{.name = "literal-brackets",
      .help = "read <www.x.org/p> and <host.tld> as relative paths under --base, as Appendix F does, "
              "not as abbreviated URLs (docs/abbreviations.md)"},
     &scan_settings::literal_brackets},
    {{.name = "max-memory", .value = value_kind::size,
      .help = "memory the reading of one document, WARC record or message may take (default 64M; K, M, G): "
              "a Markdown or HTML document over a quarter of it, or whose HTML tree takes more than half, and a "
              "message whose headers and parts would take GMime more than half, are read as plain text, with a "
              "note; rewrite leaves them unchanged, and any input over a quarter, and a mail part over a sixteenth",
      .default_value = "64M"},
     &scan_settings::max_memory},
};

/// --abbrev with the help of most commands, and of rewrite, which
/// completes fewer kinds unless asked.
constexpr option_spec abbrev_all_but_ipv4 = [] {
    option_spec o = abbrev_option;
    o.help = "abbreviations to complete: all, none, or a list (www,ftp,gopher,news,wais,domain,email,ipv4); "
             "default all but ipv4";
    return o;
}();
constexpr option_spec abbrev_www_ftp = [] {
    option_spec o = abbrev_option;
    o.help = "abbreviations to complete: all, none, or a list (default: www,ftp)";
    return o;
}();

}  // namespace

void add_scan_options(option_set& set, scan_settings& s, abbrev_help help) {
    set.add(scan_options_before_abbrev, s);
    set.add(help == abbrev_help::www_ftp ? abbrev_www_ftp : abbrev_all_but_ipv4, s.abbrev);
    set.add(scan_options_after_abbrev, s);
}

memory_cap make_memory_cap(std::string_view command, const scan_settings& s) {
    const std::string& v = s.max_memory;
    std::size_t digits = 0;
    while (digits < v.size() && digits < 15 && v[digits] >= '0' && v[digits] <= '9') ++digits;
    std::string_view unit = std::string_view(v).substr(digits);
    if (unit.ends_with("iB")) unit.remove_suffix(2);
    // A size as GNU tools write it: bytes, or K, M, G (KiB, MiB, GiB), any case.
    constexpr std::string_view units = "kKmMgG";
    const std::size_t u = unit.size() == 1 ? units.find(unit[0]) : std::string_view::npos;
    const int shift = unit.empty() ? 0 : u == std::string_view::npos ? -1 : 10 * (1 + static_cast<int>(u / 2));
    const std::size_t bytes = digits == 0 || shift < 0 ? 0 : static_cast<std::size_t>(std::stoull(v.substr(0, digits)));
    constexpr std::size_t least = std::size_t{4} << 20, most = std::size_t{1} << 40;
    if (bytes == 0 || (shift > 0 && bytes > (most >> shift)) || (bytes << shift) < least || (bytes << shift) > most)
        throw usage_error(std::string(command), "--max-memory must be a size from 4M to 1T (a number of bytes, or "
                                                "with K, M or G: 64M, 1G), not '" + visible(v) + "'");
    const std::size_t cap = bytes << shift;
    return {cap / 2};
}

std::string read_as_text_note(const memory_cap& cap) {
    return "larger than " + memory_size(held_document_bytes(cap.parse_memory)) + ", a quarter of --max-memory: read as plain text";
}

std::string read_as_text_note(document_format format, const std::string& unread) {
    return "not read as " + std::string(to_string(format)) + ": " + unread + "; read as plain text";
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
    if (s.abbrev) {
        const auto set = parse_abbrev_list(*s.abbrev);
        if (!set)
            throw usage_error(cmd, "unknown --abbrev '" + *s.abbrev +
                                       "' (all, none, or a list of: www,ftp,gopher,news,wais,domain,email,ipv4)");
        so.abbrev.kinds = *set;
    }
    if (s.abbrev_scheme != "http" && s.abbrev_scheme != "https")
        throw usage_error(cmd, "unknown --abbrev-scheme '" + s.abbrev_scheme + "' (choose http or https)");
    so.abbrev.https = s.abbrev_scheme == "https";
    so.abbrev.literal_in_brackets = s.literal_brackets;
    make_base(command, s); // a bad base is a usage error before any input is read
    return so;
}

std::optional<resolver> make_base(std::string_view command, const scan_settings& s) {
    if (!s.base) return std::nullopt;
    return base_from_option(command, *s.base, make_resolve_options(command, s));
}

namespace {

/// Whether URLs of `scheme` name a server, and so need a host: http and https
/// (RFC 9110 section 4.2: "A sender MUST NOT generate an "http" URI with an
/// empty host identifier"), ws and wss (RFC 6455 section 3), ftp (RFC 1738
/// section 3.2): the browser draft's special schemes but file, whose empty
/// host is the local machine. The generic syntax the resolver follows
/// allows an empty host; a --base never means one.
bool needs_host(std::string_view scheme) noexcept {
    for (const std::string_view s : {"http", "https", "ws", "wss", "ftp"})
        if (detail::iequals(scheme, s)) return true;
    return false;
}

/// What is wrong with the host the resolver found wrong at byte `at` of
/// `base`, in words: a bad IP literal says more than "invalid host".
std::string host_problem(std::string_view base, std::size_t at) {
    if (at >= base.size() || base[at] == '/' || base[at] == '?' || base[at] == '#') return "no host";
    if (base[at] == '[')
        return "the host in [...] at byte " + std::to_string(at) +
               " is not an IP address (brackets hold an IPv6 address, as in http://[2001:db8::1]/)";
    return "invalid host at byte " + std::to_string(at);
}

}  // namespace

resolver base_from_option(std::string_view command, std::string_view given, const resolve_options& options,
                          std::string_view as_typed) {
    const std::string cmd(command);
    const std::string shown = "bad --base '" + visible(as_typed.empty() ? given : as_typed) + "': ";
    constexpr std::string_view example = "; a base is an absolute URL such as https://example.org/docs/";
    if (given.empty()) throw usage_error(cmd, shown + "empty" + std::string(example));
    // Section 7: resolving against a script would turn every reference into one.
    if (is_script_url(given)) throw usage_error(cmd, shown + "a script, not a place to resolve against" + std::string(example));
    auto r = resolver::make(given, options);
    if (!r) {
        std::string why(describe(r.error()));
        if (r.error() == error::invalid_host) why = host_problem(given, r.error_offset());
        else if (r.error() != error::base_not_absolute) why += " at byte " + std::to_string(r.error_offset());
        throw usage_error(cmd, shown + why + std::string(example));
    }
    // Section 4.3: relative URLs can only be used against a base that fits
    // the generic syntax; after an opaque one (mailto:, news:) every
    // relative reference would fail.
    const reference_parts p = parse_reference(r->base());
    if (p.scheme && needs_host(*p.scheme) && (!p.site || detail::split_site(*p.site).host.empty()))
        throw usage_error(cmd, shown + "no host (" + std::string(*p.scheme) + " URLs name a server)" +
                                   std::string(example));
    if (!p.site && (p.path.empty() || p.path.front() != '/'))
        throw usage_error(cmd, shown + "opaque (no hierarchy after the scheme to resolve against)" +
                                   std::string(example));
    return std::move(*r);
}

}  // namespace urlsift::cli

namespace urlsift::cli {

input_bases::input_bases(std::string_view command, const scan_settings& s)
    : command_(command), site_(make_base(command, s)) {
    if (s.base_root.empty()) return;
    if (!site_) throw usage_error(command_, "--base-root needs --base: the URL the directory is published under");
    root_ = std::filesystem::absolute(s.base_root).lexically_normal();
    // The base names the directory itself, whether or not it ends in '/'.
    const std::string& b = site_->base();
    const reference_parts p = parse_reference(b);
    if (!p.query && !p.fragment && !b.ends_with('/')) {
        if (auto r = resolver::make(b + "/", site_->options())) site_ = std::move(*r);
    }
}

const resolver* input_bases::for_input(const std::string& path, std::string& error) {
    error.clear();
    if (root_.empty() || !site_) return site_ ? &*site_ : nullptr;
    if (path == "-") {
        error = "--base-root gives each file its base from its path; standard input has none (use --base alone)";
        return nullptr;
    }
    const std::filesystem::path rel = std::filesystem::absolute(path).lexically_normal().lexically_relative(root_);
    const std::string under = rel.generic_string();
    if (rel.empty() || under == ".." || under.starts_with("../")) {
        error = "not under --base-root '" + root_.string() + "': its base is unknown";
        return nullptr;
    }
    // Section 2.4: a path's bytes outside the unreserved and the path's
    // own reserved characters are escaped.
    std::string escaped;
    for (const char c : under) {
        const auto b = static_cast<unsigned char>(c);
        if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') ||
            std::string_view("-._~!$&'()*+,;=:@/").find(c) != std::string_view::npos) {
            escaped += c;
        } else {
            detail::append_percent_escape(escaped, b);
        }
    }
    // A name such as `a:b` would read as a scheme: `./` keeps it a path.
    if (parse_reference(escaped).is_absolute()) escaped.insert(0, "./");
    auto url = site_->resolve(escaped);
    auto r = url ? resolver::make(*url, site_->options()) : result<resolver>(failure{url.error(), 0});
    if (!r) {
        error = "its base from --base and --base-root cannot be made";
        return nullptr;
    }
    current_.emplace(std::move(*r));
    return &*current_;
}

}  // namespace urlsift::cli
