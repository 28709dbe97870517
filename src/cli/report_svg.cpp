#include "cli/report_svg.hpp"

#include "cli/escape.hpp"

#include <algorithm>
#include <limits>

namespace urlsift::cli {

void append_markup_text(std::string& out, std::string_view s) {
    for (const char c : visible(s)) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
}

namespace {

// The geometry of a chart, in pixels:
//
//    0            label_end  bar_x          bar_x + bar_span     width
//    |   www.example.org  |  ███████████████████████  1234        |
//                            <------- value / max ------>
constexpr std::uint64_t width = 720, label_end = 250, bar_x = 258, bar_span = 380;
constexpr std::uint64_t row_height = 22, bar_height = 16, margin = 6;
constexpr std::size_t label_chars = 34; ///< longer labels are cut to this many characters

/// `value * span / max`, exact in integers for any counts.
std::uint64_t scaled(std::uint64_t value, std::uint64_t max, std::uint64_t span) {
    while (max > std::numeric_limits<std::uint64_t>::max() / span) value >>= 1, max >>= 1;
    return max == 0 ? 0 : value * span / max;
}

/// `label` made visible, cut after `label_chars` characters with an ellipsis.
std::string shown_label(std::string_view label) {
    std::string s = visible(label);  // valid UTF-8 from here on
    std::size_t at = 0;
    for (std::size_t chars = 0; at < s.size() && chars < label_chars; ++chars) at += utf8_sequence_length(s, at);
    if (at < s.size()) s.replace(at, std::string::npos, "\u2026");
    return s;
}

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
        const std::uint64_t baseline = y + row_height - margin - 1;
        out += "<g><title>";
        append_markup_text(out, b.label);
        out += ": " + std::to_string(b.value) + "</title><text";
        append_attr(out, "x", label_end);
        append_attr(out, "y", baseline);
        out += " text-anchor=\"end\">";
        append_markup_text(out, shown_label(b.label));
        out += "</text><rect";
        append_attr(out, "x", bar_x);
        append_attr(out, "y", y + (row_height - bar_height) / 2);
        append_attr(out, "width", length);
        append_attr(out, "height", bar_height);
        out += "/><text class=\"value\"";
        append_attr(out, "x", bar_x + length + 6);
        append_attr(out, "y", baseline);
        out += '>' + std::to_string(b.value) + "</text></g>\n";
        y += row_height;
    }
    out += "</svg>\n";
}

}  // namespace urlsift::cli
