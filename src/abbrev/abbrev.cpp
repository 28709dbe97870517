// Abbreviated URLs (Appendix F of 001_*.txt): completing `www.w3.org/Addressing/`,
// bare host names and mail addresses, and telling what `<...>` holds.
//
// Appendix F leaves the heuristics to the implementation ("context-based
// heuristics are sufficient to complete the URL"). Ours, with the evidence
// each one needs, are written down in docs/abbreviations.md; the comments
// below name the rule of that document they implement.
//
// The common path (an ASCII token that is no URL) does no allocation and
// does not touch ICU: the token is cut into views, labels are checked byte
// by byte, and TLDs and word lists are binary-searched on stack buffers.

#include <urlsift/abbrev.hpp>

#include "abbrev/lexicon.hpp"
#include "abbrev/non_reference.hpp"
#include "uri/schemes.hpp"
#include "text/ascii.hpp"
#include "text/icu_text.hpp"
#include "abbrev/tld_table.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace urlsift {

namespace {

namespace lex = detail::lexicon;

using detail::find_first_of_bytes;
using detail::iequals;
using detail::is_alnum;
using detail::is_alpha;
using detail::is_digit;
using detail::is_ipv4;
using detail::is_lower;
using detail::is_upper;
using detail::is_white;
using detail::to_lower;

constexpr bool is_non_ascii(char c) noexcept { return static_cast<unsigned char>(c) >= 0x80; }
constexpr bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool all_digits(std::string_view s) noexcept {
    if (s.empty()) return false;
    for (const char c : s)
        if (!is_digit(c)) return false;
    return true;
}

bool has_upper(std::string_view s) noexcept {
    for (const char c : s)
        if (is_upper(c)) return true;
    return false;
}

bool has_lower(std::string_view s) noexcept {
    for (const char c : s)
        if (is_lower(c)) return true;
    return false;
}

bool has_alpha(std::string_view s) noexcept {
    for (const char c : s)
        if (is_alpha(c)) return true;
    return false;
}

std::string_view trim_space(std::string_view s) noexcept {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// --- hostnames (Section 4.3.1) ---------------------------------------------

/// A hostname that passed Section 4.3.1 and has a known TLD. Views into the
/// token, labels as written.
struct host_info {
    std::string_view first;        ///< leftmost label
    std::string_view second_last;  ///< label left of the TLD
    std::string_view tld;          ///< rightmost label, as written
    std::size_t labels = 0;        ///< >= 2
    bool numeric_below_tld = true; ///< every label but the TLD is all digits
};

/// Section 4.3.1: `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum`,
/// at most 63 octets (RFC 1034). Non-ASCII bytes are let through here and
/// judged by IDNA afterwards. The bytes a label may hold:
constexpr bool is_label_byte(char c) noexcept { return is_alnum(c) || c == '-' || is_non_ascii(c); }
/// and its length and ends:
constexpr bool has_label_shape(std::string_view label) noexcept {
    return !label.empty() && label.size() <= 63 && label.front() != '-' && label.back() != '-';
}
bool is_domain_label(std::string_view label) noexcept {
    return has_label_shape(label) && std::all_of(label.begin(), label.end(), is_label_byte);
}

/// is_label_byte as a table, for check_hostname's one pass: 0 for a byte
/// no label holds, else label_byte and whether it is a digit or non-ASCII.
enum : std::uint8_t { label_byte = 1, label_digit = 2, label_non_ascii = 4 };
constexpr auto label_byte_classes = [] {
    std::array<std::uint8_t, 256> t{};
    for (unsigned b = 0; b < 256; ++b) {
        const auto c = static_cast<char>(b);
        if (!is_label_byte(c)) continue;
        t[b] = label_byte | (is_digit(c) ? label_digit : 0) | (is_non_ascii(c) ? label_non_ascii : 0);
    }
    return t;
}();

/// Checks `host` against Section 4.3.1 and the TLD table: at least two
/// labels, the rightmost not all digits and a known top-level domain.
/// IDN hosts go through UTS #46 (ICU) only when a non-ASCII byte is present.
std::optional<host_info> check_hostname(std::string_view host) {
    if (host.empty() || host.size() > 253) return std::nullopt;
    host_info info;
    std::uint8_t label_bytes = label_digit; // the classes every byte of the label read so far has
    std::uint8_t any_bytes = 0;             // the classes some byte of the host has
    // One pass: is_domain_label's test byte by byte, and the shape of each
    // label at its `.` or at the end.
    for (std::size_t start = 0, i = 0;; ++i) {
        if (i < host.size() && host[i] != '.') {
            const std::uint8_t k = label_byte_classes[static_cast<unsigned char>(host[i])];
            if (k == 0) return std::nullopt;
            label_bytes &= k;
            any_bytes |= k;
            continue;
        }
        const std::string_view label = host.substr(start, i - start);
        if (!has_label_shape(label)) return std::nullopt;
        if (info.labels == 0) info.first = label;
        info.second_last = info.tld;
        info.tld = label;
        ++info.labels;
        if (i == host.size()) break;
        if ((label_bytes & label_digit) == 0) info.numeric_below_tld = false;
        label_bytes = label_digit;
        start = i + 1;
    }
    // `label_bytes` is the TLD's now.
    if (info.labels < 2 || (label_bytes & label_digit) != 0) return std::nullopt;
    if ((any_bytes & label_non_ascii) == 0) {
        if (!is_alpha(info.tld.front()) || !detail::is_known_tld(info.tld)) return std::nullopt;
        return info;
    }
    // An IDN host: its A-label form must pass IDNA with the STD3 rules, and
    // the TLD is looked up as an A-label (which also folds non-ASCII case).
    const auto ace = detail::idna_to_ascii(host, true);
    if (!ace || ace->empty()) return std::nullopt;
    const std::string_view a(*ace);
    // UTS #46 maps the ideographic full stops (U+3002, U+FF0E, U+FF61) to
    // dots; a host that only IDNA splits there is prose, not a name.
    std::size_t ace_labels = 1;
    for (const char c : a)
        if (c == '.') ++ace_labels;
    if (ace_labels != info.labels) return std::nullopt;
    const std::size_t dot = a.rfind('.');
    if (!detail::is_known_tld(a.substr(dot + 1))) return std::nullopt;
    return info;
}

/// `port = *digit` (Section 4.3.1), here 1 to 5 digits naming 1..65535.
bool is_port(std::string_view s) noexcept {
    if (s.empty() || s.size() > 5 || !all_digits(s)) return false;
    unsigned value = 0;
    for (const char c : s) value = value * 10 + static_cast<unsigned>(c - '0');
    return value >= 1 && value <= 65535;
}

/// A token cut as `host [":" port] [rest]`, `rest` starting with `/ ? #`.
struct site_split {
    std::string_view host;
    std::string_view port; ///< without the colon; empty when absent
    std::string_view rest; ///< path, query, fragment as written
};

std::optional<site_split> split_site(std::string_view token) noexcept {
    site_split s;
    const std::size_t end = find_first_of_bytes(token, ":/?#");
    s.host = token.substr(0, end);
    if (end == std::string_view::npos) return s;
    std::string_view tail = token.substr(end);
    if (tail.front() == ':') {
        const std::size_t port_end = find_first_of_bytes(tail, "/?#");
        s.port = tail.substr(1, port_end == std::string_view::npos ? tail.npos : port_end - 1);
        if (!is_port(s.port)) return std::nullopt;
        tail = port_end == std::string_view::npos ? std::string_view{} : tail.substr(port_end);
    }
    s.rest = tail;
    return s;
}

// --- the context before the token -----------------------------------------

/// The text before the token, as evidence.
struct context {
    bool glued = false;          ///< the token continues a word or an expression
    std::string_view last_word;  ///< the word before, letters only
    std::string_view field;      ///< the `Name` of a `Name:` that starts the line, if any
    bool after_ampersand = false; ///< an `&` and blanks come before: `Barnes & Noble.com`
    bool line_start = true;      ///< the text before starts where its line does
};

/// Rule "context": after `$ @ % & _ . \ / - #`, a letter or a digit the
/// token is part of a larger one (`$self.name`, `foo_bar.com`, a hashtag or
/// a CSS id `#main.nav`); a word
/// before the token may announce an address ("visit", "see").
context read_context(text_before from) noexcept {
    const std::string_view before = from.text;
    context ctx;
    ctx.line_start = from.line_start;
    if (before.empty()) return ctx;
    ctx.field = lex::header_field_name(from);
    const char c = before.back();
    // A member after C's `->` or a name after C++'s `::` (`ic->core.im`).
    const char c0 = before.size() >= 2 ? before[before.size() - 2] : '\0';
    ctx.glued = is_alnum(c) || c == '$' || c == '@' || c == '%' || c == '&' || c == '_' || c == '.' ||
                c == '\\' || c == '/' || c == '-' || c == '#' || (c == '>' && c0 == '-') || (c == ':' && c0 == ':');
    std::size_t blanks = before.size();
    while (blanks > 0 && is_space(before[blanks - 1])) --blanks;
    ctx.after_ampersand = blanks > 0 && blanks < before.size() && before[blanks - 1] == '&';
    // Skip spaces and what may stand between a cue and the token:
    // "Website: example.com", "visit (example.com)", "see 'x.org'".
    std::size_t end = before.size();
    while (end > 0) {
        const char p = before[end - 1];
        if (is_space(p) || p == ':' || p == '(' || p == '[' || p == '"' || p == '\'' || p == '<' || p == '{')
            --end;
        else
            break;
    }
    std::size_t begin = end;
    while (begin > 0 && is_alpha(before[begin - 1])) --begin;
    if (begin == end) return ctx;  // no word before: nothing to cue
    // Letters right after a `/` or `:` end a URL or a path (`ws://ID`),
    // not a word of the sentence: they cue nothing, and normalizing the
    // URL must not change what they cue.
    if (begin > 0 && (before[begin - 1] == '/' || before[begin - 1] == ':')) return ctx;
    // Nor do letters anywhere in a URL, a path or a host name
    // (`http://e-id <x@y>`, `t.co/-ID <x@y>`, `t.co`ID:<x@y>`): `id` is no
    // Message-ID cue there, and would not be one once the rewriter has
    // completed (`http://t.co`) or normalized the URL.
    std::size_t token = begin;
    while (token > 0 && !is_space(before[token - 1])) --token;
    if (before.substr(token, begin - token).find_first_of("/.") != std::string_view::npos) return ctx;
    ctx.last_word = before.substr(begin, end - begin);
    return ctx;
}

// --- the kinds --------------------------------------------------------------

std::string_view http_scheme(const abbrev_options& options) noexcept {
    return options.https ? "https://" : "http://";
}

bool enabled(const abbrev_options& options, abbrev_kind kind) noexcept {
    return (options.kinds & static_cast<abbrev_set>(kind)) != 0;
}

/// The service a first label names (rule "prefix hosts"): `www`, `www2`,
/// `ftp`, `gopher`, `news`, `nntp`, `wais`.
std::optional<abbrev_kind> prefix_kind(std::string_view first) noexcept {
    if (first.size() >= 3 && iequals(first.substr(0, 3), "www") && (first.size() == 3 || all_digits(first.substr(3))))
        return abbrev_kind::www;
    if (iequals(first, "ftp")) return abbrev_kind::ftp;
    if (iequals(first, "gopher")) return abbrev_kind::gopher;
    if (iequals(first, "news") || iequals(first, "nntp")) return abbrev_kind::news;
    if (iequals(first, "wais")) return abbrev_kind::wais;
    return std::nullopt;
}

/// `group = ialpha [ "." group ]` (003_*.txt, NEWS): `comp.infosystems.www`.
bool is_newsgroup(std::string_view s) noexcept {
    if (s.empty() || s.front() == '.' || s.back() == '.') return false;
    char previous = '.';
    for (const char c : s) {
        if (c == '.' && previous == '.') return false;
        if (!is_alnum(c) && c != '.' && c != '-' && c != '+' && c != '_') return false;
        previous = c;
    }
    return true;
}

/// Rule "news": a `news.`/`nntp.` host names a news server. Its path decides
/// the scheme: none or a group or message-id -> news://host[/group] (RFC 5538
/// server form), group and article number -> nntp://host/group/n (003_*.txt
/// nntpaddress). Any other path is a web page: nullopt, and the domain rule
/// decides.
std::optional<std::string_view> news_scheme(std::string_view rest) noexcept {
    if (rest.empty() || rest == "/") return "news://";
    if (rest.front() != '/') return std::nullopt;
    std::string_view path = rest.substr(1);
    if (path.find('@') != std::string_view::npos && find_first_of_bytes(path, "/?#") == std::string_view::npos)
        return "news://";  // a message-id
    if (path.back() == '/') path.remove_suffix(1);
    const std::size_t slash = path.find('/');
    if (slash == std::string_view::npos) return is_newsgroup(path) ? std::optional<std::string_view>("news://") : std::nullopt;
    if (is_newsgroup(path.substr(0, slash)) && all_digits(path.substr(slash + 1))) return "nntp://";
    return std::nullopt;
}

/// A reverse-DNS name, of a package, an application or a D-Bus service,
/// starts with a TLD and ends in a word: `com.example.app`,
/// `com.google.android`, `org.freedesktop.DBus` (but `edu.google.com` and
/// `net.example.de` are hosts). `first` and `last` are its first and last
/// labels.
bool is_reverse_dns_name(std::string_view first, std::string_view last, std::size_t labels) noexcept {
    const bool root = iequals(first, "com") || iequals(first, "org") || iequals(first, "net") ||
                      iequals(first, "edu") || iequals(first, "gov") || iequals(first, "io");
    return labels >= 3 && root && !lex::is_core_tld(last) && last.size() != 2;
}

/// Rule "domain": is a host with a known TLD, and no service prefix, meant as
/// a web address? See docs/abbreviations.md for the table this implements.
bool domain_is_evident(const host_info& h, const site_split& s, const context& ctx) noexcept {
    // Hard rejections: code and version shapes that no context rescues.
    // Code does not read members named com, org, net, edu, gov or mil, so
    // `data.gov` stays a site while `self.name` and `logger.info` do not.
    const bool member_free_tld = lex::is_core_tld(h.tld) && !iequals(h.tld, "info") && !iequals(h.tld, "int") &&
                                 !iequals(h.tld, "biz");
    if (lex::is_code_receiver(h.first) && !member_free_tld) return false;  // self.name, os.path
    if (lex::is_file_stem(h.first)) return false;                              // README.dev, BUILD.gn
    if (is_reverse_dns_name(h.first, h.tld, h.labels)) return false;
    if (h.numeric_below_tld) return false;                                        // 2.0.io, 3.am
    // A name after `&` ends a company's name (`Barnes & Noble.com`), whose
    // site is another: two labels, the first a proper name, nothing after.
    if (ctx.after_ampersand && h.labels == 2 && is_upper(h.first.front()) && s.port.empty() && s.rest.empty())
        return false;
    // RFC 3172: `.arpa` holds the zones of the DNS's own machinery
    // (in-addr.arpa, ip6.arpa), no site; so did `ip6.int` for IPv6
    // until RFC 3152 moved it (resolver(3), RES_NOIP6DOTINT).
    if (iequals(h.tld, "arpa")) return false;
    if (h.labels == 2 && iequals(h.first, "ip6") && iequals(h.tld, "int")) return false;
    // "et al." with its space left out (`xstrdup() et.al.`): Latin for "and
    // others", not a name under Albania's TLD.
    if (h.labels == 2 && iequals(h.first, "et") && iequals(h.tld, "al") && s.port.empty() && s.rest.empty())
        return false;

    const std::string_view tld = h.tld;
    const bool has_path = !s.rest.empty() && s.rest.front() == '/';
    // Code and patterns after the name: a call (`test-lib.sh/test_decode_color()`,
    // `s.next/previous()`) or a glob (`debhelper.in/*install*`).
    if (has_path && (s.rest.ends_with("()") || s.rest.find('*') != std::string_view::npos)) return false;
    const bool long_path = has_path && s.rest.size() > 1;
    const bool has_port = !s.port.empty();
    const bool has_query_or_fragment = !s.rest.empty() && !has_path;
    const bool registry_name = h.labels >= 3 && lex::is_generic_sld(h.second_last);  // bbc.co.uk
    const lex::cue cue = lex::cue_strength(ctx.last_word);
    const bool first_lower = !has_upper(h.first);

    // A TLD in mixed case is a missing space between sentences: `done.It`.
    if (has_upper(tld) && has_lower(tld) && !long_path) return false;

    if (lex::is_file_extension_tld(tld)) {
        // README.md, setup.py, main.rs:10, index.md#usage: only a registry
        // name, a real path under a lower-case name, or a strong cue will do.
        if (registry_name) return true;
        if (long_path && first_lower) return true;
        return h.labels == 2 && cue == lex::cue::strong && first_lower && !has_port && !has_query_or_fragment;
    }
    if (has_port || has_query_or_fragment) return true;
    if (has_path) return !lex::is_word_tld(tld) || has_alpha(s.rest) || s.rest == "/";  // not x.id/2
    // A TLD in capitals after a name in lower case is a constant in code
    // (`polkit.Result.NO`, `Color.RED`); a host in capitals is all capitals
    // (GOOGLE.COM).
    if (has_upper(tld) && has_lower(h.first)) return false;
    if (h.labels >= 3) return true;
    if (lex::is_word_tld(tld)) return cue == lex::cue::strong;  // user.email, about.me, it.is
    if (cue != lex::cue::none) return true;

    // A bare two-label name with a TLD that stands on its own.
    if (has_upper(tld)) {
        // GOOGLE.COM yes; ASP.NET, ADO.NET, VB.NET are Microsoft's frameworks.
        // Beside another TLD, capitals name a register's flag (`RFLAGS.CF`,
        // `CR0.PG`) or a file (`COPYING.LIB`) as often as a site.
        if (!lex::is_core_tld(tld)) return false;
        if (iequals(tld, "net") && h.first.size() <= 3) return false;
        return true;
    }
    // camelCase before a newer TLD reads as code: `myApp.club`.
    if (!first_lower && !lex::is_core_tld(tld)) {
        for (std::size_t i = 1; i < h.first.size(); ++i)
            if (is_upper(h.first[i]) && is_lower(h.first[i - 1])) return false;
    }
    return true;
}

/// RFC 5322 `dot-atom-text` (and UTF-8, RFC 6531): atoms of atext joined
/// by single dots.
bool is_dot_atom(std::string_view s) noexcept {
    constexpr std::string_view specials = "!#$%&'*+-/=?^_`{|}~";
    if (s.empty() || s.size() > 64 || s.front() == '.' || s.back() == '.') return false;
    char previous = 0;
    for (const char c : s) {
        if (c == '.' && previous == '.') return false;
        if (!is_alnum(c) && c != '.' && !is_non_ascii(c) && specials.find(c) == std::string_view::npos) return false;
        previous = c;
    }
    return true;
}

/// Rule "email": `local@host.tld`, the host a hostname with a known TLD.
std::optional<abbrev_completion> complete_email(std::string_view token, const context& ctx) {
    const std::size_t at = token.find('@');
    if (at == std::string_view::npos || token.find('@', at + 1) != std::string_view::npos) return std::nullopt;
    if (!is_dot_atom(token.substr(0, at))) return std::nullopt;
    if (!check_hostname(token.substr(at + 1))) return std::nullopt;
    if (lex::is_ssh_name_domain(token.substr(at + 1))) return std::nullopt;
    // `ssh root@example.org` logs in; it does not write mail.
    if (lex::is_login_command(ctx.last_word)) return std::nullopt;
    return abbrev_completion{"mailto:", abbrev_kind::email};
}

constexpr bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

/// The number of `msg-id`s in `s` when it holds nothing but whole
/// `<...@...>` separated by blanks (RFC 5322 3.6.4 separates them with
/// blanks alone, where an address list needs commas), and the token's own
/// `<` at the end when the scanner passed the token as a bare word; else -1.
int count_message_ids(std::string_view s) noexcept {
    if (s.ends_with('<')) s.remove_suffix(1);
    int ids = 0;
    std::size_t i = 0;
    while (true) {
        while (i < s.size() && is_blank(s[i])) ++i;
        if (i == s.size()) return ids;
        if (s[i] != '<') return -1;
        const std::size_t gt = s.find('>', i);
        if (gt == std::string_view::npos) return -1;
        const std::string_view id = s.substr(i + 1, gt - i - 1);
        if (id.find('@') == std::string_view::npos || id.find_first_of(" \t<,") != std::string_view::npos) return -1;
        ++ids;
        i = gt + 1;
        if (i < s.size() && !is_blank(s[i])) return -1;
    }
}

/// Rule "email": the token is a `msg-id` of a `Message-ID`, `In-Reply-To`,
/// `References` or `Content-ID` field. `before` is the text before it on
/// its line, of which the scanner passes only the end:
///
///     References: <a1@x.example.org> |<token>       the field name, then ids
///     ...830.aa12345@host.example.com> <b2@x.example.org> |<token>
///     |<- tail of an id ------------->|<- whole ids ---->|
///     <TAB><c1@x.example.org> |<token>                 a folded line
///
/// A field name (in any case, after a mail quote prefix or indentation) and
/// its colon; or the tail of an identifier (an `@`, no blank, no `/`, up to
/// `>`); or a blank and at least one whole identifier. Then nothing but
/// identifiers and blanks. In the end of a long line that such a field
/// starts, a blank and no identifier will do too.
bool is_message_id(std::string_view before, const context& ctx) noexcept {
    const bool in_field = lex::is_identifier_header(ctx.field);
    if (in_field && ctx.line_start) {
        const std::size_t colon = before.find(':', static_cast<std::size_t>(ctx.field.data() - before.data()));
        return count_message_ids(before.substr(colon + 1)) >= 0;
    }
    if (before.empty()) return false;
    if (is_blank(before.front())) return count_message_ids(before) >= (in_field ? 0 : 1);
    const std::size_t gt = before.find('>');
    if (gt == std::string_view::npos || before.front() == '<') return false;
    const std::string_view tail = before.substr(0, gt);
    if (tail.find('@') == std::string_view::npos || tail.find_first_of(" \t</,") != std::string_view::npos)
        return false;
    const std::string_view rest = before.substr(gt + 1);
    return !rest.empty() && is_blank(rest.front()) && count_message_ids(rest) >= 0;
}

/// A CIDR suffix (`10.0.0.0/8`) is a network, not a path.
bool is_prefix_length(std::string_view rest) noexcept {
    return rest.size() >= 2 && rest.size() <= 3 && rest.front() == '/' && all_digits(rest.substr(1));
}

}  // namespace

std::optional<abbrev_set> parse_abbrev_list(std::string_view list) {
    list = trim_space(list);
    if (list == "all") return abbrev_all;
    if (list == "none") return abbrev_none;
    if (list.empty()) return std::nullopt;
    abbrev_set set = abbrev_none;
    while (true) {
        const std::size_t comma = list.find(',');
        const std::string_view name = trim_space(list.substr(0, comma));
        bool known = false;
        if (name == "all") {
            set = abbrev_all;
            known = true;
        }
        for (abbrev_set bit = 1; bit != 0 && bit <= abbrev_all && !known; bit = static_cast<abbrev_set>(bit << 1)) {
            if (name == to_string(static_cast<abbrev_kind>(bit))) {
                set = static_cast<abbrev_set>(set | bit);
                known = true;
            }
        }
        if (!known && name == "nntp") {  // the other news scheme names the same kind
            set = static_cast<abbrev_set>(set | static_cast<abbrev_set>(abbrev_kind::news));
            known = true;
        }
        if (!known) return std::nullopt;
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return set;
}

std::string_view to_string(abbrev_kind kind) noexcept {
    switch (kind) {
        case abbrev_kind::www: return "www";
        case abbrev_kind::ftp: return "ftp";
        case abbrev_kind::gopher: return "gopher";
        case abbrev_kind::news: return "news";
        case abbrev_kind::wais: return "wais";
        case abbrev_kind::domain: return "domain";
        case abbrev_kind::email: return "email";
        case abbrev_kind::ipv4: return "ipv4";
    }
    return {};
}

bool may_complete_host(std::string_view host) noexcept {
    // Section 4.3.1 and rule "domain": two labels at least, the last a known
    // top-level domain (which starts with a letter); rule "ipv4" for quads.
    const auto dot = host.rfind('.');
    if (dot == std::string_view::npos || dot + 1 == host.size()) return false;
    if (is_digit(host.front()) && is_ipv4(host)) return true;
    const std::string_view tld = host.substr(dot + 1);
    return is_alpha(tld.front()) && detail::is_known_tld(tld);
}

namespace {

/// The words that open the clauses of a `Received:` field (RFC 5321
/// 4.4), which start its folded lines: `<TAB>by mx.example.org with ESMTP`.
bool is_trace_clause(std::string_view word) noexcept {
    return iequals(word, "by") || iequals(word, "from") || iequals(word, "with") || iequals(word, "for") ||
           iequals(word, "id") || iequals(word, "via");
}

/// Whether the token is on a mail trace header line: after `Received:`,
/// `Reporting-MTA:` and the like, or first after a clause word on an
/// indented line (a folded `Received:` field): its host names are relays.
bool on_trace_line(std::string_view before, const context& ctx) noexcept {
    if (lex::is_trace_header(ctx.field)) return true;
    // The clause word is asked first: most tokens follow none.
    if (!ctx.line_start || !is_trace_clause(ctx.last_word)) return false;
    // A trace field quoted in a reply (`> from relay.example.org [192.0.2.1]`)
    // is one still: the quote marks stand for its indentation.
    const std::size_t quoted = before.find_first_not_of("> \t");
    if (quoted != std::string_view::npos && quoted > 0 && before.front() == '>') before.remove_prefix(quoted - 1);
    if (before.empty() || !(is_blank(before.front()) || before.front() == '>')) return false;
    std::string_view rest = trim_space(before.front() == '>' ? before.substr(1) : before);
    if (rest.ends_with('<')) rest = trim_space(rest.substr(0, rest.size() - 1));
    return rest.size() == ctx.last_word.size();
}

/// Whether `before` is the start of a line of a hosts table (hosts(5)):
/// an IPv4 or IPv6 address, then names separated by blanks. The names are
/// hosts on a network, not sites.
bool on_hosts_table_line(std::string_view before, const context& ctx) noexcept {
    if (!ctx.line_start) return false;
    std::size_t i = 0;
    while (i < before.size() && is_blank(before[i])) ++i;
    // The address below is made of hex digits, `:` and `.` (a quad's
    // digits among them): most lines start with something else.
    if (i == before.size() || (detail::hex_value(before[i]) < 0 && before[i] != ':' && before[i] != '.')) return false;
    std::size_t j = i;
    while (j < before.size() && !is_blank(before[j])) ++j;
    const std::string_view address = before.substr(i, j - i);
    const bool ipv6 = std::count(address.begin(), address.end(), ':') >= 2 &&
                      std::all_of(address.begin(), address.end(),
                                  [](char c) { return detail::hex_value(c) >= 0 || c == ':' || c == '.'; });
    if (address.empty() || !(ipv6 || (is_digit(address.front()) && is_ipv4(address)))) return false;
    if (j == before.size() || !is_blank(before[j])) return false;
    // The names before this one: letters, digits, `.-_`.
    for (; j < before.size(); ++j) {
        const char c = before[j];
        if (!is_blank(c) && !is_alnum(c) && c != '.' && c != '-' && c != '_') return false;
    }
    return true;
}

/// Whether no reading of the word `local` is an abbreviated URL, nor part
/// of one: ASCII letters, digits and `_+-` in dot-separated labels, none a
/// service prefix (`www`) and none after the first a known top-level
/// domain. What no rule completes, no rewrite changes.
bool no_site_in(std::string_view local) noexcept {
    bool first = true;
    while (true) {
        const std::size_t dot = local.find('.');
        const std::string_view label = local.substr(0, dot);
        if (label.empty()) return false;
        for (const char c : label)
            if (!is_alnum(c) && c != '_' && c != '+' && c != '-') return false;
        if (prefix_kind(label)) return false;
        if (!first && is_alpha(label.front()) && detail::is_known_tld(label)) return false;
        if (dot == std::string_view::npos) return true;
        local.remove_prefix(dot + 1);
        first = false;
    }
}

/// `jdoe at example.com`, `<j.doe at example.org>`: an address written so
/// that harvesters miss it. The host is the mailbox's, not a site.
///
/// The verdict must not change when the text is rewritten, or a second
/// pass would complete the host the first left alone. So the local part is
/// one no rule completes (`www.example.org/a at host.example.net` is a site
/// and a host); and no URL broken across lines goes on onto a word that
/// `at` follows (continuation.hpp), so no join changes it either.
bool is_spelled_out_address(std::string_view before, const context& ctx) noexcept {
    std::size_t end = before.size();
    while (end > 0 && is_space(before[end - 1])) --end;
    // `at` as a word, or in brackets: `(at)`, `<at>`, `[at]`, `{at}`, or
    // between dashes, `-at-`, which only an address spelled out has
    // (`sysstat <at> orange.fr`, `kju -at- fqdn.org`).
    // `at` a word of its own: in `s-at` it is the end of another.
    const bool word_at = iequals(ctx.last_word, "at") && [&] {
        const auto from = static_cast<std::size_t>(ctx.last_word.data() - before.data());
        return from == 0 ? ctx.line_start : is_space(before[from - 1]);
    }();
    constexpr std::string_view openers = "(<[{-", closers = ")>]}-";
    const std::size_t opener = end >= 4 ? openers.find(before[end - 4]) : std::string_view::npos;
    const bool bracketed_at = !word_at && opener != std::string_view::npos &&
                              iequals(before.substr(end - 3, 2), "at") && before[end - 1] == closers[opener];
    if (!word_at && !bracketed_at) return false;
    end -= word_at ? 2 : 4;
    while (end > 0 && is_space(before[end - 1])) --end;
    std::size_t begin = end;
    while (begin > 0 && !is_space(before[begin - 1]) && before[begin - 1] != '<' && before[begin - 1] != '(') --begin;
    const std::string_view local = before.substr(begin, end - begin);
    if (local.empty() || !is_dot_atom(local) || !no_site_in(local)) return false;
    // `before` starts where a line or a word does (complete_abbreviated),
    // or is all one word: then only `(at)` and its kind come this far.
    const bool bracketed = begin > 0 && (before[begin - 1] == '<' || before[begin - 1] == '(');
    return bracketed || bracketed_at || local.find_first_of("._-0123456789") != std::string_view::npos;
}

/// Whether `before` ends with the words `In message` (any case) and what
/// brackets the token: the start of an attribution line.
bool in_message_attribution(std::string_view before) noexcept {
    std::string_view rest = trim_space(before);
    if (rest.ends_with('<')) rest = trim_space(rest.substr(0, rest.size() - 1));
    if (!detail::ends_with_nocase(rest, "message")) return false;
    rest = trim_space(rest.substr(0, rest.size() - 7));
    return detail::ends_with_nocase(rest, "in") && (rest.size() == 2 || is_blank(rest[rest.size() - 3]));
}

/// complete_abbreviated without the rule that holds for every kind.
std::optional<abbrev_completion> complete_by_kind(std::string_view token, std::string_view before, const context& ctx,
                                                  const abbrev_options& options) {
    if (ctx.glued) return std::nullopt;
    // An `@` before the path makes a mail address or nothing.
    const std::size_t at = token.find('@');
    const bool address = at != std::string_view::npos && at < find_first_of_bytes(token, "/?#");
    // RFC 5321 4.4: the `for` clause of a trace field names the recipient's
    // mailbox; every other name on the line is a relay.
    const bool recipient = address && iequals(ctx.last_word, "for");
    const auto on_relay_line = [&] { return !recipient && (on_trace_line(before, ctx) || on_hosts_table_line(before, ctx)); };

    if (address) {
        if (on_relay_line()) return std::nullopt;
        if (!enabled(options, abbrev_kind::email)) return std::nullopt;
        // `~a@example.org`: the scanner took the `~` for punctuation, but it
        // is atext of the local part; what is left names another mailbox.
        if (before.ends_with('~')) return std::nullopt;
        // Message-ID, In-Reply-To, References, Content-ID hold identifiers
        // shaped like addresses (RFC 5322 3.6.4): no one is to be mailed.
        // An attribution names the message replied to: `In message
        // <20070115.l0FC@corp.example.com> you wrote:` (nmh's and exmh's).
        if (is_message_id(before, ctx) || iequals(ctx.last_word, "id") || in_message_attribution(before))
            return std::nullopt;
        return complete_email(token, ctx);
    }

    // The token's own shape first: most dotted words name no host, and
    // that is quicker to see than what the line they are on is.
    const auto site = split_site(token);
    if (!site || site->host.empty()) return std::nullopt;
    const bool quad = is_digit(site->host.front()) && is_ipv4(site->host);
    const auto host = quad ? std::nullopt : check_hostname(site->host);
    if (!quad && !host) return std::nullopt;

    if (on_relay_line()) return std::nullopt;
    // `List-Id: Debian devel <debian-devel.lists.debian.org>`: a name, not a site.
    if (lex::is_identifier_header(ctx.field)) return std::nullopt;

    if (quad) {
        // Rule "ipv4": only with a port or a path; a bare quad is as often a
        // version number or a log field, and `/8` is a CIDR prefix length.
        if (!enabled(options, abbrev_kind::ipv4)) return std::nullopt;
        if (site->port.empty() && (site->rest.empty() || is_prefix_length(site->rest))) return std::nullopt;
        return abbrev_completion{http_scheme(options), abbrev_kind::ipv4};
    }

    // Rule "prefix hosts": `www.`, `ftp.`, ... name their service when a
    // registered name follows (`news.com` is a web site, `news.example.org`
    // a news server). Such a host belongs to its kind alone.
    if (host->labels >= 3) {
        if (const auto kind = prefix_kind(host->first)) {
            if (!enabled(options, *kind)) return std::nullopt;
            switch (*kind) {
                case abbrev_kind::www: return abbrev_completion{http_scheme(options), *kind};
                case abbrev_kind::ftp: return abbrev_completion{"ftp://", *kind};
                case abbrev_kind::gopher: return abbrev_completion{"gopher://", *kind};
                case abbrev_kind::wais: return abbrev_completion{"wais://", *kind};
                case abbrev_kind::news:
                    if (const auto scheme = news_scheme(site->rest)) return abbrev_completion{*scheme, *kind};
                    break;  // a web page on a news site: the domain rule decides
                default: break;
            }
        }
    }

    if (!enabled(options, abbrev_kind::domain)) return std::nullopt;
    if (is_spelled_out_address(before, ctx)) return std::nullopt;
    // A DejaGnu log names each test's file after its result:
    // `PASS: gdb.tui/basic.exp: set pagination off` (gdb's check.log).
    if (lex::is_test_result(ctx.field)) return std::nullopt;
    // `irc.libera.chat`, `keys.openpgp.org`, `smtp.example.org`: a host
    // named for a service that is not the web, which `http://` would not reach.
    if (host->labels >= 3 && lex::is_non_web_service(host->first) && lex::cue_strength(ctx.last_word) != lex::cue::strong)
        return std::nullopt;
    if (!domain_is_evident(*host, *site, ctx)) return std::nullopt;
    return abbrev_completion{http_scheme(options), abbrev_kind::domain};
}

}  // namespace

std::optional<abbrev_completion> abbreviated_completion(std::string_view token, text_before before,
                                                       const abbrev_options& options) {
    if (options.kinds == abbrev_none || token.empty() || token.size() > 2048) return std::nullopt;
    const context ctx = read_context(before);
    auto match = complete_by_kind(token, before.text, ctx, options);
    // Rule "templates": "in the form keyname@domain.example.com" shows a
    // shape, whatever its kind (asked of a match only: most tokens are none).
    if (match && lex::is_template_cue(ctx.last_word)) return std::nullopt;
    return match;
}

std::optional<abbrev_match> complete_abbreviated(std::string_view token, std::string_view before,
                                                 const abbrev_options& options) {
    const auto c = abbreviated_completion(token, text_before{before}, options);
    if (!c) return std::nullopt;
    abbrev_match m{std::string(), c->kind};
    m.url.reserve(c->scheme.size() + token.size());
    m.url.append(c->scheme).append(token);
    return m;
}

// --- angle brackets ---------------------------------------------------------

namespace {

/// XML `Name` restricted to ASCII: a letter, then letters, digits, `-_.:`.
std::size_t xml_name_length(std::string_view s) noexcept {
    if (s.empty() || !is_alpha(s.front())) return 0;
    std::size_t n = 1;
    while (n < s.size() && (is_alnum(s[n]) || s[n] == '-' || s[n] == '_' || s[n] == '.' || s[n] == ':')) ++n;
    return n;
}

/// An element name written as HTML writes it: all lower or all upper case
/// (`<Enter>` and `<Tab>` are keys, `<b>` and `<TD>` are tags).
bool is_html_tag_name(std::string_view name) noexcept {
    return lex::is_html_element(name) && !(has_upper(name) && has_lower(name));
}

/// A scheme the scanner takes in running text (a registered one, or any
/// name followed by `//`: `Note: this` in brackets is prose, `c:\x` a
/// drive, `std::map` C++), or the `URL:` prefix of Appendix E.
bool starts_with_scheme(std::string_view s) noexcept {
    if (detail::starts_with_url_prefix(s)) return true;
    std::size_t i = 0;
    while (i < s.size() && i <= detail::max_scheme_length && detail::is_scheme_char(static_cast<unsigned char>(s[i])))
        ++i;
    return i < s.size() && s[i] == ':' &&
           detail::classify_scheme(s.substr(0, i), s.substr(i + 1, 2)) != detail::scheme_kind::none;
}

/// A C or C++ header named as `#include` names it: `stdio.h`, `sys/types.h`,
/// `boost/asio.hpp`; or a name under a directory of system headers, which
/// writers give without its suffix or with another one (`sys/types`,
/// `X11/XCB`, `rpcsvc/yppasswd.x`), or under AppArmor's, whose profiles
/// `#include <abstractions/base>` as C does.
bool is_header_name(std::string_view s) noexcept {
    static constexpr std::string_view suffixes[] = {".h", ".hh", ".hpp", ".hxx", ".h++", ".tcc", ".inl"};
    if (std::any_of(std::begin(suffixes), std::end(suffixes),
                    [s](std::string_view x) { return s.size() > x.size() && detail::ends_with_nocase(s, x); }))
        return true;
    static constexpr std::string_view include_dirs[] = {"abstractions/", "asm/",   "bits/",     "boost/",
                                                        "linux/",        "netinet/", "rpcsvc/", "sys/",
                                                        "tunables/",     "X11/"};
    return std::any_of(std::begin(include_dirs), std::end(include_dirs),
                       [s](std::string_view d) { return s.size() > d.size() && s.starts_with(d); });
}

/// Rule "angle code": what a program's text puts in angle brackets. A drive
/// letter (`c:\\Program Files`, `C:/x`); a header name; characters Section
/// 2.4.3 calls unwise, which no reference holds as they are (`1..2^16-1`,
/// `a|b`, `{x}`); a range (`0..255`). Never content that starts with a scheme.
bool is_code(std::string_view s) noexcept {
    if (starts_with_scheme(s)) return false;
    if (s.size() >= 2 && is_alpha(s[0]) && s[1] == ':' && (s.size() == 2 || s[2] == '\\' || s[2] == '/')) return true;
    if (is_header_name(s)) return true;
    if (find_first_of_bytes(s, "\\^{}|`[]") != std::string_view::npos) return true;
    // A date, a fraction or a number (`<2002/01/16>`, `<1/2>`, the seconds
    // strace gives a call, `<0.000399>`, a version `<1.2.3>`; an IPv4
    // address names a host), and an address with two `@`
    // (`<mtk@manpages@gmail.com>`).
    if (is_digit(s.front()) && find_first_of_bytes(s, "/-.") != std::string_view::npos &&
        std::all_of(s.begin(), s.end(), [](char c) { return is_digit(c) || c == '/' || c == '-' || c == '.'; }) &&
        !is_ipv4(s))
        return true;
    // A glob (`<*.txt>`, `<src/**/*.c>`) or a name in emphasis marks
    // (`</**WARNING**>`): no file anybody links to has a `*` in its name.
    if (s.find('*') != std::string_view::npos) return true;
    if (std::count(s.begin(), s.end(), '@') > 1) return true;
    // An address spelled out to keep it from harvesters, in a ChangeLog's
    // author line (`<mathias.baumann_at_sociomantic.com>`).
    if (s.find("_at_") != std::string_view::npos && s.find('/') == std::string_view::npos) return true;
    for (std::size_t dots = s.find(".."); dots != std::string_view::npos; dots = s.find("..", dots + 1))
        if (dots > 0 && dots + 2 < s.size() && is_alnum(s[dots - 1]) && is_alnum(s[dots + 2])) return true;
    return false;
}

/// Whether `content` has blanks a writer put on one line: between words
/// (`std::string, int`) or at its end (`tmp.pack ` before a shell's `>`).
/// Appendix E joins only the blanks of a URL broken across lines.
bool has_blank_on_one_line(std::string_view content) noexcept {
    std::size_t start = 0;
    while (start < content.size() && is_white(content[start])) ++start;
    if (start == content.size()) return false;
    bool blank = false, line_break = false;
    for (const char c : content.substr(start)) {
        if (is_white(c)) {
            blank = true;
            line_break = line_break || c == '\n';
        } else {
            if (blank && !line_break) return true;
            blank = line_break = false;
        }
    }
    return blank && !line_break;
}

/// Rule "angle markup": comments, declarations, processing instructions,
/// closing tags, tags with attributes, self-closed void elements, and bare
/// element names.
bool is_markup(std::string_view s) noexcept {
    const char c = s.front();
    if (c == '!' || c == '%') return true;  // <!-- -->, <!DOCTYPE html>, <![CDATA[, <% %>
    // <?xml ...?>, and the declarations writers name without the closing
    // `?` (`the <?xml> directive`, `<?php`); not Appendix C's <?y>.
    if (c == '?') {
        if (s.size() >= 3 && is_alpha(s[1]) && s.back() == '?') return true;
        for (const std::string_view target : {"xml", "php"})
            if (detail::starts_with_nocase(s.substr(1), target) &&
                (s.size() == 1 + target.size() || is_space(s[1 + target.size()])))
                return true;
        return false;
    }
    if (c == '/') {
        // `</>` is SGML's empty end tag.
        const std::string_view name = trim_space(s.substr(1));
        return name.empty() || (xml_name_length(name) == name.size() && name.find('.') == std::string_view::npos);
    }
    const std::size_t n = xml_name_length(s);
    if (n == 0) return false;
    const std::string_view name = s.substr(0, n);
    const std::string_view rest = s.substr(n);
    if (rest.empty()) return is_html_tag_name(name);
    // An empty element: `<br/>`, `<p/>`, `<allow_anonymous/>`. A directory
    // in brackets has a dot or a second segment (`<docs/intro/>`).
    if (rest == "/") return name.find('.') == std::string_view::npos;
    if (!is_space(rest.front())) return false;
    // `a href="..."`, `img src=x /`, `td nowrap`: a tag with attributes.
    const std::string_view attrs = trim_space(rest);
    if (is_html_tag_name(name)) return true;
    if (attrs == "/") return true;  // <foo />
    const std::size_t attr = xml_name_length(attrs);
    return attr > 0 && attr < attrs.size() && attrs[attr] == '=';
}

/// Rule "angle address": `local@domain` as RFC 5322 writes it in a mailbox
/// (`Roy Fielding <fielding@ics.uci.edu>`), a Message-ID included. The
/// domain may be a single label or a literal: no TLD is needed here.
bool is_mail_address(std::string_view s) noexcept {
    const std::size_t at = s.rfind('@');
    if (at == std::string_view::npos || at == 0) return false;
    if (!is_dot_atom(s.substr(0, at))) return false;
    const std::string_view domain = s.substr(at + 1);
    if (domain.size() >= 3 && domain.front() == '[' && domain.back() == ']') return true;
    if (domain.empty() || domain.size() > 253) return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = domain.find('.', start);
        if (!is_domain_label(domain.substr(start, dot == std::string_view::npos ? domain.npos : dot - start)))
            return false;
        if (dot == std::string_view::npos) return true;
        start = dot + 1;
    }
}

/// Whether `s` is labels of letters, digits, `-` and `_` joined by single
/// dots: a name, without a path, port, query or fragment.
bool is_dotted_name(std::string_view s) noexcept {
    if (s.empty() || s.front() == '.' || s.back() == '.' || s.find("..") != std::string_view::npos) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return is_alnum(c) || c == '.' || c == '-' || c == '_'; });
}

/// Whether a segment of the path `s` is three dots or more: an ellipsis
/// for the names left out (`<X11/...>`, `<docs/.../api/>`). Section 3.3
/// gives `.` and `..` a meaning; `...` is no name anybody links to.
bool has_ellipsis_segment(std::string_view s) noexcept {
    for (std::size_t at = 0; at <= s.size();) {
        const std::size_t end = std::min(s.find('/', at), s.size());
        if (end - at >= 3 && s.substr(at, end - at).find_first_not_of('.') == std::string_view::npos) return true;
        at = end + 1;
    }
    return false;
}

/// Rule "angle reference": the shape of a URL reference (Section 5).
/// `content` is `s` with the blanks around it.
bool is_reference_shape(std::string_view content, std::string_view s) noexcept {
    if (starts_with_scheme(s)) return true;
    // An ellipsis, a media type, an address spelled out, a member in code.
    if (detail::is_non_reference(s)) return false;
    if (has_blank_on_one_line(content) || has_ellipsis_segment(s)) return false;
    // A reverse-DNS name names a service or a package, no file to resolve
    // (`<org.freedesktop.DBus>`, `<com.example.app>`).
    if (is_dotted_name(s)) {
        const std::size_t first_dot = s.find('.'), last_dot = s.rfind('.');
        if (is_reverse_dns_name(s.substr(0, first_dot), s.substr(last_dot + 1),
                                static_cast<std::size_t>(std::count(s.begin(), s.end(), '.')) + 1))
            return false;
    }
    // An `@` before any `/`: an address written wrong or cut
    // (`<kylev@users.sourceforge.>`) or an scp target
    // (`<git@github.com:x/y.git>`), not a path to resolve.
    if (const std::size_t at = s.find('@'); at != std::string_view::npos && at < std::min(s.find('/'), s.size()))
        return false;
    // A lone `#` or `?` holds the place of a number or a word
    // (`mpn_mul.<#>`): a reference to nothing but the document itself.
    const char c = s.front();
    if (c == '/' || ((c == '?' || c == '#') && s.size() > 1)) return true;
    if (s == "." || s == ".." || s.starts_with("./") || s.starts_with("../")) return true;
    for (const char x : s)
        if (is_space(x)) return false;
    if (s.find('/') != std::string_view::npos) return true;  // a path: www.w3.org/Addressing/
    // One segment with a parameter, query, fragment or a dotted name:
    // g;x, g?y, g#s (Appendix C), index.html, www.w3.org.
    for (std::size_t i = 1; i < s.size(); ++i) {
        if (s[i] == ';' || s[i] == '?' || s[i] == '#') return true;
        if (s[i] == '.' && i + 1 < s.size() && is_alnum(s[i + 1])) return true;
    }
    return false;
}

}  // namespace

angle_content classify_angle(std::string_view content) {
    // Precedence (docs/abbreviations.md): empty, markup, address, code,
    // reference, placeholder. Markup comes first because a tag may hold a URL in an
    // attribute (`<a href="http://...">`); an address before the reference
    // shapes because `fielding@ics.uci.edu` has a dot but is no path.
    const std::string_view s = trim_space(content);
    if (s.empty()) return angle_content::empty;
    if (is_markup(s)) return angle_content::markup;
    if (is_mail_address(s)) return angle_content::address;
    if (is_code(s)) return angle_content::code;
    if (is_reference_shape(content, s)) return angle_content::reference;
    return angle_content::placeholder;
}

}  // namespace urlsift
