#pragma once
// Word lists behind the abbreviated-URL heuristics (Appendix F): the
// evidence that tells `example.com` from `README.md`, `self.name` and
// `ASP.NET`. Hand-maintained; docs/abbreviations.md explains each list.
// All lookups are ASCII case-insensitive and allocation-free.

#include <urlsift/abbrev.hpp>

#include <string_view>

namespace urlsift::detail::lexicon {

/// A top-level domain that is also a common file-name extension
/// (`md`, `py`, `sh`, `rs`, `zip`, `mov`, `am`, `in`, ...).
bool is_file_extension_tld(std::string_view label) noexcept;

/// A common file-name extension, whether or not it is also a top-level
/// domain (`html`, `c`, `png`, `tar`, `md`, `py`, ...).
bool is_file_extension(std::string_view label) noexcept;

/// A top-level domain that is also a common English function word or a
/// member name seen in code (`is`, `to`, `me`, `id`, `name`, `email`,
/// `run`, `host`, `app`, ...).
bool is_word_tld(std::string_view label) noexcept;

/// One of the historic generic TLDs (`com org net edu gov mil int info biz`),
/// evidence on their own.
bool is_core_tld(std::string_view label) noexcept;

/// A name projects give a file by convention, as they spell it (`README`,
/// `Makefile`, `COPYRIGHT`, ...): the start of a file name, not a host.
bool is_file_stem(std::string_view label) noexcept;

/// A test's result as a DejaGnu log writes it at a line's start, in
/// capitals (`PASS`, `FAIL`, `XFAIL`, `UNSUPPORTED`, ...): the file named
/// after it is the test's.
bool is_test_result(std::string_view name) noexcept;

/// A first label that names an object in code rather than a host
/// (`self`, `this`, `obj`, `os`, `std`, `user`, `window`, ...).
bool is_code_receiver(std::string_view label) noexcept;

/// A second-level label under which country registries sell names
/// (`co`, `com`, `ac`, `gov`, `org`, ...): `bbc.co.uk`, `iitb.ac.in`.
bool is_generic_sld(std::string_view label) noexcept;

/// How strongly the word before a token announces a web address.
enum class cue { none, weak, strong };
/// `visit`, `website`, `homepage`, `url` are strong; `see`, `at`, `on`,
/// `from`, `to`, `via` are weak (they also precede file names).
cue cue_strength(std::string_view word) noexcept;

/// A command after which `user@host` is a login, not a mail address.
bool is_login_command(std::string_view word) noexcept;

/// A word after which a token is a shape to fill in (`form`, `format`,
/// `syntax`, `pattern`, `template`), not an address.
bool is_template_cue(std::string_view word) noexcept;

/// A domain that qualifies SSH algorithm and extension names
/// (`aes128-gcm@openssh.com`, RFC 4251 section 6), not mailboxes.
bool is_ssh_name_domain(std::string_view host) noexcept;

/// A mail header field that holds identifiers, not mailboxes or sites
/// (`Message-ID`, `In-Reply-To`, `References`, `Content-ID`, `List-Id`).
bool is_identifier_header(std::string_view name) noexcept;

/// A mail header field whose value names a class of message, even when
/// written as a URN (`Content-Class: urn:content-classes:message`).
bool is_class_header(std::string_view name) noexcept;

/// A first label naming a service other than the web (`irc`, `keys`,
/// `smtp`, `mx`, `ns1`, ...).
bool is_non_web_service(std::string_view label) noexcept;

/// A mail trace header field (`Received`, `Reporting-MTA`, `DKIM-Signature`,
/// `Authentication-Results`, ...): its host names are relays.
bool is_trace_header(std::string_view name) noexcept;

/// The bytes of a line's start that hold its header field's name and colon,
/// if it has one: read the same whether a scanner still sees the line's
/// start or has kept the name from earlier.
inline constexpr std::size_t field_reach = 60;

/// The name of the header field `Name:` that the line of `before` starts
/// with (after any mail quote prefix, within field_reach bytes); empty when
/// there is none. `before.field` when `before` does not start its line.
std::string_view header_field_name(text_before before) noexcept;

/// An HTML element name (`b`, `p`, `div`, `br`, `h1`...).
bool is_html_element(std::string_view name) noexcept;

/// An HTML void element, written self-closed as `<br/>`.
bool is_void_element(std::string_view name) noexcept;

}  // namespace urlsift::detail::lexicon
