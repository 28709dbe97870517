#include <urlsift/reference.hpp>

namespace urlsift {

reference_parts parse_reference(std::string_view ref) noexcept {
    reference_parts p;
    std::string_view rest = ref;

    // Appendix B, groups 1-2: a scheme is a run of characters other than
    // ":/?#" ended by ":". (Section 4.1 narrows the characters; the
    // expression does not, and validation belongs to the resolver.)
    if (auto colon = rest.find_first_of(":/?#");
        colon != std::string_view::npos && colon > 0 && rest[colon] == ':') {
        p.scheme = rest.substr(0, colon);
        rest.remove_prefix(colon + 1);
    }
    // Groups 3-4: "//" then the site, up to the next "/", "?" or "#".
    if (rest.starts_with("//")) {
        rest.remove_prefix(2);
        auto end = rest.find_first_of("/?#");
        if (end == std::string_view::npos) end = rest.size();
        p.site = rest.substr(0, end);
        rest.remove_prefix(end);
    }
    // Group 5: the path, up to "?" or "#"; always defined.
    auto path_end = rest.find_first_of("?#");
    if (path_end == std::string_view::npos) path_end = rest.size();
    p.path = rest.substr(0, path_end);
    rest.remove_prefix(path_end);
    // Groups 6-7: "?" then the query, up to "#".
    if (rest.starts_with('?')) {
        rest.remove_prefix(1);
        auto end = rest.find('#');
        if (end == std::string_view::npos) end = rest.size();
        p.query = rest.substr(0, end);
        rest.remove_prefix(end);
    }
    // Groups 8-9: "#" then the fragment, to the end.
    if (rest.starts_with('#')) {
        rest.remove_prefix(1);
        p.fragment = rest;
    }
    return p;
}

void recompose_to(std::string& out, const reference_parts& parts) {
    if (parts.scheme) {
        out += *parts.scheme;
        out += ':';
    }
    if (parts.site) {
        out += "//";
        out += *parts.site;
    }
    out += parts.path;
    if (parts.query) {
        out += '?';
        out += *parts.query;
    }
    if (parts.fragment) {
        out += '#';
        out += *parts.fragment;
    }
}

std::string recompose(const reference_parts& parts) {
    std::string out;
    out.reserve((parts.scheme ? parts.scheme->size() + 1 : 0) + (parts.site ? parts.site->size() + 2 : 0) +
                parts.path.size() + (parts.query ? parts.query->size() + 1 : 0) +
                (parts.fragment ? parts.fragment->size() + 1 : 0));
    recompose_to(out, parts);
    return out;
}

}  // namespace urlsift
