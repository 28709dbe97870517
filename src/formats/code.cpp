// Source code and configuration: comments are prose, strings and the values
// of configuration are values (URLs with a scheme only), the rest of a
// program is read for nothing. One pass over the bytes, by the language's
// row in the table of code_languages.cpp.

#include "formats/code_languages.hpp"
#include "formats/readers.hpp"

#include "text/ascii.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace urlsift::detail {

namespace {

constexpr std::size_t npos = std::string_view::npos;

/// The first index at or after `k` in `t` holding `a`, `b` or `c`, or
/// t.size(): the end of a string or a docstring, looked for 16 bytes at a
/// time where the processor has vectors.
std::size_t find_first_of3(std::string_view t, std::size_t k, char a, char b, char c) noexcept {
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
    for (; k + 16 <= t.size(); k += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + k));
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)), _mm_cmpeq_epi8(v, vc));
        if (const int m = _mm_movemask_epi8(hit); m != 0) return k + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(m)));
    }
#endif
    for (; k < t.size(); ++k)
        if (t[k] == a || t[k] == b || t[k] == c) return k;
    return t.size();
}

/// The longest character literal: `'\u{10FFFF}'`. A `'` with no close
/// within it is no quote (a Rust lifetime, an apostrophe in a macro).
constexpr std::size_t longest_character = 12;

class code_reader {
public:
    code_reader(std::string_view text, const code_language& lang, document_layout& out)
        : t_(text), lang_(lang), out_(out) {
        // The line comment markers, and the bytes that may start anything
        // but code: the reader goes from one to the next.
        for (std::size_t k = 0; k < lang.line_comments.size();) {
            const std::size_t end = std::min(lang.line_comments.find(' ', k), lang.line_comments.size());
            if (end > k && markers_count_ < markers_.size()) markers_[markers_count_++] = lang.line_comments.substr(k, end - k);
            k = end + 1;
        }
        for (std::size_t k = 0; k < markers_count_; ++k) special_.add(markers_[k][0]);
        if (!lang.block_open.empty()) special_.add(lang.block_open[0]);
        if (lang.double_quotes) special_.add('"');
        if (lang.single != single_quote::none) special_.add('\'');
        if (lang.backticks) special_.add('`');
        if (lang.lua_long) special_.add('[');
        if (lang.heredocs || lang.outside == outside_kind::values) special_.add('<');
        if (lang.pod) special_.add('=');
    }

    void read() {
        if (lang_.xml) {
            read_xml();
            return;
        }
        const bool values = lang_.outside == outside_kind::values;
        std::size_t i = 0;
        while (i < t_.size()) {
            const std::size_t run = special_.find(t_, i);
            if (values) add(out_.values, i, run);
            if (run >= t_.size()) break;
            i = run;
            const std::size_t next = step(i);
            if (next != i) {
                i = next;
                continue;
            }
            // An ordinary byte after all: code, or a value.
            if (values) add(out_.values, i, i + 1);
            ++i;
        }
    }

private:
    /// The first bytes of what is not code: up to eight of them, each found
    /// with memchr and its next place kept until the reader passes it, so
    /// that the bytes between are looked at by memchr alone.
    class byte_finder {
    public:
        void add(char b) {
            for (std::size_t k = 0; k < count_; ++k)
                if (bytes_[k] == b) return;
            if (count_ == bytes_.size()) return;
            bytes_[count_] = b;
            next_[count_++] = npos;  // not looked for yet
        }
        /// The first index at or after `i` holding one of the bytes, or
        /// t.size(). `i` never goes back between calls.
        std::size_t find(std::string_view t, std::size_t i) noexcept {
            std::size_t first = t.size();
            for (std::size_t k = 0; k < count_; ++k) {
                if (next_[k] == npos || next_[k] < i) {
                    const void* p = i < t.size() ? std::memchr(t.data() + i, bytes_[k], t.size() - i) : nullptr;
                    next_[k] = p == nullptr ? t.size() : static_cast<std::size_t>(static_cast<const char*>(p) - t.data());
                }
                first = std::min(first, next_[k]);
            }
            return first;
        }

    private:
        std::array<char, 8> bytes_{};
        std::array<std::size_t, 8> next_{};
        std::size_t count_ = 0;
    };

    /// A line comment alone on its line: its marker, its column and the
    /// end of its line.
    struct line_comment {
        std::string_view marker;
        std::size_t column = npos;
        std::size_t end = npos;
    };

    /// Reads what starts at t[i] when it is a comment, a string or a
    /// heredoc; returns where reading goes on, or `i` for an ordinary byte.
    std::size_t step(std::size_t i) {
        const char c = t_[i];
        const bool line_start = i == 0 || t_[i - 1] == '\n';
        if (lang_.pod && line_start && c == '=' && i + 1 < t_.size() && is_alpha(t_[i + 1])) return pod(i);
        if (!lang_.block_open.empty() && starts(i, lang_.block_open)) return block_comment(i);
        if (lang_.lua_long && starts(i, "--[")) {
            if (const std::size_t level = long_bracket(i + 2); level != npos) return long_region(i + 2, level, true);
        }
        if (const std::string_view marker = comment_marker(i); !marker.empty()) return comment(i, marker);
        if (lang_.triple_quotes && (starts(i, "\"\"\"") || starts(i, "'''"))) return triple(i);
        if (c == '"' && lang_.double_quotes) return string(i, '"', true, lang_.multiline);
        if (c == '\'') {
            switch (lang_.single) {
            case single_quote::string: return string(i, '\'', true, lang_.multiline);
            case single_quote::raw: return string(i, '\'', false, lang_.multiline);
            case single_quote::character: return character(i);
            case single_quote::none: return i;
            }
        }
        if (c == '`' && lang_.backticks) return string(i, '`', lang_.single != single_quote::character, true);
        if (lang_.lua_long && c == '[') {
            if (const std::size_t level = long_bracket(i); level != npos) return long_region(i, level, false);
        }
        if (lang_.heredocs && c == '<' && starts(i, "<<")) return heredoc(i);
        // An XML declaration or doctype in configuration (a D-Bus policy
        // named `.conf`, a `.cfg` that is XML) names a DTD: read for nothing.
        if (lang_.outside == outside_kind::values && c == '<' && declaration(i)) return declaration_end(i);
        return i;
    }

    /// Whether t[i] starts `<!DOCTYPE` or `<?xml`.
    bool declaration(std::size_t i) const noexcept {
        const std::string_view rest = t_.substr(i, 9);
        return starts_with_nocase(rest, "<!DOCTYPE") || starts_with_nocase(rest, "<?xml");
    }

    /// Where the declaration at t[lt] (`<!...>`, `<?...?>`) ends. A
    /// DOCTYPE's internal subset holds `>`: it ends at `]>`.
    std::size_t declaration_end(std::size_t lt) const noexcept {
        const std::size_t bracket = t_.find('[', lt);
        const std::size_t gt = t_.find('>', lt);
        const std::size_t end = bracket != npos && bracket < gt ? t_.find("]>", bracket) : gt;
        return end == npos ? t_.size() : end + (end == gt ? 1 : 2);
    }

    bool starts(std::size_t i, std::string_view s) const noexcept {
        if (t_.size() - i < s.size()) return false;
        for (std::size_t k = 0; k < s.size(); ++k)
            if (t_[i + k] != s[k]) return false;
        return true;
    }

    std::size_t line_end(std::size_t i) const noexcept {
        const std::size_t nl = t_.find('\n', i);
        return nl == npos ? t_.size() : nl;
    }
    /// Where the line of t[i] starts when only blanks precede t[i] on it,
    /// else npos: looked for from t[i] back, over the blanks alone.
    std::size_t start_of_blank_line(std::size_t i) const noexcept {
        while (i > 0 && (t_[i - 1] == ' ' || t_[i - 1] == '\t')) --i;
        return i == 0 || t_[i - 1] == '\n' ? i : npos;
    }
    /// Whether only blanks precede t[i] on its line.
    bool first_on_line(std::size_t i) const noexcept { return start_of_blank_line(i) != npos; }

    /// Adds [from, to) to `ranges`, joined to the last range when they touch.
    static void add(std::vector<byte_range>& ranges, std::size_t from, std::size_t to) {
        if (to <= from) return;
        if (!ranges.empty() && ranges.back().offset + ranges.back().length == from)
            ranges.back().length += to - from;
        else
            ranges.push_back({from, to - from});
    }

    /// The line comment marker at t[i], where the language's rules let one
    /// start; empty when there is none.
    std::string_view comment_marker(std::size_t i) const noexcept {
        std::string_view found;
        for (std::size_t k = 0; k < markers_count_ && found.empty(); ++k)
            if (starts(i, markers_[k])) found = markers_[k];
        if (found.empty()) return found;
        switch (lang_.place) {
        case comment_place::anywhere: return found;
        case comment_place::word_start:
            return i == 0 || t_[i - 1] == ' ' || t_[i - 1] == '\t' || t_[i - 1] == '\n' ? found : std::string_view();
        case comment_place::line_start: return first_on_line(i) ? found : std::string_view();
        }
        return found;
    }

    /// A comment from its marker at t[i] to the end of the line. A comment
    /// alone on its line that follows one alone on the line before, with
    /// the same marker in the same column, goes on it: its marker is seen
    /// as blanks, so that a URL broken across the two lines joins.
    std::size_t comment(std::size_t i, std::string_view marker) {
        const std::size_t end = line_end(i);
        std::size_t from = i + marker.size();
        // Doc comments' extra marks (`///`, `//!`, `##`) are the marker's.
        while (from < end && (t_[from] == marker.back() || (t_[from] == '!' && from == i + marker.size()))) ++from;
        if (const std::size_t begin = start_of_blank_line(i); begin != npos) {
            const line_comment here{marker, i - begin, end};
            const bool goes_on = last_alone_.end != npos && last_alone_.end + 1 == begin &&
                                 last_alone_.marker == here.marker && last_alone_.column == here.column;
            if (goes_on)
                add(out_.blanked, i, from);
            last_alone_ = here;
        }
        add(out_.prose, from, end);
        return end;
    }

    /// A block comment from its opening marker at t[i]: its text is prose,
    /// and the `*` that frames each of its lines (` * text`) is seen as a
    /// blank.
    std::size_t block_comment(std::size_t i) {
        const std::size_t open = i + lang_.block_open.size();
        const std::size_t close = t_.find(lang_.block_close, open);
        const std::size_t end = close == npos ? t_.size() : close;
        std::size_t k = open;
        while (k < end && t_[k] == lang_.block_open.back()) ++k;  // `/**`
        while (k < end) {
            const std::size_t eol = std::min(line_end(k), end);
            add(out_.prose, k, eol);
            if (eol >= end) break;
            // The next line: blanks, then perhaps its frame.
            std::size_t s = eol + 1;
            while (s < end && (t_[s] == ' ' || t_[s] == '\t')) ++s;
            if (s < end && t_[s] == '*' && lang_.block_open == "/*") {
                add(out_.blanked, s, s + 1);
                k = s + 1;
            } else {
                k = eol + 1;
            }
        }
        last_alone_ = {};
        return close == npos ? t_.size() : close + lang_.block_close.size();
    }

    /// Perl's POD: from a line `=word` to the end of the line `=cut`. Its
    /// `E<lt>` and `E<gt>` are read as `<` and `>` (perlpod: a mail address
    /// is written `E<lt>name@cpan.orgE<gt>`).
    std::size_t pod(std::size_t i) {
        std::size_t cut = t_.find("\n=cut", i);
        const std::size_t end = cut == npos ? t_.size() : line_end(cut + 1);
        add(out_.prose, i, end);
        constexpr std::string_view lt = "E<lt>", gt = "E<gt>";
        for (std::size_t e = t_.find("E<", i); e < end; e = t_.find("E<", e + 2)) {
            const std::string_view escape = t_.substr(e, lt.size());
            if (e + escape.size() > end || (escape != lt && escape != gt)) continue;
            out_.escapes.push_back({{e, escape.size()}, escape == lt ? '<' : '>'});
        }
        return end;
    }

    /// A string from its quote at t[i]: its text is a value. Backslash
    /// escapes when `escapes`; it ends at the line's end unless `multiline`
    /// (or an escaped line break).
    std::size_t string(std::size_t i, char quote, bool escapes, bool multiline) {
        std::size_t k = i + 1;
        while (true) {
            k = find_first_of3(t_, k, quote, escapes ? '\\' : quote, multiline ? quote : '\n');
            if (k >= t_.size() || t_[k] != '\\') break;
            k += 2;
        }
        k = std::min(k, t_.size());
        // Only a string that holds a `:` may hold a namespace's name.
        const bool named = std::memchr(t_.data() + i + 1, ':', k - (i + 1)) != nullptr && namespace_argument(i);
        if (!named) add(out_.values, i + 1 + clark_namespace(i + 1, k), k);
        return k < t_.size() && t_[k] == quote ? k + 1 : k;
    }

    /// Whether the string at t[i] is the first argument of a call to a
    /// function whose name ends in `NS`: the DOM's namespace-aware methods
    /// take a namespace name there (`createElementNS("http://www.w3.org/2000/svg", "tspan")`,
    /// `setAttributeNS`, `getElementsByTagNameNS`), an identifier.
    bool namespace_argument(std::size_t i) const noexcept {
        std::size_t k = i;
        while (k > 0 && (t_[k - 1] == ' ' || t_[k - 1] == '\t')) --k;
        if (k == 0 || t_[k - 1] != '(') return false;
        --k;
        while (k > 0 && (t_[k - 1] == ' ' || t_[k - 1] == '\t')) --k;
        return k >= 3 && t_[k - 1] == 'S' && t_[k - 2] == 'N' && (is_alnum(t_[k - 3]) || t_[k - 3] == '_');
    }

    /// The length of a namespace name in James Clark's notation at the start
    /// of the string [from, to): `{http://www.w3.org/2000/svg}rect`, an
    /// element's name as ElementTree and lxml write it; 0 when there is none.
    std::size_t clark_namespace(std::size_t from, std::size_t to) const noexcept {
        if (from >= to || t_[from] != '{') return 0;
        const std::size_t close = t_.find('}', from);
        if (close == npos || close >= to) return 0;
        const std::string_view name = t_.substr(from + 1, close - from - 1);
        return name.find(':') != npos && name.find_first_of(" \t\n") == npos ? close + 1 - from : 0;
    }

    /// `'x'`, `'\n'`: code. A `'` with no close a few bytes on is an
    /// ordinary byte.
    std::size_t character(std::size_t i) {
        for (std::size_t k = i + 1; k < t_.size() && k <= i + longest_character; ++k) {
            if (t_[k] == '\n') break;
            if (t_[k] == '\\') {
                ++k;
                continue;
            }
            if (t_[k] == '\'') return k + 1;
        }
        return i;
    }

    /// `"""..."""` or `'''...'''`: a docstring when it starts a statement
    /// (prose, which the program holds: never edited), else a value.
    std::size_t triple(std::size_t i) {
        const std::string_view quotes = t_.substr(i, 3);
        std::size_t k = i + 3;
        while (true) {
            k = find_first_of3(t_, k, quotes[0], '\\', quotes[0]);
            if (k >= t_.size() || starts(k, quotes)) break;
            k += t_[k] == '\\' ? 2U : 1U;
        }
        k = std::min(k, t_.size());
        add(first_on_line(i) ? out_.quoted_prose : out_.values, i + 3, k);
        return std::min(k + 3, t_.size());
    }

    /// Lua's long bracket at t[i]: `[[` or `[==[`; its level (the count of
    /// `=`), or npos.
    std::size_t long_bracket(std::size_t i) const noexcept {
        if (i >= t_.size() || t_[i] != '[') return npos;
        std::size_t k = i + 1;
        while (k < t_.size() && t_[k] == '=') ++k;
        return k < t_.size() && t_[k] == '[' ? k - i - 1 : npos;
    }

    /// A Lua long string or, after `--`, a long comment.
    std::size_t long_region(std::size_t i, std::size_t level, bool is_comment) {
        const std::size_t open = i + level + 2;
        std::string close(level + 2, '=');
        close.front() = close.back() = ']';
        const std::size_t end = std::min(t_.find(close, open), t_.size());
        add(is_comment ? out_.prose : out_.values, open, end);
        return std::min(end + close.size(), t_.size());
    }

    /// `<<WORD`, `<<-"WORD"`, `<<~WORD`: the lines after this one, up to a
    /// line that is the word (after blanks, for `-` and `~`), are a value.
    std::size_t heredoc(std::size_t i) {
        std::size_t k = i + 2;
        if (k < t_.size() && (t_[k] == '-' || t_[k] == '~')) ++k;
        while (k < t_.size() && t_[k] == ' ') ++k;
        const char quote = k < t_.size() && (t_[k] == '\'' || t_[k] == '"') ? t_[k] : '\0';
        if (quote != '\0') ++k;
        std::size_t e = k;
        while (e < t_.size() && (is_alnum(t_[e]) || t_[e] == '_')) ++e;
        if (e == k || (quote != '\0' && (e >= t_.size() || t_[e] != quote))) return i + 2;  // `a << b`, `<<=`
        const std::string_view word = t_.substr(k, e - k);
        const std::size_t body = std::min(line_end(e) + 1, t_.size());
        std::size_t line = body;
        while (line < t_.size()) {
            const std::size_t eol = line_end(line);
            std::size_t s = line;
            while (s < eol && (t_[s] == ' ' || t_[s] == '\t')) ++s;
            if (t_.substr(s, eol - s) == word) break;
            line = eol + 1;
        }
        // The rest of the `<<` line is read as usual, then the body.
        std::size_t at = e + (quote != '\0' ? 1 : 0);
        while (at < body) {
            const std::size_t next = step(at);
            at = next == at ? at + 1 : next;
        }
        // A string that runs on past the line has taken the body.
        if (at > body) return at;
        add(out_.values, body, std::min(line, t_.size()));
        return std::min(line, t_.size());
    }

    // ------------------------------------------------------------ XML
    /// XML: comments are prose; text and attribute values are values, but
    /// for the names of namespaces and schemas (`xmlns`, `schemaLocation`),
    /// identifiers rather than links; declarations (`<!DOCTYPE ...>`,
    /// `<?xml ...?>`) are read for nothing.
    void read_xml() {
        std::size_t i = 0;
        while (i < t_.size()) {
            const std::size_t lt = std::min(t_.find('<', i), t_.size());
            add(out_.values, i, lt);
            if (lt >= t_.size()) break;
            if (starts(lt, "<!--")) {
                const std::size_t end = std::min(t_.find("-->", lt + 4), t_.size());
                add(out_.prose, lt + 4, end);
                i = std::min(end + 3, t_.size());
            } else if (starts(lt, "<![CDATA[")) {
                const std::size_t end = std::min(t_.find("]]>", lt + 9), t_.size());
                add(out_.values, lt + 9, end);
                i = std::min(end + 3, t_.size());
            } else if (starts(lt, "<!") || starts(lt, "<?")) {
                i = declaration_end(lt);
            } else {
                i = tag(lt);
            }
        }
    }

    /// Whether an attribute called `name` holds a URI that names rather than
    /// links: a namespace (`xmlns`, `xmlns:*`), a schema (`schemaLocation`,
    /// `xsi:noNamespaceSchemaLocation`), an algorithm or a type of XML
    /// Signature and XML Encryption (`Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"`,
    /// `Type="...#Element"`), or the system or public identifier an XML
    /// catalog matches (`systemId`, `systemIdStartString`, `publicId`).
    static bool identifier_attribute(std::string_view name) noexcept {
        const std::size_t colon = name.find(':');
        const std::string_view local = colon == npos ? name : name.substr(colon + 1);
        return starts_with_nocase(name, "xmlns") || ends_with_nocase(local, "schemaLocation") ||
               iequals(local, "Algorithm") || iequals(local, "Type") || starts_with_nocase(local, "systemId") ||
               starts_with_nocase(local, "publicId");
    }

    /// A tag at t[lt]: its attribute values are values, but for names
    /// (identifier_attribute).
    std::size_t tag(std::size_t lt) {
        std::size_t k = lt + 1;
        std::size_t name_from = npos;
        while (k < t_.size() && t_[k] != '>') {
            const char c = t_[k];
            if (c == '"' || c == '\'') {
                const std::size_t close = std::min(t_.find(c, k + 1), t_.size());
                std::string_view name;
                if (name_from != npos) {
                    std::size_t e = name_from;
                    while (e < k && t_[e] != '=' && t_[e] != ' ' && t_[e] != '\t' && t_[e] != '\n') ++e;
                    name = t_.substr(name_from, e - name_from);
                }
                if (!identifier_attribute(name)) add(out_.values, k + 1, close);
                k = std::min(close + 1, t_.size());
                name_from = npos;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                name_from = npos;
            } else if (name_from == npos && c != '=' && c != '/') {
                name_from = k;
            }
            ++k;
        }
        return std::min(k + 1, t_.size());
    }

    std::string_view t_;
    const code_language& lang_;
    document_layout& out_;
    line_comment last_alone_; ///< the last line comment alone on its line
    std::array<std::string_view, 3> markers_{};
    std::size_t markers_count_ = 0;
    byte_finder special_;
};

}  // namespace

document_layout read_code(std::string_view text, const code_language& language) {
    document_layout layout;
    layout.bare_hosts = false;
    layout.placeholder_addresses = false;
    // Configuration that is XML by its first bytes (a D-Bus policy named
    // `.conf`, a `.cfg` of definitions) is read as XML.
    const code_language* xml = nullptr;
    if (language.outside == outside_kind::values && !language.xml) {
        std::size_t k = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
        while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n')) ++k;
        const std::string_view head = text.substr(k, 9);
        if (starts_with_nocase(head, "<?xml") || starts_with_nocase(head, "<!DOCTYPE")) xml = &xml_language();
    }
    code_reader(text, xml != nullptr ? *xml : language, layout).read();
    return layout;
}

}  // namespace urlsift::detail
