#pragma once
// Text that has the syntax of a relative reference (RFC 3986 section 4.2
// takes almost any run of characters) but that no writer means as one: an
// ellipsis, a media type, an address spelled out for people, a name from
// program text. Asked of a candidate without a scheme that the scanner
// finds in angle brackets and after `URL:` (classify_angle). A link a
// document or a message declares is a link whatever it looks like
// (`[notes](README.Debian)`): there only the placeholder is no reference
// (document_scan, structured_reference).

#include <string_view>

namespace urlsift::detail {

/// Whether `s` (without a scheme, blanks trimmed) is no reference at all:
/// - only dots, three or more: an ellipsis (`...`); `.` and `..` are
///   Section 5.2.4's dot-segments and stay references;
/// - a media type (RFC 6838 section 4.2) `type/subtype` of a registered
///   top-level type (`application/octet-stream`, `image/svg+xml`), whose
///   subtype has a dot only after a tree's facet (`vnd.`, `prs.`, `x.`),
///   so that `image/logo.png` stays a path;
/// - an address spelled out to dodge harvesters: a local part without
///   `/`, `(at)`, and a dotted domain (`burnus(at)net-b.de`);
/// - a dotted name from program text: labels of letters, digits, `-` and
///   `_` joined by dots, whose last label is no file-name extension
///   (`index.html`, `ctype.c`, `fish.png`), no top-level domain
///   (`www.w3.org` is a site) and has no digit (`ls.1`, a manual page):
///   `module.exports`, `sys.prefix`, `commons.release.version`.
///
///     is_non_reference("module.exports") && !is_non_reference("docs/index.html")
bool is_non_reference(std::string_view s) noexcept;

/// Whether `s` is only dots, three or more: an ellipsis standing for a
/// link not written (`href="..."`). `.` and `..` are Section 5.2.4's
/// dot-segments and stay references.
bool is_ellipsis(std::string_view s) noexcept;

}  // namespace urlsift::detail
