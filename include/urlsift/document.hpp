#pragma once
// Documents in their own formats: what a reader of Markdown or HTML says of
// each span of a document (prose, a link destination the format declares,
// code or markup), so that the scanner reads prose only and a filter edits
// only what the format makes a link.

#include <urlsift/export.hpp>
#include <urlsift/found_reference.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift {

/// The formats a document is read in.
enum class document_format : std::uint8_t {
    text,     ///< plain text: all of it is prose (Appendix E and F)
    markdown, ///< CommonMark with GitHub's extensions
    html,     ///< HTML as a browser parses it
    code,     ///< source code or configuration, in the language its name or `#!` line says
};

/// "text", "markdown", "html", "code".
URLSIFT_EXPORT std::string_view to_string(document_format f) noexcept;

/// How a link the format itself declares was written.
enum class link_form : std::uint8_t {
    markdown_link,       ///< `[text](dest)`
    markdown_image,      ///< `![alt](dest)`
    markdown_definition, ///< `[text][ref]` or `![alt][ref]`, its destination written in `[ref]: dest`
    markdown_autolink,   ///< `<http://x/>`, `<user@host>`
    html_attribute,      ///< an attribute whose value is a URL (`href`, `src`, `srcset`, ...), also raw HTML in Markdown
    html_refresh,        ///< the URL in `<meta http-equiv=refresh content="0; url=...">`
};

/// "markdown-link", "markdown-image", "markdown-definition",
/// "markdown-autolink", "html-attribute", "html-refresh".
URLSIFT_EXPORT std::string_view to_string(link_form f) noexcept;

/// A link destination that the document's format declares.
///
///     [guide](<docs/the guide.md> "Guide")
///              |<-- span ------->|          value: docs/the guide.md, wrapper: angle
///     <img src="a&amp;b.png">
///               |<-span->|                  value: a&b.png, wrapper: quote
struct declared_link {
    /// The destination as written: inside `<...>` or quotes, escapes and
    /// character references as they are. When `exact` is false only
    /// `span.offset` is meaningful (where the link is), and the link is
    /// never edited.
    byte_range span;
    /// The destination as the format reads it: backslash escapes and
    /// character references decoded, surrounding blanks trimmed. For an
    /// autolink to a mail address, `mailto:` is prefixed as the format does.
    std::string value;
    /// Anchor text of a link, alt text of an image, as the format reads it
    /// (markup removed, blanks collapsed); empty when there is none.
    std::string text;
    link_form form = link_form::markdown_link;
    /// For the HTML forms, the attribute's name in lower case (`href`,
    /// `src`, `content` for a refresh, ...); else empty. A static string.
    std::string_view attribute;
    /// How the destination is set off: `angle` for `<dest>`, `quote` for a
    /// quoted attribute value (either quote), `none` otherwise.
    wrapper_kind wrapper = wrapper_kind::none;
    /// `span` holds exactly the destination's bytes as written.
    bool exact = true;
    friend bool operator==(const declared_link&, const declared_link&) = default;
};

/// A character escape in prose that the scanner reads as the character it
/// stands for: POD's `E<lt>` and `E<gt>` (Perl's documentation), so that
/// `E<lt>name@cpan.orgE<gt>` reads as `<name@cpan.org>`. The scanner sees
/// the escape's bytes as blanks and `shown` at the end that touches the
/// text it belongs to: the last byte for an opening bracket, the first
/// for a closing one. Lines and columns stay the document's.
struct escaped_char {
    byte_range span;
    char shown = '<';
    friend bool operator==(const escaped_char&, const escaped_char&) = default;
};

/// What a reader found in one document.
///
/// Contract: each list of ranges is sorted, and `prose`, `quoted_prose`,
/// `code`, `values` and `blanked` are disjoint and lie within the document;
/// `links` are in the order the format uses them (a Markdown reference
/// link is listed at each use, with the span of its definition's
/// destination). No declared link's span overlaps another range. Bytes in
/// none of them are markup (tags, Markdown's punctuation, link
/// destinations and titles, comment markers, quotes).
struct document_layout {
    std::vector<declared_link> links;
    /// Text a reader reads as running text: the scanner's Appendix E and F
    /// rules apply here and nowhere else.
    std::vector<byte_range> prose;
    /// Code: Markdown code spans, fenced and indented code; HTML `<script>`,
    /// `<style>`, `<pre>`, `<code>`, `<textarea>` contents. Never edited.
    /// (Source code outside comments and strings is in no range: nothing
    /// is read there.)
    std::vector<byte_range> code;
    /// Prose that a program holds as a value (a Python docstring): read as
    /// prose, never edited.
    std::vector<byte_range> quoted_prose;
    /// Values: string literals of source code, and what is no comment in
    /// configuration and data. Only URLs with a scheme are read there (no
    /// Appendix F completion: `"golang.org/x/text"` is an import path), and
    /// nothing there is edited.
    std::vector<byte_range> values;
    /// Markup that the scanner sees as blanks rather than as a delimiter:
    /// the comment marker of a line that goes on the comment of the line
    /// before (`#`, `//`, a block comment's `*`), so that a URL broken
    /// across comment lines joins there, and only there.
    std::vector<byte_range> blanked;
    /// Escapes inside `prose`, in order, read as what they stand for.
    std::vector<escaped_char> escapes;
    /// Whether a bare host name in prose (`example.org`, Appendix F's
    /// `domain` kind) is completed. Not in the comments of source code,
    /// where `n.mu` is a field and `golang.org/x/net` an import path, and
    /// no link is written so.
    bool bare_hosts = true;
    /// Whether a mail address written without `mailto:` at a placeholder
    /// domain is a link: a domain reserved for examples (RFC 2606:
    /// `foo@example.net`, `a@b.test`) or one named by placeholder words
    /// (`user@host.domain.name`, `target@domain.com`). Not in source code
    /// and configuration, where such an address shows a syntax to fill in.
    bool placeholder_addresses = true;
    /// A base the document declares (HTML `<base href>`, Section 5.1.1), as
    /// written (decoded); the first one counts.
    std::optional<std::string> base;
    /// Why the document was left unread, when it was: its markup nests too
    /// deep for its parser to read in reasonable time, or its tree would
    /// take more memory than one document may (HTML). Then nothing else is
    /// set; a caller says so, and a filter copies the document unchanged.
    /// Empty when the document was read.
    std::string unread;
};

/// The memory a document's parse may take unless told otherwise: 32 MiB,
/// a tree for an HTML page of one to eight megabytes.
inline constexpr std::size_t default_parse_memory = std::size_t{32} << 20;

/// The largest document held whole for a parse within `parse_memory`:
/// half of it, since the bytes and the tree are held together. A reader of
/// a larger one reads it as plain text (read_mail, the tool's readers).
constexpr std::size_t held_document_bytes(std::size_t parse_memory) noexcept { return parse_memory / 2; }

/// "32 MiB", "512 KiB", "1000 bytes": a size as messages give it.
URLSIFT_EXPORT std::string memory_size(std::size_t bytes);

/// Reads `text` as `format`. For `text`, the whole document is one prose
/// range. For `code`, the language is the one the file's name `name` says,
/// else the one its `#!` line runs (code_language_of); a document in
/// neither is read as text. Bad input is read as the format's parser reads
/// it; only markup nested too deep, or HTML whose tree would take more than
/// `parse_memory` bytes, is left unread (`document_layout::unread` says so).
///
///     auto layout = urlsift::read_document("See [the guide](docs/guide.md).", urlsift::document_format::markdown);
///     // layout.links[0].value == "docs/guide.md", layout.links[0].text == "the guide"
URLSIFT_EXPORT document_layout read_document(std::string_view text, document_format format,
                                             std::size_t parse_memory = default_parse_memory,
                                             std::string_view name = {});

/// The format a file's name says it is in (`.md`, `.markdown`, `.html`,
/// `.htm`, `.xhtml`, ... for Markdown and HTML; `.c`, `.py`, `Makefile`,
/// `.yaml`, `.conf`, ... for code), or nullopt when its name does not say.
URLSIFT_EXPORT std::optional<document_format> format_from_name(std::string_view path) noexcept;

/// The name of the language of a file called `name` (by its extension or
/// whole name) whose first bytes are `head` (by its `#!` line): "C",
/// "Python", "shell", "YAML", ...; empty when neither says.
URLSIFT_EXPORT std::string_view code_language_of(std::string_view name, std::string_view head) noexcept;

/// Whether a document that starts with `head` is HTML by its content: a
/// doctype, or an `<html>`, `<head>` or `<body>` tag near its start.
URLSIFT_EXPORT bool looks_like_html(std::string_view head) noexcept;

}  // namespace urlsift
