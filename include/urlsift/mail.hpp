#pragma once
// The mail and news input stage: messages and mailboxes become decoded text
// parts, each with the base its references resolve against (Section 5.1),
// and the URLs their headers and HTML hold.

#include <urlsift/document.hpp>
#include <urlsift/export.hpp>
#include <urlsift/found_reference.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/rewriter.hpp>
#include <urlsift/scanner.hpp>

#include <cstdint>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift {

/// How the bytes of an input are laid out.
enum class mail_format {
    message, ///< one RFC 5322 message (a `.eml` file, what a mail reader pipes)
    mbox,    ///< a Unix mailbox: messages each after a `From ` line
};

/// What an input's first bytes look like: `mbox` when it starts with a
/// `From ` line, `message` when it starts with a header block (`Name: value`
/// lines, continuation lines allowed, up to a blank line or the end of
/// `head`), nullopt for anything else (plain text).
URLSIFT_EXPORT std::optional<mail_format> sniff_mail(std::string_view head) noexcept;

/// Which rule of Section 5.1 gave a part its base.
enum class base_source {
    html,      ///< `<base href>` in the HTML part (5.1.1)
    part,      ///< the part's own Content-Base or Content-Location (5.1.1, MHTML)
    enclosing, ///< the Content-Base/Content-Location of an enclosing part or message (5.1.2)
    option,    ///< the base the caller gave (`--base`, 5.1.3)
    none,      ///< no base: relative references stay relative (5.1.4)
};
/// "html", "part", "enclosing", "option", "none".
URLSIFT_EXPORT std::string_view to_string(base_source s) noexcept;

/// A link in an HTML part: a URL attribute's value on an element where
/// HTML makes it a URL (`<a href>`, `<img src>`, each `srcset` candidate,
/// `<form action>`, `<td background>`, ...) or a `<meta>` refresh's URL,
/// as `read_document` reads HTML. Values that name no other resource
/// (`#top`, `javascript:`, `data:`) are no links.
struct html_link {
    std::string value;       ///< character references decoded, blanks around it trimmed; not empty
    /// The attribute's name in lower case: "href", "src", "srcset",
    /// "content" for a refresh, ... A static string.
    std::string_view attribute;
    std::string anchor_text; ///< for `<a>` (and `<area>`): its text (alt text), blanks collapsed; else empty
    std::uint64_t offset = 0; ///< of the value in the part's decoded HTML
    std::uint64_t line = 0;   ///< 1-based line of the value in the part's decoded HTML
    /// 1-based column, in characters, as gumbo counts them: a tab moves to
    /// the next multiple of 8; CR LF and a lone CR end a line, as LF does.
    std::uint64_t column = 0;
};

/// One text part of a message, decoded.
struct mail_part {
    std::string path;         ///< MIME part path as IMAP numbers it: "1", "2.1", ...
    std::string content_type; ///< lower-case "type/subtype"
    /// The part's text in UTF-8, transfer encoding and charset decoded,
    /// format=flowed soft breaks joined. Empty for HTML parts, whose links
    /// are in `links`.
    std::string text;
    bool html = false;
    std::vector<html_link> links; ///< for HTML parts, in document order
    /// The base from the message itself (html, part or enclosing), absolute;
    /// nullopt when the message gives none.
    std::optional<std::string> base;
    base_source base_from = base_source::none;
    /// For an HTML part that is an alternative to a text/plain part
    /// (multipart/alternative): that part's path. Only the links the plain
    /// part lacks are reported from it.
    std::string alternative_of;
    /// For a text part too large to hold whole (a body over
    /// `large_part_bytes` bytes, not HTML nor format=flowed): `text` is
    /// empty, and this hands the same text to `block` a block at a time,
    /// decoding it as it goes; false when `block` returned false. Valid
    /// during the message sink's call only. Empty for every other part.
    std::function<bool(const std::function<bool(std::string_view)>& block)> read_text;
    /// The input's line (1-based) on which the part's body starts; 0 when
    /// unknown (an input read from a pipe, text held by another part).
    std::uint64_t body_line = 0;
    /// Whether line N of the part's decoded text (or HTML) is line
    /// `body_line + N - 1` of the input, plus one for each of `soft_breaks`
    /// less than N: the body has no transfer encoding to undo, or is
    /// quoted-printable held whole, and has no format=flowed lines to join.
    bool lines_kept = false;
    /// For a quoted-printable part whose lines are kept: for each soft line
    /// break of its body (RFC 2045 6.7: an `=` that ends a line), the line
    /// of the decoded text it continues, in order.
    std::vector<std::uint32_t> soft_breaks;
};

/// The size of a part's body (as the message holds it, transfer encoded)
/// from which its text is not held whole but read on demand
/// (`mail_part::read_text`), so that memory stays bounded: 16 MiB.
inline constexpr std::size_t large_part_bytes = std::size_t{16} << 20;

/// A URL a header holds, read by the header's own syntax.
struct header_url {
    std::string header; ///< the header's name as written: "List-Unsubscribe"
    std::string value;  ///< the URL, folding whitespace removed
    std::string path;   ///< "" for the message's own headers, else the part path whose header it is
    /// The base of the entity that holds the header (a relative
    /// Content-Location is relative to it); nullopt when the message gives none.
    std::optional<std::string> base;
    /// The input's line (1-based) on which the header starts; 0 when unknown.
    std::uint64_t line = 0;
};

/// One message of an input.
struct mail_message {
    std::uint64_t number = 1; ///< 1-based position in the mailbox (1 for a single message)
    std::uint64_t offset = 0; ///< byte offset of the message in the input (mbox: of its `From ` line)
    std::string message_id;   ///< without the angle brackets; empty when there is none
    /// Sent by a program about mail: a bounce, a delivery or other report,
    /// an automatic reply. Its text names hosts (relays, the mail system,
    /// the domain of an address), so a bare host name in it is not taken
    /// for a site; `www.` names, mail addresses and URLs are read as ever.
    bool automatic = false;
    std::vector<header_url> header_urls;
    std::vector<mail_part> parts; ///< the text parts, in the order of the message
    /// What of the message could not be read as it is written, and how it
    /// was read instead, for the user: "part 1.1.1: ...".
    std::vector<std::string> notes;
};

/// What reading an input came to.
struct mail_read {
    enum class status { done, stopped, failed };
    status what = status::done;
    std::string error; ///< for `failed`: what went wrong
    std::uint64_t messages = 0; ///< messages handed on
};

/// Receives each message in turn; valid during the call. Return false to stop.
using message_sink = std::function<bool(mail_message&)>;

/// Reads a message or a mailbox from `bytes` (GMime 3: multipart and
/// message/rfc822 recursion, quoted-printable and base64, RFC 2047 words,
/// charsets; RFC 3676 format=flowed). Headers are read by their syntax:
/// List-* (RFC 2369, `<...>`), Archived-At (RFC 5064), Content-Base and
/// Content-Location give URLs; trace and identity headers (Received,
/// Message-ID, References, DKIM-Signature, ...) are never read as prose.
/// Parts that are neither text nor containers are skipped. In an mbox, a
/// text line `>From ` (mboxrd's escape) loses one `>`, and a message with
/// no header block after its `From ` line is read as one text/plain part
/// (from a file; on a pipe the read fails there, saying so).
///
///     urlsift::read_mail(bytes, urlsift::mail_format::message, [](urlsift::mail_message& m) {
///         for (auto& p : m.parts) puts(p.path.c_str());
///         return true; });
///
/// An HTML part is read by the HTML reader within `parse_memory`
/// (read_document); one larger than half of it, or whose tree would take
/// more, is read as plain text instead, with a note.
///
/// Spec: Section 5.1 of 001_*.txt (the base), RFC 2046, RFC 2557, RFC 3676.
URLSIFT_EXPORT mail_read read_mail(std::string_view bytes, mail_format format, const message_sink& sink,
                                   std::size_t parse_memory = default_parse_memory);
/// The same, reading the open file descriptor `fd` (a file or a pipe) from
/// its current position in bounded memory (a message at a time); `fd`
/// stays open.
URLSIFT_EXPORT mail_read read_mail_fd(int fd, mail_format format, const message_sink& sink,
                                      std::size_t parse_memory = default_parse_memory);

/// How `scan_message` finds and resolves references.
struct mail_scan_options {
    scan_options scan{};
    resolve_options resolve{};
    /// The base below everything the message says (5.1.3, `--base`); empty: none.
    std::string base;
    /// Called with each block of a text part's text as it is scanned (the
    /// whole text of a part held whole), to count what was read.
    std::function<void(std::string_view)> on_text;
};

/// One reference of a message, with where it came from.
struct mail_reference {
    /// The reference. For a text part, offsets, lines and columns count in
    /// the part's decoded text; for an HTML link in its decoded HTML; for a
    /// header URL they are 0. `url` is resolved against `base`.
    found_reference& ref;
    const mail_message& message;
    const mail_part* part;       ///< the text part it is in; null for a header URL
    std::string_view path;       ///< MIME part path of the part or header; "" for the message's headers
    std::string_view header;     ///< the header it came from, else empty
    std::string_view anchor_text; ///< for an HTML `<a>` (and `<area>`): its text
    std::string_view base;       ///< the base it was resolved against; empty: none
    base_source base_from = base_source::none;
    /// Where it is in the input, as a 1-based line: for a part whose lines
    /// are the input's (`mail_part::lines_kept`), its own line; for another
    /// part, the line its body starts on; for a header URL, the header's.
    /// 0 when unknown (an input read from a pipe).
    std::uint64_t input_line = 0;
};
/// Receives each reference; valid during the call. Return false to stop.
using mail_reference_sink = std::function<bool(mail_reference&)>;

/// Finds the references of `message`: header URLs, then each part in turn,
/// the scanner on text parts (Appendix E runs after the certain joins of
/// quoted-printable and format=flowed), links from HTML parts; of an HTML
/// part that is the alternative of a text/plain part, only links whose URL
/// the plain part lacks. Each is resolved against its part's base, else
/// `options.base`. Returns false when the sink stopped.
URLSIFT_EXPORT bool scan_message(const mail_message& message, const mail_scan_options& options,
                                 const mail_reference_sink& sink);

/// How `rewrite_mail` rewrites the text parts of a message.
struct mail_rewrite_options {
    /// What to change. Its `base` is the one below everything the message
    /// says (5.1.3, `--base`); a part's own base comes first.
    rewrite_options rewrite{};
    resolve_options resolve{}; ///< for the bases the message gives
    /// What reading a message may take, as for read_mail: a message GMime
    /// would need more than this to hold (its header fields take about 8
    /// times their size, each part about 2 KiB) leaves the input unchanged,
    /// and a text part whose body is larger than an eighth of it (4 MiB by
    /// default: its text is held decoded, rewritten and encoded again) is
    /// left unchanged; each with a note.
    std::size_t parse_memory = default_parse_memory;
};

/// What rewriting a message or a mailbox came to.
struct mail_rewrite_result {
    mail_read read;           ///< how reading went, and the messages read
    std::uint64_t edits = 0;  ///< references changed
    std::uint64_t parts = 0;  ///< parts written again
};

/// Receives a note for the user (a part left unchanged, and why), such as
/// "part 2: left unchanged: it is signed (multipart/signed part 2; 1 edit
/// not made)"; valid during the call.
using mail_note_sink = std::function<void(std::string_view)>;

/// Rewrites the text/plain parts of a message or a mailbox in `bytes`
/// (the rewriter, against each part's Section 5.1 base, else the
/// options' base) and writes the whole input to `out`.
///
/// Contract: the output equals `bytes` except for the encoded bodies of
/// the text/plain parts with something to change; headers, MIME structure,
/// the mbox `From ` lines, HTML parts and every other part stay byte for
/// byte, and an input with nothing to change comes out unchanged. The
/// rewriter sees a part's text as `read_mail` gives it (transfer encoding
/// and charset decoded, quoted-printable and format=flowed soft breaks
/// joined; in a mailbox mboxrd's `>From ` escapes are kept as stored, so
/// they are written back as they were); a changed part is written again in its own charset and
/// Content-Transfer-Encoding (quoted-printable and base64 lines at most 76
/// characters), and a flowed part stays flowed, its soft breaks where they
/// were. A part is left unchanged, with a note, when the rewritten text
/// cannot be written in its charset, and when it is in multipart/signed,
/// multipart/encrypted or application/pkcs7-mime (changing it would break
/// the signature). `on_edit` is told of each changed part as one edit of
/// `bytes`: the encoded bytes that differ. When the input is not mail
/// (status `failed`), nothing is written.
///
///     std::string out;
///     urlsift::rewrite_mail(eml, urlsift::mail_format::message, options,
///                           [&](std::string_view s) { out += s; return true; });
///
/// Spec: Section 5.1 of 001_*.txt (the base), RFC 2045 (transfer
/// encodings), RFC 3676 (format=flowed), RFC 1847 and RFC 5751 (signed and
/// encrypted parts).
URLSIFT_EXPORT mail_rewrite_result rewrite_mail(std::string_view bytes, mail_format format,
                                                const mail_rewrite_options& options, const text_sink& out,
                                                const edit_observer& on_edit = {}, const mail_note_sink& on_note = {});

}  // namespace urlsift
