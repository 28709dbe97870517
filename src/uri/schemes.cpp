#include "uri/schemes.hpp"

#include "text/ascii.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace urlsift::detail {

namespace {

struct scheme_entry {
    std::string_view name;
    scheme_kind kind;
};

// Schemes named by the specification (Section 1.3, RFC 1738) and widely
// registered ones, sorted by name for the reader. Hierarchical entries
// still need `//` so that prose such as "http: the protocol" is left alone.
constexpr std::array schemes = std::to_array<scheme_entry>({
    {"about", scheme_kind::opaque},       {"acap", scheme_kind::hierarchical},
    {"afp", scheme_kind::hierarchical},   {"bitcoin", scheme_kind::opaque},
    {"callto", scheme_kind::opaque},      {"cid", scheme_kind::opaque},
    {"data", scheme_kind::opaque},        {"dav", scheme_kind::hierarchical},
    {"dict", scheme_kind::hierarchical},  {"dns", scheme_kind::opaque},
    {"doi", scheme_kind::opaque},         {"fax", scheme_kind::opaque},
    {"feed", scheme_kind::opaque},        {"file", scheme_kind::file},
    {"ftp", scheme_kind::hierarchical},   {"ftps", scheme_kind::hierarchical},
    {"geo", scheme_kind::opaque},         {"git", scheme_kind::hierarchical},
    {"gopher", scheme_kind::hierarchical}, {"h323", scheme_kind::opaque},
    {"hdl", scheme_kind::opaque},         {"http", scheme_kind::hierarchical},
    {"https", scheme_kind::hierarchical}, {"im", scheme_kind::opaque},
    {"imap", scheme_kind::hierarchical},  {"info", scheme_kind::opaque},
    {"irc", scheme_kind::hierarchical},   {"ircs", scheme_kind::hierarchical},
    {"jabber", scheme_kind::opaque},      {"ldap", scheme_kind::hierarchical},
    {"ldaps", scheme_kind::hierarchical}, {"magnet", scheme_kind::opaque},
    {"mailto", scheme_kind::opaque},      {"mid", scheme_kind::opaque},
    {"mms", scheme_kind::hierarchical},   {"modem", scheme_kind::opaque},
    {"mumble", scheme_kind::hierarchical}, {"news", scheme_kind::opaque},
    {"nfs", scheme_kind::hierarchical},   {"nntp", scheme_kind::hierarchical},
    {"pop", scheme_kind::hierarchical},   {"pres", scheme_kind::opaque},
    {"prospero", scheme_kind::hierarchical}, {"rsync", scheme_kind::hierarchical},
    {"rtmp", scheme_kind::hierarchical},  {"rtsp", scheme_kind::hierarchical},
    {"sftp", scheme_kind::hierarchical},  {"sip", scheme_kind::opaque},
    {"sips", scheme_kind::opaque},        {"skype", scheme_kind::opaque},
    {"smb", scheme_kind::hierarchical},   {"sms", scheme_kind::opaque},
    {"snews", scheme_kind::hierarchical}, {"spotify", scheme_kind::opaque},
    {"ssh", scheme_kind::hierarchical},   {"svn", scheme_kind::hierarchical},
    {"tag", scheme_kind::opaque},         {"tel", scheme_kind::opaque},
    {"telnet", scheme_kind::hierarchical}, {"tftp", scheme_kind::hierarchical},
    {"tn3270", scheme_kind::hierarchical}, {"urn", scheme_kind::opaque},
    {"vnc", scheme_kind::hierarchical},   {"wais", scheme_kind::hierarchical},
    {"webcal", scheme_kind::hierarchical}, {"ws", scheme_kind::hierarchical},
    {"wss", scheme_kind::hierarchical},   {"xmpp", scheme_kind::opaque},
});

static_assert(std::is_sorted(schemes.begin(), schemes.end(),
                             [](const scheme_entry& a, const scheme_entry& b) { return a.name < b.name; }));

static_assert(std::all_of(schemes.begin(), schemes.end(),
                          [](const scheme_entry& e) { return e.name.size() <= max_registered_scheme_length; }));

/// A name of up to 8 bytes packed into one integer, lower-cased, first byte
/// highest; 0 for an empty or longer name, or one holding a NUL (which
/// would pack like a shorter name). No entry packs to 0.
constexpr std::uint64_t pack_lower(std::string_view name) noexcept {
    if (name.empty() || name.size() > max_registered_scheme_length) return 0;
    std::uint64_t key = 0;
    for (const char ch : name) {
        auto c = static_cast<unsigned char>(ch);
        if (c == 0) return 0;
        if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c - 'A' + 'a');
        key = (key << 8) | c;
    }
    return key << (8 * (max_registered_scheme_length - name.size()));
}

constexpr auto scheme_keys = [] {
    std::array<std::uint64_t, schemes.size()> keys{};
    for (std::size_t i = 0; i < schemes.size(); ++i) keys[i] = pack_lower(schemes[i].name);
    return keys;
}();

/// An index of the packed keys: open addressing with linear probing, at
/// most a quarter full, so a lookup is one multiply and usually one compare.
/// A slot holds an entry's index + 1; 0 is empty.
constexpr std::size_t scheme_slot_count = 512;
static_assert(schemes.size() * 4 <= scheme_slot_count);

constexpr std::size_t slot_of(std::uint64_t key) noexcept {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 55);
}

constexpr auto scheme_slots = [] {
    std::array<std::uint8_t, scheme_slot_count> table{};
    for (std::size_t i = 0; i < schemes.size(); ++i) {
        std::size_t k = slot_of(scheme_keys[i]);
        while (table[k] != 0) k = (k + 1) % scheme_slot_count;
        table[k] = static_cast<std::uint8_t>(i + 1);
    }
    return table;
}();

/// The table entry for `name` (any case), or nullptr.
const scheme_entry* find_scheme(std::string_view name) noexcept {
    const std::uint64_t key = pack_lower(name);
    if (key == 0) return nullptr;
    for (std::size_t k = slot_of(key); scheme_slots[k] != 0; k = (k + 1) % scheme_slot_count) {
        const std::size_t i = scheme_slots[k] - 1U;
        if (scheme_keys[i] == key) return &schemes[i];
    }
    return nullptr;
}

}  // namespace

namespace {

/// RFC 4151 section 2.1: taggingEntity = authorityName "," date, date
/// starting with a four-digit year.
bool is_malformed_tag(std::string_view rest) noexcept {
    const std::string_view entity = rest.substr(0, rest.find(':'));
    const std::size_t comma = entity.rfind(',');
    if (comma == std::string_view::npos || comma == 0 || entity.size() < comma + 5) return true;
    for (std::size_t k = comma + 1; k < comma + 5; ++k)
        if (!is_digit(entity[k])) return true;
    return false;
}

/// 003_*.txt, NEWS: groupart = "*" | group | article, group = ialpha
/// [ "." group ], article = xalphas "@" host; RFC 5538 adds a server
/// (`news://host/group`) and wildcards in a group (`comp.*`).
bool is_malformed_news(std::string_view rest) noexcept {
    if (rest.starts_with("//") || rest.find('@') != std::string_view::npos) return false;
    if (rest.empty() || !(is_alpha(rest.front()) || rest.front() == '*')) return true;
    for (const char c : rest)
        if (!is_alnum(c) && c != '.' && c != '-' && c != '+' && c != '_' && c != '*') return true;
    return false;
}

/// RFC 3966 (and RFC 2806 before it): a number is global (`+` and
/// digits) or local (digits, `*` and `#`), with visual separators such
/// as `(`; it has a digit.
bool is_malformed_number(std::string_view rest) noexcept {
    if (rest.empty() || !(is_digit(rest.front()) || rest.front() == '+' || rest.front() == '*' ||
                          rest.front() == '#' || rest.front() == '('))
        return true;
    const std::string_view number = rest.substr(0, rest.find_first_of(";?"));
    return std::none_of(number.begin(), number.end(), is_digit);
}

}  // namespace

bool breaks_its_scheme(std::string_view url) noexcept {
    // Asked of every URL with a scheme: most (`http`, `https`) are settled
    // by their first letter.
    if (url.size() < 4) return false;
    switch (to_lower(url[0])) {
    case 't': case 'n': case 'f': case 'm': case 's': break;
    default: return false;
    }
    const std::size_t colon = url[3] == ':' ? 3 : url.size() > 4 && url[4] == ':' ? 4 : url.size() > 5 && url[5] == ':' ? 5 : 0;
    if (colon == 0) return false;
    const std::string_view scheme = url.substr(0, colon), rest = url.substr(colon + 1);
    if (iequals(scheme, "tag")) return is_malformed_tag(rest);
    if (iequals(scheme, "news")) return is_malformed_news(rest);
    if (iequals(scheme, "tel") || iequals(scheme, "fax") || iequals(scheme, "modem") || iequals(scheme, "sms"))
        return is_malformed_number(rest);
    return false;
}

scheme_kind classify_scheme(std::string_view name, std::string_view rest, bool& registered) noexcept {
    registered = false;
    // Section 4.1: a letter, then letters, digits, `+`, `-`, `.`.
    if (name.empty() || name.size() > max_scheme_length) return scheme_kind::none;
    const auto first = static_cast<unsigned char>(name[0]);
    if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z'))) return scheme_kind::none;
    for (char c : name)
        if (!is_scheme_char(static_cast<unsigned char>(c))) return scheme_kind::none;
    // `std::type_info::operator==`, `Foo::bar`: a second colon is C++'s
    // scope operator, never the start of a scheme-specific part.
    if (!rest.empty() && rest[0] == ':') return scheme_kind::none;
    // `i.im:=0`, `x:=y`: an assignment (Pascal, Go, make), not a scheme.
    if (!rest.empty() && rest[0] == '=') return scheme_kind::none;
    const bool slashes = rest.size() >= 2 && rest[0] == '/' && rest[1] == '/';
    if (const scheme_entry* it = find_scheme(name)) {
        registered = true;
        switch (it->kind) {
        case scheme_kind::hierarchical: return slashes ? scheme_kind::hierarchical : scheme_kind::none;
        case scheme_kind::file: return !rest.empty() && rest[0] == '/' ? scheme_kind::file : scheme_kind::none;
        default: return it->kind;
        }
    }
    // Any other name followed by `//` is a scheme (DESIGN: "any scheme://").
    return slashes ? scheme_kind::hierarchical : scheme_kind::none;
}

scheme_kind classify_scheme(std::string_view name, std::string_view rest) noexcept {
    bool registered = false;
    return classify_scheme(name, rest, registered);
}

scheme_kind classify_registered_scheme(std::string_view name, std::string_view rest) noexcept {
    bool registered = false;
    const scheme_kind kind = classify_scheme(name, rest, registered);
    return registered ? kind : scheme_kind::none;
}

}  // namespace urlsift::detail
