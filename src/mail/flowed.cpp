// RFC 3676 section 4.2: decoding format=flowed text.

#include "mail/flowed.hpp"

#include <cstddef>
#include <utility>

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

std::string unflow(std::string_view text, bool delsp, std::vector<std::size_t>* origin) {
    std::string out;
    out.reserve(text.size());
    if (origin != nullptr) {
        origin->clear();
        origin->reserve(text.size());
    }
    // Each byte written comes from `at` in `text` (a quote prefix written
    // again, from the start of its line).
    const auto put = [&](std::string_view bytes, std::size_t at, bool step) {
        out += bytes;
        if (origin != nullptr)
            for (std::size_t i = 0; i < bytes.size(); ++i) origin->push_back(step ? at + i : at);
    };
    bool open = false;          // a flowed paragraph is being joined
    std::size_t open_depth = 0; // its quote depth
    std::size_t pos = 0;        // offset of the current line in `text`
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
        const std::string_view raw = text.substr(pos, end - pos);
        flowed_line l = read_line(raw);
        if (open && l.depth != open_depth) {
            // Section 4.5: a change of depth ends the paragraph; the flowed
            // line is read as fixed.
            put("\n", pos, false);
            open = false;
        }
        if (!open && l.depth > 0) put(std::string(l.depth, '>') + ' ', pos, false);
        std::string_view content = l.content;
        if (l.soft && delsp) content.remove_suffix(1);
        put(content, pos + static_cast<std::size_t>(l.content.data() - raw.data()), true);
        if (l.soft) {
            open = true;
            open_depth = l.depth;
        } else {
            // The line break, from its CR when it is a CRLF.
            put("\n", pos + raw.size() - (!raw.empty() && raw.back() == '\r' ? 1 : 0), false);
            open = false;
        }
        pos = end + 1;
    }
    if (open) put("\n", text.size(), false);
    return out;
}

namespace {

/// The quote marks that start `line`, and whether a space follows them.
std::pair<std::size_t, bool> line_prefix(std::string_view line) {
    std::size_t depth = 0;
    while (depth < line.size() && line[depth] == '>') ++depth;
    return {depth, depth < line.size() && line[depth] == ' '};
}

/// The offset of the start of the line that holds `text[pos - 1]`.
std::size_t line_start_before(std::string_view text, std::size_t pos) {
    if (pos == 0) return 0;
    const std::size_t nl = text.rfind('\n', pos - 1);
    return nl == std::string_view::npos ? 0 : nl + 1;
}

/// Section 4.4: a line that starts with a space, `>` or `From ` is stuffed.
bool needs_stuffing(std::string_view content) {
    return !content.empty() && (content.front() == ' ' || content.front() == '>' || content.starts_with("From "));
}

}  // namespace

std::string reflow_edits(std::string_view text, bool delsp, const std::vector<std::size_t>& origin,
                         const std::vector<rewrite_edit>& edits) {
    std::string out;
    out.reserve(text.size() + 64);
    std::size_t copied = 0; // `text` is written up to here
    for (const rewrite_edit& e : edits) {
        if (e.offset + e.length > origin.size()) break;
        const std::size_t a = origin[e.offset];
        const std::size_t b = e.length == 0 ? a : origin[e.offset + e.length - 1] + 1;
        if (a < copied || b < a) continue; // cannot happen: edits are in order and apart
        out.append(text, copied, a - copied);
        out += e.replacement;
        copied = b;
        // Was a soft break (Section 4.2) inside the edit?
        bool soft = false;
        for (std::size_t nl = text.find('\n', a); nl != std::string_view::npos && nl < b;
             nl = text.find('\n', nl + 1)) {
            const std::size_t from = line_start_before(text, nl);
            if (read_line(text.substr(from, nl - from)).soft) soft = true;
        }
        if (!soft) continue;
        // The break moves to the end of the edit: the rest of the edit's
        // last line goes on a line of its own, with the same quote marks.
        const std::size_t line_start = line_start_before(text, b);
        std::size_t line_end = text.find('\n', b);
        if (line_end == std::string_view::npos) line_end = text.size();
        const bool crlf = line_end > b && text[line_end - 1] == '\r';
        const std::size_t content_end = crlf ? line_end - 1 : line_end;
        std::string_view rest = text.substr(b, content_end - b);
        std::size_t cut = 0; // bytes of `rest` kept on the edit's line
        if (delsp) {
            // DelSp=yes: a space added before the break is deleted again.
            if (rest.empty()) continue;
            out += ' ';
        } else {
            // DelSp=no: a soft break follows a space that stays in the text.
            const std::size_t space = rest.find(' ');
            if (space == std::string_view::npos || space + 1 >= rest.size()) continue;
            cut = space + 1;
        }
        out.append(rest.substr(0, cut));
        out += crlf ? "\r\n" : "\n";
        const auto [depth, spaced] = line_prefix(text.substr(line_start, b - line_start));
        out.append(depth, '>');
        if ((depth > 0 && spaced) || needs_stuffing(rest.substr(cut))) out += ' ';
        copied = b + cut;
    }
    out.append(text, copied);
    return out;
}

}  // namespace urlsift::detail
