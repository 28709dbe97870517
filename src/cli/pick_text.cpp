#include "cli/pick_text.hpp"

#include "cli/escape.hpp"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <vector>

namespace urlsift::cli {

namespace {

constexpr std::string_view ellipsis = "\u2026";

/// One character as drawn: its bytes and its columns.
struct cell {
    std::string_view bytes;
    std::size_t width;
};

std::size_t code_point_width(UChar32 c) {
    if (c < 0) return 1;  // not UTF-8: shown as one replacement column
    const auto type = static_cast<UCharCategory>(u_charType(c));
    if (type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK || type == U_FORMAT_CHAR) return 0;
    const auto ea = static_cast<UEastAsianWidth>(u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH));
    return ea == U_EA_WIDE || ea == U_EA_FULLWIDTH ? 2 : 1;
}

std::vector<cell> cells_of(std::string_view s) {
    std::vector<cell> cells;
    const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
    const auto n = static_cast<std::int32_t>(s.size());
    for (std::int32_t i = 0; i < n;) {
        const std::int32_t start = i;
        UChar32 c = 0;
        U8_NEXT(p, i, n, c);
        cells.push_back({s.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start)), code_point_width(c)});
    }
    return cells;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

std::size_t display_width(std::string_view s) {
    std::size_t w = 0;
    for (const cell& c : cells_of(s)) w += c.width;
    return w;
}

std::string fit_width(std::string_view s, std::size_t width) {
    const std::vector<cell> cells = cells_of(s);
    std::size_t total = 0;
    for (const cell& c : cells) total += c.width;
    if (total <= width) return std::string(s);
    std::string out;
    if (width == 0) return out;
    std::size_t used = 0;
    for (const cell& c : cells) {
        if (used + c.width > width - 1) break;  // one column is the ellipsis's
        out += c.bytes;
        used += c.width;
    }
    return out += ellipsis;
}

std::string shorten_context(std::string_view line, std::size_t focus, std::size_t width) {
    // The row's text, and where the URL starts in it: blanks collapse, the
    // rest is escaped a run at a time (append_visible keeps the UTF-8).
    std::string shown;
    std::size_t focus_at = std::string::npos;
    for (std::size_t i = 0; i < line.size();) {
        if (i >= focus && focus_at == std::string::npos) focus_at = shown.size();
        if (is_blank(line[i])) {
            if (!shown.empty() && shown.back() != ' ') shown += ' ';
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < line.size() && !is_blank(line[j]) && (j == i || j != focus)) ++j;
        append_visible(shown, line.substr(i, j - i));
        i = j;
    }
    if (focus_at == std::string::npos) focus_at = shown.size();
    while (!shown.empty() && shown.back() == ' ') shown.pop_back();
    focus_at = std::min(focus_at, shown.size());

    const std::vector<cell> cells = cells_of(shown);
    std::size_t total = 0, focus_column = 0, at = 0;
    for (const cell& c : cells) {
        if (at < focus_at) focus_column += c.width;
        at += c.bytes.size();
        total += c.width;
    }
    if (total <= width) return shown;
    if (width < 2) return fit_width(shown, width);
    // The URL starts a third of the way in, so that the words before it are
    // seen too; a window past the end slides back.
    std::size_t start = focus_column > width / 3 ? focus_column - width / 3 : 0;
    if (start > 0 && total - start < width - 1) start = total - (width - 1);
    std::string out;
    std::size_t room = width;
    if (start > 0) {
        out += ellipsis;
        --room;
    }
    const bool cut_end = total - start > room;
    if (cut_end) --room;
    std::size_t column = 0, used = 0;
    for (const cell& c : cells) {
        const std::size_t here = column;
        column += c.width;
        if (here < start) continue;
        if (used + c.width > room) break;
        out += c.bytes;
        used += c.width;
    }
    if (cut_end) out += ellipsis;
    return out;
}

line_position line_at(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    const std::size_t begin = offset == 0 ? 0 : text.rfind('\n', offset - 1);
    const std::size_t start = begin == std::string_view::npos || offset == 0 ? 0 : begin + 1;
    std::size_t end = text.find('\n', offset);
    if (end == std::string_view::npos) end = text.size();
    return {text.substr(start, end - start), offset - start};
}

}  // namespace urlsift::cli
