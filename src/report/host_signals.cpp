// What a host name tells a batch report about the site it names: its
// registrable domain, and three security signals (an IP address instead of
// a name, an IDNA A-label, and a label ICU's spoof checker finds deceptive).

#include <urlsift/report.hpp>

#include "abbrev/lexicon.hpp"
#include "abbrev/tld_table.hpp"

#include <unicode/uidna.h>
#include <unicode/uspoof.h>

#include <algorithm>
#include <memory>
#include <string>

namespace urlsift {

namespace {

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

bool is_hex_digit(char c) noexcept {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// The URL Standard's "ends in a number" test for one label: all decimal
/// digits, or `0x`/`0X` and hex digits (possibly none: `0x` is zero).
bool is_number_label(std::string_view label) noexcept {
    if (label.empty()) return false;
    if (label.size() >= 2 && label[0] == '0' && (label[1] == 'x' || label[1] == 'X')) {
        for (std::size_t i = 2; i < label.size(); ++i)
            if (!is_hex_digit(label[i])) return false;
        return true;
    }
    for (const char c : label)
        if (!is_digit(c)) return false;
    return true;
}

/// `host` without one trailing dot: `example.org.` is the fully qualified
/// spelling of `example.org` (RFC 1034 section 3.1).
std::string_view without_root(std::string_view host) noexcept {
    if (!host.empty() && host.back() == '.') host.remove_suffix(1);
    return host;
}

}  // namespace

bool is_ip_host(std::string_view host) noexcept {
    if (!host.empty() && host.front() == '[') return true;  // RFC 3986 section 3.2.2: IP-literal
    // URL Standard, host parsing: a domain whose last label is a number is
    // parsed as IPv4 (decimal, octal or hex parts), so `http://0x7f.1/` and
    // `http://3232235521/` reach an address, not a name.
    host = without_root(host);
    const auto dot = host.rfind('.');
    return is_number_label(dot == std::string_view::npos ? host : host.substr(dot + 1));
}

bool is_punycode_host(std::string_view host) noexcept {
    // RFC 5890 section 2.3.2.1: the ACE prefix, compared case-insensitively.
    for (std::size_t start = 0; start < host.size();) {
        const std::size_t end = std::min(host.find('.', start), host.size());
        const std::string_view label = host.substr(start, end - start);
        if (label.size() >= 4 && (label[0] | 0x20) == 'x' && (label[1] | 0x20) == 'n' && label[2] == '-' &&
            label[3] == '-')
            return true;
        start = end + 1;
    }
    return false;
}

namespace {

/// `label` in Unicode: an A-label decoded (UTS 46, nontransitional), any
/// other label as it is. Empty when an A-label does not decode.
std::string unicode_label(std::string_view label) {
    if (!is_punycode_host(label)) return std::string(label);
    UErrorCode status = U_ZERO_ERROR;
    static UIDNA* const idna = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_UNICODE, &status);
    if (idna == nullptr) return {};
    status = U_ZERO_ERROR;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    char buf[256];
    const int32_t n = uidna_labelToUnicodeUTF8(idna, label.data(), static_cast<int32_t>(label.size()), buf,
                                               static_cast<int32_t>(sizeof buf), &info, &status);
    if (U_FAILURE(status) || info.errors != 0 || n < 0 || n > static_cast<int32_t>(sizeof buf)) return {};
    return std::string(buf, static_cast<std::size_t>(n));
}

struct checker_closer {
    void operator()(USpoofChecker* c) const noexcept { uspoof_close(c); }
};

/// UTS 39 checks for one label: more scripts than a moderately restrictive
/// profile allows (Latin with Cyrillic, say), invisible characters, digits
/// of several systems. One checker a thread, as a report reads on many.
USpoofChecker* label_checker() {
    thread_local const std::unique_ptr<USpoofChecker, checker_closer> checker = [] {
        UErrorCode status = U_ZERO_ERROR;
        USpoofChecker* c = uspoof_open(&status);
        if (U_FAILURE(status)) return std::unique_ptr<USpoofChecker, checker_closer>();
        uspoof_setChecks(c, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS, &status);
        uspoof_setRestrictionLevel(c, USPOOF_MODERATELY_RESTRICTIVE);
        return std::unique_ptr<USpoofChecker, checker_closer>(U_SUCCESS(status) ? c : nullptr);
    }();
    return checker.get();
}

/// Whether a non-ASCII label deceives: it fails the checks above, or its
/// UTS 39 skeleton is plain ASCII, so that it reads as an ASCII word it is
/// not (Cyrillic "аррӏе" as "apple").
bool deceptive_label(const std::string& label) {
    USpoofChecker* c = label_checker();
    if (c == nullptr) return false;
    const auto size = static_cast<int32_t>(label.size());
    UErrorCode status = U_ZERO_ERROR;
    if (uspoof_checkUTF8(c, label.data(), size, nullptr, &status) != 0 && U_SUCCESS(status)) return true;
    char skeleton[1024];
    status = U_ZERO_ERROR;
    const int32_t n = uspoof_getSkeletonUTF8(c, 0, label.data(), size, skeleton, static_cast<int32_t>(sizeof skeleton), &status);
    if (U_FAILURE(status) || n <= 0 || n > static_cast<int32_t>(sizeof skeleton)) return false;
    return std::all_of(skeleton, skeleton + n, [](char ch) { return static_cast<unsigned char>(ch) < 0x80; });
}

}  // namespace

bool is_lookalike_host(std::string_view host) {
    for (std::size_t start = 0; start < host.size();) {
        const std::size_t end = std::min(host.find('.', start), host.size());
        const std::string_view label = host.substr(start, end - start);
        start = end + 1;
        const bool ascii = std::all_of(label.begin(), label.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; });
        if (ascii && !is_punycode_host(label)) continue;
        const std::string unicode = unicode_label(label);
        if (!unicode.empty() && deceptive_label(unicode)) return true;
    }
    return false;
}

std::string_view registrable_domain(std::string_view host) noexcept {
    if (host.empty() || is_ip_host(host)) return {};
    host = without_root(host);
    const auto last_dot = host.rfind('.');
    if (last_dot == std::string_view::npos || last_dot == 0) return {};
    // The Public Suffix List algorithm: the registrable domain is the public
    // suffix plus one label. The project's table (src/abbrev/tld_table, made
    // from the PSL) keeps only the top-level label of each rule, so the
    // longest suffix it knows is the top-level domain. Under a country code,
    // the second-level labels registries sell names under (`co.uk`,
    // `ac.in`, `com.au`: the lexicon's generic SLDs) are taken as part of
    // the suffix, so `bbc.co.uk` counts as itself; rarer private suffixes
    // (`github.io`) are not known. A top-level label the PSL does not know
    // (`localhost`, `.internal`, `.local`) names no site on the public
    // Internet; the PSL's implicit `*` rule would still make `x.local` a
    // domain, but a report that lists them beside real sites would mislead,
    // so such hosts have no registrable domain.
    if (!detail::is_known_tld(host.substr(last_dot + 1))) return {};
    auto before = host.rfind('.', last_dot - 1);
    const std::string_view tld = host.substr(last_dot + 1);
    if (before != std::string_view::npos && tld.size() == 2 && before > 0 &&
        detail::lexicon::is_generic_sld(host.substr(before + 1, last_dot - before - 1)))
        before = host.rfind('.', before - 1);
    const std::string_view domain = before == std::string_view::npos ? host : host.substr(before + 1);
    // An empty label (`a..org`) is no domain name.
    if (domain.front() == '.') return {};
    return domain;
}

}  // namespace urlsift
