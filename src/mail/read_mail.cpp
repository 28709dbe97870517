// Messages and mailboxes to decoded text parts, with GMime 3: the MIME
// structure, transfer encodings and charsets are GMime's; which parts are
// text, their paths, their bases (Section 5.1) and the URL headers are
// read here.

#include <urlsift/mail.hpp>

#include "mail/automatic_message.hpp"
#include "mail/flowed.hpp"
#include "mail/from_quoting.hpp"
#include "mail/header_urls.hpp"
#include "mail/html_links.hpp"
#include "mail/input_bytes.hpp"
#include "mail/input_lines.hpp"
#include "mail/message_limits.hpp"
#include "mail/message_walk.hpp"
#include "mail/simple_message.hpp"
#include "text/ascii.hpp"
#include "text/charset.hpp"

#include <gmime/gmime.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <unordered_set>
#include <unistd.h>

namespace urlsift {

namespace {

using detail::gobject_ptr;
using detail::header_kind;
using detail::init_gmime;
using detail::from_unescaper;
using detail::unescape_from_lines;

/// A string GMime allocated, taken over.
std::string take(char* s) {
    std::string out = s != nullptr ? s : "";
    g_free(s);
    return out;
}

/// Hands the text of a text part to `block` in UTF-8, a block at a time,
/// all of it: RFC 2045 2.8 lets an 8bit or binary body hold a NUL (and
/// base64 or quoted-printable can encode one), which would end the C
/// string g_mime_text_part_get_text gives. A sequence the part's charset
/// cannot decode becomes U+FFFD rather than vanishing (GMime's conversion
/// drops it, joining the text on both sides into a URL the message does not
/// hold). A part that names no charset is read as UTF-8 with its invalid
/// bytes kept, as text input is: the scanner ends a URL at them. In a
/// mailbox, mboxrd escapes are undone. False when `block` returned false.
bool read_text_of(GMimePart* part, bool mbox, const std::function<bool(std::string_view)>& block) {
    GMimeDataWrapper* content = g_mime_part_get_content(part);
    if (content == nullptr) return true;
    std::optional<detail::charset_converter> converter;
    from_unescaper unescape;
    std::string converted, unescaped;
    // The stages after the transfer decoding, on one block of its output.
    const auto pass = [&](std::string_view decoded, bool last) {
        std::string_view text = decoded;
        if (converter) {
            converted.clear();
            converter->feed(decoded, converted);
            if (last) converter->finish(converted);
            text = converted;
        }
        if (mbox) {
            unescaped.clear();
            unescape.feed(text, unescaped);
            if (last) unescape.finish(unescaped);
            text = unescaped;
        }
        return text.empty() || block(text);
    };
    if (const char* charset =
            g_mime_content_type_get_parameter(g_mime_object_get_content_type(GMIME_OBJECT(part)), "charset")) {
        std::string error;
        converter = detail::charset_converter::open(charset, error);
        if (!converter) converter = detail::charset_converter::open(g_mime_charset_iconv_name(charset), error);
        if (!converter) return pass(take(g_mime_text_part_get_text(GMIME_TEXT_PART(part))), true);  // a name only iconv knows
    }
    detail::transfer_decoder decoder(g_mime_data_wrapper_get_encoding(content));
    std::string decoded;
    GMimeStream* stream = g_mime_data_wrapper_get_stream(content);
    g_mime_stream_reset(stream);
    char buffer[65536];
    for (gssize n; (n = g_mime_stream_read(stream, buffer, sizeof buffer)) > 0;) {
        decoded.clear();
        decoder.feed({buffer, static_cast<std::size_t>(n)}, decoded);
        if (!pass(decoded, false)) return false;
    }
    decoded.clear();
    decoder.finish(decoded);
    return pass(decoded, true);
}

/// The whole text `read_text_of` gives.
std::string text_of(GMimePart* part, bool mbox) {
    std::string text;
    read_text_of(part, mbox, [&text](std::string_view block) {
        text += block;
        return true;
    });
    return text;
}

/// The size of a part's body as the message holds it; -1 when unknown.
gint64 body_size(GMimePart* part) {
    GMimeDataWrapper* content = g_mime_part_get_content(part);
    return content != nullptr ? g_mime_stream_length(g_mime_data_wrapper_get_stream(content)) : -1;
}

/// The most soft line breaks a part's line map holds (4 bytes each).
constexpr std::size_t max_soft_breaks = 1 << 16;

/// For a quoted-printable body: the line of its decoded text that each soft
/// line break continues (RFC 2045 6.7, rule 5: an `=` ends the line; as
/// GMime's decoder reads it, right before the line break, CR LF or LF).
/// False when the decoded lines cannot be told from the input's that way:
/// an encoded line break (`=0A`, `=0D`), or more than max_soft_breaks
/// breaks.
bool soft_breaks_of(GMimePart* part, std::vector<std::uint32_t>& breaks) {
    breaks.clear();
    GMimeStream* stream = g_mime_data_wrapper_get_stream(g_mime_part_get_content(part));
    g_mime_stream_reset(stream);
    std::uint32_t line = 1;
    char last = 0;       // the line's last byte but a CR
    char before[2] = {}; // the two bytes before the one read
    char buffer[65536];
    for (gssize n; (n = g_mime_stream_read(stream, buffer, sizeof buffer)) > 0;) {
        for (const char c : std::string_view(buffer, static_cast<std::size_t>(n))) {
            if (before[0] == '=' && before[1] == '0' && (detail::to_lower(c) == 'a' || detail::to_lower(c) == 'd'))
                return false;
            before[0] = before[1];
            before[1] = c;
            if (c == '\n') {
                if (last != '=') {
                    ++line;
                } else if (breaks.size() == max_soft_breaks) {
                    return false;
                } else {
                    breaks.push_back(line);
                }
                last = 0;
            } else if (c != '\r') {
                last = c;
            }
        }
    }
    g_mime_stream_reset(stream);
    return true;
}

/// Whether `value` (a Content-Type field body) starts with `type/subtype`,
/// each a token (RFC 2045 5.1).
bool valid_media_type(std::string_view value) {
    const auto token = [](std::string_view t) {
        constexpr std::string_view specials = "()<>@,;:\\\"/[]?=";
        return !t.empty() && std::all_of(t.begin(), t.end(), [&](char c) {
            return static_cast<unsigned char>(c) > 0x20 && static_cast<unsigned char>(c) < 0x7F &&
                   specials.find(c) == std::string_view::npos;
        });
    };
    const std::string_view media = detail::trim_white(value.substr(0, value.find(';')));
    const std::size_t slash = media.find('/');
    return slash != std::string_view::npos && token(media.substr(0, slash)) && token(media.substr(slash + 1));
}

/// RFC 2045 5.2: a syntactically invalid Content-Type is taken as
/// text/plain (GMime reads it as application/octet-stream).
bool has_invalid_type(GMimeObject* object) {
    const char* raw = g_mime_object_get_header(object, "Content-Type");
    return raw != nullptr && !valid_media_type(raw);
}

std::string child_path(const std::string& parent, int index) {
    return (parent.empty() ? "" : parent + ".") + std::to_string(index + 1);
}

/// How a note names the part at `path`: nothing for the message's own
/// body (the note follows the message's number).
std::string part_prefix(const std::string& path) { return path.empty() ? std::string() : "part " + path + ": "; }

std::string lower(std::string s) {
    for (char& c : s) c = detail::to_lower(c);
    return s;
}

bool is_text(GMimeObject* object) {
    return g_mime_content_type_is_type(g_mime_object_get_content_type(object), "text", "*") != 0 ||
           has_invalid_type(object);
}

/// `url` resolved against `base` when it is relative; nullopt when it cannot
/// be made absolute.
std::optional<std::string> absolute(const std::string& url, const std::optional<std::string>& base) {
    if (auto made = resolver::make(url)) return url;
    if (!base) return std::nullopt;
    auto b = resolver::make(*base);
    if (!b) return std::nullopt;
    auto r = b->resolve(url);
    if (!r) return std::nullopt;
    return std::move(*r);
}

/// The base an entity's own headers give it (Section 5.1.1; RFC 2110:
/// Content-Base first, then Content-Location): the first URL of the first
/// that has one it can make absolute against `enclosing`. Null: no such
/// header.
std::optional<std::string> location_base(const char* content_base, const char* content_location,
                                         const std::optional<std::string>& enclosing) {
    for (const char* value : {content_base, content_location}) {
        if (value == nullptr) continue;
        std::vector<std::string> urls;
        detail::header_url_values(header_kind::location, value, urls);
        if (urls.empty()) continue;
        if (auto url = absolute(urls.front(), enclosing)) return url;
    }
    return std::nullopt;
}

/// The most URLs read from one header line.
constexpr std::size_t max_urls_a_header = 1024;

/// Adds to `m` the URLs of one header line, of `kind`, named `name` (as
/// written), whose unfolded value is `value`. `listed` holds the path, name
/// and URL of each header URL `m` lists: each is listed once (GMime keeps
/// the Content-* headers of a message with its body too).
void list_header_urls(mail_message& m, std::unordered_set<std::string>& listed, header_kind kind,
                      std::string_view name, std::string_view value, const std::string& path,
                      const std::optional<std::string>& base, std::uint64_t line) {
    std::vector<std::string> urls;
    // A List-* header names a few URLs (RFC 2369); thousands are no
    // list's, and each listed costs memory until the message ends.
    const std::size_t found = detail::header_url_values(kind, value, urls, max_urls_a_header);
    if (found > max_urls_a_header)
        m.notes.push_back(part_prefix(path) + std::string(name) + " holds " +
                          std::to_string(found) + " URLs: only the first " + std::to_string(max_urls_a_header) +
                          " are read");
    const auto key = [](std::string_view p, std::string_view n, std::string_view u) {
        std::string k(p);
        k.append(1, '\0').append(n).append(1, '\0').append(u);
        return k;
    };
    // A message's few are compared one by one; past that they go in the
    // set, since one header line may hold hundreds of thousands of URLs.
    constexpr std::size_t few = 32;
    for (auto& u : urls) {
        if (listed.empty() && m.header_urls.size() < few) {
            if (std::any_of(m.header_urls.begin(), m.header_urls.end(), [&](const header_url& h) {
                    return h.value == u && h.header == name && h.path == path;
                }))
                continue;
        } else {
            if (listed.empty())
                for (const header_url& h : m.header_urls) listed.insert(key(h.path, h.header, h.value));
            if (!listed.insert(key(path, name, u)).second) continue;
        }
        m.header_urls.push_back({std::string(name), std::move(u), path, base, line});
    }
}

/// Where the walk through a message is.
struct context {
    std::optional<std::string> base; ///< the nearest enclosing base, absolute
    /// Inside an alternative to the text/plain part at this path: HTML gives
    /// only the links that part lacks, other plain text is a copy.
    std::string alternative_of;
    /// Inside a multipart/signed or multipart/encrypted part (RFC 1847):
    /// "signed" or "encrypted", and the part's path; empty outside one.
    std::string_view sealed_as;
    std::string sealed_path;
};

class message_reader {
public:
    /// `lines` (null: none) gives the input's line numbers.
    message_reader(mail_message& m, bool mbox, std::size_t parse_memory, detail::input_lines* lines)
        : m_(m), mbox_(mbox), parse_memory_(parse_memory), lines_(lines) {}
    /// A reader that hands each leaf to `visit` rather than reading it.
    message_reader(mail_message& m, const detail::leaf_visitor& visit) : m_(m), mbox_(false), visit_(&visit) {}

    /// A message: its headers, then its body. `path` is "" for the message
    /// read, else the path of the message/rfc822 part that holds it.
    void read_message(GMimeMessage* message, const std::string& path, const context& ctx) {
        read_header_urls(GMIME_OBJECT(message), path, ctx.base);
        GMimeObject* body = g_mime_message_get_mime_part(message);
        if (body == nullptr) return;
        // IMAP numbering: a multipart body's children are 1, 2, ...; a
        // single body is part 1 (of the message/rfc822 part: PATH.1).
        if (GMIME_IS_MULTIPART(body))
            read_entity(body, path, ctx, &path);
        else
            read_entity(body, child_path(path, 0), ctx, &path);
    }

private:
    /// Content-Base or Content-Location of `object`, made absolute against
    /// the enclosing base.
    static std::optional<std::string> own_base(GMimeObject* object, const std::optional<std::string>& enclosing) {
        return location_base(g_mime_object_get_header(object, "Content-Base"),
                             g_mime_object_get_header(object, "Content-Location"), enclosing);
    }

    /// `in_input`: the headers were parsed from the input, so GMime's
    /// offsets of them are the input's.
    void read_header_urls(GMimeObject* object, const std::string& path, const std::optional<std::string>& base,
                          bool in_input = true) {
        if (visit_ != nullptr) return;
        GMimeHeaderList* headers = g_mime_object_get_header_list(object);
        if (headers == nullptr) return;
        const int n = g_mime_header_list_get_count(headers);
        for (int i = 0; i < n; ++i) {
            GMimeHeader* h = g_mime_header_list_get_header_at(headers, i);
            const char* name = g_mime_header_get_name(h);
            const header_kind kind = detail::url_header_kind(name);
            // Everything else (Received, Message-ID, References, DKIM-*,
            // Authentication-Results, ...) is trace or identity, never prose.
            if (kind == header_kind::none) continue;
            const char* value = g_mime_header_get_value(h);
            if (value == nullptr) continue;
            const std::uint64_t line =
                in_input && lines_ != nullptr ? lines_->line_at(g_mime_header_get_offset(h)) : 0;
            list_header_urls(m_, listed_headers_, kind, name, value, path, base, line);
        }
    }

    /// One entity of the body at `path`. `message_path`: for the message's
    /// own body, the path of the message, whose headers these are.
    void read_entity(GMimeObject* object, const std::string& path, const context& ctx,
                     const std::string* message_path = nullptr) {
        read_header_urls(object, message_path != nullptr ? *message_path : path, ctx.base);
        const std::optional<std::string> own = own_base(object, ctx.base);
        context inner = ctx;
        if (own) inner.base = own;
        if (inner.sealed_as.empty() && (GMIME_IS_MULTIPART_SIGNED(object) || GMIME_IS_MULTIPART_ENCRYPTED(object))) {
            inner.sealed_path = path;
            inner.sealed_as = GMIME_IS_MULTIPART_SIGNED(object) ? "signed" : "encrypted";
        }
        if (GMIME_IS_MULTIPART(object)) {
            read_multipart(GMIME_MULTIPART(object), path, inner);
        } else if (GMIME_IS_MESSAGE_PART(object)) {
            GMimeMessage* message = g_mime_message_part_get_message(GMIME_MESSAGE_PART(object));
            if (message != nullptr) read_message(message, path, inner);
        } else if (GMIME_IS_PART(object)) {
            read_leaf(GMIME_PART(object), path, inner, own);
        }
    }

    void read_multipart(GMimeMultipart* multipart, const std::string& path, const context& ctx) {
        const int n = g_mime_multipart_get_count(multipart);
        GMimeObject* object = GMIME_OBJECT(multipart);
        int plain = -1;
        // A visitor sees every part; what is read of an alternative is
        // read_leaf's concern.
        if (visit_ != nullptr) {
            for (int i = 0; i < n; ++i) read_entity(g_mime_multipart_get_part(multipart, i), child_path(path, i), ctx);
            return;
        }
        // RFC 2046 section 5.1.4: the parts are the same content. The plain
        // text is what the writer saw; the HTML may hold links it lacks.
        if (ctx.alternative_of.empty() &&
            g_mime_content_type_is_type(g_mime_object_get_content_type(object), "multipart", "alternative") != 0) {
            for (int i = 0; i < n && plain < 0; ++i) {
                GMimeObject* child = g_mime_multipart_get_part(multipart, i);
                if (g_mime_content_type_is_type(g_mime_object_get_content_type(child), "text", "plain") != 0) plain = i;
            }
        }
        if (plain >= 0) {
            const std::string plain_path = child_path(path, plain);
            read_entity(g_mime_multipart_get_part(multipart, plain), plain_path, ctx);
            context other = ctx;
            other.alternative_of = plain_path;
            for (int i = 0; i < n; ++i)
                if (i != plain) read_entity(g_mime_multipart_get_part(multipart, i), child_path(path, i), other);
            return;
        }
        for (int i = 0; i < n; ++i) read_entity(g_mime_multipart_get_part(multipart, i), child_path(path, i), ctx);
        if (n == 0) read_unparted(multipart, path, ctx);
    }

    /// A multipart in which GMime found no part: its parts nest deeper than
    /// GMime reads (1,024 levels), or its boundary is never used. GMime
    /// keeps what it holds as the preamble, which no reader shows; it is
    /// read as plain text, undecoded, so that nothing it holds is hidden.
    void read_unparted(GMimeMultipart* multipart, const std::string& path, const context& ctx) {
        const char* preamble = g_mime_multipart_get_prologue(multipart);
        if (preamble == nullptr || *preamble == '\0') return;
        mail_part p;
        p.path = child_path(path, 0);
        p.content_type = "text/plain";
        p.text = preamble;
        if (ctx.base) {
            p.base = ctx.base;
            p.base_from = base_source::enclosing;
        }
        // A path 1,024 levels deep is 2 KB: its start and its depth say enough.
        const auto levels = static_cast<std::size_t>(std::count(path.begin(), path.end(), '.')) + 1;
        const std::string where =
            path.size() <= 40 ? path : path.substr(0, 19) + "... (" + std::to_string(levels) + " levels)";
        m_.notes.push_back(part_prefix(where) + "no part of this multipart could be read (nested more than 1024 deep, "
                           "or a boundary never used): what it holds is read as plain text, undecoded");
        m_.parts.push_back(std::move(p));
    }

    void read_leaf(GMimePart* part, const std::string& path, const context& ctx, const std::optional<std::string>& own) {
        GMimeObject* object = GMIME_OBJECT(part);
        if (visit_ != nullptr) {
            mail_part p = leaf_info(object, path, ctx, own);
            (*visit_)({part, p, ctx.sealed_as, ctx.sealed_path});
            return;
        }
        // Attachments that are not text (images, archives, PDF) hold no
        // text to read; a text attachment (a patch, a log) is read.
        if (!is_text(object) || !GMIME_IS_TEXT_PART(object)) return;
        GMimeContentType* type = g_mime_object_get_content_type(object);
        if (g_mime_content_type_is_type(type, "text", "rfc822-headers") != 0) {
            read_header_block(part, path, ctx);
            return;
        }
        bool html = g_mime_content_type_is_type(type, "text", "html") != 0;
        if (!html && !ctx.alternative_of.empty()) return;
        mail_part p = leaf_info(object, path, ctx, own);
        if (has_invalid_type(object)) p.content_type = "text/plain";
        const char* format = g_mime_content_type_get_parameter(type, "format");
        const bool flowed = format != nullptr && detail::iequals(format, "flowed");
        place_body(p, part, flowed);
        if (html && body_size(part) > static_cast<gint64>(held_document_bytes(parse_memory_))) {
            // Held whole with its tree, it would take more than a document may.
            m_.notes.push_back(part_prefix(path) + "its HTML is larger than " + memory_size(held_document_bytes(parse_memory_)) +
                               ", half the memory a document's parse may take: read as plain text");
            html = false;
            p.html = false;
        }
        if (!html && !flowed && body_size(part) > static_cast<gint64>(large_part_bytes)) {
            // Read when it is scanned, a block at a time: the message, and
            // so the part, lives while the sink has it.
            p.read_text = [part, mbox = mbox_](const std::function<bool(std::string_view)>& block) {
                return read_text_of(part, mbox, block);
            };
            m_.parts.push_back(std::move(p));
            return;
        }
        std::string text = text_of(part, mbox_);
        detail::html_document doc;
        if (html) doc = detail::read_html(text, parse_memory_);
        if (!doc.unread.empty()) {
            // Read as plain text, its URLs are still seen: a part the
            // HTML reader refuses must not hide them from a report or the
            // picker.
            m_.notes.push_back(part_prefix(path) + doc.unread + ": read as plain text");
            p.html = false;
            p.text = std::move(text);
        } else if (html) {
            p.links = std::move(doc.links);
            if (doc.base)
                if (auto b = absolute(*doc.base, p.base)) {
                    p.base = std::move(b);
                    p.base_from = base_source::html;
                }
        } else {
            if (flowed) {
                const char* delsp = g_mime_content_type_get_parameter(type, "delsp");
                text = detail::unflow(text, delsp != nullptr && detail::iequals(delsp, "yes"));
            }
            p.text = std::move(text);
        }
        m_.parts.push_back(std::move(p));
    }

    /// A `text/rfc822-headers` part (RFC 6522 3.3: the headers of a message
    /// a bounce returns) is a header block, no prose: its URL headers are
    /// read as a message's own are, and its relays and identifiers are not.
    void read_header_block(GMimePart* part, const std::string& path, const context& ctx) {
        const std::string block = text_of(part, mbox_) + "\n\n";
        const gobject_ptr<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(block.data(), block.size()));
        const gobject_ptr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
        g_mime_parser_set_format(parser.get(), GMIME_FORMAT_MESSAGE);
        const gobject_ptr<GMimeMessage> headers(g_mime_parser_construct_message(parser.get(), nullptr));
        if (headers) read_header_urls(GMIME_OBJECT(headers.get()), path, ctx.base, false);
    }

    /// A leaf's path, content type and base (Section 5.1: its own
    /// Content-Base/Content-Location, else the enclosing entities'), without
    /// its text.
    static mail_part leaf_info(GMimeObject* object, const std::string& path, const context& ctx,
                               const std::optional<std::string>& own) {
        GMimeContentType* type = g_mime_object_get_content_type(object);
        mail_part p;
        p.path = path;
        p.content_type = lower(take(g_mime_content_type_get_mime_type(type)));
        p.html = g_mime_content_type_is_type(type, "text", "html") != 0;
        p.alternative_of = ctx.alternative_of;
        if (own) {
            p.base = own;
            p.base_from = base_source::part;
        } else if (ctx.base) {
            p.base = ctx.base;
            p.base_from = base_source::enclosing;
        }
        return p;
    }

    /// Where `part`'s body is in the input, when it is a piece of it.
    /// `joined`: its lines are joined as they are decoded (format=flowed).
    void place_body(mail_part& p, GMimePart* part, bool joined) {
        GMimeDataWrapper* content = g_mime_part_get_content(part);
        if (lines_ == nullptr || content == nullptr) return;
        const gint64 start = lines_->start_of(g_mime_data_wrapper_get_stream(content));
        if (start < 0) return;
        p.body_line = lines_->line_at(start);
        switch (g_mime_data_wrapper_get_encoding(content)) {
        case GMIME_CONTENT_ENCODING_DEFAULT:
        case GMIME_CONTENT_ENCODING_7BIT:
        case GMIME_CONTENT_ENCODING_8BIT:
        case GMIME_CONTENT_ENCODING_BINARY: p.lines_kept = p.body_line != 0 && !joined; break;
        case GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE:
            p.lines_kept = p.body_line != 0 && !joined && body_size(part) <= static_cast<gint64>(large_part_bytes) &&
                           soft_breaks_of(part, p.soft_breaks);
            break;
        default: break;  // base64, uuencode: lines of their own
        }
    }

    mail_message& m_;
    bool mbox_;
    std::size_t parse_memory_ = default_parse_memory; ///< for each HTML part
    detail::input_lines* lines_ = nullptr;
    std::unordered_set<std::string> listed_headers_; ///< path, name and URL of each header URL listed
    const detail::leaf_visitor* visit_ = nullptr;
};

/// In a mailbox, the message whose `From ` line starts at `marker` and that
/// GMime could not read as a message (no header block after that line, as
/// in a digest pasted into a mailbox): its lines up to the next `From `
/// line, read as plain text. `next` is set to where that line starts (-1
/// at the end). False when `stream` cannot seek back to it (a pipe).
bool read_unparsed(GMimeStream* stream, gint64 marker, std::string& text, gint64& next) {
    if (g_mime_stream_seek(stream, marker, GMIME_STREAM_SEEK_SET) != marker) return false;
    std::string bytes;
    char buffer[65536];
    std::size_t body = std::string::npos, search = 0;
    next = -1;
    for (;;) {
        const gssize got = g_mime_stream_read(stream, buffer, sizeof buffer);
        if (got > 0) bytes.append(buffer, static_cast<std::size_t>(got));
        if (body == std::string::npos && (body = bytes.find('\n')) != std::string::npos) search = ++body;
        if (body != std::string::npos) {
            if (const auto at = bytes.find("\nFrom ", search - 1); at != std::string::npos) {
                next = marker + static_cast<gint64>(at + 1);
                bytes.resize(at + 1);
                break;
            }
            search = std::max(search, bytes.size() > 6 ? bytes.size() - 6 : search);
        }
        if (got <= 0) break;
    }
    text = body == std::string::npos ? std::string() : bytes.substr(body);
    return true;
}

/// Hands bytes [from, to) of `input` (a memory stream, or a file stream
/// read with pread(2)) to `block`, a block at a time; in a mailbox, mboxrd
/// escapes undone. False when `block` returned false.
bool read_range(GMimeStream* input, gint64 from, gint64 to, bool mbox,
                const std::function<bool(std::string_view)>& block) {
    from_unescaper unescape;
    std::string unescaped;
    const auto pass = [&](std::string_view bytes, bool last) {
        if (!mbox) return bytes.empty() || block(bytes);
        unescaped.clear();
        unescape.feed(bytes, unescaped);
        if (last) unescape.finish(unescaped);
        return unescaped.empty() || block(unescaped);
    };
    char buffer[65536];
    for (gint64 at = from; at < to;) {
        std::string_view bytes;
        if (GMIME_IS_STREAM_MEM(input)) {
            const GByteArray* all = GMIME_STREAM_MEM(input)->buffer;
            const gint64 end = std::min<gint64>({to, static_cast<gint64>(all->len), at + gint64{1 << 20}});
            if (end <= at) break;
            bytes = {reinterpret_cast<const char*>(all->data) + at, static_cast<std::size_t>(end - at)};
        } else {
            const auto want = static_cast<std::size_t>(std::min<gint64>(to - at, sizeof buffer));
            const ssize_t n = ::pread(GMIME_STREAM_FS(input)->fd, buffer, want, at);
            if (n <= 0) break;
            bytes = {buffer, static_cast<std::size_t>(n)};
        }
        at += static_cast<gint64>(bytes.size());
        if (!pass(bytes, false)) return false;
    }
    return pass({}, true);
}

/// A message GMime would need more than its cap to hold
/// (detail::oversized_messages), read as plain text: its bytes after a
/// mailbox's `From ` line, as they are, a block at a time.
mail_message unparsed_message(GMimeStream* input, const detail::oversized_message& over, bool mbox,
                              std::uint64_t number, std::size_t cap, detail::input_lines& lines) {
    mail_message m;
    m.number = number;
    m.offset = mbox ? static_cast<std::uint64_t>(over.start) : 0;
    mail_part p;
    p.path = "1";
    p.content_type = "text/plain";
    lines.mark(over.start);
    if (const std::uint64_t line = lines.line_at(over.body)) {
        p.body_line = line;
        p.lines_kept = true;
    }
    p.read_text = [input, from = over.body, to = over.end, mbox](const std::function<bool(std::string_view)>& block) {
        return read_range(input, from, to, mbox, block);
    };
    m.parts.push_back(std::move(p));
    m.notes.push_back(over.why + ": reading it as mail would take more than " + memory_size(cap) +
                      " (half of --max-memory): read as plain text, undecoded");
    return m;
}

/// A simple message (simple_message.hpp) made into what read_mail hands
/// on, as the GMime path below makes it: `view` holds its bytes from
/// offset `at` of the input. False when its charset is one ICU cannot
/// open (GMime's conversion then reads it).
bool from_simple(const detail::simple_message& s, std::string_view view, gint64 at, bool mbox,
                 detail::input_lines& lines, std::unordered_set<std::string>& listed, mail_message& m) {
    const std::string_view body = view.substr(s.body_begin, s.body_end - s.body_begin);
    // What most mail says, UTF-8, and US-ASCII when the body is ASCII, is
    // read as the charset converter would read it (UTF-8 passes through,
    // ASCII is the same in both) without opening one.
    const auto ascii = [&body] {
        return std::none_of(body.begin(), body.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    };
    std::optional<detail::charset_converter> converter;
    if (s.charset && !detail::iequals(*s.charset, "utf-8") && !(detail::iequals(*s.charset, "us-ascii") && ascii())) {
        std::string error;
        converter = detail::charset_converter::open(*s.charset, error);
        if (!converter) return false;
    }
    if (mbox) m.offset = static_cast<std::uint64_t>(at);
    m.message_id = s.message_id;
    m.automatic = s.automatic;
    lines.lend(view, at);
    lines.mark(at);
    listed.clear();
    const std::string path;  // the message's own headers, and its body's
    for (const auto* headers : {&s.url_headers, &s.part_url_headers})
        for (const detail::simple_header& h : *headers)
            list_header_urls(m, listed, h.kind, h.name, h.value, path, std::nullopt,
                             lines.line_at(at + static_cast<gint64>(h.offset)));
    mail_part p;
    p.path = "1";
    p.content_type = "text/plain";
    if (auto own = location_base(s.content_base ? s.content_base->c_str() : nullptr,
                                 s.content_location ? s.content_location->c_str() : nullptr, std::nullopt)) {
        p.base = std::move(own);
        p.base_from = base_source::part;
    }
    p.body_line = lines.line_at(at + static_cast<gint64>(s.body_begin));
    p.lines_kept = p.body_line != 0;
    lines.lend({}, -1);
    if (converter) {
        converter->feed(body, p.text);
        converter->finish(p.text);
    } else {
        p.text = body;
    }
    if (mbox) unescape_from_lines(p.text);
    m.parts.push_back(std::move(p));
    return true;
}

/// The most bytes of the input looked at for one simple message: its body
/// is at most large_part_bytes, and its headers are not many.
constexpr std::size_t simple_window_max = large_part_bytes + (std::size_t{1} << 20);

mail_read read_stream(GMimeStream* stream, mail_format format, const message_sink& sink, std::size_t parse_memory) {
    mail_read result;
    detail::input_lines lines(stream);
    const gobject_ptr<GMimeParser> parser(g_mime_parser_new_with_stream(stream));
    const bool mbox = format == mail_format::mbox;
    g_mime_parser_set_format(parser.get(), mbox ? GMIME_FORMAT_MBOX : GMIME_FORMAT_MESSAGE);
    // Simple messages are read here, the rest by GMime. `next` is where the
    // next message starts when that is known (-1: GMime is to find it), and
    // `parser_behind` says the parser has not read up to it: it starts
    // again there, as it would have gone on from there.
    detail::input_bytes bytes(stream);
    // GMime is given the input up to the next message it would need too
    // much memory for; that one is read here as plain text.
    bool has_cr = false;
    const std::vector<detail::oversized_message> oversized =
        detail::oversized_messages(stream, mbox, parse_memory, &has_cr);
    // Where a CR stands by the line break before a `From ` line, whether
    // GMime counts it in the body depends on where its reads of the input
    // end, so GMime reads a mailbox that holds one from its start to its
    // end, as it would alone (a fuzzing finding of the differential target).
    const bool simple = detail::simple_messages_on() && bytes.readable() && !(mbox && has_cr);
    detail::simple_message s;
    std::unordered_set<std::string> listed; // from_simple's, kept for its buckets
    gint64 next = simple ? stream->bound_start : -1;
    bool parser_behind = false;
    // The mailbox after a message GMime could not read, or after those read
    // here; GMime's offsets in it count from the start of `stream`.
    gobject_ptr<GMimeStream> rest;
    std::size_t next_oversized = 0;
    const auto parse_from = [&](gint64 from) {
        const gint64 to = next_oversized < oversized.size() ? oversized[next_oversized].start : -1;
        rest.reset(g_mime_stream_substream(stream, from, to));
        g_mime_parser_init_with_stream(parser.get(), rest.get());
    };
    if (!oversized.empty()) parse_from(stream->bound_start);
    gint64 last_marker = -1;  // the `From ` line of the message read last
    // Reads the oversized message that comes next; false to stop reading.
    const auto read_oversized = [&]() {
        const detail::oversized_message& over = oversized[next_oversized++];
        mail_message m = unparsed_message(stream, over, mbox, result.messages + 1, parse_memory, lines);
        ++result.messages;
        last_marker = over.start;
        if (!sink(m)) {
            result.what = mail_read::status::stopped;
            return false;
        }
        if (!mbox) return false;
        if (simple) {
            next = over.end;
            parser_behind = true;
        } else {
            parse_from(over.end);
        }
        return true;
    };
    for (;;) {
        if (next >= 0 && next_oversized < oversized.size() && oversized[next_oversized].start == next) {
            next = -1;
            if (!read_oversized()) break;
            continue;
        }
        if (next >= 0) {
            std::size_t want = std::size_t{64} << 10;
            bool at_end = false;
            std::string_view view;
            detail::simple_read got = detail::simple_read::needs_more;
            while (got == detail::simple_read::needs_more) {
                view = bytes.at(next, want, at_end);
                got = detail::read_simple_message(view, mbox, at_end, large_part_bytes, s);
                if (want == simple_window_max) break;
                want = std::min(want * 4, simple_window_max);
            }
            mail_message m;
            m.number = result.messages + 1;
            if (got == detail::simple_read::read && from_simple(s, view, next, mbox, lines, listed, m)) {
                if (mbox) last_marker = next;
                ++result.messages;
                if (!sink(m)) {
                    result.what = mail_read::status::stopped;
                    break;
                }
                // GMime's parser finds no message after the last.
                if (!mbox || (s.next == view.size() && next_oversized == oversized.size())) break;
                next += static_cast<gint64>(s.next);
                parser_behind = true;
                continue;
            }
            if (parser_behind) {
                parse_from(next);
                parser_behind = false;
            }
        }
        next = -1;
        if (g_mime_parser_eos(parser.get())) {
            if (next_oversized == oversized.size() || !read_oversized()) break;
            continue;
        }
        const gobject_ptr<GMimeMessage> message(g_mime_parser_construct_message(parser.get(), nullptr));
        mail_message m;
        m.number = result.messages + 1;
        if (!message) {
            // Where the message's `From ` line is; none: no mailbox.
            const gint64 marker = mbox ? g_mime_parser_get_mbox_marker_offset(parser.get()) : -1;
            if (marker <= last_marker) {
                if (result.messages == 0) {
                    result.what = mail_read::status::failed;
                    result.error = mbox ? "not a mailbox (no 'From ' line starts it)" : "not a mail message";
                }
                break;
            }
            // A message in a mailbox that has no header block: its text
            // is read as it is, and the mailbox goes on after it.
            m.offset = static_cast<std::uint64_t>(marker);
            mail_part p;
            p.path = "1";
            p.content_type = "text/plain";
            // Its text is the lines after the `From ` line, as they are.
            lines.mark(marker);
            if (const std::uint64_t from_line = lines.line_at(marker)) {
                p.body_line = from_line + 1;
                p.lines_kept = true;
            }
            gint64 after = -1;
            if (!read_unparsed(stream, static_cast<gint64>(m.offset), p.text, after)) {
                result.what = mail_read::status::failed;
                result.error = "message " + std::to_string(m.number) +
                               " has no header block, and the rest of the mailbox cannot be read past it here "
                               "(a pipe); give the file";
                break;
            }
            unescape_from_lines(p.text);
            m.parts.push_back(std::move(p));
            last_marker = marker;
            ++result.messages;
            if (!sink(m)) {
                result.what = mail_read::status::stopped;
                break;
            }
            if (after < 0 && next_oversized == oversized.size()) break;
            parse_from(after < 0 ? oversized[next_oversized].start : after);
            if (simple && after >= 0) next = after;
            continue;
        }
        if (mbox) {
            last_marker = g_mime_parser_get_mbox_marker_offset(parser.get());
            m.offset = static_cast<std::uint64_t>(std::max<gint64>(0, last_marker));
        }
        if (const char* id = g_mime_message_get_message_id(message.get())) m.message_id = id;
        m.automatic = detail::is_automatic_message(message.get());
        lines.mark(mbox ? last_marker : g_mime_parser_get_headers_begin(parser.get()));
        message_reader(m, mbox, parse_memory, &lines).read_message(message.get(), "", {});
        ++result.messages;
        if (!sink(m)) {
            result.what = mail_read::status::stopped;
            break;
        }
        if (!mbox) break;
        // The parser stops at the `From ` line of the message after this
        // one, where its next search for such a line starts.
        if (simple) {
            const gint64 at = g_mime_parser_tell(parser.get());
            bool at_end = false;
            if (bytes.at(at, 5, at_end).starts_with("From ")) next = at;
        }
    }
    return result;
}

}  // namespace

void detail::init_gmime() {
    static std::once_flag once;
    std::call_once(once, [] { g_mime_init(); });
}

detail::borrowed_stream::borrowed_stream(std::string_view bytes)
    // The array is never grown nor freed with its data (see the destructor):
    // GLib's hold on the bytes is in name only.
    : array_(g_byte_array_new_take(reinterpret_cast<guint8*>(const_cast<char*>(bytes.data())), bytes.size())),
      stream_(g_mime_stream_mem_new_with_byte_array(array_)) {
    g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(stream_.get()), FALSE);
}

detail::borrowed_stream::~borrowed_stream() {
    stream_.reset();
    g_byte_array_free(array_, FALSE);  // the array, not the bytes
}

detail::transfer_decoder::transfer_decoder(GMimeContentEncoding encoding) : encoding_(encoding) {
    decodes_ = encoding == GMIME_CONTENT_ENCODING_BASE64 || encoding == GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE ||
               encoding == GMIME_CONTENT_ENCODING_UUENCODE;
    if (decodes_) g_mime_encoding_init_decode(&state_, encoding);
}

void detail::transfer_decoder::step(std::string_view encoded, std::string& out, bool last) {
    const std::size_t at = out.size();
    out.resize(at + g_mime_encoding_outlen(&state_, encoded.size()) + 16);
    const std::size_t n = last ? g_mime_encoding_flush(&state_, encoded.data(), encoded.size(), out.data() + at)
                               : g_mime_encoding_step(&state_, encoded.data(), encoded.size(), out.data() + at);
    out.resize(at + n);
}

void detail::transfer_decoder::feed(std::string_view encoded, std::string& out) {
    if (!decodes_) {
        out.append(encoded);
        return;
    }
    if (encoding_ == GMIME_CONTENT_ENCODING_BASE64)
        for (const char c : encoded) {
            if (detail::is_alnum(c) || c == '+' || c == '/') ++base64_chars_;
            padded_ = padded_ || c == '=';
        }
    step(encoded, out, false);
}

void detail::transfer_decoder::finish(std::string& out) {
    if (!decodes_) return;
    // RFC 2045 6.8: a last quantum of two or three characters is padded
    // with `=`. Mailers that leave the padding out are common, and GMime's
    // decoder then drops the quantum: the padding is put back.
    std::string_view padding;
    if (encoding_ == GMIME_CONTENT_ENCODING_BASE64 && !padded_ && base64_chars_ % 4 >= 2)
        padding = std::string_view("==").substr(0, 4 - base64_chars_ % 4);
    step(padding, out, true);
    g_mime_encoding_reset(&state_);
    base64_chars_ = 0;
    padded_ = false;
}

std::string detail::decode_transfer(std::string_view encoded, GMimeContentEncoding encoding) {
    transfer_decoder decoder(encoding);
    std::string out;
    decoder.feed(encoded, out);
    decoder.finish(out);
    return out;
}

void detail::walk_leaves(GMimeMessage* message, const leaf_visitor& visit) {
    mail_message m;
    message_reader(m, visit).read_message(message, "", {});
}

std::string_view to_string(base_source s) noexcept {
    switch (s) {
    case base_source::html: return "html";
    case base_source::part: return "part";
    case base_source::enclosing: return "enclosing";
    case base_source::option: return "option";
    case base_source::none: break;
    }
    return "none";
}

std::optional<mail_format> sniff_mail(std::string_view head) noexcept {
    if (head.starts_with("From ")) return mail_format::mbox;
    // RFC 5322 section 2.2: a field name is printable ASCII but ':', then
    // ':'; a line starting with a blank continues the field before it.
    std::size_t fields = 0;
    bool first = true;
    while (!head.empty()) {
        const std::size_t nl = head.find('\n');
        if (nl == std::string_view::npos) break;  // a line cut off by the end of what was read
        std::string_view line = head.substr(0, nl);
        head.remove_prefix(nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) return fields > 0 ? std::optional(mail_format::message) : std::nullopt;
        if (line.front() == ' ' || line.front() == '\t') {
            if (first) return std::nullopt;
            continue;
        }
        const std::size_t colon = line.find(':');
        if (colon == 0 || colon == std::string_view::npos) return std::nullopt;
        for (char c : line.substr(0, colon))
            if (c <= ' ' || c > '~') return std::nullopt;
        // `http://x` on a line of its own is a URL, not a field.
        if (line.substr(colon + 1).starts_with("//")) return std::nullopt;
        ++fields;
        first = false;
    }
    // No blank line within what was read: a header block that long is mail.
    return fields >= 3 ? std::optional(mail_format::message) : std::nullopt;
}

mail_read read_mail(std::string_view bytes, mail_format format, const message_sink& sink,
                    std::size_t parse_memory) {
    init_gmime();
    const detail::borrowed_stream stream(bytes);
    return read_stream(stream.get(), format, sink, parse_memory);
}

mail_read read_mail_fd(int fd, mail_format format, const message_sink& sink, std::size_t parse_memory) {
    init_gmime();
    const int own = ::dup(fd);
    if (own < 0) return {mail_read::status::failed, "cannot duplicate the file descriptor", 0};
    // The stream owns (and closes) the duplicate; the caller keeps `fd`.
    // GMime's file stream reads a pipe as nothing: a pipe has a stream of
    // its own kind.
    const bool seekable = ::lseek(own, 0, SEEK_CUR) >= 0;
    const gobject_ptr<GMimeStream> stream(seekable ? g_mime_stream_fs_new(own) : g_mime_stream_pipe_new(own));
    return read_stream(stream.get(), format, sink, parse_memory);
}

}  // namespace urlsift
