// RFC 3676 section 4.2: decoding format=flowed text.

#include "mail/flowed.hpp"

#include <cstddef>

namespace urlsift::detail {

namespace {

struct flowed_line {
    std::size_t depth = 0;    ///< quote marks
    std::string_view content; ///< after the marks and the stuffed space
    bool soft = false;        ///< ends in a soft break
};

flowed_line read_line(std::string_view line) {
    flowed_line l;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (l.depth < line.size() && line[l.depth] == '>') ++l.depth;
    line.remove_prefix(l.depth);
    // Section 4.4: a space after the quote marks (or at the start of an
    // unquoted line) was stuffed by the writer.
    if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    // Section 4.3: "-- " is the signature separator, never flowed.
    l.soft = !line.empty() && line.back() == ' ' && line != "-- ";
    l.content = line;
    return l;
}

}  // namespace

std::string unflow(std::string_view text, bool delsp) {
    std::string out;
    out.reserve(text.size());
    bool open = false;          // a flowed paragraph is being joined
    std::size_t open_depth = 0; // its quote depth
    const auto start_line = [&](std::size_t depth) {
        out.append(depth, '>');
        if (depth > 0) out += ' ';
    };
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        const std::string_view raw = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        flowed_line l = read_line(raw);
        if (open && l.depth != open_depth) {
            // Section 4.5: a change of depth ends the paragraph; the flowed
            // line is read as fixed.
            out += '\n';
            open = false;
        }
        if (!open) start_line(l.depth);
        std::string_view content = l.content;
        if (l.soft && delsp) content.remove_suffix(1);
        out += content;
        if (l.soft) {
            open = true;
            open_depth = l.depth;
        } else {
            out += '\n';
            open = false;
        }
    }
    if (open) out += '\n';
    return out;
}

}  // namespace urlsift::detail
