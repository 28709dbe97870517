#pragma once
// The references of a document read in its own format, and the document
// rewritten: links the format declares are taken as written, the scanner
// reads prose only, and code is never edited.

#include <urlsift/export.hpp>
#include <urlsift/document.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/rewriter.hpp>
#include <urlsift/scanner.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift {

/// The base a document's references resolve against (Section 5.1): the
/// base the document declares (HTML `<base href>`), resolved against
/// `outer` when it is relative, over `outer` (the retrieval URI, or
/// `--base`). nullopt when there is neither, or when the declared base
/// cannot be made absolute.
URLSIFT_EXPORT std::optional<resolver> document_base(const document_layout& layout, const resolver* outer,
                                                     const resolve_options& options = {});

/// `text` as the prose scanner reads it: every byte outside the layout's
/// prose (and quoted prose) that is not a blank or a line break becomes
/// U+001A SUBSTITUTE, a control character that delimits a URL, but for the
/// layout's `blanked` markup, which becomes blanks. Offsets, lines and
/// columns are those of `text`.
URLSIFT_EXPORT std::string prose_view(std::string_view text, const document_layout& layout);

/// Scans a document: each link its format declares, as a reference with
/// `declared` set (form `absolute` or `relative` by whether the value has a
/// scheme; `raw` the bytes as written, `url` the value), each reference
/// the scanner finds in its prose, and each URL with a scheme in its
/// values, in document order, resolved against `base` when one is given.
/// Returns false when the sink stopped.
///
///     auto layout = urlsift::read_document(md, urlsift::document_format::markdown);
///     urlsift::scan_document(md, layout, {}, &base, [](urlsift::found_reference& r) { ...; return true; });
URLSIFT_EXPORT bool scan_document(std::string_view text, const document_layout& layout, const scan_options& options,
                                  const resolver* base, const reference_sink& sink);

/// A document rewritten.
struct document_rewrite {
    std::string text;                ///< the new text; equal to the input when `edits` is empty
    std::vector<rewrite_edit> edits; ///< in input order
    /// Edits left out because the document would not have read back as
    /// intended (a destination whose escapes the new text would change, a
    /// prose edit that changed the document's structure).
    std::uint64_t withheld = 0;
    /// Why the document was left unread (document_layout::unread), and so
    /// unchanged; empty when it was read.
    std::string unread;
};

/// Rewrites a document read as `format` (not `text`, which the streaming
/// rewriter reads): relative link destinations become absolute against
/// the document's base (`document_base` over `options.base`), changing
/// only the destination's bytes (`<...>`, quotes, titles and character
/// references around it stay); prose is rewritten as the rewriter rewrites
/// text, each comment of source code on its own; code, values and prose a
/// program holds are never edited. The result is checked by reading it
/// again: every link must read as its intended destination and every
/// range never edited must be byte for byte the same, or the edits that
/// broke it are withheld. Idempotent. The document and its rewritten form
/// are read within `parse_memory`, and `name` is the file's name, for
/// `code` (read_document).
URLSIFT_EXPORT document_rewrite rewrite_document(std::string_view text, document_format format,
                                                 const rewrite_options& options,
                                                 std::size_t parse_memory = default_parse_memory,
                                                 std::string_view name = {});

}  // namespace urlsift
