// The code reader's languages, and how a file names one.

#include "formats/code_languages.hpp"

#include "text/ascii.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace urlsift::detail {

namespace {

using enum comment_place;
using enum outside_kind;
using enum single_quote;

// clang-format off
constexpr std::array languages = {
    // Programs in C's syntax: `'x'` is a character.
    code_language{.name = "C", .extensions = ".c .h", .line_comments = "//", .block_open = "/*", .block_close = "*/",
                  .single = character},
    code_language{.name = "C++", .extensions = ".cc .cpp .cxx .c++ .hh .hpp .hxx .h++ .ipp .tcc .inl",
                  .line_comments = "//", .block_open = "/*", .block_close = "*/", .single = character},
    code_language{.name = "Objective-C", .extensions = ".mm", .line_comments = "//", .block_open = "/*",
                  .block_close = "*/", .single = character},
    code_language{.name = "Java", .extensions = ".java", .line_comments = "//", .block_open = "/*", .block_close = "*/",
                  .single = character},
    code_language{.name = "C#", .extensions = ".cs", .line_comments = "//", .block_open = "/*", .block_close = "*/",
                  .single = character},
    code_language{.name = "Kotlin", .extensions = ".kt .kts", .line_comments = "//", .block_open = "/*",
                  .block_close = "*/", .single = character},
    code_language{.name = "Scala", .extensions = ".scala", .line_comments = "//", .block_open = "/*",
                  .block_close = "*/", .single = character},
    code_language{.name = "Swift", .extensions = ".swift", .line_comments = "//", .block_open = "/*",
                  .block_close = "*/", .single = character},
    code_language{.name = "Go", .extensions = ".go", .line_comments = "//", .block_open = "/*", .block_close = "*/",
                  .single = character, .backticks = true},
    code_language{.name = "Rust", .extensions = ".rs", .line_comments = "//", .block_open = "/*", .block_close = "*/",
                  .single = character},
    code_language{.name = "JavaScript", .extensions = ".js .mjs .cjs .jsx", .interpreters = "node nodejs deno",
                  .line_comments = "//", .block_open = "/*", .block_close = "*/", .backticks = true},
    code_language{.name = "TypeScript", .extensions = ".ts .tsx .mts .cts", .line_comments = "//", .block_open = "/*",
                  .block_close = "*/", .backticks = true},
    code_language{.name = "Haskell", .extensions = ".hs .lhs", .interpreters = "runghc runhaskell",
                  .line_comments = "--", .block_open = "{-", .block_close = "-}", .single = character},
    code_language{.name = "SQL", .extensions = ".sql", .line_comments = "--", .block_open = "/*", .block_close = "*/", .multiline = true},
    // Scripts.
    code_language{.name = "Python", .extensions = ".py .pyw .pyi", .interpreters = "python python2 python3 pypy pypy3",
                  .line_comments = "#", .triple_quotes = true},
    code_language{.name = "Perl", .extensions = ".pl .pm .t .pod", .interpreters = "perl", .line_comments = "#",
                  .place = word_start, .single = raw, .pod = true, .heredocs = true, .multiline = true},
    code_language{.name = "Ruby", .extensions = ".rb .rake .gemspec", .file_names = "Rakefile Gemfile",
                  .interpreters = "ruby", .line_comments = "#", .block_open = "\n=begin", .block_close = "\n=end",
                  .heredocs = true, .multiline = true},
    code_language{.name = "Lua", .extensions = ".lua", .interpreters = "lua luajit", .line_comments = "--",
                  .lua_long = true},
    code_language{.name = "R", .extensions = ".r .R", .interpreters = "Rscript", .line_comments = "#", .multiline = true},
    code_language{.name = "Tcl", .extensions = ".tcl .tk", .interpreters = "tclsh wish", .line_comments = "#",
                  .place = word_start, .single = none, .multiline = true},
    code_language{.name = "Lisp", .extensions = ".el .lisp .lsp .scm .ss .clj .cljs", .line_comments = ";",
                  .single = none, .multiline = true},
    code_language{.name = "shell", .extensions = ".sh .bash .zsh .ksh .bats .command",
                  .file_names = ".bashrc .bash_profile .bash_logout .profile .zshrc .zprofile .kshrc",
                  .interpreters = "sh bash dash zsh ksh mksh ash busybox", .line_comments = "#", .place = word_start,
                  .single = raw, .heredocs = true, .multiline = true},
    // Build files: what is no comment is a value (a target, a flag, a URL).
    code_language{.name = "Makefile", .extensions = ".mk .mak .make", .file_names = "Makefile makefile GNUmakefile",
                  .interpreters = "make", .line_comments = "#", .single = none, .outside = values},
    code_language{.name = "CMake", .extensions = ".cmake", .file_names = "CMakeLists.txt", .line_comments = "#",
                  .block_open = "#[[", .block_close = "]]", .single = none, .outside = values, .multiline = true},
    code_language{.name = "Dockerfile", .extensions = ".dockerfile", .file_names = "Dockerfile Containerfile",
                  .line_comments = "#", .place = line_start, .single = none, .outside = values},
    // Configuration and data.
    code_language{.name = "YAML", .extensions = ".yml .yaml", .line_comments = "#", .place = word_start,
                  .single = raw, .outside = values, .multiline = true},
    code_language{.name = "TOML", .extensions = ".toml", .line_comments = "#", .single = raw, .outside = values},
    code_language{.name = "INI", .extensions = ".ini .cfg .cnf .inf .properties .repo .gitconfig",
                  .file_names = ".gitconfig .editorconfig", .line_comments = "; #", .place = line_start,
                  .single = none, .double_quotes = false, .outside = values},
    code_language{.name = "systemd unit",
                  .extensions = ".service .socket .timer .mount .automount .swap .target .path .slice .scope "
                                ".network .netdev .link .nspawn",
                  .line_comments = "; #", .place = line_start, .single = none, .double_quotes = false,
                  .outside = values},
    code_language{.name = "desktop entry", .extensions = ".desktop .directory", .line_comments = "#",
                  .place = line_start, .single = none, .double_quotes = false, .outside = values},
    code_language{.name = "configuration", .extensions = ".conf", .line_comments = "# ;", .place = word_start,
                  .single = none, .outside = values},
    code_language{.name = "CSS", .extensions = ".css .scss .less", .line_comments = "//", .block_open = "/*",
                  .block_close = "*/", .outside = values},
    code_language{.name = "JSON", .extensions = ".json .geojson .webmanifest .jsonl .ndjson .har", .single = none},
    code_language{.name = "XML",
                  .extensions = ".xml .xsd .xsl .xslt .svg .rss .atom .plist .wsdl .xul .glade .ui .policy .nuspec "
                                ".csproj .vcxproj .pom .fodt .kml .gpx",
                  .xml = true},
};
// clang-format on

/// Calls `each(word)` for each blank-separated word of `list` until it
/// returns true; returns whether one did.
template <typename Each>
constexpr bool any_word(std::string_view list, Each&& each) {
    std::size_t i = 0;
    while (i < list.size()) {
        const std::size_t end = std::min(list.find(' ', i), list.size());
        if (end > i && each(list.substr(i, end - i))) return true;
        i = end + 1;
    }
    return false;
}

/// An extension is a `.` and what follows it, with no other `.`: the one
/// a file name ends with starts at the name's last `.`.
static_assert([] {
    for (const code_language& l : languages)
        if (any_word(l.extensions,
                     [](std::string_view w) { return w.size() < 2 || w[0] != '.' || w.find('.', 1) != w.npos; }))
            return false;
    return true;
}());

/// An extension (in lower case) or a whole file name of at most 16 bytes,
/// packed into two words so that a comparison is two compares; with the
/// row of the table that lists it.
struct name_key {
    std::uint64_t low = 0, high = 0; ///< bytes 0-7 and 8-15, the first in the low bits, zero past the end
    std::uint8_t size = 0;
    std::uint8_t row = 0;

    static constexpr std::size_t capacity = 16;

    /// `text`, lowered with `Lower`; a key of size 0 when it does not fit.
    template <bool Lower>
    static constexpr name_key of(std::string_view text) noexcept {
        name_key k;
        if (text.size() > capacity) return k;
        for (const char c : text) {
            const auto byte = static_cast<std::uint64_t>(static_cast<unsigned char>(Lower ? to_lower(c) : c));
            (k.size < 8 ? k.low : k.high) |= byte << (8 * (k.size % 8));
            ++k.size;
        }
        return k;
    }
    constexpr bool same_text(const name_key& o) const noexcept {
        return low == o.low && high == o.high && size == o.size;
    }
    /// Any order will do, the same for sorting and for lookups.
    constexpr bool text_before(const name_key& o) const noexcept {
        if (low != o.low) return low < o.low;
        if (high != o.high) return high < o.high;
        return size < o.size;
    }
    /// Of two rows listing one key, the earlier first.
    constexpr bool operator<(const name_key& o) const noexcept {
        return text_before(o) || (same_text(o) && row < o.row);
    }
};

static_assert(languages.size() <= UINT8_MAX, "name_key::row holds a row of the table in one byte");

template <std::string_view code_language::*List>
constexpr std::size_t key_count() {
    std::size_t n = 0;
    for (const code_language& l : languages) any_word(l.*List, [&](std::string_view) { return ++n, false; });
    return n;
}

/// Every key of the table's `List` column, sorted: each file of a tree has
/// its name looked up, and the index costs nothing at start-up.
template <std::string_view code_language::*List, bool Lower>
constexpr auto sorted_keys() {
    std::array<name_key, key_count<List>()> keys{};
    std::size_t n = 0;
    for (std::size_t row = 0; row < languages.size(); ++row)
        any_word(languages[row].*List, [&](std::string_view w) {
            if (w.size() > name_key::capacity) throw "a name longer than name_key holds";
            keys[n] = name_key::of<Lower>(w);
            keys[n++].row = static_cast<std::uint8_t>(row);
            return false;
        });
    std::sort(keys.begin(), keys.end());
    return keys;
}

constexpr auto extension_keys = sorted_keys<&code_language::extensions, true>();
constexpr auto file_name_keys = sorted_keys<&code_language::file_names, false>();

/// The first row listing `key` in `keys`, or languages.size().
template <std::size_t N>
std::size_t first_row(const std::array<name_key, N>& keys, const name_key& key) noexcept {
    if (key.size == 0) return languages.size();
    const auto at = std::lower_bound(keys.begin(), keys.end(), key,
                                     [](const name_key& k, const name_key& v) { return k.text_before(v); });
    return at != keys.end() && at->same_text(key) ? at->row : languages.size();
}

}  // namespace

const code_language* language_by_name(std::string_view path) noexcept {
    const std::size_t slash = path.find_last_of('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    std::size_t row = first_row(file_name_keys, name_key::of<false>(name));
    // An extension is less than the whole name: `.h` names no file `.h`
    // (but `.bashrc` is listed by name). As the table reads, row by row:
    // the earlier row names the file.
    if (const std::size_t dot = name.find_last_of('.'); dot != std::string_view::npos && dot > 0)
        row = std::min(row, first_row(extension_keys, name_key::of<true>(name.substr(dot))));
    return row < languages.size() ? &languages[row] : nullptr;
}

const code_language& xml_language() noexcept {
    // The last row, as the table is laid out.
    static_assert(languages.back().xml);
    return languages.back();
}

const code_language* language_by_interpreter(std::string_view head) noexcept {
    if (!head.starts_with("#!")) return nullptr;
    std::string_view line = head.substr(2, head.find('\n') == std::string_view::npos ? head.size() : head.find('\n') - 2);
    // The words of the line: the interpreter's path, then its arguments;
    // `env` runs the next word that is no option (`env -S python3 -u`).
    std::string_view command;
    bool after_env = false;
    any_word(line, [&](std::string_view word) {
        if (word.empty() || word == "\t") return false;
        const std::size_t slash = word.find_last_of('/');
        const std::string_view base = slash == std::string_view::npos ? word : word.substr(slash + 1);
        if (!after_env && base == "env") {
            after_env = true;
            return false;
        }
        if (after_env && (base.starts_with('-') || base.find('=') != std::string_view::npos)) return false;
        command = base;
        return true;
    });
    if (command.empty()) return nullptr;
    // `python3.11`, `perl5.36`: a version after the name.
    const std::size_t digits = command.find_first_of(".0123456789");
    const std::string_view bare = command.substr(0, digits == 0 ? command.size() : digits);
    for (const code_language& l : languages)
        if (any_word(l.interpreters, [&](std::string_view w) { return command == w || bare == w; })) return &l;
    return nullptr;
}

}  // namespace urlsift::detail
