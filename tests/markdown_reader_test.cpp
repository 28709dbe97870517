// The Markdown reader (src/formats/markdown.cpp): its links against the
// examples of the CommonMark 0.30 and GFM 0.29 specs
// (tests/data/commonmark/), the layout's contract (include/urlsift/
// document.hpp) on every example, and what the scanner relies on: exact
// destination spans, code kept out of prose.

#include "formats/readers.hpp"
#include "jsonl.hpp"

#include <urlsift/document.hpp>

#include <catch2/catch.hpp>
#include <gumbo.h>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using urlsift::byte_range;
using urlsift::declared_link;
using urlsift::document_layout;
using urlsift::link_form;
using urlsift::wrapper_kind;

namespace {

/// Reads `text` from an exact-size heap copy, so that sanitizers see a read
/// past its end.
document_layout read(std::string_view text) {
    const auto copy = std::make_unique<char[]>(text.size());
    if (!text.empty()) std::memcpy(copy.get(), text.data(), text.size());
    return urlsift::detail::read_markdown({copy.get(), text.size()}, urlsift::default_parse_memory);
}

std::string_view bytes_of(std::string_view text, const byte_range& r) {
    return text.substr(static_cast<std::size_t>(r.offset), static_cast<std::size_t>(r.length));
}

std::uint64_t end_of(const byte_range& r) { return r.offset + r.length; }

/// Whether `span` shares a byte with one of `ranges`; an empty span, whether
/// it lies strictly inside one.
bool overlaps(const std::vector<byte_range>& ranges, const byte_range& span) {
    for (const auto& r : ranges) {
        const bool shared = span.length != 0 ? span.offset < end_of(r) && r.offset < end_of(span)
                                             : r.offset < span.offset && span.offset < end_of(r);
        if (shared) return true;
    }
    return false;
}

bool is_markdown_form(link_form f) { return f != link_form::html_attribute && f != link_form::html_refresh; }

/// The value of a destination whose bytes are `raw`, read again as the
/// only link of a document of its own: what CommonMark makes of the span's
/// bytes, without the reader's search for them. Written as a definition's
/// destination, which may end in a backslash (before an inline link's `)`
/// the backslash would escape it); an empty one as the inline `[x]()`.
std::string read_again(std::string_view raw, const declared_link& link) {
    const std::string r(raw);
    const bool angle = link.wrapper == wrapper_kind::angle;
    const std::string doc = link.form == link_form::markdown_autolink ? "<" + r + ">"
                            : r.empty() && !angle                     ? "[x]()"
                            : angle                                   ? "[x]: <" + r + ">\n\n[x]"
                                                                      : "[x]: " + r + "\n\n[x]";
    const auto again = read(doc);
    return again.links.size() == 1 ? again.links[0].value : "(" + std::to_string(again.links.size()) + " links)";
}

/// The contract of document_layout, and exact spans that hold their value.
void check_layout(std::string_view text, const document_layout& layout) {
    CHECK_FALSE(layout.base);  // Markdown declares none
    for (const auto* ranges : {&layout.prose, &layout.code}) {
        std::uint64_t previous_end = 0;
        for (const auto& r : *ranges) {
            INFO((ranges == &layout.prose ? "prose " : "code ") << r.offset << '+' << r.length);
            CHECK(r.length > 0);
            CHECK(r.offset >= previous_end);
            CHECK(end_of(r) <= text.size());
            previous_end = end_of(r);
        }
    }
    for (const auto& r : layout.prose) {
        INFO("prose " << r.offset << '+' << r.length << " overlaps code");
        CHECK_FALSE(overlaps(layout.code, r));
    }
    for (const auto& link : layout.links) {
        INFO("link " << link.value << " at " << link.span.offset << '+' << link.span.length);
        CHECK(end_of(link.span) <= text.size());
        CHECK_FALSE(overlaps(layout.prose, link.span));
        CHECK_FALSE(overlaps(layout.code, link.span));
        CHECK(link.attribute.empty() == is_markdown_form(link.form));
        if (!link.exact || !is_markdown_form(link.form)) continue;
        const std::string_view raw = bytes_of(text, link.span);
        if (link.wrapper == wrapper_kind::angle) {
            REQUIRE(link.span.offset > 0);
            CHECK(text[static_cast<std::size_t>(link.span.offset) - 1] == '<');
            CHECK(text.substr(static_cast<std::size_t>(end_of(link.span))).starts_with(">"));
        }
        CHECK(read_again(raw, link) == link.value);
        // No escape or reference: the bytes are the value.
        if (raw.find_first_of("\\&") == std::string_view::npos && raw.find('\0') == std::string_view::npos) {
            const bool mail = link.form == link_form::markdown_autolink && link.value.starts_with("mailto:") &&
                              !raw.starts_with("mailto:");
            CHECK((mail ? "mailto:" + std::string(raw) : std::string(raw)) == link.value);
        }
    }
}

document_layout read_and_check(std::string_view text) {
    auto layout = read(text);
    check_layout(text, layout);
    return layout;
}

// --- The expected HTML of the spec examples ----------------------------------

struct gumbo_deleter {
    void operator()(GumboOutput* o) const { gumbo_destroy_output(&kGumboDefaultOptions, o); }
};

/// `raw`, written in HTML as an attribute value, as an HTML parser reads it
/// (gumbo: every character reference HTML names, decoded).
std::string html_decoded(std::string_view raw) {
    // Either quote the bytes do not hold; bytes that hold both were written
    // unquoted.
    std::string quote = raw.find('"') == std::string_view::npos ? "\"" : "'";
    if (raw.find(quote) != std::string_view::npos) quote.clear();
    const std::string doc = "<br x=" + quote + std::string(raw) + quote + " >";
    const std::unique_ptr<GumboOutput, gumbo_deleter> out(
        gumbo_parse_with_options(&kGumboDefaultOptions, doc.data(), doc.size()));
    const auto* html = static_cast<const GumboNode*>(out->document->v.document.children.data[0]);
    const auto* body = static_cast<const GumboNode*>(html->v.element.children.data[1]);
    const auto* br = static_cast<const GumboNode*>(body->v.element.children.data[0]);
    const GumboAttribute* x = gumbo_get_attribute(&br->v.element.attributes, "x");
    return x != nullptr ? std::string(x->value) : "(not read)";
}

bool is_html_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// One `<a>` of the expected HTML: its href and its text.
struct anchor {
    std::string href;
    std::string text;
};

/// The href and src values of the tags of `html`, in the order written: a
/// minimal scanner for the renderer's output, which also passes raw HTML
/// through as written (a parser's tree would reorder and repeat some), each
/// value decoded by gumbo. Comments, processing instructions and
/// declarations are skipped. `anchors` gets each `<a>` with its text.
std::vector<std::string> urls_in_html(std::string_view html, std::vector<anchor>* anchors = nullptr) {
    std::vector<std::string> urls;
    std::size_t i = 0;
    while ((i = html.find('<', i)) != std::string_view::npos) {
        const std::string_view rest = html.substr(i);
        const auto skip_to = [&](std::string_view end) {
            const std::size_t at = html.find(end, i + 2);
            i = at == std::string_view::npos ? html.size() : at + end.size();
        };
        if (rest.starts_with("<!--")) {
            skip_to("-->");
            continue;
        }
        if (rest.starts_with("<?")) {
            skip_to("?>");
            continue;
        }
        if (rest.starts_with("<!") || rest.starts_with("</")) {
            skip_to(">");
            continue;
        }
        ++i;
        std::string tag;
        while (i < html.size() && !is_html_space(html[i]) && html[i] != '>' && html[i] != '/') tag += lower(html[i++]);
        if (tag.empty()) continue;
        for (;;) {
            while (i < html.size() && (is_html_space(html[i]) || html[i] == '/')) ++i;
            if (i >= html.size() || html[i] == '>') break;
            std::string name;
            while (i < html.size() && !is_html_space(html[i]) && html[i] != '=' && html[i] != '>' && html[i] != '/')
                name += lower(html[i++]);
            while (i < html.size() && is_html_space(html[i])) ++i;
            if (i >= html.size() || html[i] != '=') continue;
            ++i;
            while (i < html.size() && is_html_space(html[i])) ++i;
            std::string_view value;
            if (i < html.size() && (html[i] == '"' || html[i] == '\'')) {
                const std::size_t close = html.find(html[i], i + 1);
                if (close == std::string_view::npos) return urls;
                value = html.substr(i + 1, close - i - 1);
                i = close + 1;
            } else {
                const std::size_t begin = i;
                while (i < html.size() && !is_html_space(html[i]) && html[i] != '>') ++i;
                value = html.substr(begin, i - begin);
            }
            if (name != "href" && name != "src") continue;
            urls.push_back(html_decoded(value));
            if (anchors != nullptr && tag == "a" && name == "href") {
                const std::size_t start = html.find('>', i);
                const std::size_t close = html.find("</a>", start);
                if (start != std::string_view::npos && close != std::string_view::npos)
                    anchors->push_back({urls.back(), html_decoded(html.substr(start + 1, close - start - 1))});
            }
        }
    }
    return urls;
}

/// A destination as the reference renderer writes it into an href: bytes
/// outside its safe set percent-encoded, `%` kept (cmark's
/// houdini_escape_href; `&` and `'` are kept and escaped as HTML, which
/// the HTML parser decodes).
std::string as_rendered(std::string_view value) {
    static constexpr std::string_view safe = "!#$%&'()*+,-./:;=?@_~";
    std::string out;
    for (const char c : value) {
        const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (alnum || safe.find(c) != std::string_view::npos) {
            out += c;
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
            out += hex;
        }
    }
    return out;
}

/// The URLs of a layout as the expected HTML holds them: Markdown's
/// destinations as rendered, and the href and src attributes of raw HTML.
std::vector<std::string> urls_in_layout(const document_layout& layout) {
    std::vector<std::string> urls;
    for (const auto& link : layout.links) {
        if (is_markdown_form(link.form))
            urls.push_back(as_rendered(link.value));
        else if (link.form == link_form::html_attribute && (link.attribute == "href" || link.attribute == "src"))
            urls.push_back(link.value);
    }
    return urls;
}

/// Whether `needle` occurs in `text` inside one prose range.
bool in_prose(std::string_view text, const document_layout& layout, std::string_view needle) {
    for (std::size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1))
        for (const auto& r : layout.prose)
            if (r.offset <= at && at + needle.size() <= end_of(r)) return true;
    return false;
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += "[" + s + "] ";
    return out;
}

/// `commonmark-0.30/042` -> reason, from tests/data/commonmark/known-differences.tsv.
std::map<std::string, std::string> read_known_differences() {
    std::map<std::string, std::string> known;
    std::ifstream in(URLSIFT_TEST_DATA_DIR "/commonmark/known-differences.tsv");
    REQUIRE(in.good());
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        INFO(line);
        REQUIRE(tab != std::string::npos);
        REQUIRE(known.emplace(line.substr(0, tab), line.substr(tab + 1)).second);
    }
    return known;
}

std::string example_id(std::string_view spec, const std::string& number) {
    std::string padded = number;
    if (padded.size() < 3) padded.insert(0, 3 - padded.size(), '0');
    return std::string(spec) + "/" + padded;
}

/// One spec example, as tests/data/commonmark/*.jsonl hold it.
struct spec_example {
    std::string id;  ///< `commonmark-0.30/042`
    std::string section;
    std::string markdown;
    std::string html;
    bool gfm_autolink = false;  ///< an example of GFM's autolink extension
};

/// The examples of one section of a spec, in order.
struct spec_section {
    std::string name;
    std::vector<spec_example> examples;
};

struct spec_file {
    std::string name;
    std::vector<spec_section> sections;
};

std::vector<spec_file> read_specs() {
    std::vector<spec_file> specs;
    for (const std::string name : {"commonmark-0.30", "gfm-0.29"}) {
        spec_file spec{name, {}};
        const std::string path = URLSIFT_TEST_DATA_DIR "/commonmark/" + name + ".jsonl";
        for (const auto& line : urlsift::test::read_jsonl(path)) {
            INFO(path << ':' << line.number);
            REQUIRE(line.row);
            const auto& row = *line.row;
            const auto extensions = row.strings("extensions");
            const std::string section = row.string("section").value_or("");
            if (spec.sections.empty() || spec.sections.back().name != section) spec.sections.push_back({section, {}});
            spec.sections.back().examples.push_back(
                {example_id(name, row.string("example").value_or("?")), section, row.string("markdown").value_or(""),
                 row.string("html").value_or(""),
                 std::find(extensions.begin(), extensions.end(), "autolink") != extensions.end()});
        }
        REQUIRE_FALSE(spec.sections.empty());
        specs.push_back(std::move(spec));
    }
    return specs;
}

struct tally {
    std::size_t examples = 0;
    std::size_t links = 0;  ///< URLs in the expected HTML
    std::size_t equal = 0;
    std::size_t listed = 0;
};

/// One example: its links against its expected HTML's URLs.
void check_example(const spec_example& ex, const std::map<std::string, std::string>& known, tally& counts) {
    ++counts.examples;
    INFO("markdown: " << ex.markdown);
    INFO("html: " << ex.html);
    const auto layout = read_and_check(ex.markdown);
    std::vector<anchor> anchors;
    auto expected = urls_in_html(ex.html, &anchors);
    if (ex.gfm_autolink) {
        for (const auto& a : anchors) {
            INFO("extended autolink " << a.href);
            CHECK(in_prose(ex.markdown, layout, a.text));
            expected.erase(std::find(expected.begin(), expected.end(), a.href));
        }
    }
    const auto got = urls_in_layout(layout);
    counts.links += expected.size();
    INFO("expected: " << joined(expected));
    INFO("got: " << joined(got));
    if (const auto it = known.find(ex.id); it != known.end()) {
        ++counts.listed;
        INFO("listed: " << it->second);
        CHECK(got != expected);  // the list is honest: a listed example does differ
    } else {
        CHECK(got == expected);
        if (got == expected) ++counts.equal;
    }
}

std::vector<std::string> values_of(const document_layout& layout) {
    std::vector<std::string> values;
    for (const auto& link : layout.links) values.push_back(link.value);
    return values;
}

}  // namespace

TEST_CASE("Markdown reader: spec examples", "[markdown][spec]") {
    // Each example's links (Markdown's, and href and src of its raw HTML)
    // equal, in order, the href and src values of its expected HTML. GFM's
    // autolink extension is off (bare URLs are the scanner's): where an
    // example's link comes from it alone, its text must be prose instead.
    // Catch runs the case once a leaf section, so the files are read once,
    // examples sit in their spec's sections (fewer names to pass on each
    // run), and the counts are printed after the last example.
    static const auto specs = read_specs();
    static const auto known = read_known_differences();
    static std::map<std::string, tally> tallies;
    static std::size_t examples_run = 0;
    std::size_t examples = 0;
    for (const auto& spec : specs) {
        for (const auto& section : spec.sections) {
            examples += section.examples.size();
            DYNAMIC_SECTION(spec.name << ": " << section.name) {
                for (const auto& ex : section.examples) {
                    DYNAMIC_SECTION(ex.id) {
                        ++examples_run;
                        check_example(ex, known, tallies[spec.name]);
                    }
                }
            }
        }
    }
    if (examples_run == examples) {
        for (const auto& [name, counts] : tallies)
            std::cout << "markdown reader: " << name << ": " << counts.examples << " examples, " << counts.links
                      << " links; " << counts.equal << " equal, " << counts.listed
                      << " listed in known-differences.tsv\n";
        std::set<std::string> ids;
        for (const auto& spec : specs)
            for (const auto& section : spec.sections)
                for (const auto& ex : section.examples) ids.insert(ex.id);
        for (const auto& [id, reason] : known) {
            INFO("known-differences.tsv lists " << id << ", which is no example");
            CHECK(ids.count(id) == 1);
        }
    }
}

TEST_CASE("Markdown reader: link forms and spans", "[markdown]") {
    SECTION("inline link, title and angle brackets") {
        const std::string text = "See [the guide](<docs/the guide.md> \"Guide\") and [x](/a?b=1).";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 2);
        CHECK(layout.links[0].value == "docs/the guide.md");
        CHECK(layout.links[0].text == "the guide");
        CHECK(layout.links[0].form == link_form::markdown_link);
        CHECK(layout.links[0].wrapper == wrapper_kind::angle);
        CHECK(bytes_of(text, layout.links[0].span) == "docs/the guide.md");
        CHECK(bytes_of(text, layout.links[1].span) == "/a?b=1");
        CHECK(layout.links[1].wrapper == wrapper_kind::none);
    }
    SECTION("escapes and character references: the span holds them as written") {
        const std::string text = "[a](/x\\*y&amp;z&ouml; 't') ![b *c*](<p\\>q.png>)";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 2);
        CHECK(layout.links[0].value == "/x*y&z\xC3\xB6");
        CHECK(bytes_of(text, layout.links[0].span) == "/x\\*y&amp;z&ouml;");
        CHECK(layout.links[0].exact);
        CHECK(layout.links[1].form == link_form::markdown_image);
        CHECK(layout.links[1].value == "p>q.png");
        CHECK(layout.links[1].text == "b c");
        CHECK(bytes_of(text, layout.links[1].span) == "p\\>q.png");
    }
    SECTION("empty destinations") {
        const std::string text = "[a]() and [b](<>)";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 2);
        CHECK(layout.links[0].value.empty());
        CHECK(layout.links[0].exact);
        CHECK(layout.links[0].span == byte_range{4, 0});
        CHECK(layout.links[1].wrapper == wrapper_kind::angle);
        CHECK(layout.links[1].span == byte_range{15, 0});
    }
    SECTION("reference links: the definition's destination, at each use") {
        const std::string text = "[Foo] and [bar][foo] and ![img][].\n\n[foo]: /url&amp;1 'T'\n[img]: <i m.png>\n";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 3);
        for (std::size_t i = 0; i < 2; ++i) {
            CHECK(layout.links[i].form == link_form::markdown_definition);
            CHECK(layout.links[i].value == "/url&1");
            CHECK(layout.links[i].exact);
            CHECK(bytes_of(text, layout.links[i].span) == "/url&amp;1");
        }
        CHECK(layout.links[0].text == "Foo");
        CHECK(layout.links[1].text == "bar");
        CHECK(layout.links[2].value == "i m.png");
        CHECK(layout.links[2].wrapper == wrapper_kind::angle);
        CHECK(bytes_of(text, layout.links[2].span) == "i m.png");
    }
    SECTION("a definition in a block quote, its destination on the next line") {
        const std::string text = "> [a]:\n> /p\\_q\n\n[a] [A]";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 2);
        CHECK(layout.links[0].value == "/p_q");
        CHECK(bytes_of(text, layout.links[0].span) == "/p\\_q");
        CHECK(layout.links[1].span == layout.links[0].span);
    }
    SECTION("a definition in a task list item") {
        const std::string text = "- [x] [d]: /d\\_e\n\n[d]";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 1);
        CHECK(layout.links[0].exact);
        CHECK(bytes_of(text, layout.links[0].span) == "/d\\_e");
    }
    SECTION("CRLF line endings") {
        const std::string text = "[a](\r\n/x\\*)\r\n\r\n[r]:\r\n  /y&amp;\r\n\r\n[r]\r\n";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 2);
        CHECK(bytes_of(text, layout.links[0].span) == "/x\\*");
        CHECK(bytes_of(text, layout.links[1].span) == "/y&amp;");
    }
    SECTION("a definition that cannot be told apart is not exact") {
        // md4c matches `[ä]` to `[Ä]` by Unicode case folding; the reader
        // folds ASCII only, and two definitions hold the same destination.
        const std::string text = "[\xC3\x84]: /x\\*\n[b]: /x\\*\n\n[\xC3\xA4]";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 1);
        CHECK(layout.links[0].value == "/x*");
        CHECK_FALSE(layout.links[0].exact);
        CHECK(layout.links[0].span.offset == text.rfind('['));
    }
    SECTION("autolinks") {
        const std::string text = "Mail <me@example.org> or see <https://example.org/a?b&amp;c>.";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 2);
        CHECK(layout.links[0].form == link_form::markdown_autolink);
        CHECK(layout.links[0].value == "mailto:me@example.org");
        CHECK(layout.links[0].text == "me@example.org");
        CHECK(bytes_of(text, layout.links[0].span) == "me@example.org");
        CHECK(layout.links[0].wrapper == wrapper_kind::angle);
        CHECK(layout.links[1].value == "https://example.org/a?b&c");
        CHECK(layout.links[1].text == "https://example.org/a?b&c");
        CHECK(bytes_of(text, layout.links[1].span) == "https://example.org/a?b&amp;c");
    }
    SECTION("an image in a link; a link in an image's description is alt text only") {
        const std::string text = "[![moon](moon.jpg)](/uri) ![foo [bar](/url)](/url2)";
        const auto layout = read_and_check(text);
        CHECK(values_of(layout) == std::vector<std::string>{"/uri", "moon.jpg", "/url2"});
        REQUIRE(layout.links.size() == 3);
        CHECK(layout.links[0].text == "moon");
        CHECK(layout.links[2].text == "foo bar");
    }
    SECTION("a destination across a line break in a list item") {
        const std::string text = "- see [x](\n  /a\\(b \"t\")\n";
        const auto layout = read_and_check(text);
        REQUIRE(layout.links.size() == 1);
        CHECK(layout.links[0].value == "/a(b");
        CHECK(bytes_of(text, layout.links[0].span) == "/a\\(b");
    }
    SECTION("links in tables and task lists") {
        const std::string text = "- [ ] [task](/t\\_1)\n\n| a | b |\n|---|---|\n| [c](/c) | ![d](/d&#35;) |\n";
        const auto layout = read_and_check(text);
        CHECK(values_of(layout) == std::vector<std::string>{"/t_1", "/c", "/d#"});
        for (const auto& link : layout.links) CHECK(link.exact);
    }
}

TEST_CASE("Markdown reader: raw HTML goes to the HTML reader", "[markdown]") {
    // read_html_into reports href and src with the form html_attribute, in
    // document order among Markdown's own links.
    const std::string text = "[a](/a) <a href=\"/b\">b</a> [c](/c)\n\n<div>\n<img src=\"/d.png\">\n</div>\n";
    const auto layout = read_and_check(text);
    REQUIRE(layout.links.size() == 4);
    CHECK(values_of(layout) == std::vector<std::string>{"/a", "/b", "/c", "/d.png"});
    CHECK(layout.links[1].form == link_form::html_attribute);
    CHECK(layout.links[1].attribute == "href");
    CHECK(bytes_of(text, layout.links[1].span) == "/b");
    CHECK(layout.links[3].attribute == "src");
    CHECK(bytes_of(text, layout.links[3].span) == "/d.png");
}

TEST_CASE("Markdown reader: prose and code", "[markdown]") {
    SECTION("code spans, fenced and indented code") {
        const std::string text = "Run `ls -l` now.\n\n```sh\ncurl http://x/\n```\n\n    indented http://y/\n";
        const auto layout = read_and_check(text);
        REQUIRE(layout.code.size() == 3);
        CHECK(bytes_of(text, layout.code[0]) == "ls -l");
        CHECK(bytes_of(text, layout.code[1]) == "curl http://x/");
        CHECK(bytes_of(text, layout.code[2]) == "indented http://y/");
        REQUIRE(layout.prose.size() == 2);
        CHECK(bytes_of(text, layout.prose[0]) == "Run ");
        CHECK(bytes_of(text, layout.prose[1]) == " now.");
    }
    SECTION("a code span's stripped spaces are inside its fences") {
        const std::string text = "`` `a` ``";
        const auto layout = read_and_check(text);
        REQUIRE(layout.code.size() == 1);
        CHECK(bytes_of(text, layout.code[0]) == " `a` ");
    }
    SECTION("link text and destinations are not prose") {
        const std::string text = "Go to [http://label.example/](http://dest.example/) or <http://auto.example/>.";
        const auto layout = read_and_check(text);
        std::vector<std::string> prose;
        for (const auto& r : layout.prose) prose.emplace_back(bytes_of(text, r));
        CHECK(prose == std::vector<std::string>{"Go to ", " or ", "."});
    }
    SECTION("a paragraph's lines are one prose range; block quote markers cut it") {
        const std::string text = "See http://example.org/a/\n  b/c and  \nmore.\n\n> quoted\n> line\n";
        const auto layout = read_and_check(text);
        std::vector<std::string> prose;
        for (const auto& r : layout.prose) prose.emplace_back(bytes_of(text, r));
        CHECK(prose == std::vector<std::string>{"See http://example.org/a/\n  b/c and  \nmore.", "quoted", "line"});
    }
    SECTION("entities and escapes are not prose; the bytes around them are") {
        const std::string text = "a&amp;b \\*c";
        const auto layout = read_and_check(text);
        std::vector<std::string> prose;
        for (const auto& r : layout.prose) prose.emplace_back(bytes_of(text, r));
        CHECK(prose == std::vector<std::string>{"a", "b ", "*c"});
    }
}

TEST_CASE("Markdown reader: code that looks like URLs stays code", "[markdown][regression]") {
    // What users' documents held: a header line in a string, a module name
    // and a Link header in brackets, each read as a URL when the whole
    // document was prose.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"Send `'Host: www.google.com:80\\r\\n'` first.\n", "'Host: www.google.com:80\\r\\n'"},
        {"```python\nsock.send(b'Host: www.google.com:80\\r\\n')\n```\n", "'Host: www.google.com:80\\r\\n'"},
        {"Export it as `<module.exports>` here.\n", "<module.exports>"},
        {"```\nLink: '</styles.css>; rel=preload'\n```\n", "'</styles.css>; rel=preload'"},
        {"~~~http\nLink: '</styles.css>; rel=preload'\n~~~\n", "'</styles.css>; rel=preload'"},
    };
    for (const auto& [text, snippet] : cases) {
        DYNAMIC_SECTION(text) {
            const auto layout = read_and_check(text);
            const std::size_t at = text.find(snippet);
            REQUIRE(at != std::string::npos);
            const byte_range where{at, snippet.size()};
            bool in_code = false;
            for (const auto& r : layout.code) in_code = in_code || (r.offset <= at && at + snippet.size() <= end_of(r));
            CHECK(in_code);
            CHECK_FALSE(overlaps(layout.prose, where));
            CHECK(layout.links.empty());
        }
    }
}

TEST_CASE("Markdown reader: nothing past the document is read", "[markdown][regression]") {
    // md4c 0.4.8 reads the byte after a document that ends inside `[..](`
    // (fixed in md4c 0.5.0). Each document here ends right before a page
    // that must not be read.
#if __has_include(<sys/mman.h>)
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* const map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(map != MAP_FAILED);
    char* const guard = static_cast<char*>(map) + page;
    REQUIRE(mprotect(guard, page, PROT_NONE) == 0);
    for (const std::string_view text : {"[](", "See [a](", "![b](  ", "[c](<", "x\n\n[d]: "}) {
        DYNAMIC_SECTION(text) {
            char* const at = guard - text.size();
            std::memcpy(at, text.data(), text.size());
            const std::string_view in(at, text.size());
            check_layout(in, urlsift::detail::read_markdown(in, urlsift::default_parse_memory));
        }
    }
    munmap(map, 2 * page);
#endif
}
