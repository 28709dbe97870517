// urlsift_formats linked alone: Markdown and HTML read, and a document's
// references, declared and in its prose.
#include <urlsift/document.hpp>
#include <urlsift/document_scan.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
    const std::string markdown = "See [the guide](docs/guide.md) and http://example.org/notes.\n";
    const auto layout = urlsift::read_document(markdown, urlsift::document_format::markdown);
    std::vector<std::string> urls;
    urlsift::scan_document(markdown, layout, {}, nullptr, [&](urlsift::found_reference& r) {
        urls.push_back(r.url);
        return true;
    });
    const auto html = urlsift::read_document("<p><a href=\"x.html\">x</a></p>", urlsift::document_format::html);

    if (urls != std::vector<std::string>{"docs/guide.md", "http://example.org/notes"} || html.links.size() != 1 ||
        html.links[0].value != "x.html") {
        std::puts("urlsift_formats: unexpected result");
        return 1;
    }
    return 0;
}
