#pragma once
// All of urlsift's public API in one include. Each header below is also
// usable on its own; docs/architecture.md shows how the stages fit.

#include <urlsift/version.hpp>

#include <urlsift/text_source.hpp>  // the input stage: bytes to UTF-8 text
#include <urlsift/warc.hpp>         // web archives: WARC and WET records with the URI each came from
#include <urlsift/mail.hpp>         // mail and news: messages and mailboxes to text parts with their bases
#include <urlsift/result.hpp>     // result<T>: a value or an error with its offset
#include <urlsift/reference.hpp>  // Appendix B: splitting a reference into its parts
#include <urlsift/resolver.hpp>   // Section 5.2: resolving against a base
#include <urlsift/resolution.hpp> // the resolution stage: references made absolute after the scanner
#include <urlsift/normalize.hpp>  // Section 6: normal form
#include <urlsift/warnings.hpp>   // Section 7: security notes on a URL
#include <urlsift/unwrap.hpp>     // mail security gateways' links read back as their targets
#include <urlsift/abbrev.hpp>     // Appendix F: abbreviated URLs
#include <urlsift/scanner.hpp>    // Appendix E: finding references in text, streamed
#include <urlsift/document.hpp>   // Markdown and HTML: prose, declared links and code
#include <urlsift/document_scan.hpp> // the references of a document, and a document rewritten
#include <urlsift/rewriter.hpp>   // the rewriting filter
#include <urlsift/report.hpp>     // batch reports: exact aggregates that merge
