#include "abbrev/lexicon.hpp"

#include "text/ascii.hpp"
#include "text/folded_set.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace urlsift::detail::lexicon {

namespace {

// Every list is sorted (checked at compile time, for the reader). The word
// lists are lower case and searched through a hash index built at compile
// time; file_stems is compared as written.
template <std::size_t N>
constexpr bool sorted_unique(const std::array<std::string_view, N>& list) {
    for (std::size_t i = 1; i < N; ++i)
        if (!(list[i - 1] < list[i])) return false;
    return true;
}

template <const auto& List>
bool contains_folded(std::string_view word) noexcept {
    static constexpr folded_set index{List};
    return index.contains(word);
}

/// Whether the sorted `List` holds `word` as written. Most words asked
/// start with a byte no entry starts with, which a bit per byte says.
template <const auto& List>
bool contains_exact(std::string_view word) noexcept {
    static constexpr auto first_bytes = [] {
        std::array<std::uint64_t, 4> bits{};
        for (const std::string_view e : List) {
            const auto b = static_cast<unsigned char>(e.front());
            bits[b / 64] |= std::uint64_t{1} << (b % 64);
        }
        return bits;
    }();
    if (word.empty()) return false;
    const auto b = static_cast<unsigned char>(word.front());
    if (((first_bytes[b / 64] >> (b % 64)) & 1U) == 0) return false;
    return std::binary_search(List.begin(), List.end(), word);
}

// TLDs that name file types in source trees, mail attachments and shell
// sessions. `ai`, `io`, `fm`, `gl`, `me`, `tv` are left out: as domains
// they are far more common in mail than as extensions.
constexpr auto file_extension_tlds = std::to_array<std::string_view>({
    "ac",     // configure.ac
    "ad",     // X resources (XTerm-col.ad)
    "am",     // Makefile.am
    "app",    // Safari.app
    "as",     // ActionScript
    "bz",     // bzip
    "cab",    // Windows cabinet
    "cc",     // C++ source
    "cf",     // X and sendmail configuration (xorg.cf)
    "coffee", // CoffeeScript (main.coffee)
    "cu",     // CUDA source (cmake's examples: a.cu)
    "dot",    // Graphviz
    "fish",   // fish shell script
    "gd",     // GDScript
    "gn",     // GN build file (BUILD.gn)
    "gs",     // Apps Script, Ghostscript
    "in",     // Makefile.in, requirements.in
    "inc",    // PHP/assembler include
    "java",   // Main.java
    "la",     // libtool archive
    "lds",    // linker script (vmlinux.lds)
    "man",    // manual page
    "map",    // source map
    "md",     // README.md
    "mk",     // rules.mk
    "ml",     // OCaml
    "mm",     // Objective-C++
    "mo",     // gettext catalog
    "mov",    // QuickTime
    "ms",     // groff -ms
    "nc",     // netCDF
    "ninja",  // Ninja build file (build.ninja)
    "pid",    // process id file (fancontrol.pid)
    "pl",     // Perl
    "pm",     // Perl module
    "pro",    // qmake project
    "properties",  // Java properties
    "ps",     // PostScript
    "pub",    // id_rsa.pub
    "py",     // Python
    "rs",     // Rust
    "run",    // self-extracting installer
    "sh",     // shell script
    "sl",     // S-Lang script (vikeys.sl)
    "so",     // shared object
    "sv",     // SystemVerilog
    "tab",    // a table of fields (zone.tab, blkid.tab)
    "zip",    // archive
});
static_assert(sorted_unique(file_extension_tlds));

// File-name extensions that are no top-level domain (those that are sit
// in file_extension_tlds above): what ends the name of a file a document
// links to, as opposed to a member in program text (`module.exports`).
constexpr auto file_extensions = std::to_array<std::string_view>({
    "7z", "a", "adoc", "aif", "aiff", "apk", "arj", "asc", "asm", "asp", "aspx", "atom", "avi", "awk", "bak",
    "bash", "bat", "bib", "bin", "bmp", "bz2", "c", "cfg", "cgi", "class", "cmake", "cmd", "conf", "cpp", "crt",
    "css", "csv", "cxx", "d", "dat", "db", "deb", "desktop", "diff", "dll", "dmg", "doc", "docbook", "docx", "dtd",
    "dvi", "ebuild", "el", "eml", "eot", "eps", "epub", "erl", "ex", "exe", "exs", "f", "f90", "flac", "gif", "go",
    "gpg", "gz", "h", "hh", "hpp", "hs", "htm", "html", "hxx", "ico", "ics", "img", "info", "ini", "ipynb", "iso",
    "jar", "jpeg", "jpg", "js", "json", "jsonl", "jsp", "jsx", "key", "kt", "less", "lisp", "lock", "log", "lua",
    "lz", "lzma", "m", "m4", "markdown", "mbox", "md5", "mjs", "mkv", "mp3", "mp4", "mpeg", "mpg", "msi", "o",
    "odp", "ods", "odt", "ogg", "old", "opus", "orig", "otf", "pas", "patch", "pdf", "pem", "php", "png", "po",
    "pot", "pp", "ppt", "pptx", "proto", "psd", "rar", "rb", "rdf", "rej", "rpm", "rss", "rst", "rtf", "s", "sass",
    "scm", "scss", "sed", "sgml", "sha256", "sig", "sql", "sqlite", "srt", "svg", "svgz", "swf", "swift", "tar",
    "tcl", "tex", "texi", "texinfo", "tgz", "tif", "tiff", "tmpl", "toml", "ts", "tsv", "tsx", "ttf", "txt", "vala",
    "vb", "vim", "vue", "war", "wasm", "wav", "webm", "webp", "whl", "woff", "woff2", "xhtml", "xls", "xlsx", "xml",
    "xpm", "xsd", "xsl", "xslt", "xz", "yaml", "yml", "zsh", "zst",
});
static_assert(sorted_unique(file_extensions));

// TLDs that read as function words in running text (`it.Is` in a missing
// space, `about.me`), as member names in code or keys of a configuration
// (`user.name`, `req.host`, `Color.blue`, `opt.domains`, git's
// `safe.directory` and `lfs.storage`) or as the last part of a unit,
// program or file name in a manual or a changelog (`default.target`,
// `ld.gold`, `systemd.network`, `krb5-user.news`).
constexpr auto word_tlds = std::to_array<std::string_view>({
    "app", "as", "at", "auto", "bar", "be", "best", "bid", "black", "blog", "blue",
    "book", "box", "build", "buy", "by", "call", "case", "cat", "center", "channel",
    "chat", "click", "cloud", "codes", "contact", "data", "date", "day", "deal",
    "design", "dev", "direct", "directory", "do", "docs", "domains", "download", "email", "events",
    "express", "fail", "fan", "fast", "final", "foo", "free", "fun", "game", "global",
    "gold", "green", "group", "help", "here", "host", "how", "id", "in", "info", "is",
    "it", "link", "live", "map", "me", "media", "menu", "my", "name", "network", "new",
    "news", "next", "no", "now", "one", "open", "page", "pay", "pink", "play", "post", "property",
    "read", "red", "report", "run", "save", "search", "select", "show", "site", "so",
    "storage", "store", "style", "support", "target", "to", "today", "tools", "top", "total", "us", "win",
    "work", "zone",
});
static_assert(sorted_unique(word_tlds));

// Names a project gives its files by convention, in the spelling it gives
// them: before a dot they start a file name, not a host (`README.dev`,
// `Makefile.am.global`, `BUILD.gn`, `COPYRIGHT.IBM`). Compared as written:
// `readme.io` may be a site.
constexpr auto file_stems = std::to_array<std::string_view>({
    "AUTHORS", "BUILD", "CHANGES", "CMakeLists", "COPYING", "COPYRIGHT", "ChangeLog", "Dockerfile",
    "GNUmakefile", "HACKING", "INSTALL", "Kconfig", "LICENSE", "Makefile", "NEWS", "README", "THANKS",
    "TODO", "configure", "makefile",
});
static_assert(sorted_unique(file_stems));

// The results a DejaGnu test log gives each test, as it writes them at a
// line's start before the test's file (`PASS: gdb.tui/basic.exp: ...`):
// POSIX 1003.3's, DejaGnu's known-failure ones, and gdb's DUPLICATE and
// PATH. Compared as written: in capitals.
constexpr auto test_results = std::to_array<std::string_view>({
    "DUPLICATE", "FAIL", "KFAIL", "KPASS", "PASS", "PATH", "UNRESOLVED", "UNSUPPORTED", "UNTESTED", "XFAIL", "XPASS",
});
static_assert(sorted_unique(test_results));

constexpr auto core_tlds = std::to_array<std::string_view>({
    "biz", "com", "edu", "gov", "info", "int", "mil", "net", "org",
});
static_assert(sorted_unique(core_tlds));

// Receivers of member access in Python, JavaScript, Java, Rust, Go and
// shell configuration (`git config user.email`).
constexpr auto code_receivers = std::to_array<std::string_view>({
    "android", "app", "args", "argv", "arr", "array", "attrs", "buf", "cfg",
    "child", "client", "cls", "col", "conf", "config", "conn", "console", "ctx",
    "ctypes", "cur", "cursor", "data", "date", "db", "dict", "doc", "document",
    "e", "el", "elem", "element", "entry", "env", "err", "ev", "event",
    "evt", "exports", "field", "file", "form", "fs", "item", "java", "javax",
    "jnp", "json", "kotlin", "kwargs", "list", "location", "log", "logger", "logging",
    "math", "model", "module", "msg", "navigator", "nn", "node", "np", "obj",
    "object", "options", "opts", "os", "params", "parent", "path", "pd", "pkg",
    "plt", "process", "props", "re", "record", "repo", "req", "request", "res",
    "resp", "response", "result", "row", "scala", "self", "settings", "sp", "state",
    "std", "str", "super", "sys", "tf", "that", "this", "torch", "user",
    "util", "utils", "val", "window",
});
static_assert(sorted_unique(code_receivers));

constexpr auto generic_slds = std::to_array<std::string_view>({
    "ac",  "co",   "com",  "ed",  "edu",  "gen", "go",  "gob", "gouv", "gov", "govt", "gv",  "in",
    "int", "ltd",  "mil",  "ne",  "net",  "nic", "nom", "or",  "org",  "plc", "res",  "sch", "web",
});
static_assert(sorted_unique(generic_slds));

constexpr auto strong_cues = std::to_array<std::string_view>({
    "browse", "domain",  "goto",    "homepage", "link",    "links", "online", "site",  "sites",
    "surf",   "url",     "urls",    "visit",    "visiting", "web",  "webpage", "website",
});
static_assert(sorted_unique(strong_cues));

constexpr auto weak_cues = std::to_array<std::string_view>({
    "at", "from", "go", "on", "out", "see", "to", "try", "via",
});
static_assert(sorted_unique(weak_cues));

// Words that introduce a shape to fill in or a value to compare, not a place
// to go: "in the form keyname@domain.example.com", "of the format
// host.example/path", "nor would it match foo.example.com".
constexpr auto template_cues = std::to_array<std::string_view>({
    "form", "format", "match", "matched", "matches", "matching", "pattern", "syntax", "template",
});
static_assert(sorted_unique(template_cues));

// Domains that qualify SSH algorithm and extension names, `name@domain`
// (RFC 4251 section 6): `chacha20-poly1305@openssh.com` in ssh_config(5),
// `curve25519-sha256@libssh.org`. They name no mailbox.
constexpr auto ssh_name_domains = std::to_array<std::string_view>({
    "libssh.org", "openssh.com",
});
static_assert(sorted_unique(ssh_name_domains));

constexpr auto login_commands = std::to_array<std::string_view>({
    "git", "mosh", "rsh", "rsync", "scp", "sftp", "ssh",
});
static_assert(sorted_unique(login_commands));

// Mail header fields whose `<local@domain>` is a message or content
// identifier, not a mailbox: RFC 5322 3.6.4 and RFC 2045 7.
constexpr auto identifier_headers = std::to_array<std::string_view>({
    "content-id", "in-reply-to", "list-id", "message-id", "references", "resent-message-id",
});
static_assert(sorted_unique(identifier_headers));

// First labels of hosts that serve something other than web pages: chat,
// key servers, mail relays, name and time servers.
constexpr auto non_web_services = std::to_array<std::string_view>({
    "imap", "irc", "keys", "keyserver", "ldap", "mx", "ns", "ntp", "pop", "pop3", "smtp",
});
static_assert(sorted_unique(non_web_services));

// Header fields a message collects on its way (RFC 5321 4.4, RFC 3464,
// RFC 8601, RFC 6376, RFC 8617): host names of relays, not sites.
constexpr auto trace_headers = std::to_array<std::string_view>({
    "arc-authentication-results", "arc-message-signature", "arc-seal", "authentication-results",
    "dkim-signature", "domainkey-signature", "received", "received-from-mta", "received-spf",
    "remote-mta", "reporting-mta", "x-originating-ip", "x-received",
});
static_assert(sorted_unique(trace_headers));

constexpr auto html_elements = std::to_array<std::string_view>({
    "a",        "abbr",     "address",  "area",     "article",  "aside",    "audio",    "b",
    "base",     "bdi",      "bdo",      "big",      "blockquote","body",    "br",       "button",
    "canvas",   "caption",  "center",   "cite",     "code",     "col",      "colgroup", "data",
    "datalist", "dd",       "del",      "details",  "dfn",      "dialog",   "div",      "dl",
    "dt",       "em",       "embed",    "fieldset", "figcaption","figure",  "font",     "footer",
    "form",     "frame",    "frameset", "h1",       "h2",       "h3",       "h4",       "h5",
    "h6",       "head",     "header",   "hgroup",   "hr",       "html",     "i",        "iframe",
    "img",      "input",    "ins",      "kbd",      "label",    "legend",   "li",       "link",
    "main",     "map",      "mark",     "menu",     "meta",     "meter",    "nav",      "noscript",
    "object",   "ol",       "optgroup", "option",   "output",   "p",        "param",    "picture",
    "pre",      "progress", "q",        "rp",       "rt",       "ruby",     "s",        "samp",
    "script",   "section",  "select",   "slot",     "small",    "source",   "span",     "strike",
    "strong",   "style",    "sub",      "summary",  "sup",      "svg",      "table",    "tbody",
    "td",       "template", "textarea", "tfoot",    "th",       "thead",    "time",     "title",
    "tr",       "track",    "tt",       "u",        "ul",       "var",      "video",    "wbr",
    "xml",
});
static_assert(sorted_unique(html_elements));

constexpr auto void_elements = std::to_array<std::string_view>({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
});
static_assert(sorted_unique(void_elements));

}  // namespace

bool is_file_extension_tld(std::string_view label) noexcept { return contains_folded<file_extension_tlds>(label); }
bool is_file_extension(std::string_view label) noexcept {
    return contains_folded<file_extensions>(label) || contains_folded<file_extension_tlds>(label);
}
bool is_word_tld(std::string_view label) noexcept { return contains_folded<word_tlds>(label); }
bool is_core_tld(std::string_view label) noexcept { return contains_folded<core_tlds>(label); }
bool is_file_stem(std::string_view label) noexcept { return contains_exact<file_stems>(label); }
bool is_test_result(std::string_view name) noexcept { return contains_exact<test_results>(name); }
bool is_code_receiver(std::string_view label) noexcept { return contains_folded<code_receivers>(label); }
bool is_generic_sld(std::string_view label) noexcept { return contains_folded<generic_slds>(label); }
bool is_login_command(std::string_view word) noexcept { return contains_folded<login_commands>(word); }
bool is_template_cue(std::string_view word) noexcept { return contains_folded<template_cues>(word); }
bool is_ssh_name_domain(std::string_view host) noexcept { return contains_folded<ssh_name_domains>(host); }
bool is_identifier_header(std::string_view name) noexcept { return contains_folded<identifier_headers>(name); }
bool is_class_header(std::string_view name) noexcept {
    // Exchange's Content-Class; a git trailer such as `References:` does
    // list URLs, so the identifier headers are not asked here.
    return iequals(name, "content-class");
}
bool is_non_web_service(std::string_view label) noexcept {
    if (contains_folded<non_web_services>(label)) return true;
    // mx1, ns2, smtp3: numbered relays and name servers.
    std::size_t letters = 0;
    while (letters < label.size() && is_alpha(label[letters])) ++letters;
    if (letters == 0 || letters == label.size()) return false;
    for (std::size_t i = letters; i < label.size(); ++i)
        if (!is_digit(label[i])) return false;
    return contains_folded<non_web_services>(label.substr(0, letters));
}
bool is_trace_header(std::string_view name) noexcept { return contains_folded<trace_headers>(name); }

std::string_view header_field_name(text_before before) noexcept {
    if (!before.line_start) return before.field;
    const std::string_view line = before.text.substr(0, field_reach);
    std::size_t i = 0;
    while (i < line.size() && (line[i] == '>' || line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t begin = i;
    while (i < line.size() && (is_alnum(line[i]) || line[i] == '-')) ++i;
    const std::size_t end = i;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (end == begin || i >= line.size() || line[i] != ':' || !is_alpha(line[begin])) return {};
    // `FAIL://host/` starts a URL, no field: read as one, the rewriter's
    // lower-cased scheme (`fail://`) would read otherwise on a second pass.
    if (end == i && line.substr(i + 1).starts_with("//")) return {};
    return line.substr(begin, end - begin);
}
bool is_html_element(std::string_view name) noexcept { return contains_folded<html_elements>(name); }
bool is_void_element(std::string_view name) noexcept { return contains_folded<void_elements>(name); }

cue cue_strength(std::string_view word) noexcept {
    if (contains_folded<strong_cues>(word)) return cue::strong;
    if (contains_folded<weak_cues>(word)) return cue::weak;
    return cue::none;
}

}  // namespace urlsift::detail::lexicon
