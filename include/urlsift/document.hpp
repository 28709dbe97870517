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
};

/// "text", "markdown", "html".
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

/// What a reader found in one document.
///
/// Contract: `prose` and `code` are sorted and disjoint, and lie within the
/// document; `links` are in the order the format uses them (a Markdown
/// reference link is listed at each use, with the span of its definition's
/// destination). No declared link's span overlaps `prose` or `code`.
/// Bytes in neither `prose` nor `code` are markup (tags, Markdown's
/// punctuation, link destinations and titles).
struct document_layout {
    std::vector<declared_link> links;
    /// Text a reader reads as running text: the scanner's Appendix E and F
    /// rules apply here and nowhere else.
    std::vector<byte_range> prose;
    /// Code: Markdown code spans, fenced and indented code; HTML `<script>`,
    /// `<style>`, `<pre>`, `<code>`, `<textarea>` contents. Never edited.
    std::vector<byte_range> code;
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
/// range. Bad input is read as the format's parser reads it; only markup
/// nested too deep, or HTML whose tree would take more than `parse_memory`
/// bytes, is left unread (`document_layout::unread` says so).
///
///     auto layout = urlsift::read_document("See [the guide](docs/guide.md).", urlsift::document_format::markdown);
///     // layout.links[0].value == "docs/guide.md", layout.links[0].text == "the guide"
URLSIFT_EXPORT document_layout read_document(std::string_view text, document_format format,
                                             std::size_t parse_memory = default_parse_memory);

/// The format a file's name says it is in (`.md`, `.markdown`, `.html`,
/// `.htm`, `.xhtml`, ...), or nullopt when its name does not say.
URLSIFT_EXPORT std::optional<document_format> format_from_name(std::string_view path) noexcept;

/// Whether a document that starts with `head` is HTML by its content: a
/// doctype, or an `<html>`, `<head>` or `<body>` tag near its start.
URLSIFT_EXPORT bool looks_like_html(std::string_view head) noexcept;

}  // namespace urlsift
