// Which reader reads a document, and the names of formats and link forms.

#include "formats/html_reader.hpp"
#include "formats/code_languages.hpp"
#include "formats/readers.hpp"
#include "text/ascii.hpp"

#include <urlsift/document.hpp>

#include <algorithm>
#include <array>

namespace urlsift {

std::string_view to_string(document_format f) noexcept {
    switch (f) {
    case document_format::text: return "text";
    case document_format::markdown: return "markdown";
    case document_format::html: return "html";
    case document_format::code: return "code";
    }
    return "text";
}

std::string_view to_string(link_form f) noexcept {
    switch (f) {
    case link_form::markdown_link: return "markdown-link";
    case link_form::markdown_image: return "markdown-image";
    case link_form::markdown_definition: return "markdown-definition";
    case link_form::markdown_autolink: return "markdown-autolink";
    case link_form::html_attribute: return "html-attribute";
    case link_form::html_refresh: return "html-refresh";
    }
    return "markdown-link";
}

std::string memory_size(std::size_t bytes) {
    if (bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

namespace {

/// The language of a file called `name` that starts with `head`.
const detail::code_language* language_of(std::string_view name, std::string_view head) noexcept {
    if (const auto* by_name = detail::language_by_name(name)) return by_name;
    return detail::language_by_interpreter(head);
}

}  // namespace

std::string_view code_language_of(std::string_view name, std::string_view head) noexcept {
    const auto* language = language_of(name, head);
    return language != nullptr ? language->name : std::string_view();
}

document_layout read_document(std::string_view text, document_format format, std::size_t parse_memory,
                              std::string_view name) {
    switch (format) {
    case document_format::code:
        if (const auto* language = language_of(name, text.substr(0, 256))) return detail::read_code(text, *language);
        break;
    case document_format::markdown: return detail::read_markdown(text, parse_memory);
    case document_format::html: {
        document_layout layout;
        detail::read_html_into(text, 0, detail::html_scope::document, parse_memory, layout);
        return layout;
    }
    case document_format::text: break;
    }
    document_layout layout;
    if (!text.empty()) layout.prose.push_back({0, text.size()});
    return layout;
}

namespace {

constexpr bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

}  // namespace

std::optional<document_format> format_from_name(std::string_view path) noexcept {
    const std::size_t slash = path.find_last_of('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    // The extensions GitHub's linguist and the common editors give the two
    // formats.
    static constexpr std::array markdown{".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn", ".mdx"};
    static constexpr std::array html{".html", ".htm", ".xhtml", ".shtml"};
    // Each is a `.` and letters: the one a name ends with starts at its last `.`.
    if (const std::size_t dot = name.find_last_of('.'); dot != std::string_view::npos) {
        const std::string_view extension = name.substr(dot);
        const auto is = [extension](std::string_view e) { return detail::iequals(extension, e); };
        if (std::any_of(markdown.begin(), markdown.end(), is)) return document_format::markdown;
        if (std::any_of(html.begin(), html.end(), is)) return document_format::html;
    }
    if (detail::language_by_name(name) != nullptr) return document_format::code;
    return std::nullopt;
}

bool looks_like_html(std::string_view head) noexcept {
    // What a document starts with: blanks, a byte-order mark, comments.
    std::size_t i = 0;
    if (head.starts_with("\xEF\xBB\xBF")) i = 3;
    for (;;) {
        while (i < head.size() && is_blank(head[i])) ++i;
        if (head.substr(i).starts_with("<!--")) {
            const std::size_t end = head.find("-->", i + 4);
            if (end == std::string_view::npos) return false;
            i = end + 3;
            continue;
        }
        break;
    }
    const std::string_view rest = head.substr(i);
    for (std::string_view start : {"<!doctype html", "<html", "<head", "<body"})
        if (detail::starts_with_nocase(rest, start)) {
            if (rest.size() == start.size()) return true;
            const char after = rest[start.size()];
            return after == '>' || is_blank(after);
        }
    return false;
}

}  // namespace urlsift
