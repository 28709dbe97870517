// URLs in mail headers: RFC 2369 (List-*), RFC 5064 (Archived-At), RFC 2110
// (Content-Base) and RFC 2557 (Content-Location).

#include "mail/header_urls.hpp"

#include "text/ascii.hpp"
#include "uri/uri_form.hpp"

namespace urlsift::detail {

namespace {

/// The URL with folding whitespace taken out: RFC 2369 section 2 and RFC
/// 2557 section 4.4 both let a long URL be folded, and the whitespace is
/// not part of it.
std::string without_blanks(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') out += c;
    return out;
}

}  // namespace

header_kind url_header_kind(std::string_view name) noexcept {
    // List-Id (RFC 2919) names a list, `Name <id.example.org>`: not a URL.
    // List-Unsubscribe-Post (RFC 8058) holds a form body.
    if (iequals(name, "List-Id") || iequals(name, "List-Unsubscribe-Post")) return header_kind::none;
    if (name.size() > 5 && starts_with_nocase(name, "List-")) return header_kind::angle_list;
    if (iequals(name, "Archived-At")) return header_kind::angle_list;
    if (iequals(name, "Content-Base") || iequals(name, "Content-Location")) return header_kind::location;
    return header_kind::none;
}

std::size_t header_url_values(header_kind kind, std::string_view value, std::vector<std::string>& out,
                              std::size_t limit) {
    std::size_t found = 0;
    // Each URL in URI form: what an encoded word or a raw byte put in it
    // that no URL holds as written is escaped, and a value that names no
    // host it could name is left out.
    const auto add = [&](std::string_view url) {
        if (url.empty()) return;
        std::optional<std::string> formed = uri_form(url);
        if (formed && found++ < limit) out.push_back(std::move(*formed));
    };
    if (kind == header_kind::location) {
        // RFC 2110 allows the URL in quotes.
        std::string url = without_blanks(value);
        std::string_view unquoted = url;
        if (unquoted.size() >= 2 && unquoted.front() == '"' && unquoted.back() == '"')
            unquoted = unquoted.substr(1, unquoted.size() - 2);
        add(unquoted);
        return found;
    }
    if (kind != header_kind::angle_list) return found;
    // RFC 2369 section 2: "<" URL ">" items separated by commas, with
    // comments in parentheses (which may nest) that are not URLs.
    int comment = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const char c = value[i];
        if (c == '\\' && comment > 0) {
            ++i;
        } else if (c == '(') {
            ++comment;
        } else if (c == ')' && comment > 0) {
            --comment;
        } else if (c == '<' && comment == 0) {
            const std::size_t end = value.find('>', i + 1);
            if (end == std::string_view::npos) return found;
            add(without_blanks(value.substr(i + 1, end - i - 1)));
            i = end;
        }
    }
    return found;
}

}  // namespace urlsift::detail
