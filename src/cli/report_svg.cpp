#include "cli/report_svg.hpp"

#include "cli/escape.hpp"
#include "cli/report_format.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace urlsift::cli {

namespace {

/// Appends `text` (already visible) escaped for markup, with `<wbr>` after
/// each character of `break_after` that has more text after it.
void append_escaped(std::string& out, std::string_view text, std::string_view break_after) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
        if (i + 1 < text.size() && break_after.find(c) != std::string_view::npos) out += "<wbr>";
    }
}

}  // namespace

void append_markup_text(std::string& out, std::string_view s) { append_escaped(out, visible(s), {}); }

void append_breakable_text(std::string& out, std::string_view s) {
    append_escaped(out, visible(s), "/.?&=#_-:,");
}

namespace {

// The geometry of a chart, in pixels of its viewBox. Each row holds its
// label on a line of its own above the bar, so that the label has the
// chart's whole width: a chart drawn narrow (a phone's) keeps names long
// enough to tell apart, and one drawn wide is as readable.
//
//    0                                                      width
//    |/usr/share/doc/nodejs/…/changelogs/CHANGELOG_V18.md       |  label
//    |████████████████████████████████  9,605                   |  bar, value
//     <--------- value / max * bar_span --------->
constexpr std::uint64_t width = 400, bar_span = 330, value_gap = 5;
constexpr std::uint64_t label_baseline = 13, bar_y = 17, bar_height = 12, value_baseline = 27;
constexpr std::uint64_t row_height = 34, margin = 4;
/// Longer labels are cut in the middle to this many characters: a 12px
/// system font fits about this many of a path's characters in `width`.
constexpr std::size_t label_chars = 56;

/// `value * span / max`, exact in integers for any counts.
std::uint64_t scaled(std::uint64_t value, std::uint64_t max, std::uint64_t span) {
    while (max > std::numeric_limits<std::uint64_t>::max() / span) value >>= 1, max >>= 1;
    return max == 0 ? 0 : value * span / max;
}

}  // namespace

std::string chart_label(std::string_view label, std::size_t most) {
    std::string s = visible(label);  // valid UTF-8 from here on
    std::vector<std::size_t> starts;  // where each character starts
    for (std::size_t at = 0; at < s.size(); at += std::max<std::size_t>(1, utf8_sequence_length(s, at)))
        starts.push_back(at);
    const std::size_t n = starts.size();
    if (n <= most || most < 2) return s;
    // Names that differ do so at their end as often as at their start
    // (`…/changelogs/CHANGELOG_V18.md`, `…/CHANGELOG_V20.md`): keep a third
    // for the start, the rest for the end, with the ellipsis between.
    std::size_t head = (most - 1) / 3, tail = most - 1 - head;
    // Whole path segments where a `/` is near: the head ends after one and
    // the tail starts at one, giving up at most half of either.
    for (std::size_t k = head; k > head / 2; --k)
        if (s[starts[k - 1]] == '/') {
            tail += head - k;
            head = k;
            break;
        }
    for (std::size_t k = n - tail; k < n - tail / 2; ++k)
        if (s[starts[k]] == '/') {
            tail = n - k;
            break;
        }
    std::string cut = s.substr(0, starts[head]);
    cut.append("\u2026");
    cut.append(s, starts[n - tail]);
    return cut;
}

namespace {

void append_attr(std::string& out, std::string_view name, std::uint64_t value) {
    out += ' ';
    out += name;
    out += "=\"" + std::to_string(value) + '"';
}

}  // namespace

void append_bar_chart(std::string& out, std::string_view title, const std::vector<chart_bar>& bars) {
    std::uint64_t max = 0;
    for (const chart_bar& b : bars) max = std::max(max, b.value);
    const std::uint64_t height = 2 * margin + bars.size() * row_height;
    out += "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"";
    append_attr(out, "width", width);
    append_attr(out, "height", height);
    out += " viewBox=\"0 0 " + std::to_string(width) + ' ' + std::to_string(height) + "\" aria-label=\"";
    append_markup_text(out, title);
    out += "\"><title>";
    append_markup_text(out, title);
    out += "</title>\n";
    std::uint64_t y = margin;
    for (const chart_bar& b : bars) {
        // A count above zero shows as at least one pixel.
        const std::uint64_t length = std::max<std::uint64_t>(scaled(b.value, max, bar_span), b.value > 0 ? 1 : 0);
        const std::string count = grouped(b.value);
        out += "<g><title>";
        append_markup_text(out, b.label);
        out += ": ";
        out += count;
        out += "</title><text";
        append_attr(out, "x", 0);
        append_attr(out, "y", y + label_baseline);
        out += '>';
        append_markup_text(out, chart_label(b.label, label_chars));
        out += "</text><rect";
        append_attr(out, "x", 0);
        append_attr(out, "y", y + bar_y);
        append_attr(out, "width", length);
        append_attr(out, "height", bar_height);
        out += "/><text class=\"value\"";
        append_attr(out, "x", length + value_gap);
        append_attr(out, "y", y + value_baseline);
        out += '>';
        out += count;
        out += "</text></g>\n";
        y += row_height;
    }
    out += "</svg>\n";
}

}  // namespace urlsift::cli
