// Simple messages read without GMime (simple_message.hpp). Each rule that
// GMime's parser applies is matched here or the message is not simple:
// nothing is guessed.

#include "mail/simple_message.hpp"

#include "mail/automatic_message.hpp"

#include "text/ascii.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace urlsift::detail {

namespace {

/// A field name as this reader takes it; GMime takes more (any byte but a
/// blank, a control or `:`), which makes the message not simple.
bool plain_field_name(std::string_view name) noexcept {
    if (name.empty() || !is_alnum(name.front())) return false;
    for (const char c : name)
        if (!is_alnum(c) && c != '-' && c != '_') return false;
    return true;
}

/// RFC 2045 5.1 token, less `*` (RFC 2231's extended parameters).
bool token_char(char c) noexcept {
    constexpr std::string_view specials = "()<>@,;:\\\"/[]?=*";
    return c > ' ' && c < 0x7F && specials.find(c) == std::string_view::npos;
}

/// The value as g_mime_header_get_value gives it when the raw value is
/// plain ASCII: line breaks taken out, blanks around it trimmed.
std::string unfold(std::string_view raw) {
    raw = trim_white(raw);
    std::string out;
    out.reserve(raw.size());
    // The line breaks of a folded value, taken out a line at a time.
    for (std::size_t at = 0; at < raw.size();) {
        const std::size_t end = std::min(raw.find('\n', at), raw.size());
        const std::string_view line = raw.substr(at, end - at);
        if (line.find('\r') == std::string_view::npos) {
            out.append(line);
        } else {
            for (const char c : line)
                if (c != '\r') out += c;
        }
        at = end + 1;
    }
    return out;
}

/// Printable ASCII and blanks, with no RFC 2047 encoded word: a value that
/// GMime's decoding leaves as it is.
bool plain_value(std::string_view raw) noexcept {
    // Without a branch a byte, which the compiler can vectorize.
    bool other = false;
    for (const char c : raw) {
        const auto u = static_cast<unsigned char>(c);
        other |= (u < 0x20 && u != '\t' && u != '\r' && u != '\n') || u >= 0x7F;
    }
    return !other && raw.find("=?") == std::string_view::npos;
}

/// The msg-id of a Message-ID value `<local@domain>`, each side dot-atoms
/// (RFC 5322 3.6.4), as GMime's decode_msgid gives it; nullopt for any
/// other form.
std::optional<std::string> simple_msg_id(std::string_view v) {
    if (v.size() < 5 || v.front() != '<' || v.back() != '>') return std::nullopt;
    v = v.substr(1, v.size() - 2);
    constexpr std::string_view atext = "!#$%&'*+-/=?^_`{|}~";
    const auto dot_atoms = [&](std::string_view s) {
        if (s.empty() || s.front() == '.' || s.back() == '.' || s.find("..") != std::string_view::npos) return false;
        for (const char c : s)
            if (!is_alnum(c) && c != '.' && atext.find(c) == std::string_view::npos) return false;
        return true;
    };
    const std::size_t at = v.find('@');
    if (at == std::string_view::npos || !dot_atoms(v.substr(0, at)) || !dot_atoms(v.substr(at + 1)))
        return std::nullopt;
    return std::string(v);
}

/// The parameters of a Content-Type that matter here.
struct content_type {
    std::optional<std::string> charset;
    bool flowed = false;
};

/// A Content-Type value `text/plain` with `; name=value` parameters, each
/// value a token or a quoted token; nullopt for any other type or form
/// (comments, escapes, RFC 2231, a parameter named twice).
std::optional<content_type> simple_content_type(std::string_view v) {
    std::size_t i = 0;
    const auto token = [&] {
        const std::size_t from = i;
        while (i < v.size() && token_char(v[i])) ++i;
        return v.substr(from, i - from);
    };
    const auto blanks = [&] {
        while (i < v.size() && (v[i] == ' ' || v[i] == '\t')) ++i;
    };
    if (!iequals(token(), "text") || i == v.size() || v[i++] != '/' || !iequals(token(), "plain")) return std::nullopt;
    content_type out;
    std::vector<std::string_view> names;
    for (;;) {
        blanks();
        if (i == v.size()) return out;
        if (v[i++] != ';') return std::nullopt;
        blanks();
        if (i == v.size()) return out;
        const std::string_view name = token();
        if (name.empty() || i == v.size() || v[i++] != '=') return std::nullopt;
        const bool quoted = i < v.size() && v[i] == '"';
        if (quoted) ++i;
        const std::string_view value = token();
        if (value.empty() || (quoted && (i == v.size() || v[i++] != '"'))) return std::nullopt;
        for (const std::string_view n : names)
            if (iequals(n, name)) return std::nullopt;
        names.push_back(name);
        if (iequals(name, "charset")) out.charset = std::string(value);
        if (iequals(name, "format")) out.flowed = iequals(value, "flowed");
    }
}

/// The header being read: its name, and its value from the byte after the
/// `:` to the end of its last line.
struct field {
    std::string_view name;
    std::size_t offset = 0;
    std::size_t value_begin = 0, value_end = 0;
};

}  // namespace

simple_read read_simple_message(std::string_view bytes, bool mbox, bool at_end, std::size_t max_body,
                                simple_message& out) {
    const simple_read short_of_end = at_end ? simple_read::not_simple : simple_read::needs_more;
    out.message_id.clear();
    out.url_headers.clear();
    out.part_url_headers.clear();
    out.content_base.reset();
    out.content_location.reset();
    out.charset.reset();
    std::size_t pos = 0;
    if (mbox) {
        if (!bytes.starts_with("From ")) return simple_read::not_simple;
        const std::size_t nl = bytes.find('\n');
        if (nl == std::string_view::npos) return short_of_end;
        pos = nl + 1;
    }
    // Each rule GMime's parser keeps for a message's headers, in turn; the
    // Content-* headers are its body part's (GMime gives them to the part),
    // and their URLs are listed after the message's own.
    bool has_type = false, has_encoding = false;
    bool simple = true;
    std::optional<std::string_view> return_path, sender;
    const auto take = [&](const field& f) {
        // Every header read here starts with one of these letters; most
        // (Received, Subject, Date, ...) are passed over on their first.
        const char first = to_lower(f.name.front());
        const std::string_view raw = bytes.substr(f.value_begin, f.value_end - f.value_begin);
        if (first == 'r' || first == 'f') {
            // Whether a program sent it: the first Return-Path and From as
            // written, as read_mail asks GMime for them.
            if (!return_path && iequals(f.name, "Return-Path")) return_path = raw;
            else if (!sender && iequals(f.name, "From")) sender = raw;
            return;
        }
        if (first != 'l' && first != 'a' && first != 'c' && first != 'm') return;
        const header_kind kind = url_header_kind(f.name);
        const bool content = starts_with_nocase(f.name, "Content-");
        const bool read = kind != header_kind::none || iequals(f.name, "Message-ID") ||
                          iequals(f.name, "Content-Type") || iequals(f.name, "Content-Transfer-Encoding");
        if (!read) return;
        // A NUL would end the C string GMime keeps the value in.
        if (!plain_value(raw)) {
            simple = false;
            return;
        }
        std::string value = unfold(raw);
        if (iequals(f.name, "Message-ID")) {
            std::optional<std::string> id = simple_msg_id(value);
            if (!id) simple = false;
            else out.message_id = std::move(*id);
        } else if (iequals(f.name, "Content-Type")) {
            const std::optional<content_type> type = simple_content_type(value);
            if (has_type || !type || type->flowed) simple = false;
            else out.charset = type->charset;
            has_type = true;
        } else if (iequals(f.name, "Content-Transfer-Encoding")) {
            if (has_encoding || !(iequals(value, "7bit") || iequals(value, "8bit") || iequals(value, "binary")))
                simple = false;
            has_encoding = true;
        } else if (content) {
            // Content-Base, Content-Location: the first of each name is
            // the part's base; a second would need GMime's choice.
            std::optional<std::string>& slot =
                iequals(f.name, "Content-Base") ? out.content_base : out.content_location;
            if (slot) simple = false;
            slot = value;
            out.part_url_headers.push_back({f.name, kind, std::move(value), f.offset});
        } else {
            out.url_headers.push_back({f.name, kind, std::move(value), f.offset});
        }
    };
    field current;
    bool in_field = false;
    for (;;) {
        if (pos == bytes.size()) return short_of_end;
        const std::size_t nl = bytes.find('\n', pos);
        if (nl == std::string_view::npos) return short_of_end;
        const std::string_view line = bytes.substr(pos, nl - pos);
        if (line.empty() || line == "\r") {
            if (!in_field) return simple_read::not_simple;  // no header at all
            take(current);
            pos = nl + 1;
            break;
        }
        if (std::memchr(line.data(), '\0', line.size()) != nullptr) return simple_read::not_simple;
        if (line.front() == ' ' || line.front() == '\t') {
            if (!in_field) return simple_read::not_simple;
            current.value_end = nl + 1;
        } else {
            if (in_field) take(current);
            const std::size_t colon = line.find(':');
            if (colon == std::string_view::npos || !plain_field_name(line.substr(0, colon)))
                return simple_read::not_simple;
            current = {line.substr(0, colon), pos, pos + colon + 1, nl + 1};
            in_field = true;
        }
        if (!simple) return simple_read::not_simple;
        pos = nl + 1;
    }
    if (!simple) return simple_read::not_simple;
    out.automatic = sent_as_automatic(return_path.value_or(""), sender.value_or(""));
    out.body_begin = pos;
    if (!mbox) {
        // A single message's body runs to the end of the input.
        if (!at_end) return simple_read::needs_more;
        out.body_end = out.next = bytes.size();
        return out.body_end - out.body_begin <= max_body ? simple_read::read : simple_read::not_simple;
    }
    // In a mailbox the body ends at the next line that starts with `From `
    // (mboxrd quotes such lines in a body; Content-Length is not read).
    std::size_t from = pos;
    if (bytes.size() - pos < 5 && !at_end) return simple_read::needs_more;
    if (!bytes.substr(pos).starts_with("From ")) {
        const std::size_t before = bytes.find("\nFrom ", pos);
        if (before == std::string_view::npos) {
            // To the end of the input; where the bytes read end, a `From `
            // line may be cut short.
            if (!at_end) return simple_read::needs_more;
            if (bytes.size() - pos > max_body) return simple_read::not_simple;
            out.body_end = out.next = bytes.size();
            return simple_read::read;
        }
        from = before + 1;
    }
    if (from - pos > max_body) return simple_read::not_simple;
    // GMime starts the next message at that line only when the line ends
    // and a byte follows it; then the line break before it is not the
    // body's. GMime takes off as many bytes as the `From ` line's own break
    // has (CR LF: 2), whatever they are; a body shorter than that, or a
    // `From ` line that is the input's last, is GMime's to read.
    const std::size_t nl = bytes.find('\n', from);
    if (nl == std::string_view::npos || nl + 1 == bytes.size()) return short_of_end;
    const std::size_t cut = nl > from && bytes[nl - 1] == '\r' ? 2 : 1;
    const std::size_t length = from - out.body_begin;
    if (length != 0 && length < cut) return simple_read::not_simple;
    out.body_end = length == 0 ? from : from - cut;
    out.next = from;
    return simple_read::read;
}

namespace {

/// 1 on, 0 off, -1 not yet decided (the environment decides).
std::atomic<int> simple_on{-1};

}  // namespace

bool simple_messages_on() noexcept {
    int on = simple_on.load(std::memory_order_relaxed);
    if (on < 0) {
        const char* env = std::getenv("URLSIFT_MAIL_FAST");
        on = env != nullptr && std::string_view(env) == "0" ? 0 : 1;
        simple_on.store(on, std::memory_order_relaxed);
    }
    return on == 1;
}

void set_simple_messages(bool on) noexcept { simple_on.store(on ? 1 : 0, std::memory_order_relaxed); }

}  // namespace urlsift::detail
