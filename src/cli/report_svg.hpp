#pragma once
// Markup for the html report: text made safe for HTML and SVG, and the bar
// charts, drawn as inline SVG so that the page needs nothing but itself.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// Appends `s` as HTML or SVG text, or as the value of a quoted attribute:
/// control characters and bytes that are not UTF-8 made visible as
/// append_visible does (`\x1b`), then `& < > " '` as character references.
void append_markup_text(std::string& out, std::string_view s);

/// `label` made visible, as a chart shows it: whole when it has at most
/// `most` characters, else its start, `…` and its end, `most` characters in
/// all, cut after and before a `/` where one is near, so that paths that
/// differ only at their end stay apart (`/usr/share/doc/…/CHANGELOG_V18.md`).
std::string chart_label(std::string_view label, std::size_t most);

/// Appends `s` as append_markup_text does, with a line-break opportunity
/// (`<wbr>`) after each `/ . ? & = # _ - : ,` that has more after it, for
/// HTML text: a long URL or path in a narrow column wraps between its
/// parts (`developer.mozilla.` `org/`) rather than inside a word.
void append_breakable_text(std::string& out, std::string_view s);

/// One bar of a chart: a key of the report and its count.
struct chart_bar {
    std::string_view label;
    std::uint64_t value = 0;
};

/// Appends a horizontal bar chart as an `<svg>` element: one row a bar, in
/// the order given, the label on a line above its bar (long ones cut by
/// chart_label, whole in the row's tooltip) and the value after the bar.
/// The SVG scales to the width it is given. Lengths are whole pixels
/// computed in integers, so the same bars give the same bytes. Colours and
/// fonts come from the page's style sheet (`svg.chart` rules).
void append_bar_chart(std::string& out, std::string_view title, const std::vector<chart_bar>& bars);

}  // namespace urlsift::cli
