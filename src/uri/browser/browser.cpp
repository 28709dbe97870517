// The browser resolver mode. 004_*.txt describes how browsers split,
// resolve and canonicalize a URL but leaves files, IP addresses, escaping
// sets and dot segments as TODOs; browsers have since converged on one state
// machine (the URL Standard's basic URL parser), which the web-platform-tests
// URL cases pin down. This file is that state machine, written for bytes of
// UTF-8: every byte of a non-ASCII code point is >= 0x80, so no such byte is
// ever mistaken for a delimiter and encoding byte by byte equals encoding
// code point by code point.
//
//   https://user:pass@example.com:8080/a/b?q=1#frag
//   \___/   \__/ \__/ \_________/ \__/\__/ \_/ \__/
//   scheme  user pass    host     port path query fragment
//
// Deliberate deviations: bytes that are not well-formed UTF-8 are percent-
// encoded as they are (a browser would first decode them to U+FFFD), so the
// result stays a faithful image of the input; only UTF-8 is used for
// queries (no document encoding exists in plain text).

#include "uri/browser/browser.hpp"

#include "text/ascii.hpp"
#include "uri/browser/host.hpp"
#include "uri/browser/percent.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::detail {

namespace {

using browser::append_encoded;
using browser::encode_set;

/// A parsed URL. Every string holds its canonical, already percent-encoded
/// form, so serializing is concatenation.
struct url_record {
    std::string scheme;                 ///< lower case, without the `:`
    std::string username;               ///< userinfo-encoded, may be empty
    std::string password;               ///< userinfo-encoded, may be empty
    std::optional<std::string> host;    ///< serialized; "" is the empty host of `file:///`
    std::optional<std::uint16_t> port;  ///< never the scheme's default port
    std::vector<std::string> path;      ///< path segments, unless `opaque_path`
    std::optional<std::string> opaque_path;  ///< `mailto:x`: the whole path, no segments
    std::optional<std::string> query;   ///< without the `?`
    std::optional<std::string> fragment;  ///< without the `#`

    bool has_opaque_path() const noexcept { return opaque_path.has_value(); }
};

/// The special schemes: hierarchical, with an authority, `\` read as `/`
/// (004_*.txt Section 2's "slash character"). The default port, -1 for none.
struct special_scheme {
    std::string_view name;
    int default_port;
};
constexpr special_scheme special_schemes[] = {
    {"ftp", 21}, {"file", -1}, {"http", 80}, {"https", 443}, {"ws", 80}, {"wss", 443},
};

const special_scheme* find_special(std::string_view scheme) noexcept {
    for (const auto& s : special_schemes)
        if (s.name == scheme) return &s;
    return nullptr;
}

// Dot segments may be written with `%2e` (browsers decode it for this test).
bool is_single_dot(std::string_view s) noexcept { return s == "." || iequals(s, "%2e"); }
bool is_double_dot(std::string_view s) noexcept {
    return s == ".." || iequals(s, ".%2e") || iequals(s, "%2e.") || iequals(s, "%2e%2e");
}

// Windows drive letters in file URLs: `C:` or `C|`; the normalized form has `:`.
bool is_drive_letter(std::string_view s) noexcept {
    return s.size() == 2 && is_alpha(s[0]) && (s[1] == ':' || s[1] == '|');
}
bool is_normalized_drive_letter(std::string_view s) noexcept {
    return is_drive_letter(s) && s[1] == ':';
}
bool starts_with_drive_letter(std::string_view s) noexcept {
    if (s.size() < 2 || !is_drive_letter(s.substr(0, 2))) return false;
    return s.size() == 2 || s[2] == '/' || s[2] == '\\' || s[2] == '?' || s[2] == '#';
}

/// Removes the last path segment, except a lone drive letter of a file URL:
/// `..` never climbs above `C:`.
void shorten_path(url_record& url) {
    if (url.scheme == "file" && url.path.size() == 1 && is_normalized_drive_letter(url.path[0]))
        return;
    if (!url.path.empty()) url.path.pop_back();
}

/// The input with leading and trailing C0 controls and spaces removed
/// (004_*.txt Section 3: "control characters") and every tab, LF and CR
/// removed wherever it is, as browsers do for URLs wrapped across lines.
/// `kept` records, for each byte of the result, its offset in `raw`.
struct cleaned_input {
    std::string text;
    std::vector<std::size_t> kept;

    explicit cleaned_input(std::string_view raw) {
        std::size_t begin = 0;
        std::size_t end = raw.size();
        while (begin < end && static_cast<unsigned char>(raw[begin]) <= 0x20) ++begin;
        while (end > begin && static_cast<unsigned char>(raw[end - 1]) <= 0x20) --end;
        text.reserve(end - begin);
        kept.reserve(end - begin + 1);
        for (std::size_t i = begin; i < end; ++i) {
            if (raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') continue;
            text += raw[i];
            kept.push_back(i);
        }
        kept.push_back(end);
    }

    std::size_t original_offset(std::size_t i) const noexcept {
        return kept[i < kept.size() ? i : kept.size() - 1];
    }
};

/// The states of the parser, named after the part of the input each reads.
enum class state {
    scheme_start,
    scheme,
    no_scheme,
    special_relative_or_authority,
    path_or_authority,
    relative,
    relative_slash,
    special_authority_slashes,
    special_authority_ignore_slashes,
    authority,
    host,
    port,
    file,
    file_slash,
    file_host,
    path_start,
    path,
    opaque_path,
    query,
    fragment,
};

/// One run of the state machine over a cleaned input, against an optional
/// parsed base. A state that hands over without consuming steps `pos_` back
/// so the next state re-reads the byte (the authority state steps back over
/// its whole buffer, a failed scheme to -1 to start over); reading at
/// `text.size()` yields `eof`, which every state sees exactly once or hands on.
class url_parser {
public:
    url_parser(std::string_view raw, const url_record* base) : input_(raw), base_(base) {}

    result<url_record> run();

private:
    static constexpr int eof = -1;

    int at(std::ptrdiff_t i) const noexcept {
        return i >= 0 && i < size() ? static_cast<unsigned char>(input_.text[static_cast<std::size_t>(i)])
                                    : eof;
    }
    std::ptrdiff_t size() const noexcept { return static_cast<std::ptrdiff_t>(input_.text.size()); }
    std::string_view remaining() const noexcept {
        const auto from = static_cast<std::size_t>(pos_ + 1);
        return from < input_.text.size() ? std::string_view(input_.text).substr(from) : std::string_view{};
    }
    std::string_view from_here() const noexcept {
        const auto from = static_cast<std::size_t>(pos_);
        return from < input_.text.size() ? std::string_view(input_.text).substr(from) : std::string_view{};
    }
    failure fail(error code, std::ptrdiff_t where) const noexcept {
        return failure{code, input_.original_offset(static_cast<std::size_t>(where < 0 ? 0 : where))};
    }
    bool special() const noexcept { return find_special(url_.scheme) != nullptr; }
    bool is_slash(int c) const noexcept { return c == '/' || (c == '\\' && special()); }
    // Ends the authority, host and port: `/ ? #`, and `\` for special schemes.
    bool ends_authority(int c) const noexcept { return c == eof || c == '?' || c == '#' || is_slash(c); }
    void copy_base_authority() {
        url_.username = base_->username;
        url_.password = base_->password;
        url_.host = base_->host;
        url_.port = base_->port;
    }
    void finish_path_segment(int c);

    cleaned_input input_;
    const url_record* base_;
    url_record url_;
    state state_ = state::scheme_start;
    std::ptrdiff_t pos_ = 0;
    std::string buffer_;  ///< raw bytes of the component being read (path: encoded)
    bool at_sign_seen_ = false;
    bool inside_brackets_ = false;
    bool password_token_seen_ = false;
};

// Path state: a segment ends. `..` drops the previous segment, `.` is
// dropped itself; either leaves a trailing `/` when it ends the path.
void url_parser::finish_path_segment(int c) {
    const bool more_follows = is_slash(c);
    if (is_double_dot(buffer_)) {
        shorten_path(url_);
        if (!more_follows) url_.path.emplace_back();
    } else if (is_single_dot(buffer_)) {
        if (!more_follows) url_.path.emplace_back();
    } else {
        // A drive letter opening a file path is normalized: `C|` -> `C:`.
        if (url_.scheme == "file" && url_.path.empty() && is_drive_letter(buffer_)) buffer_[1] = ':';
        url_.path.push_back(std::move(buffer_));
    }
    buffer_.clear();
}

result<url_record> url_parser::run() {
    for (;; ++pos_) {
        const int c = at(pos_);
        switch (state_) {
        case state::scheme_start:
            if (c != eof && is_alpha(static_cast<char>(c))) {
                buffer_ += to_lower(static_cast<char>(c));
                state_ = state::scheme;
            } else {
                state_ = state::no_scheme;
                --pos_;
            }
            break;

        case state::scheme:
            if (c != eof && (is_alpha(static_cast<char>(c)) || is_digit(static_cast<char>(c)) || c == '+' ||
                             c == '-' || c == '.')) {
                buffer_ += to_lower(static_cast<char>(c));
            } else if (c == ':') {
                url_.scheme = std::move(buffer_);
                buffer_.clear();
                if (url_.scheme == "file") {
                    state_ = state::file;
                } else if (special() && base_ != nullptr && base_->scheme == url_.scheme) {
                    // 004_*.txt Section 4: `http:g` against an http base is
                    // relative, the scheme being shared and hierarchical.
                    state_ = state::special_relative_or_authority;
                } else if (special()) {
                    state_ = state::special_authority_slashes;
                } else if (remaining().starts_with('/')) {
                    state_ = state::path_or_authority;
                    ++pos_;
                } else {
                    url_.opaque_path.emplace();
                    state_ = state::opaque_path;
                }
            } else {
                // Not a scheme after all (`a b:`, `/x:`): start over as relative.
                buffer_.clear();
                state_ = state::no_scheme;
                pos_ = -1;
            }
            break;

        case state::no_scheme:
            if (base_ == nullptr) return fail(error::invalid_scheme, 0);
            if (base_->has_opaque_path()) {
                // Only a fragment can be resolved against `mailto:x` or `data:,`.
                if (c != '#') return fail(error::base_not_hierarchical, 0);
                url_.scheme = base_->scheme;
                url_.opaque_path = base_->opaque_path;
                url_.query = base_->query;
                url_.fragment.emplace();
                state_ = state::fragment;
            } else {
                state_ = base_->scheme == "file" ? state::file : state::relative;
                --pos_;
            }
            break;

        case state::special_relative_or_authority:
            if (c == '/' && remaining().starts_with('/')) {
                state_ = state::special_authority_ignore_slashes;
                ++pos_;
            } else {
                state_ = state::relative;
                --pos_;
            }
            break;

        case state::path_or_authority:
            if (c == '/') {
                state_ = state::authority;
            } else {
                state_ = state::path;
                --pos_;
            }
            break;

        case state::relative:
            // 004_*.txt Sections 4.1-4.6: what the reference starts with
            // decides how much of the base it keeps.
            url_.scheme = base_->scheme;
            if (is_slash(c)) {
                state_ = state::relative_slash;
            } else {
                copy_base_authority();
                url_.path = base_->path;
                url_.query = base_->query;
                if (c == '?') {
                    url_.query.emplace();
                    state_ = state::query;
                } else if (c == '#') {
                    url_.fragment.emplace();
                    state_ = state::fragment;
                } else if (c != eof) {
                    url_.query.reset();
                    shorten_path(url_);
                    state_ = state::path;
                    --pos_;
                }
            }
            break;

        case state::relative_slash:
            if (is_slash(c)) {
                state_ = special() ? state::special_authority_ignore_slashes : state::authority;
            } else {
                copy_base_authority();
                state_ = state::path;
                --pos_;
            }
            break;

        case state::special_authority_slashes:
            state_ = state::special_authority_ignore_slashes;
            if (c == '/' && remaining().starts_with('/'))
                ++pos_;
            else
                --pos_;
            break;

        case state::special_authority_ignore_slashes:
            // Browsers accept any number of slashes before the authority.
            if (c != '/' && c != '\\') {
                state_ = state::authority;
                --pos_;
            }
            break;

        case state::authority:
            if (c == '@') {
                // 004_*.txt Section 3.3: user-info ends at the *last* `@`;
                // an earlier one belongs to it.
                if (at_sign_seen_) buffer_.insert(0, "%40");
                at_sign_seen_ = true;
                for (const char b : buffer_) {
                    if (b == ':' && !password_token_seen_) {
                        password_token_seen_ = true;
                        continue;
                    }
                    append_encoded(password_token_seen_ ? url_.password : url_.username, b,
                                   encode_set::userinfo);
                }
                buffer_.clear();
            } else if (ends_authority(c)) {
                if (at_sign_seen_ && buffer_.empty()) return fail(error::invalid_host, pos_);
                pos_ -= static_cast<std::ptrdiff_t>(buffer_.size()) + 1;
                buffer_.clear();
                state_ = state::host;
            } else {
                buffer_ += static_cast<char>(c);
            }
            break;

        case state::host:
            if (c == ':' && !inside_brackets_) {
                const auto start = pos_ - static_cast<std::ptrdiff_t>(buffer_.size());
                if (buffer_.empty()) return fail(error::invalid_host, start);
                auto host = browser::parse_host(buffer_, !special());
                if (!host) return fail(error::invalid_host, start);
                url_.host = std::move(host);
                buffer_.clear();
                state_ = state::port;
            } else if (ends_authority(c)) {
                const auto start = pos_ - static_cast<std::ptrdiff_t>(buffer_.size());
                --pos_;
                if (special() && buffer_.empty()) return fail(error::invalid_host, start);
                auto host = browser::parse_host(buffer_, !special());
                if (!host) return fail(error::invalid_host, start);
                url_.host = std::move(host);
                buffer_.clear();
                state_ = state::path_start;
            } else {
                if (c == '[') inside_brackets_ = true;
                if (c == ']') inside_brackets_ = false;
                buffer_ += static_cast<char>(c);
            }
            break;

        case state::port:
            if (c != eof && is_digit(static_cast<char>(c))) {
                buffer_ += static_cast<char>(c);
            } else if (ends_authority(c)) {
                if (!buffer_.empty()) {
                    const auto start = pos_ - static_cast<std::ptrdiff_t>(buffer_.size());
                    std::uint32_t port = 0;
                    for (const char d : buffer_) {
                        port = port * 10 + static_cast<std::uint32_t>(d - '0');
                        if (port > 65535) return fail(error::invalid_port, start);
                    }
                    // 004_*.txt Section 5: the scheme's default port is left out.
                    const auto* s = find_special(url_.scheme);
                    if (s != nullptr && static_cast<int>(port) == s->default_port)
                        url_.port.reset();
                    else
                        url_.port = static_cast<std::uint16_t>(port);
                    buffer_.clear();
                }
                state_ = state::path_start;
                --pos_;
            } else {
                return fail(error::invalid_port, pos_);
            }
            break;

        case state::file:
            // 004_*.txt Section 3 leaves file URLs as a TODO; browsers give
            // them an empty host by default and keep Windows drive letters.
            url_.scheme = "file";
            url_.host.emplace();
            if (c == '/' || c == '\\') {
                state_ = state::file_slash;
            } else if (base_ != nullptr && base_->scheme == "file") {
                url_.host = base_->host;
                url_.path = base_->path;
                url_.query = base_->query;
                if (c == '?') {
                    url_.query.emplace();
                    state_ = state::query;
                } else if (c == '#') {
                    url_.fragment.emplace();
                    state_ = state::fragment;
                } else if (c != eof) {
                    url_.query.reset();
                    // `C|` against a file base replaces the whole path.
                    if (!starts_with_drive_letter(from_here()))
                        shorten_path(url_);
                    else
                        url_.path.clear();
                    state_ = state::path;
                    --pos_;
                }
            } else {
                state_ = state::path;
                --pos_;
            }
            break;

        case state::file_slash:
            if (c == '/' || c == '\\') {
                state_ = state::file_host;
            } else {
                if (base_ != nullptr && base_->scheme == "file") {
                    url_.host = base_->host;
                    // `/x` against `file:///C:/a` stays on drive C:.
                    if (!starts_with_drive_letter(from_here()) && !base_->path.empty() &&
                        is_normalized_drive_letter(base_->path[0]))
                        url_.path.push_back(base_->path[0]);
                }
                state_ = state::path;
                --pos_;
            }
            break;

        case state::file_host:
            if (c == eof || c == '/' || c == '\\' || c == '?' || c == '#') {
                --pos_;
                if (is_drive_letter(buffer_)) {
                    // `file://C:/`: no host; the drive letter opens the path,
                    // read on from `buffer_` by the path state.
                    state_ = state::path;
                } else if (buffer_.empty()) {
                    url_.host.emplace();
                    state_ = state::path_start;
                } else {
                    const auto start = pos_ + 1 - static_cast<std::ptrdiff_t>(buffer_.size());
                    auto host = browser::parse_host(buffer_, false);
                    if (!host) return fail(error::invalid_host, start);
                    if (*host == "localhost") host->clear();
                    url_.host = std::move(host);
                    buffer_.clear();
                    state_ = state::path_start;
                }
            } else {
                buffer_ += static_cast<char>(c);
            }
            break;

        case state::path_start:
            if (special()) {
                state_ = state::path;
                if (c != '/' && c != '\\') --pos_;
            } else if (c == '?') {
                url_.query.emplace();
                state_ = state::query;
            } else if (c == '#') {
                url_.fragment.emplace();
                state_ = state::fragment;
            } else if (c != eof) {
                state_ = state::path;
                if (c != '/') --pos_;
            }
            break;

        case state::path:
            if (c == eof || is_slash(c) || c == '?' || c == '#') {
                finish_path_segment(c);
                if (c == '?') {
                    url_.query.emplace();
                    state_ = state::query;
                } else if (c == '#') {
                    url_.fragment.emplace();
                    state_ = state::fragment;
                }
            } else {
                append_encoded(buffer_, static_cast<char>(c), encode_set::path);
            }
            break;

        case state::opaque_path:
            if (c == '?') {
                url_.query.emplace();
                state_ = state::query;
            } else if (c == '#') {
                url_.fragment.emplace();
                state_ = state::fragment;
            } else if (c == ' ') {
                // A space just before `?` or `#` is encoded, so that the path
                // cannot end in a space a later parse would trim.
                const auto next = remaining();
                *url_.opaque_path += next.starts_with('?') || next.starts_with('#') ? "%20" : " ";
            } else if (c != eof) {
                append_encoded(*url_.opaque_path, static_cast<char>(c), encode_set::c0_control);
            }
            break;

        case state::query:
            if (c == '#') {
                url_.fragment.emplace();
                state_ = state::fragment;
            } else if (c != eof) {
                append_encoded(*url_.query, static_cast<char>(c),
                               special() ? encode_set::special_query : encode_set::query);
            }
            break;

        case state::fragment:
            if (c != eof) append_encoded(*url_.fragment, static_cast<char>(c), encode_set::fragment);
            break;
        }
        if (pos_ >= size()) break;
    }
    return std::move(url_);
}

/// The href: 004_*.txt Section 5's recomposition, with empty and absent
/// query and fragment kept apart (its TODOs) and `/.` guarding a path that
/// starts with `//` when there is no host to tell it from an authority.
std::string serialize(const url_record& url) {
    std::string out = url.scheme;
    out += ':';
    if (url.host) {
        out += "//";
        if (!url.username.empty() || !url.password.empty()) {
            out += url.username;
            if (!url.password.empty()) {
                out += ':';
                out += url.password;
            }
            out += '@';
        }
        out += *url.host;
        if (url.port) {
            out += ':';
            out += std::to_string(*url.port);
        }
    }
    if (url.has_opaque_path()) {
        out += *url.opaque_path;
    } else {
        if (!url.host && url.path.size() > 1 && url.path[0].empty()) out += "/.";
        for (const auto& segment : url.path) {
            out += '/';
            out += segment;
        }
    }
    if (url.query) {
        out += '?';
        out += *url.query;
    }
    if (url.fragment) {
        out += '#';
        out += *url.fragment;
    }
    return out;
}

/// The URL Standard's API getters over a parsed record: each part is
/// already canonical, so splitting is reading the fields (only `pathname`
/// leaves out the `/.` guard the href may carry).
browser_url split(const url_record& url) {
    browser_url out;
    out.href = serialize(url);
    out.protocol = url.scheme + ':';
    out.username = url.username;
    out.password = url.password;
    if (url.host) out.hostname = *url.host;
    if (url.port) out.port = std::to_string(*url.port);
    out.host = out.port.empty() ? out.hostname : out.hostname + ':' + out.port;
    if (url.has_opaque_path()) {
        out.pathname = *url.opaque_path;
    } else {
        for (const auto& segment : url.path) {
            out.pathname += '/';
            out.pathname += segment;
        }
    }
    if (url.query && !url.query->empty()) out.search = '?' + *url.query;
    if (url.fragment && !url.fragment->empty()) out.hash = '#' + *url.fragment;
    return out;
}

/// Parses `base` (when given) on its own, then `input` against it.
result<url_record> parse(std::string_view input, std::optional<std::string_view> base) {
    std::optional<url_record> parsed_base;
    if (base) {
        auto b = url_parser(*base, nullptr).run();
        if (!b) return failure{error::base_not_absolute, 0};
        parsed_base = std::move(*b);
    }
    return url_parser(input, parsed_base ? &*parsed_base : nullptr).run();
}

}  // namespace

result<std::string> browser_resolve(std::string_view input, std::optional<std::string_view> base) {
    auto url = parse(input, base);
    if (!url) return failure{url.error(), url.error_offset()};
    return serialize(*url);
}

result<browser_url> browser_parse(std::string_view input, std::optional<std::string_view> base) {
    auto url = parse(input, base);
    if (!url) return failure{url.error(), url.error_offset()};
    return split(*url);
}

}  // namespace urlsift::detail
