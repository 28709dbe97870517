// Links in HTML parts: href and src attribute values and anchor text, from
// gumbo's tree.

#include "mail/html_links.hpp"

#include "text/ascii.hpp"

#include <gumbo.h>

#include <memory>

namespace urlsift::detail {

namespace {

/// Whether a value names no resource apart from the document itself.
bool names_no_resource(std::string_view v) {
    // HTML strips ASCII whitespace around a URL attribute's value.
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '\n' || v.front() == '\r' || v.front() == '\f'))
        v.remove_prefix(1);
    return v.empty() || v.front() == '#' || starts_with_nocase(v, "javascript:") || starts_with_nocase(v, "data:");
}

/// The text under `node`, blanks collapsed to single spaces.
void append_text(const GumboNode* node, std::string& out) {
    if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE || node->type == GUMBO_NODE_CDATA) {
        for (const char* p = node->v.text.text; *p != '\0'; ++p) {
            const bool blank = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f';
            if (!blank)
                out += *p;
            else if (!out.empty() && out.back() != ' ')
                out += ' ';
        }
        return;
    }
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) return;
    const GumboVector& children = node->v.element.children;
    for (unsigned i = 0; i < children.length; ++i) append_text(static_cast<const GumboNode*>(children.data[i]), out);
}

void trim(std::string& s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    if (!s.empty() && s.front() == ' ') s.erase(0, 1);
}

void collect(const GumboNode* node, html_document& doc) {
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) return;
    const GumboElement& e = node->v.element;
    if (e.tag == GUMBO_TAG_BASE) {
        // HTML: the first <base href> sets the document's base; a later one is ignored.
        if (const GumboAttribute* href = gumbo_get_attribute(&e.attributes, "href"); href != nullptr && !doc.base)
            doc.base = href->value;
    } else {
        for (const char* name : {"href", "src"}) {
            const GumboAttribute* a = gumbo_get_attribute(&e.attributes, name);
            if (a == nullptr || names_no_resource(a->value)) continue;
            html_link link;
            link.value = a->value;
            link.element = e.tag == GUMBO_TAG_UNKNOWN ? std::string() : gumbo_normalized_tagname(e.tag);
            if (e.tag == GUMBO_TAG_A) {
                append_text(node, link.anchor_text);
                trim(link.anchor_text);
            }
            link.offset = a->value_start.offset;
            link.line = a->value_start.line;
            link.column = a->value_start.column;
            // The position is that of the opening quote when the value is quoted.
            if (a->original_value.length > 0 && (a->original_value.data[0] == '"' || a->original_value.data[0] == '\'')) {
                ++link.offset;
                ++link.column;
            }
            doc.links.push_back(std::move(link));
        }
    }
    for (unsigned i = 0; i < e.children.length; ++i) collect(static_cast<const GumboNode*>(e.children.data[i]), doc);
}

}  // namespace

html_document read_html(std::string_view html) {
    html_document doc;
    const auto destroy = [](GumboOutput* o) { gumbo_destroy_output(&kGumboDefaultOptions, o); };
    const std::unique_ptr<GumboOutput, decltype(destroy)> out(
        gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size()), destroy);
    if (out) collect(out->root, doc);
    return doc;
}

}  // namespace urlsift::detail
