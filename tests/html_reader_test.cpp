// The HTML reader: for each document in tests/data/html/, the links it
// declares against the URL attributes of gumbo's own tree, and the layout
// contract (document.hpp); then srcset, refresh, <base>, quotes, code,
// anchor text, shift, scope and malformed input one at a time.

#include "file_util.hpp"
#include "formats/html_reader.hpp"

#include <urlsift/document.hpp>

#include <catch2/catch.hpp>
#include <gumbo.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;

namespace {

using urlsift::byte_range;
using urlsift::declared_link;
using urlsift::document_layout;
using urlsift::link_form;
using urlsift::wrapper_kind;
using strings = std::vector<std::string>;

const fs::path html_dir = fs::path(URLSIFT_TEST_DATA_DIR) / "html";

/// A document in an exact-size heap copy, so that a sanitizer sees an
/// over-read, and what the reader made of it.
struct read_html {
    std::unique_ptr<char[]> bytes;
    std::string_view text;
    document_layout layout;

    explicit read_html(std::string_view html) : bytes(std::make_unique<char[]>(std::max<std::size_t>(html.size(), 1))) {
        std::copy(html.begin(), html.end(), bytes.get());
        text = std::string_view(bytes.get(), html.size());
        layout = urlsift::read_document(text, urlsift::document_format::html);
    }
    std::string_view at(const byte_range& r) const { return text.substr(r.offset, r.length); }
    strings values() const {
        strings v;
        for (const declared_link& l : layout.links) v.push_back(l.value);
        return v;
    }
};

/// The documents of the suite, by name.
std::vector<fs::path> documents() {
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(html_dir))
        if (entry.path().extension() == ".html") paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    return paths;
}

constexpr bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

struct gumbo_deleter {
    void operator()(GumboOutput* o) const { gumbo_destroy_output(&kGumboDefaultOptions, o); }
};
using gumbo_ptr = std::unique_ptr<GumboOutput, gumbo_deleter>;

gumbo_ptr gumbo_read(std::string_view html) {
    return gumbo_ptr(gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size()));
}

/// `raw` read by gumbo as an attribute value: its character references
/// decoded, NUL and invalid UTF-8 replaced.
std::optional<std::string> as_attribute_value(std::string_view raw) {
    // Either quote the bytes do not hold; bytes that hold both were written
    // unquoted.
    std::string quote = raw.find('"') == std::string_view::npos ? "\"" : "'";
    if (raw.find(quote) != std::string_view::npos) quote.clear();
    const std::string doc = "<br x=" + quote + std::string(raw) + quote + " >";
    const gumbo_ptr out = gumbo_read(doc);
    const auto* html = static_cast<const GumboNode*>(out->document->v.document.children.data[0]);
    const auto* body = static_cast<const GumboNode*>(html->v.element.children.data[1]);
    const auto* br = static_cast<const GumboNode*>(body->v.element.children.data[0]);
    const GumboAttribute* x = gumbo_get_attribute(&br->v.element.attributes, "x");
    if (x == nullptr) return std::nullopt;
    return std::string(x->value);
}

/// Checks document.hpp's contract on `layout`, read from `text` by itself.
void check_contract(std::string_view text, const document_layout& layout) {
    const auto check_ranges = [&](const std::vector<byte_range>& ranges) {
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            CHECK(ranges[i].length > 0);
            CHECK(ranges[i].offset + ranges[i].length <= text.size());
            if (i > 0) CHECK(ranges[i - 1].offset + ranges[i - 1].length <= ranges[i].offset);
        }
    };
    check_ranges(layout.prose);
    check_ranges(layout.code);
    const auto overlaps = [](const byte_range& a, const std::vector<byte_range>& ranges) {
        return std::any_of(ranges.begin(), ranges.end(), [&](const byte_range& r) {
            return a.offset < r.offset + r.length && r.offset < a.offset + a.length;
        });
    };
    for (const byte_range& p : layout.prose) CHECK_FALSE(overlaps(p, layout.code));
    for (const declared_link& l : layout.links) {
        INFO("link " << l.attribute << "=" << l.value << " at " << l.span.offset);
        CHECK((l.form == link_form::html_attribute || l.form == link_form::html_refresh));
        CHECK(!l.attribute.empty());
        CHECK(!l.value.empty());
        CHECK(trimmed(l.value) == l.value);
        CHECK(l.span.offset + l.span.length <= text.size());
        CHECK_FALSE(overlaps(l.span, layout.prose));
        CHECK_FALSE(overlaps(l.span, layout.code));
        if (!l.exact) continue;
        const std::string_view bytes = text.substr(l.span.offset, l.span.length);
        CHECK(as_attribute_value(bytes) == l.value);
        if (l.wrapper == wrapper_kind::quote) {
            REQUIRE(l.span.offset > 0);
            REQUIRE(l.span.offset + l.span.length < text.size());
            const char open = text[l.span.offset - 1];
            CHECK((open == '"' || open == '\''));
            CHECK(text[l.span.offset + l.span.length] == open);
        }
    }
}

// --- the oracle: URL attributes straight from gumbo's tree -------------------

/// "element attribute" for each attribute whose value is a URL on that
/// HTML element (HTML's index of attributes, and the obsolete ones).
const std::set<std::string> url_attributes{
    "a href",          "area href",        "link href",       "audio src",      "embed src",
    "frame src",       "iframe src",       "img src",         "input src",      "script src",
    "source src",      "track src",        "video src",       "img srcset",     "source srcset",
    "form action",     "button formaction", "input formaction", "blockquote cite", "del cite",
    "ins cite",        "q cite",           "video poster",    "object data",    "body background",
    "table background", "thead background", "tbody background", "tfoot background", "tr background",
    "td background",   "th background",    "img longdesc",    "frame longdesc", "iframe longdesc",
    "html manifest",
};

/// The URLs of a srcset: a word starts a candidate unless it follows a
/// URL whose candidate did not end in a comma.
strings srcset_words(std::string_view v) {
    strings urls;
    bool want_url = true;
    std::size_t i = 0;
    while (i < v.size()) {
        while (i < v.size() && is_blank(v[i])) ++i;
        std::size_t end = i;
        while (end < v.size() && !is_blank(v[end])) ++end;
        std::string word(v.substr(i, end - i));
        i = end;
        if (word.empty()) break;
        if (want_url) {
            word.erase(0, word.find_first_not_of(','));
            if (word.empty()) continue;
            const bool ends_candidate = word.back() == ',';
            word.erase(word.find_last_not_of(',') + 1);
            urls.push_back(word);
            want_url = ends_candidate;
        } else if (const std::size_t comma = word.find(','); comma != std::string::npos) {
            // A descriptor's comma ends the candidate; what follows it starts the next.
            want_url = true;
            i -= word.size() - comma - 1;
        }
    }
    return urls;
}

/// The target of a refresh `content`, or nullopt.
std::optional<std::string> refresh_target(std::string_view content) {
    std::string_view c = trimmed(content);
    const std::size_t time = c.find_first_not_of("0123456789.");
    if (time == 0 || time == std::string_view::npos) return std::nullopt;
    if (!is_blank(c[time]) && c[time] != ';' && c[time] != ',') return std::nullopt;
    c = trimmed(c.substr(time));
    if (!c.empty() && (c[0] == ';' || c[0] == ',')) c = trimmed(c.substr(1));
    std::string lower(c.substr(0, 3));
    std::transform(lower.begin(), lower.end(), lower.begin(), [](char ch) { return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch + 32) : ch; });
    if (lower == "url") {
        const std::string_view after = trimmed(c.substr(3));
        if (!after.empty() && after[0] == '=') c = trimmed(after.substr(1));
    }
    if (!c.empty() && (c[0] == '"' || c[0] == '\'')) {
        const std::size_t close = c.find(c[0], 1);
        c = c.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
    }
    c = trimmed(c);
    if (c.empty()) return std::nullopt;
    return std::string(c);
}

void oracle_walk(const GumboNode* node, strings& out) {
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) return;
    const GumboElement& e = node->v.element;
    // A copy gumbo made of an open formatting element repeats its attributes.
    const bool copy = (node->parse_flags & (GUMBO_INSERTION_RECONSTRUCTED_FORMATTING_ELEMENT |
                                            GUMBO_INSERTION_ADOPTION_AGENCY_CLONED)) != 0;
    if (e.tag_namespace == GUMBO_NAMESPACE_HTML && !copy) {
        const std::string tag = gumbo_normalized_tagname(e.tag);
        for (unsigned i = 0; i < e.attributes.length; ++i) {
            const auto* a = static_cast<const GumboAttribute*>(e.attributes.data[i]);
            const std::string name = a->name;
            if (url_attributes.count(tag + " " + name) == 0) continue;
            if (name == "srcset") {
                for (const std::string& u : srcset_words(a->value)) out.push_back(name + "=" + u);
            } else if (const std::string_view v = trimmed(a->value); !v.empty()) {
                out.push_back(name + "=" + std::string(v));
            }
        }
        if (tag == "meta") {
            const GumboAttribute* equiv = gumbo_get_attribute(&e.attributes, "http-equiv");
            const GumboAttribute* content = gumbo_get_attribute(&e.attributes, "content");
            std::string keyword = equiv != nullptr ? equiv->value : "";
            std::transform(keyword.begin(), keyword.end(), keyword.begin(), [](char ch) { return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch + 32) : ch; });
            if (keyword == "refresh" && content != nullptr)
                if (const auto target = refresh_target(content->value)) out.push_back("content=" + *target);
        }
    }
    for (unsigned i = 0; i < e.children.length; ++i) oracle_walk(static_cast<const GumboNode*>(e.children.data[i]), out);
}

/// "attribute=value" of each URL in `html`, by gumbo's tree.
strings oracle_links(std::string_view html) {
    strings out;
    const gumbo_ptr tree = gumbo_read(html);
    oracle_walk(tree->root, out);
    return out;
}

strings named_values(const document_layout& layout) {
    strings out;
    for (const declared_link& l : layout.links) out.push_back(std::string(l.attribute) + "=" + l.value);
    return out;
}

/// Whether `needle`, somewhere in `text`, lies within one of `ranges`.
bool inside(std::string_view text, const std::vector<byte_range>& ranges, std::string_view needle) {
    const std::size_t at = text.find(needle);
    REQUIRE(at != std::string_view::npos);
    return std::any_of(ranges.begin(), ranges.end(), [&](const byte_range& r) {
        return r.offset <= at && at + needle.size() <= r.offset + r.length;
    });
}

/// Whether any byte of `needle`, somewhere in `text`, lies in `ranges`.
bool touches(std::string_view text, const std::vector<byte_range>& ranges, std::string_view needle) {
    const std::size_t at = text.find(needle);
    REQUIRE(at != std::string_view::npos);
    return std::any_of(ranges.begin(), ranges.end(), [&](const byte_range& r) {
        return at < r.offset + r.length && r.offset < at + needle.size();
    });
}

}  // namespace

TEST_CASE("html: each document's links are the URL attributes of gumbo's tree", "[html]") {
    const std::vector<fs::path> docs = documents();
    REQUIRE(docs.size() >= 8);
    for (const fs::path& path : docs) {
        DYNAMIC_SECTION(path.filename().string()) {
            const std::string html = urlsift::test::read_file(path);
            const read_html r(html);
            CHECK(!r.layout.links.empty());
            CHECK(named_values(r.layout) == oracle_links(html));
            check_contract(r.text, r.layout);
        }
    }
}

TEST_CASE("html: the documents' links, spans and labels", "[html]") {
    SECTION("character references stay in the span and are decoded in the value") {
        const read_html r(urlsift::test::read_file(html_dir / "char-refs.html"));
        REQUIRE(r.layout.links.size() == 10);
        const declared_link& page = r.layout.links[0];
        CHECK(page.value == "/search?q=%C3%A9tang&page=2");
        CHECK(r.at(page.span) == "/search?q=%C3%A9tang&amp;page=2");
        CHECK(page.exact);
        const declared_link& slashes = r.layout.links[2];
        CHECK(slashes.value == "https://catalogue.example.fr/notice/12345");
        CHECK(r.at(slashes.span) == "https:&#47;&#47;catalogue.example.fr&#x2F;notice&#x2f;12345");
        CHECK(slashes.exact);
        // In an attribute, a legacy reference without `;` followed by `=`
        // or a letter is not one.
        CHECK(r.layout.links[4].value == "/go?to=%2Fhome&ref=nav&copy=1");
        CHECK(r.layout.links[5].value == "/search?q=x&reg=2");
        CHECK(r.layout.links[5].text == "R\xC3\xA9gion 2 (a bare &reg= stays as written)");
        CHECK(r.layout.links[7].value == "/say?text=\"bonjour\"");
        CHECK(r.layout.links[9].value == "/couvertures/livre 1.jpg");
        CHECK(r.layout.links[9].text == "Couverture \xC2\xAB\xC2\xA0Livre 1\xC2\xA0\xC2\xBB");
        // Prose keeps its references as written.
        CHECK(inside(r.text, r.layout.prose, "https://www.example.fr/aide?a=1&amp;b=2"));
    }
    SECTION("tag soup: unquoted, single-quoted, upper case, unclosed") {
        const read_html r(urlsift::test::read_file(html_dir / "tag-soup.html"));
        CHECK(r.values() == strings{"images/paper.gif", "images/banner.gif", "layouts/oo.html", "layouts/n.html",
                                    "layouts/garden.html", "http://www.trains.example.com/",
                                    "http://www.steam.example.org/index.htm", "images/table-bg.gif", "photos/1.jpg",
                                    "photos/1-small.jpg", "images/cell.gif", "mailto:bob@isp.example.net",
                                    "guestbook.cgi?action=sign",
                                    "http://counter.example.com/count.cgi?id=bob&style=odometer"});
        CHECK(r.layout.links[0].attribute == "background");
        CHECK(r.layout.links[0].wrapper == wrapper_kind::none);
        CHECK(r.layout.links[1].text == "Welcome to my page!");
        CHECK(r.layout.links[2].text == "OO gauge");
        CHECK(r.layout.links[3].wrapper == wrapper_kind::quote);
        CHECK(r.layout.links[4].text == "Garden railway (new!)");
        CHECK(inside(r.text, r.layout.prose, "More photos at http://www.photos.example.com/~bob/"));
        CHECK_FALSE(touches(r.text, r.layout.prose, "</div></span>"));
    }
    SECTION("meta refresh in its forms") {
        const read_html r(urlsift::test::read_file(html_dir / "meta-refresh.html"));
        REQUIRE(r.layout.links.size() == 5);
        CHECK(r.values() == strings{"https://new.example.org/handbook/", "/handbook/index.html?from=old&lang=en",
                                    "https://archive.example.org/handbook/", "https://bare.example.org/next",
                                    "https://new.example.org/handbook/"});
        CHECK(r.layout.links[1].form == link_form::html_refresh);
        CHECK(r.layout.links[1].attribute == "content");
        CHECK(r.at(r.layout.links[1].span) == "/handbook/index.html?from=old&amp;lang=en");
        CHECK(r.layout.links[1].wrapper == wrapper_kind::quote);
        // The URL's quotes are written as references: where the URL starts
        // is known, its bytes are not a span that decodes to it.
        CHECK_FALSE(r.layout.links[2].exact);
        CHECK(r.text.substr(r.layout.links[2].span.offset).starts_with("&quot;https://archive"));
    }
    SECTION("srcset and picture") {
        const read_html r(urlsift::test::read_file(html_dir / "responsive-images.html"));
        strings srcset;
        for (const declared_link& l : r.layout.links)
            if (l.attribute == "srcset") {
                srcset.push_back(l.value);
                CHECK(r.at(l.span) == l.value);
                CHECK(l.exact);
            }
        CHECK(srcset == strings{"/img/estuary-1600.avif", "/img/estuary-2400.avif", "/img/estuary-1600.webp",
                                "/img/estuary-2400.webp", "/img/estuary-400.jpg", "/img/estuary-800.jpg",
                                "/img/estuary-1200.jpg", "thumbs/heron.jpg", "thumbs/heron@2x.jpg",
                                "thumbs/heron@3x.jpg", "data:image/gif;base64,R0lGODlhAQABAAAAACw="});
        CHECK(r.layout.links[5].text == "Mud flats at low tide, herons in the distance");
    }
    SECTION("attributes that hold no URL there are no links") {
        for (const char* name : {"forms.html", "media.html", "meta-refresh.html"}) {
            const read_html r(urlsift::test::read_file(html_dir / name));
            for (const declared_link& l : r.layout.links) {
                CHECK(l.value != "https://ada.example.com/");       // <input value>
                CHECK(l.value != "/talks/edge/slides-old.pdf");     // <param value>
                CHECK(l.value != "not-a-link.html");                // <p data>
                CHECK(l.value != "https://not-a-pragma.example.org/"); // <meta name=refresh>
                CHECK(l.value != "https://og.example.org/handbook/");  // <meta property content>
            }
        }
    }
    SECTION("<base href> is the base, the first one counts, and it is no link") {
        const read_html r(urlsift::test::read_file(html_dir / "base-href.html"));
        CHECK(r.layout.base == "https://mirror.example.org/pub/releases/");
        for (const declared_link& l : r.layout.links) CHECK(l.value.find("mirror.example.org") == std::string::npos);
    }
    SECTION("script, style, pre, code and textarea are code") {
        const read_html r(urlsift::test::read_file(html_dir / "code-samples.html"));
        for (const char* s : {"https://static.example.com/img/hero.png", "window.API_BASE = \"https://api.example.com/v2/\"",
                              "fetch(\"https://api.example.com/v2/items\")", "https://status.example.com",
                              "https://cdn.example.com/items/1.json", "GET https://api.example.com/v2/items HTTP/1.1",
                              "&lt;a href=\"https://escaped.example.com/\"&gt;", "\"url\": \"https://example.com/\""}) {
            INFO(s);
            CHECK(inside(r.text, r.layout.code, s));
            CHECK_FALSE(touches(r.text, r.layout.prose, s));
        }
        CHECK(inside(r.text, r.layout.prose, "The endpoint lives at https://api.example.com/v2/items and answers"));
        CHECK(inside(r.text, r.layout.prose, "and example.com/changelog."));
        // Comments are neither.
        CHECK_FALSE(touches(r.text, r.layout.prose, "old endpoint"));
        CHECK_FALSE(touches(r.text, r.layout.code, "old endpoint"));
        // A link inside <code> is still a link, its label still code.
        CHECK(named_values(r.layout) == strings{"src=/js/highlight.min.js", "href=https://api.example.com/v2/", "href=/docs/api/"});
        CHECK(r.layout.links[1].text == "the v2 root");
        CHECK(inside(r.text, r.layout.code, "the v2 root"));
    }
    SECTION("the title is prose, labels are not") {
        const read_html r(urlsift::test::read_file(html_dir / "docs-page.html"));
        CHECK(inside(r.text, r.layout.prose, "Configuration reference \xE2\x80\x94 Tidewater 3.2 documentation"));
        CHECK(inside(r.text, r.layout.prose, "or the upstream TOML spec at https://toml.example/en/v1.0.0 for the syntax."));
        CHECK_FALSE(touches(r.text, r.layout.prose, "Your first project"));
        CHECK_FALSE(touches(r.text, r.layout.prose, "how paths are resolved"));
        const auto github = std::find_if(r.layout.links.begin(), r.layout.links.end(),
                                         [](const declared_link& l) { return l.value.find("github") != std::string::npos; });
        REQUIRE(github != r.layout.links.end());
        CHECK(github->text == "Source on GitHub");
    }
    SECTION("image maps and templates") {
        const read_html r(urlsift::test::read_file(html_dir / "offline-app.html"));
        CHECK(r.layout.links.front().attribute == "manifest");
        CHECK(r.layout.links[3].attribute == "background");
        CHECK(r.layout.links[5].text == "North trails");
        CHECK(r.layout.links[8].value == "/trails/{id}");
    }
}

TEST_CASE("html: srcset candidates each have their own span", "[html]") {
    const auto candidates = [](std::string_view html) {
        const read_html r(html);
        check_contract(r.text, r.layout);
        strings out;
        for (const declared_link& l : r.layout.links)
            out.push_back(l.value + " @" + std::string(r.at(l.span)) + (l.exact ? "" : " inexact") +
                          (l.wrapper == wrapper_kind::quote ? " quoted" : ""));
        return out;
    };
    CHECK(candidates(R"(<img srcset="a.png 1x, b.png 2x,c.png 3x">)") ==
          strings{"a.png @a.png", "b.png @b.png", "c.png @c.png"});
    // A URL runs to a blank: a comma inside it is the URL's.
    CHECK(candidates(R"(<img srcset="x.png,y.png">)") == strings{"x.png,y.png @x.png,y.png quoted"});
    CHECK(candidates(R"(<img srcset="solo.png">)") == strings{"solo.png @solo.png quoted"});
    CHECK(candidates(R"(<img srcset=" a.png , b.png, ">)") == strings{"a.png @a.png", "b.png @b.png"});
    CHECK(candidates(R"(<img srcset="a.png,, b.png 2x">)") == strings{"a.png @a.png", "b.png @b.png"});
    // A comma inside a descriptor's parentheses does not end the candidate.
    CHECK(candidates(R"(<img srcset="a.png f(1, 2), b.png">)") == strings{"a.png @a.png", "b.png @b.png"});
    CHECK(candidates(R"(<img srcset="data:image/png;base64,iVBORw0K 1x, b.png 2x">)") ==
          strings{"data:image/png;base64,iVBORw0K @data:image/png;base64,iVBORw0K", "b.png @b.png"});
    CHECK(candidates(R"(<source srcset='/a.webp 480w, /b.webp 960w'>)") == strings{"/a.webp @/a.webp", "/b.webp @/b.webp"});
    CHECK(candidates(R"(<img srcset=a.png>)") == strings{"a.png @a.png"});
    CHECK(candidates("<img srcset=\"a.png 1x,\n\t b.png 2x\">") == strings{"a.png @a.png", "b.png @b.png"});
    // References: in the URL, decoded; where they split candidates, the
    // span of that candidate is not exact.
    CHECK(candidates(R"(<img srcset="a&amp;b.png 1x, c.png 2x">)") == strings{"a&b.png @a&amp;b.png", "c.png @c.png"});
    CHECK(candidates(R"(<img srcset="a.png&#44;b.png 2x">)") == strings{"a.png,b.png @a.png&#44;b.png"});
    CHECK(candidates(R"(<img srcset="a.png&#32;1x, c.png 2x">)") ==
          strings{"a.png @a.png&#32;1x inexact", "c.png @c.png"});
    CHECK(candidates(R"(<img srcset="">)").empty());
    CHECK(candidates(R"(<img srcset=" , ">)").empty());
    // srcset is a URL list on <img> and <source> only.
    CHECK(candidates(R"(<div srcset="a.png 1x"><video srcset="b.png">)").empty());
}

TEST_CASE("html: a meta refresh's URL and its span", "[html]") {
    struct row {
        const char* content;       // the attribute as written, quotes included
        const char* value;         // nullptr: no link
        const char* span = nullptr; // the span's bytes, when they are not the value
        bool quoted = false;
    };
    const row rows[] = {
        {R"("0; url=http://x.example/")", "http://x.example/"},
        {R"("0;URL='http://x.example/a b'")", "http://x.example/a b", nullptr, true},
        {R"('0; Url = "http://x.example/" ')", "http://x.example/", nullptr, true},
        {R"("0, url=http://x.example/")", "http://x.example/"},
        {R"("3 http://x.example/")", "http://x.example/"},
        {R"("0; 'http://x.example/q'")", "http://x.example/q", nullptr, true},
        {R"("0.5; url=next.html")", "next.html"},
        {R"(".5;url=next.html")", "next.html"},
        {R"("0;urn:isbn:0451450523")", "urn:isbn:0451450523"},
        {R"("0;url  next.html")", "url  next.html"},
        {R"("0; url='a.html'junk")", "a.html", nullptr, true},
        {R"("0; url='unclosed.html")", "unclosed.html"},
        {R"("0; url=a.html?x=1&amp;y=2")", "a.html?x=1&y=2", "a.html?x=1&amp;y=2"},
        {"0;url=bare.html", "bare.html"},
        {R"("0; url=  spaced.html  ")", "spaced.html"},
        {R"("5")", nullptr},
        {R"("0; url=")", nullptr},
        {R"("0; url=''")", nullptr},
        {R"("url=http://x.example/")", nullptr},
        {R"("soon; url=http://x.example/")", nullptr},
        {R"("0x; url=http://x.example/")", nullptr},
        {R"("")", nullptr},
    };
    for (const row& w : rows) {
        DYNAMIC_SECTION(w.content) {
            const read_html r(std::string("<head><meta http-equiv=\"refresh\" content=") + w.content + "></head>");
            check_contract(r.text, r.layout);
            if (w.value == nullptr) {
                CHECK(r.layout.links.empty());
                continue;
            }
            REQUIRE(r.layout.links.size() == 1);
            const declared_link& l = r.layout.links[0];
            CHECK(l.form == link_form::html_refresh);
            CHECK(l.attribute == "content");
            CHECK(l.value == w.value);
            CHECK(l.exact);
            CHECK(r.at(l.span) == (w.span != nullptr ? w.span : w.value));
            CHECK((l.wrapper == wrapper_kind::quote) == w.quoted);
            CHECK(l.text.empty());
        }
    }
    SECTION("the pragma's keyword in any case, and only that") {
        CHECK(read_html(R"(<meta http-equiv=REFRESH content="0;url=a">)").values() == strings{"a"});
        CHECK(read_html(R"(<meta http-equiv=" refresh" content="0;url=a">)").values().empty());
        CHECK(read_html(R"(<meta http-equiv=refresh>)").values().empty());
        CHECK(read_html(R"(<meta name=refresh content="0;url=a">)").values().empty());
        CHECK(read_html(R"(<body><p><meta http-equiv=refresh content="1;url=b"></p>)").values() == strings{"b"});
    }
}

TEST_CASE("html: the document's base", "[html]") {
    CHECK(read_html("<base href=\"https://x.example/docs/\"><a href=a>a</a>").layout.base == "https://x.example/docs/");
    CHECK(read_html("<p>no base</p>").layout.base == std::nullopt);
    // The first <base> with an href; one without does not count.
    CHECK(read_html("<base target=_top><base href=' /first/ '><base href=/second/>").layout.base == "/first/");
    CHECK(read_html("<base href=\"a&amp;b/\">").layout.base == "a&b/");
    // An empty href still comes first: the document's own URL is the base.
    CHECK(read_html("<base href=\"\"><base href=/second/>").layout.base == "");
    // Anywhere in the document.
    CHECK(read_html("<body><p>text<base href=late/></p>").layout.base == "late/");
    CHECK(read_html("<base href=\"https://x.example/\">").layout.links.empty());
}

TEST_CASE("html: quotes and blanks stay out of a link's span", "[html]") {
    const read_html r(R"(<a href="double">1</a> <a href='single'>2</a> <a href=bare>3</a> <a href="  padded
  ">4</a> <a href = "spaced" >5</a> <a HREF="upper">6</a>)");
    check_contract(r.text, r.layout);
    REQUIRE(r.layout.links.size() == 6);
    const wrapper_kind quote = wrapper_kind::quote;
    const wrapper_kind none = wrapper_kind::none;
    const std::vector<std::pair<std::string, wrapper_kind>> expected{
        {"double", quote}, {"single", quote}, {"bare", none}, {"padded", none}, {"spaced", quote}, {"upper", quote}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const declared_link& l = r.layout.links[i];
        CHECK(l.value == expected[i].first);
        CHECK(r.at(l.span) == expected[i].first);
        CHECK(l.wrapper == expected[i].second);
        CHECK(l.exact);
        CHECK(l.attribute == "href");
        CHECK(l.form == link_form::html_attribute);
        CHECK(l.text == std::to_string(i + 1));
    }
    SECTION("unquoted values with references") {
        const read_html u("<a href=a/b?c=d&amp;e&#61;f>x</a><img src=/i.png?a=1&b=2 alt=pic>");
        REQUIRE(u.layout.links.size() == 2);
        CHECK(u.layout.links[0].value == "a/b?c=d&e=f");
        CHECK(u.at(u.layout.links[0].span) == "a/b?c=d&amp;e&#61;f");
        CHECK(u.layout.links[0].exact);
        CHECK(u.layout.links[0].wrapper == wrapper_kind::none);
        CHECK(u.layout.links[1].value == "/i.png?a=1&b=2");
        CHECK(u.layout.links[1].text == "pic");
    }
    SECTION("a blank written as a reference is trimmed from the value, not the span") {
        const read_html u(R"(<a href="&#32;x.html">x</a>)");
        REQUIRE(u.layout.links.size() == 1);
        CHECK(u.layout.links[0].value == "x.html");
        CHECK_FALSE(u.layout.links[0].exact);
        CHECK(u.layout.links[0].span.offset == 9);
    }
    SECTION("carriage returns, NUL and bytes outside UTF-8 are as gumbo reads them") {
        const std::string html = std::string("<a href=\"a\r\nb\"></a><a href=\"c") + '\0' + "d\"></a><a href=\"e\xFF\"></a>";
        const read_html u(html);
        check_contract(u.text, u.layout);
        CHECK(u.values() == strings{"a\nb", "c\xEF\xBF\xBD" "d", "e\xEF\xBF\xBD"});
        for (const declared_link& l : u.layout.links) CHECK(l.exact);
    }
}

TEST_CASE("html: which elements an attribute is a URL on", "[html]") {
    CHECK(read_html("<object data=movie.swf></object><div data=x></div><p data-src=y></p>").values() == strings{"movie.swf"});
    CHECK(read_html("<input value=http://x.example/><param name=movie value=m.swf><option value=o>").values().empty());
    CHECK(read_html("<div src=a href=b cite=c></div><span background=d></span><img href=e><link src=f>").values().empty());
    CHECK(read_html("<html manifest=app.appcache><body><div manifest=no>").values() == strings{"app.appcache"});
    CHECK(read_html("<blockquote cite=q1></blockquote><q cite=q2></q><del cite=q3></del><ins cite=q4></ins><p cite=no>")
              .values() == strings{"q1", "q2", "q3", "q4"});
    CHECK(read_html("<video poster=p.jpg src=v.mp4></video><audio poster=no src=a.mp3></audio>").values() ==
          strings{"p.jpg", "v.mp4", "a.mp3"});
    CHECK(read_html("<form action=/f><button formaction=/b><input formaction=/i></form><a action=no>").values() ==
          strings{"/f", "/b", "/i"});
    CHECK(read_html("<body background=b.png><table background=t.png><tr background=r.png><td background=d.png>")
              .values() == strings{"b.png", "t.png", "r.png", "d.png"});
    CHECK(read_html("<img src=i.png longdesc=d.html><iframe src=f.html longdesc=e.html></iframe><p longdesc=no>")
              .values() == strings{"i.png", "d.html", "f.html", "e.html"});
    // SVG's own links are not read.
    CHECK(read_html("<svg><a href=s.html><image href=i.png /></a></svg>").values().empty());
    // Empty and blank values name the document itself: no link.
    CHECK(read_html("<a href>a</a><a href=>b</a><a href=\"\">c</a><a href=\" \t\">d</a><img src=''>").values().empty());
}

TEST_CASE("html: anchor text is the label, not prose", "[html]") {
    const read_html r("<p>Before <a href=x>  the <b>bold</b>\n  text <script>no()</script></a> after.</p>"
                      "<a name=here>a target</a> <a href=\"\">empty</a>"
                      "<map><area href=m alt=\" Area  label \"></map><img src=i alt='Alt\ttext'>");
    check_contract(r.text, r.layout);
    REQUIRE(r.layout.links.size() == 3);
    CHECK(r.layout.links[0].text == "the bold text");
    CHECK(r.layout.links[1].text == "Area label");
    CHECK(r.layout.links[2].text == "Alt text");
    CHECK_FALSE(touches(r.text, r.layout.prose, "the <b>bold"));
    CHECK_FALSE(touches(r.text, r.layout.prose, "text <script>"));
    CHECK(inside(r.text, r.layout.prose, "Before "));
    CHECK(inside(r.text, r.layout.prose, " after."));
    // An anchor that is no link has prose for text.
    CHECK(inside(r.text, r.layout.prose, "a target"));
    CHECK(inside(r.text, r.layout.prose, "empty"));
    SECTION("an anchor gumbo reopens is still one link") {
        const read_html u("<p><a href=x>one<p>two</a> three");
        check_contract(u.text, u.layout);
        REQUIRE(u.layout.links.size() == 1);
        CHECK(u.layout.links[0].text == "one");
        CHECK_FALSE(touches(u.text, u.layout.prose, "two"));
        CHECK(inside(u.text, u.layout.prose, " three"));
    }
}

TEST_CASE("html: prose and code ranges", "[html]") {
    const read_html r("<!DOCTYPE html><title>T &amp; x.org</title><style>a{b:url(s.css)}</style>"
                      "<p>See x.org<!-- not y.org -->, &lt;z.org&gt;.</p><pre>\npre.org</pre>"
                      "<xmp><b>xmp.org</b></xmp><textarea>ta.org</textarea><code>c.org</code>"
                      "<svg><![CDATA[cdata.org <b>]]></svg>");
    check_contract(r.text, r.layout);
    CHECK(inside(r.text, r.layout.prose, "T &amp; x.org"));
    CHECK(inside(r.text, r.layout.prose, "See x.org"));
    CHECK(inside(r.text, r.layout.prose, ", &lt;z.org&gt;."));
    CHECK(inside(r.text, r.layout.prose, "cdata.org <b>"));
    CHECK_FALSE(touches(r.text, r.layout.prose, "<![CDATA["));
    CHECK_FALSE(touches(r.text, r.layout.prose, "not y.org"));
    CHECK_FALSE(touches(r.text, r.layout.prose, "<!DOCTYPE"));
    for (const char* code : {"a{b:url(s.css)}", "pre.org", "<b>xmp.org</b>", "ta.org", "c.org"}) {
        INFO(code);
        CHECK(inside(r.text, r.layout.code, code));
    }
    // The line feed after <pre> is the tag's.
    CHECK_FALSE(touches(r.text, r.layout.code, "<pre>\n"));
    SECTION("text next to tags the tree builder dropped or moved") {
        const read_html u("<p>one</bogus>two<td class=x>three<html manifest=\"m.appcache\">four</p>");
        check_contract(u.text, u.layout);
        CHECK(u.values() == strings{"m.appcache"});
        CHECK_FALSE(touches(u.text, u.layout.prose, "</bogus>"));
        CHECK_FALSE(touches(u.text, u.layout.prose, "<td class=x>"));
        CHECK_FALSE(touches(u.text, u.layout.prose, "<html manifest"));
        for (const char* word : {"one", "two", "three", "four"}) CHECK(inside(u.text, u.layout.prose, word));
    }
    SECTION("a byte-order mark is not text") {
        const read_html u("\xEF\xBB\xBF<!DOCTYPE html><html><head><title>t.org</title></head><body><a href=x>x</a>");
        check_contract(u.text, u.layout);
        REQUIRE(u.layout.links.size() == 1);
        CHECK(u.at(u.layout.links[0].span) == "x");
        CHECK(u.layout.prose.size() == 1);
        CHECK(u.at(u.layout.prose[0]) == "t.org");
    }
}

TEST_CASE("html: shift and scope", "[html]") {
    const std::string html = "<p>Go <a href=\"a.html\">there</a>.</p><pre>x</pre><base href=/b/>";
    const read_html whole(html);
    SECTION("everything moves by the shift") {
        urlsift::document_layout layout;
        layout.prose.push_back({0, 40});
        urlsift::detail::read_html_into(html, 1000, urlsift::detail::html_scope::document, urlsift::default_parse_memory, layout);
        REQUIRE(layout.links.size() == 1);
        CHECK(layout.links[0].span.offset == whole.layout.links[0].span.offset + 1000);
        CHECK(layout.links[0].span.length == whole.layout.links[0].span.length);
        REQUIRE(layout.prose.size() == whole.layout.prose.size() + 1);
        CHECK(layout.prose[0] == byte_range{0, 40});
        for (std::size_t i = 0; i < whole.layout.prose.size(); ++i)
            CHECK(layout.prose[i + 1] == byte_range{whole.layout.prose[i].offset + 1000, whole.layout.prose[i].length});
        REQUIRE(layout.code.size() == 1);
        CHECK(layout.code[0] == byte_range{whole.layout.code[0].offset + 1000, whole.layout.code[0].length});
        CHECK(layout.base == "/b/");
    }
    SECTION("links only") {
        urlsift::document_layout layout;
        urlsift::detail::read_html_into(html, 7, urlsift::detail::html_scope::links_only, urlsift::default_parse_memory,
                                       layout);
        REQUIRE(layout.links.size() == 1);
        CHECK(layout.links[0].value == "a.html");
        CHECK(layout.links[0].text == "there");
        CHECK(layout.links[0].span.offset == whole.layout.links[0].span.offset + 7);
        CHECK(layout.prose.empty());
        CHECK(layout.code.empty());
        CHECK_FALSE(layout.base);
    }
    SECTION("links after those already read") {
        urlsift::document_layout layout;
        urlsift::detail::read_html_into("<img src=one.png>", 0, urlsift::detail::html_scope::links_only, urlsift::default_parse_memory,
                                       layout);
        urlsift::detail::read_html_into("<img src=two.png>", 50, urlsift::detail::html_scope::links_only, urlsift::default_parse_memory,
                                       layout);
        REQUIRE(layout.links.size() == 2);
        CHECK(layout.links[1].value == "two.png");
        CHECK(layout.links[1].span.offset == 59);
    }
}

TEST_CASE("html: malformed input keeps the contract", "[html]") {
    const std::string nul(1, '\0');
    const strings inputs{
        "",
        "<",
        "<a href=",
        "<a href=\"",
        "<a href=\"unclosed.html>text</a><p>more",
        "<a href='x.html'",
        "<a href=\"x.html\"<b>bold</b>",
        "<img srcset=\"a.png 1x, b.png (2x, 3x",
        "<meta http-equiv=refresh content=\"0;url='",
        "<a href=x.html>one<a href=y.html>two</a>",
        "<b><a href=x.html>one</b>two</a><p>three",
        "<table><a href=foster.html>f</a><tr><td>cell</table>",
        "<p>" + nul + "<a href=\"" + nul + "x\">" + nul + "</a>" + nul,
        "<a href=\"\xC3\x28\xE2\x82\">\xFF\xFE text</a>",
        "<a href=\"x\xF0\x9F\x98\">y</a><img src=\xE9t\xE9.png>",
        "</a></p></body></html><a href=after.html>after</a>",
        "<!-- <a href=comment.html> -->",
        "<!DOCTYPE html><html><body></body></html><p>trailing <a href=late.html>late</a>",
        "<script><a href=in-script.html></script><style></style>",
        "<textarea><a href=in-textarea.html>",
        "<plaintext><a href=x.html>",
        "<html><body><html manifest=m><body background=b.png>text",
        "<svg><a href=s>s</a><foreignObject><a href=h.html>h</a></foreignObject></svg>",
        "<math><mi><a href=m.html>m</a></mi></math>",
        "<select><option><a href=opt.html>o</a></select>",
        "<frameset><frame src=f.html><a href=ignored.html>",
        "<a href=\"&#0;&#x110000;&#xD800;&#128;\">refs</a>",
        "<a href=\"&amp\">a</a><a href=\"&amp;amp;\">b</a><a href=\"&\">c</a>",
        "<isindex action=search.cgi src=go.png prompt=\"Search: \">",
        "<image src=image.png><a href=x\r\n>crlf</a><a href='y'\r>cr</a>",
        "<img srcset=a,'b.png\"c' src=\"a\">",
    };
    for (const std::string& html : inputs) {
        const read_html r(html);
        check_contract(r.text, r.layout);
    }
    SECTION("deep nesting is read, up to a depth") {
        std::string deep;
        for (int i = 0; i < 2000; ++i) deep += "<div><b><a href=d.html>";
        const read_html r(deep);
        check_contract(r.text, r.layout);
        CHECK(r.layout.links.size() == 2000);
        CHECK(r.layout.unread.empty());
    }
    SECTION("nesting too deep to parse in reasonable time leaves the document unread") {
        // gumbo's time grew with the square of the depth: 200,000 nested
        // <div>s took minutes.
        std::string deep = "<!doctype html><p><a href=first.html>first</a>";
        for (int i = 0; i < 200000; ++i) deep += "<div>";
        deep += "<a href=x.html>x</a>";
        const read_html r(deep);
        CHECK(r.layout.unread.find("nests more than 4096 elements deep") != std::string::npos);
        CHECK(r.layout.links.empty());
        CHECK(r.layout.prose.empty());
        CHECK(r.layout.code.empty());
        // End tags, void elements, those whose end tag may be left out,
        // comments and script text do not add to the depth.
        std::string wide = "<!doctype html><table>";
        for (int i = 0; i < 5000; ++i)
            wide += "<tr><td><div><a href=r.html>r</a><br><img src=i.png></div><p>para<li>item<!-- <div> -->"
                    "<script>if (a<b) x = '<div>';</script>";
        const read_html w(wide);
        CHECK(w.layout.unread.empty());
        CHECK(w.layout.links.size() == 10000);
    }
    SECTION("a document whose tree would take too much memory is left unread, and the next is read") {
        // HTML reopens, at each paragraph's text, every formatting element
        // a paragraph end closed: a thousand of them, told apart by their
        // class, make every `<p>x</p>` a thousand elements. 33 KB asked for
        // about 500 MiB.
        std::string copied = "<!doctype html><p><a href=first.html>first</a>";
        for (int i = 0; i < 1000; ++i) copied += "<b class=c" + std::to_string(i) + ">";
        copied += "</p>";
        for (int i = 0; i < 2000; ++i) copied += "<p>x</p>";
        const read_html r(copied);
        CHECK(r.layout.unread.find("its HTML takes more than 32 MiB to parse") != std::string::npos);
        CHECK(r.layout.links.empty());
        CHECK(r.layout.prose.empty());
        // Fifty paragraphs fit.
        copied.resize(copied.size() - 1950 * std::string_view("<p>x</p>").size());
        const read_html fifty(copied);
        CHECK(fifty.layout.unread.empty());
        CHECK(fifty.layout.links.size() == 1);
        // The budget is the caller's: 1 MiB does not hold them.
        const auto small = urlsift::read_document(copied, urlsift::document_format::html, std::size_t{1} << 20);
        CHECK(small.unread.find("takes more than 1 MiB to parse") != std::string::npos);
        // The thread's parses go on as before.
        const read_html next("<p><a href=next.html>next</a>");
        CHECK(next.layout.unread.empty());
        CHECK(next.layout.links.size() == 1);
    }
    SECTION("each document cut short and with bytes changed") {
        const char swaps[] = {'"', '\'', '<', '>', '\0', '\xFF', '&', '=', ' ', '/'};
        for (const fs::path& path : documents()) {
            const std::string html = urlsift::test::read_file(path);
            INFO(path.filename().string());
            for (std::size_t cut = 0; cut < html.size(); cut += 13) {
                INFO("cut at " << cut);
                const read_html r(std::string_view(html).substr(0, cut));
                check_contract(r.text, r.layout);
            }
            std::size_t k = 0;
            for (std::size_t at = 5; at < html.size(); at += 31) {
                std::string changed = html;
                changed[at] = swaps[k++ % sizeof swaps];
                INFO("byte " << at << " changed");
                const read_html r(changed);
                check_contract(r.text, r.layout);
            }
        }
    }
}
