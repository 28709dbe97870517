// The document pipeline: declared links and prose references in order,
// the prose view, and documents rewritten with code untouched.

#include <urlsift/document_scan.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace urlsift;

namespace {

const resolver docs_base = *resolver::make("https://example.org/docs/guide/intro.md");

std::vector<found_reference> scanned(std::string_view text, document_format f, const resolver* base = nullptr) {
    const document_layout layout = read_document(text, f);
    const std::optional<resolver> effective = document_base(layout, base);
    std::vector<found_reference> refs;
    scan_document(text, layout, {}, effective ? &*effective : nullptr, [&](found_reference& r) {
        refs.push_back(r);
        refs.back().declared = nullptr;  // points into `layout`, gone after the call
        return true;
    });
    return refs;
}

std::string rewritten(std::string_view text, document_format f, const resolver& base) {
    rewrite_options o;
    o.base = base;
    return rewrite_document(text, f, o).text;
}

declared_link link(std::uint64_t offset, std::uint64_t length, std::string value, std::string text, link_form form,
                   wrapper_kind wrapper = wrapper_kind::none) {
    declared_link l;
    l.span = {offset, length};
    l.value = std::move(value);
    l.text = std::move(text);
    l.form = form;
    l.wrapper = wrapper;
    return l;
}

void check_idempotent(std::string_view text, document_format f, const resolver& base) {
    const std::string once = rewritten(text, f, base);
    CHECK(rewritten(once, f, base) == once);
}

}  // namespace

TEST_CASE("the prose view keeps prose, blanks and line breaks and masks the rest", "[document]") {
    document_layout layout;
    layout.prose = {{0, 4}, {10, 3}};
    const std::string text = "see `x y` and\nmore";
    const std::string view = prose_view(text, layout);
    REQUIRE(view.size() == text.size());
    CHECK(view == "see \x1A\x1A \x1A\x1A and\n"
                  "\x1A\x1A\x1A\x1A");
}

TEST_CASE("scan_document lists declared links and prose references in document order", "[document]") {
    // A layout made by hand, so that the order rule is tested on its own.
    const std::string text = "http://a.example/ [x](one.md) http://b.example/ [y][r]\n\n[r]: two.md\n";
    document_layout layout;
    layout.prose = {{0, 18}, {29, 19}};
    layout.links.push_back(link(22, 6, "one.md", "x", link_form::markdown_link));
    layout.links.push_back(link(60, 6, "two.md", "y", link_form::markdown_definition));
    std::vector<std::string> urls;
    std::vector<bool> declared;
    scan_document(text, layout, {}, &docs_base, [&](found_reference& r) {
        urls.push_back(r.url);
        declared.push_back(r.declared != nullptr);
        return true;
    });
    CHECK(urls == std::vector<std::string>{"http://a.example/", "https://example.org/docs/guide/one.md",
                                           "http://b.example/", "https://example.org/docs/guide/two.md"});
    CHECK(declared == std::vector<bool>{false, true, false, true});
}

TEST_CASE("a declared link carries its position, raw bytes and wrapper", "[document]") {
    const std::string text = "line one\n[guide](<docs/the guide.md> \"T\")\n";
    document_layout layout;
    layout.links.push_back(link(18, 17, "docs/the guide.md", "guide", link_form::markdown_link, wrapper_kind::angle));
    found_reference got;
    scan_document(text, layout, {}, nullptr, [&](found_reference& r) {
        got = r;
        return true;
    });
    CHECK(got.line == 2);
    CHECK(got.column == 10);
    CHECK(got.raw == "docs/the guide.md");
    CHECK(got.form == reference_form::relative);
    CHECK(got.wrapper == wrapper_kind::angle);
    CHECK(got.outer == byte_range{17, 19});
}

TEST_CASE("a document's own base comes before the caller's", "[document]") {
    document_layout layout;
    layout.base = "../other/";
    const auto b = document_base(layout, &docs_base);
    REQUIRE(b);
    CHECK(b->base() == "https://example.org/docs/other/");
    layout.base = "https://cdn.example/x/";
    CHECK(document_base(layout, nullptr)->base() == "https://cdn.example/x/");
    layout.base.reset();
    CHECK(document_base(layout, &docs_base)->base() == docs_base.base());
    CHECK_FALSE(document_base(layout, nullptr));
}

TEST_CASE("Markdown: link destinations become absolute, nothing else changes", "[document][markdown]") {
    const std::string md = "# Guide\n\n"
                           "See [the API](api/index.md \"API\") and ![logo](<../img/logo.png>).\n\n"
                           "[ref]: ../x.md\n\n"
                           "Use [it][ref] or <https://example.com/abs>.\n";
    const std::string want = "# Guide\n\n"
                             "See [the API](https://example.org/docs/guide/api/index.md \"API\") and "
                             "![logo](<https://example.org/docs/img/logo.png>).\n\n"
                             "[ref]: https://example.org/docs/x.md\n\n"
                             "Use [it][ref] or <https://example.com/abs>.\n";
    CHECK(rewritten(md, document_format::markdown, docs_base) == want);
    check_idempotent(md, document_format::markdown, docs_base);
}

TEST_CASE("a link to the current document stays as written (Section 4.2)", "[document]") {
    const std::string md = "[up](#top) [start](<>) [other](x.md#y) [query](?p=2)\n";
    CHECK(rewritten(md, document_format::markdown, docs_base) ==
          "[up](#top) [start](<>) [other](https://example.org/docs/guide/x.md#y) "
          "[query](https://example.org/docs/guide/intro.md?p=2)\n");
    const std::string html = "<p><a href=\"#top\">up</a> <a href=\"\">here</a> <a href=\"x.html#y\">x</a>\n";
    CHECK(rewritten(html, document_format::html, docs_base) ==
          "<p><a href=\"#top\">up</a> <a href=\"\">here</a> <a href=\"https://example.org/docs/guide/x.html#y\">x</a>\n");
}

TEST_CASE("regression: a prose edit that HTML would read as a tag is withheld", "[document][regression]") {
    // `<../g>` is text in HTML, as `<` and `.` start no tag; made absolute,
    // `<https://...>` is a start tag, and the text after it markup.
    const std::string html = "<p>See <../g.html> and <a href=\"x.html\">x</a>.\n";
    rewrite_options o;
    o.base = docs_base;
    const document_rewrite r = rewrite_document(html, document_format::html, o);
    CHECK(r.text == "<p>See <../g.html> and <a href=\"https://example.org/docs/guide/x.html\">x</a>.\n");
    CHECK(r.withheld == 1);
    check_idempotent(html, document_format::html, docs_base);
}

TEST_CASE("Markdown: code spans and blocks are never edited", "[document][markdown]") {
    // What the prose reading of these documents edited before they were
    // read as Markdown.
    const std::string md = "Send `'Host: www.google.com:80\\r\\n'` first; `<module.exports>` is code.\n\n"
                           "```js\n"
                           "link.header = '</styles.css>; rel=preload';\n"
                           "fetch('www.example.com/x');\n"
                           "```\n\n"
                           "    indented www.example.org/y <../z>\n\n"
                           "But www.w3.org/Addressing/ in prose is completed.\n";
    const std::string out = rewritten(md, document_format::markdown, docs_base);
    const std::string want = "Send `'Host: www.google.com:80\\r\\n'` first; `<module.exports>` is code.\n\n"
                             "```js\n"
                             "link.header = '</styles.css>; rel=preload';\n"
                             "fetch('www.example.com/x');\n"
                             "```\n\n"
                             "    indented www.example.org/y <../z>\n\n"
                             "But http://www.w3.org/Addressing/ in prose is completed.\n";
    CHECK(out == want);
    const auto refs = scanned(md, document_format::markdown, &docs_base);
    REQUIRE(refs.size() == 1);
    CHECK(refs[0].url == "http://www.w3.org/Addressing/");
}

TEST_CASE("Markdown: escapes in a destination are kept as written", "[document][markdown]") {
    const std::string md = "[a](file\\_name.md) and [b](q?x=1&amp;y=2)\n";
    const std::string out = rewritten(md, document_format::markdown, docs_base);
    CHECK(out == "[a](https://example.org/docs/guide/file\\_name.md) and "
                 "[b](https://example.org/docs/guide/q?x=1&amp;y=2)\n");
    const document_layout after = read_document(out, document_format::markdown);
    REQUIRE(after.links.size() == 2);
    CHECK(after.links[0].value == "https://example.org/docs/guide/file_name.md");
    CHECK(after.links[1].value == "https://example.org/docs/guide/q?x=1&y=2");
}

TEST_CASE("Markdown: without a base nothing relative changes, and extract leaves it to the sink", "[document][markdown]") {
    const std::string md = "[a](x.md) and [b](https://example.com/)\n";
    CHECK(rewrite_document(md, document_format::markdown, {}).text == md);
    const auto refs = scanned(md, document_format::markdown);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].form == reference_form::relative);
    CHECK(refs[1].url == "https://example.com/");
}

TEST_CASE("HTML: attribute values become absolute, quotes and references kept", "[document][html]") {
    const std::string html = "<!doctype html><p>Read <a href='../a.html?x=1&amp;y=2'>this</a>, "
                             "<img src=img/b.png alt=\"B\"> and www.example.org.</p>\n"
                             "<script>var u = \"../not-a-link.js\";</script><pre>&lt;../kept&gt;</pre>\n";
    const std::string want = "<!doctype html><p>Read <a href='https://example.org/docs/a.html?x=1&amp;y=2'>this</a>, "
                             "<img src=https://example.org/docs/guide/img/b.png alt=\"B\"> and "
                             "www.example.org.</p>\n"
                             "<script>var u = \"../not-a-link.js\";</script><pre>&lt;../kept&gt;</pre>\n";
    rewrite_options o;
    o.base = docs_base;
    o.scan.abbrev.kinds = abbrev_none;
    CHECK(rewrite_document(html, document_format::html, o).text == want);
    check_idempotent(html, document_format::html, docs_base);
}

TEST_CASE("HTML: <base href> is the base of the document's links", "[document][html]") {
    const std::string html = "<html><head><base href=\"https://cdn.example/v2/\"></head>"
                             "<body><a href=\"guide.html\">g</a></body></html>";
    const auto refs = scanned(html, document_format::html, &docs_base);
    std::vector<std::string> urls;
    for (const auto& r : refs) urls.push_back(r.url);
    CHECK(std::find(urls.begin(), urls.end(), "https://cdn.example/v2/guide.html") != urls.end());
}
