// Rewriting the text parts of a message in place: GMime finds the parts and
// the byte range of each encoded body in the input (a persistent parser
// over the input keeps each body as a bounded substream of it); only the
// ranges of the parts the rewriter changes are written again, everything
// else is copied through.

#include <urlsift/mail.hpp>

#include "mail/automatic_message.hpp"
#include "mail/flowed.hpp"
#include "mail/message_limits.hpp"
#include "mail/message_walk.hpp"
#include "text/ascii.hpp"

#include <gmime/gmime.h>

#include <algorithm>
#include <set>
#include <vector>

namespace urlsift {

namespace {

using detail::gobject_ptr;

/// The encoded body of a part, replaced.
struct body_edit {
    std::size_t start = 0; ///< of the encoded body in the input
    std::size_t end = 0;
    std::string encoded;
};

enum class transfer { identity, quoted_printable, base64, other };

transfer transfer_of(GMimePart* part) {
    switch (g_mime_part_get_content_encoding(part)) {
    case GMIME_CONTENT_ENCODING_DEFAULT:
    case GMIME_CONTENT_ENCODING_7BIT:
    case GMIME_CONTENT_ENCODING_8BIT:
    case GMIME_CONTENT_ENCODING_BINARY: return transfer::identity;
    case GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE: return transfer::quoted_printable;
    case GMIME_CONTENT_ENCODING_BASE64: return transfer::base64;
    default: return transfer::other;
    }
}

/// `in` through GMime's encoder for `encoding`.
std::string encode_transfer(std::string_view in, GMimeContentEncoding encoding) {
    GMimeEncoding state;
    g_mime_encoding_init_encode(&state, encoding);
    std::string out(g_mime_encoding_outlen(&state, in.size()) + 16, '\0');
    const std::size_t n = g_mime_encoding_flush(&state, in.data(), in.size(), out.data());
    out.resize(n);
    return out;
}

/// Charsets whose text the rewriter reads as it is: UTF-8 and its ASCII
/// subset (and no charset, which RFC 2045 5.2 makes US-ASCII; a display
/// filter's decoded text is in the terminal's UTF-8 in practice).
bool reads_as_utf8(const char* charset) {
    if (charset == nullptr) return true;
    for (const char* name : {"utf-8", "utf8", "us-ascii", "ascii"})
        if (detail::iequals(charset, name)) return true;
    return false;
}

/// `in` converted between charsets, strictly: nullopt when a byte or a
/// character has no place in the other charset.
std::optional<std::string> convert(std::string_view in, const char* to, const char* from) {
    gsize written = 0;
    GError* error = nullptr;
    char* out = g_convert(in.data(), static_cast<gssize>(in.size()), to, from, nullptr, &written, &error);
    if (out == nullptr) {
        if (error != nullptr) g_error_free(error);
        return std::nullopt;
    }
    std::string s(out, written);
    g_free(out);
    return s;
}

/// Line ends as LF made CRLF.
std::string to_crlf(std::string_view s) {
    std::string out;
    out.reserve(s.size() + s.size() / 64);
    for (char c : s) {
        if (c == '\n') out += '\r';
        out += c;
    }
    return out;
}

bool is_pkcs7(GMimeObject* object) {
    GMimeContentType* type = g_mime_object_get_content_type(object);
    return g_mime_content_type_is_type(type, "application", "pkcs7-mime") != 0 ||
           g_mime_content_type_is_type(type, "application", "x-pkcs7-mime") != 0;
}

std::string edits_phrase(std::size_t n) { return std::to_string(n) + (n == 1 ? " edit" : " edits"); }

/// The rewriting of one message's parts.
class message_rewrite {
public:
    /// `automatic`: the message is one a program sent (automatic_message.hpp).
    message_rewrite(std::string_view bytes, const mail_rewrite_options& o, const mail_note_sink& note,
                    std::string where, bool automatic)
        : bytes_(bytes), o_(o), note_(note), where_(std::move(where)), automatic_(automatic) {}

    void visit(const detail::leaf_visit& v) {
        GMimeObject* object = GMIME_OBJECT(v.part);
        const std::string& path = v.info.path;
        // RFC 5751 3.2: an S/MIME entity is signed or encrypted as a whole.
        if (is_pkcs7(object)) {
            tell("part " + path + " (" + v.info.content_type + "): left unchanged: it is signed or encrypted (S/MIME)");
            return;
        }
        if (v.sealed_as == "encrypted") {
            if (sealed_told_.insert(std::string(v.sealed_path)).second)
                tell(sealed_part(v) + ": left unchanged: it is encrypted");
            return;
        }
        if (v.info.content_type != "text/plain") return;  // HTML and attachments are left as they are
        std::optional<body_edit> e = rewrite_part(v);
        if (!e) return;
        if (!v.sealed_as.empty()) {
            // RFC 1847 2.1: the signature covers the signed part's bytes.
            tell("part " + path + ": left unchanged: it is signed (" + sealed_part(v) + "; " +
                 edits_phrase(last_edits_) + " not made)");
            return;
        }
        edits_ += last_edits_;
        body_edits_.push_back(std::move(*e));
    }

    std::vector<body_edit>& body_edits() { return body_edits_; }
    std::uint64_t edits() const { return edits_; }

private:
    /// "multipart/signed part 2", or "multipart/signed body" of the message.
    static std::string sealed_part(const detail::leaf_visit& v) {
        const std::string kind = "multipart/" + std::string(v.sealed_as);
        return v.sealed_path.empty() ? kind + " body" : kind + " part " + std::string(v.sealed_path);
    }

    void tell(const std::string& what) {
        if (note_) note_(where_ + what);
    }

    /// The part's body rewritten and encoded again; nullopt when nothing
    /// changes or it cannot be written (told).
    std::optional<body_edit> rewrite_part(const detail::leaf_visit& v) {
        GMimePart* part = v.part;
        const std::string& path = v.info.path;
        const transfer how = transfer_of(part);
        if (how == transfer::other) return std::nullopt;
        GMimeDataWrapper* content = g_mime_part_get_content(part);
        GMimeStream* stream = content != nullptr ? g_mime_data_wrapper_get_stream(content) : nullptr;
        if (stream == nullptr) return std::nullopt;
        // The persistent parser keeps the body as the input's bytes
        // [bound_start, bound_end); a part GMime made up (an empty body) has none.
        const gint64 start = stream->bound_start;
        const gint64 end = stream->bound_end < 0 ? static_cast<gint64>(bytes_.size()) : stream->bound_end;
        if (start < 0 || end < start || end > static_cast<gint64>(bytes_.size())) return std::nullopt;
        const std::string_view encoded =
            bytes_.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start));
        if (const std::size_t most = o_.parse_memory / 8; encoded.size() > most) {
            // Its text is held decoded, rewritten and encoded again.
            tell("part " + path + ": left unchanged: its body is larger than " + memory_size(most) +
                 " (a sixteenth of --max-memory), the most a part rewritten may be");
            return std::nullopt;
        }
        const GMimeContentEncoding encoding = g_mime_part_get_content_encoding(part);

        std::string raw = detail::decode_transfer(encoded, encoding);
        GMimeContentType* type = g_mime_object_get_content_type(GMIME_OBJECT(part));
        const char* charset = g_mime_content_type_get_parameter(type, "charset");
        const bool utf8 = reads_as_utf8(charset);
        const char* iconv_name = utf8 ? "UTF-8" : g_mime_charset_iconv_name(charset);
        std::string text;
        if (utf8) {
            text = std::move(raw);  // not read again on this path
        } else if (auto t = convert(raw, "UTF-8", iconv_name)) {
            text = std::move(*t);
        } else {
            tell("part " + path + ": left as it is: its text is not " + charset + " as declared");
            return std::nullopt;
        }
        // RFC 3676 4.2: the rewriter reads flowed paragraphs joined.
        const char* format = g_mime_content_type_get_parameter(type, "format");
        const bool flowed = format != nullptr && detail::iequals(format, "flowed");
        const char* delsp_value = g_mime_content_type_get_parameter(type, "delsp");
        const bool delsp = delsp_value != nullptr && detail::iequals(delsp_value, "yes");
        std::vector<std::size_t> origin;
        const std::string read = flowed ? detail::unflow(text, delsp, &origin) : std::string();

        rewrite_options ro = o_.rewrite;
        if (automatic_) ro.scan.abbrev = detail::automatic_message_abbrev(ro.scan.abbrev);
        if (v.info.base)
            if (auto b = resolver::make(*v.info.base, o_.resolve)) ro.base = std::move(*b);
        std::string rewritten;
        std::vector<rewrite_edit> edits;
        rewriter w(
            std::move(ro),
            [&](std::string_view s) {
                rewritten += s;
                return true;
            },
            [&](const rewrite_edit& e) { edits.push_back(e); });
        w.feed(flowed ? std::string_view(read) : std::string_view(text));
        w.finish();
        last_edits_ = edits.size();
        if (edits.empty()) return std::nullopt;
        if (flowed) rewritten = detail::reflow_edits(text, delsp, origin, edits);

        std::string new_raw;
        const auto unwritable = [&] {
            tell("part " + path + ": left unchanged: the rewritten text cannot be written in its charset " + charset +
                 " (" + edits_phrase(edits.size()) + " not made)");
        };
        const auto non_ascii = [](const rewrite_edit& e) {
            return std::any_of(e.replacement.begin(), e.replacement.end(),
                               [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
        };
        // A part that says it is ASCII holds no other byte.
        if (utf8 && charset != nullptr && !detail::iequals(charset, "utf-8") && !detail::iequals(charset, "utf8") &&
            std::any_of(edits.begin(), edits.end(), non_ascii)) {
            unwritable();
            return std::nullopt;
        }
        if (utf8) {
            new_raw = std::move(rewritten);
        } else {
            // The bytes outside the edits must come back as they were.
            const auto back = convert(text, iconv_name, "UTF-8");
            auto made = convert(rewritten, iconv_name, "UTF-8");
            if (!back || *back != raw || !made) {
                unwritable();
                return std::nullopt;
            }
            new_raw = std::move(*made);
        }
        // Nothing reads the decoded text again: a large part's copy goes
        // before the encoded one is made.
        std::string().swap(text);
        std::string().swap(raw);

        std::string out;
        if (how == transfer::identity) {
            out = std::move(new_raw);
        } else {
            // RFC 2045 6.7 and 6.8: encoded lines at most 76 characters,
            // GMime's encoders keep to it. They write LF; the body's own
            // line ends are kept.
            out = encode_transfer(new_raw, encoding);
            const bool crlf = encoded.find("\r\n") != std::string_view::npos;
            if (crlf) out = to_crlf(out);
            // The body ends as it did: with a line end or without (the one
            // before a boundary belongs to the boundary, RFC 2046 5.1.1).
            const bool ended = !encoded.empty() && encoded.back() == '\n';
            const bool ends = !out.empty() && out.back() == '\n';
            if (how == transfer::base64 && ends && !ended) {
                out.pop_back();
                if (!out.empty() && out.back() == '\r') out.pop_back();
            } else if (!ends && ended) {
                // Base64 ended its last line; quoted-printable text that
                // ends without a line break ended in a soft break (RFC 2045
                // 6.7 rule 5).
                if (how == transfer::quoted_printable) out += '=';
                out += crlf ? "\r\n" : "\n";
            }
        }
        return body_edit{static_cast<std::size_t>(start), static_cast<std::size_t>(end), std::move(out)};
    }

    std::string_view bytes_;
    const mail_rewrite_options& o_;
    const mail_note_sink& note_;
    std::string where_; ///< "message N: " in a mailbox, else ""
    bool automatic_;
    std::vector<body_edit> body_edits_;
    std::set<std::string> sealed_told_;
    std::uint64_t edits_ = 0;
    std::size_t last_edits_ = 0;
};

/// The part of `e` that differs from the input: its common start and end
/// trimmed off.
rewrite_edit narrowed(std::string_view bytes, const body_edit& e) {
    const std::string_view before = bytes.substr(e.start, e.end - e.start);
    const std::string_view after = e.encoded;
    std::size_t head = 0;
    while (head < before.size() && head < after.size() && before[head] == after[head]) ++head;
    std::size_t tail = 0;
    while (tail < before.size() - head && tail < after.size() - head &&
           before[before.size() - 1 - tail] == after[after.size() - 1 - tail])
        ++tail;
    return {e.start + head, before.size() - head - tail, std::string(after.substr(head, after.size() - head - tail))};
}

}  // namespace

mail_rewrite_result rewrite_mail(std::string_view bytes, mail_format format, const mail_rewrite_options& options,
                                 const text_sink& out, const edit_observer& on_edit, const mail_note_sink& on_note) {
    detail::init_gmime();
    mail_rewrite_result result;
    mail_read& read = result.read;
    const detail::borrowed_stream stream(bytes);
    const bool mbox = format == mail_format::mbox;
    // A message GMime would need too much memory for is not parsed: the
    // input passes as it is.
    const std::vector<detail::oversized_message> oversized =
        detail::oversized_messages(stream.get(), mbox, options.parse_memory);
    if (!oversized.empty()) {
        if (on_note)
            on_note((mbox ? "message at byte " + std::to_string(oversized.front().start) + ": " : std::string()) +
                    oversized.front().why + ": reading it as mail would take more than " +
                    memory_size(options.parse_memory) + " (half of --max-memory): the input is left unchanged");
        read.messages = 1;
        if (!out(bytes)) read.what = mail_read::status::stopped;
        return result;
    }
    const gobject_ptr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
    g_mime_parser_set_format(parser.get(), mbox ? GMIME_FORMAT_MBOX : GMIME_FORMAT_MESSAGE);
    // Each body stays a substream of the input, bounded by its offsets in it.
    g_mime_parser_set_persist_stream(parser.get(), TRUE);
    std::size_t copied = 0; // the input is written up to here
    while (!g_mime_parser_eos(parser.get())) {
        const gobject_ptr<GMimeMessage> message(g_mime_parser_construct_message(parser.get(), nullptr));
        if (!message) {
            if (read.messages == 0) {
                read.what = mail_read::status::failed;
                read.error = mbox ? "not a mailbox (no 'From ' line starts it)" : "not a mail message";
                return result;
            }
            break;
        }
        ++read.messages;
        message_rewrite mr(bytes, options, on_note, mbox ? "message " + std::to_string(read.messages) + ": " : "",
                           detail::is_automatic_message(message.get()));
        detail::walk_leaves(message.get(), [&mr](const detail::leaf_visit& v) { mr.visit(v); });
        std::vector<body_edit>& edits = mr.body_edits();
        std::sort(edits.begin(), edits.end(), [](const body_edit& a, const body_edit& b) { return a.start < b.start; });
        for (const body_edit& e : edits) {
            if (e.start < copied) continue;
            if (!out(bytes.substr(copied, e.start - copied)) || !out(e.encoded)) {
                read.what = mail_read::status::stopped;
                return result;
            }
            if (on_edit) on_edit(narrowed(bytes, e));
            copied = e.end;
            ++result.parts;
        }
        result.edits += mr.edits();
        if (!mbox) break;
    }
    if (!out(bytes.substr(copied))) read.what = mail_read::status::stopped;
    return result;
}

}  // namespace urlsift
