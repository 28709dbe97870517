// The batch report as one self-contained HTML page: totals, bar charts and
// tables, to keep beside a corpus or mail to someone.
//
// The page shows text taken from the corpus (file names, hosts, URLs), so
// it is built to be safe to open whatever that text holds:
// - Every name and key goes through append_markup_text (or, in a table,
//   append_breakable_text, which adds line-break opportunities): control
//   characters are made visible and `& < > " '` become character
//   references.
// - Only http, https, ftp and mailto URLs become links; anything else
//   (javascript:, data:, file:, relative references) stays text.
// - The Content-Security-Policy lets nothing load and nothing run:
//   `default-src 'none'` covers scripts, images, fonts, frames and
//   fetches, and the one inline style sheet is allowed with
//   'unsafe-inline', which can do no harm when no request may leave the
//   page (a CSS url() is an image or font fetch, which is blocked). The
//   charts are inline SVG, styled by that sheet.
//
// The page takes the window's width (up to a limit past which lines get
// too long to read): the charts side by side where they fit, and the
// tables as wide as the page. On a phone (40em or less) each table row
// becomes two lines, the count and the key, then where it was first seen,
// so that no column is squeezed to a few letters.
//
// The tables are not sortable by a click. Each is written in the report's
// order (count, most first, then key), the same for any -j; another order
// is one `urlsift report -f csv --table NAME` away, in a spreadsheet or
// sort(1). A sorting script would need its hash in the policy, kept in
// step with its bytes, and would be the only code running on a page full
// of text from strangers; without one, the page reads the same in a mail
// client or an archive that turns scripts off.

#include "cli/escape.hpp"
#include "cli/report_format.hpp"
#include "cli/report_svg.hpp"

#include <algorithm>
#include <cctype>

namespace urlsift::cli {

namespace {

constexpr std::string_view head = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>urlsift report</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 100rem; padding: 0 clamp(.75em, 3vw, 3em); color: #222; background: #fff; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5em 0; width: 100%; }
table.totals { width: auto; }
th, td { padding: .2em .6em; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
td { overflow-wrap: break-word; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; width: 1%; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 24em), 1fr)); gap: 0 3em; }
figure { margin: 1em 0; min-width: 0; }
figcaption { font-weight: bold; margin-bottom: .3em; }
svg.chart { display: block; width: 100%; max-width: 36em; height: auto; }
svg.chart text { font: 12px system-ui, sans-serif; fill: #222; }
svg.chart rect { fill: #4a78b5; }
@media (max-width: 40em) {
  body { font-size: 14px; }
  table, thead, tbody { display: block; }
  tr { display: grid; grid-template-columns: 5.5em minmax(0, 1fr); column-gap: .6em; border-bottom: 1px solid #e4e4e4; padding: .2em 0; }
  th, td { border: 0; padding: 0; }
  td.n, th.n { width: auto; }
  td { overflow-wrap: anywhere; }
  tr > :nth-child(n+3) { grid-column: 2; color: #666; font-size: .9em; }
  table.totals tr { grid-template-columns: minmax(0, 1fr) auto; }
  table.totals tr > :nth-child(n+3) { grid-column: 1 / -1; }
}
@media (prefers-color-scheme: dark) {
  body { color: #ddd; background: #181818; }
  svg.chart text { fill: #ddd; }
  a { color: #8cb4ff; }
  @media (max-width: 40em) { tr > :nth-child(n+3) { color: #aaa; } }
}
</style>
</head>
<body>
<h1>urlsift report</h1>
)html";

/// Charts show the first --top rows, but no more than this many bars.
constexpr std::size_t max_bars = 25;

/// Whether `key` may be a link: an http, https, ftp or mailto URL with
/// nothing in it that would be shown escaped (controls, bytes that are not
/// UTF-8), so that the link goes where its text says.
bool clickable(std::string_view key) {
    const std::size_t colon = key.find(':');
    if (colon == std::string_view::npos) return false;
    std::string scheme(key.substr(0, colon));
    std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return (scheme == "http" || scheme == "https" || scheme == "ftp" || scheme == "mailto") && visible(key) == key;
}

/// Appends `key` as a cell's content: a link when `links` and clickable.
void append_key(std::string& out, std::string_view key, bool links) {
    if (!links || !clickable(key)) {
        append_breakable_text(out, key);
        return;
    }
    out += "<a href=\"";
    append_markup_text(out, key);
    out += "\" rel=\"noopener noreferrer nofollow\">";
    append_breakable_text(out, key);
    out += "</a>";
}

void append_count_cell(std::string& out, std::uint64_t n) {
    out += "<td class=\"n\">";
    out += grouped(n);
    out += "</td>";
}

/// "<p>N distinct, top M.</p>" above a table of the first `top` rows.
void append_count_line(std::string& out, std::uint64_t distinct, std::string_view what, std::size_t top) {
    out += "<p>";
    out += grouped(distinct);
    out += ' ';
    out += what;
    if (top != 0 && distinct > top) {
        out += ", top ";
        out += grouped(top);
    }
    out += ".</p>\n";
}

void append_section(std::string& out, const report& r, const report_section& s, std::size_t top) {
    const std::string id = std::string(to_string(s.table)) + (s.min_count > 1 ? "-duplicate" : "");
    out += "<h2 id=\"" + id + "\">";
    out += s.title;
    out += "</h2>\n";
    append_count_line(out, r.distinct(s.table, s.min_count), "distinct", top);
    const auto rows = r.rows(s.table, top, s.min_count);
    if (rows.empty()) return;
    out += "<table>\n<thead><tr><th class=\"n\" scope=\"col\">count</th><th scope=\"col\">";
    out += s.key_name;
    out += "</th><th scope=\"col\">first seen</th></tr></thead>\n<tbody>\n";
    const bool links = s.table == report_table::url;
    for (const report_row& row : rows) {
        out += "<tr>";
        append_count_cell(out, row.count);
        out += "<td>";
        append_key(out, row.key, links);
        out += "</td><td>";
        append_breakable_text(out, shown_input_name(r, row.first.input));
        out += ':';
        out += std::to_string(row.first.line);
        out += "</td></tr>\n";
    }
    out += "</tbody>\n</table>\n";
}

void append_files(std::string& out, const report& r, const std::vector<std::uint64_t>& by_file, std::size_t top) {
    const std::uint64_t with_refs = r.inputs_with_references();
    out += "<h2 id=\"files\">Files with references</h2>\n";
    append_count_line(out, with_refs, "files", top);
    if (by_file.empty()) return;
    out += "<table>\n<thead><tr><th class=\"n\" scope=\"col\">references</th><th scope=\"col\">file</th></tr></thead>"
           "\n<tbody>\n";
    for (const std::uint64_t i : by_file) {
        out += "<tr>";
        append_count_cell(out, r.inputs()[i].references);
        out += "<td>";
        append_breakable_text(out, shown_input_name(r, i));
        out += "</td></tr>\n";
    }
    out += "</tbody>\n</table>\n";
}

/// A chart in a figure, or a line saying there is nothing to draw.
void append_figure(std::string& out, std::string_view title, const std::vector<chart_bar>& bars) {
    out += "<figure>\n<figcaption>";
    out += title;
    out += "</figcaption>\n";
    if (bars.empty())
        out += "<p>None.</p>\n";
    else
        append_bar_chart(out, title, bars);
    out += "</figure>\n";
}

void append_table_chart(std::string& out, const report& r, std::string_view title, report_table t, std::size_t bars) {
    std::vector<chart_bar> v;
    const auto rows = r.rows(t, bars);
    for (const report_row& row : rows) v.push_back({row.key, row.count});
    append_figure(out, title, v);
}

}  // namespace

void append_report_html(std::string& out, const report& r, const report_layout& layout) {
    out += head;
    if (layout.generated) {
        out += "<p>Generated <time datetime=\"";
        append_markup_text(out, *layout.generated);
        out += "\">";
        append_markup_text(out, *layout.generated);
        out += "</time>.</p>\n";
    }
    if (layout.interrupted)
        out += "<p><strong>Interrupted:</strong> the counts cover only the inputs read before the run was stopped.</p>\n";

    out += "<h2 id=\"totals\">Totals</h2>\n<table class=\"totals\">\n<tbody>\n";
    for (const report_total& t : report_totals(r)) {
        out += "<tr><th scope=\"row\">";
        out += t.label;
        out += "</th>";
        append_count_cell(out, t.count);
        out += "<td>" + t.note + "</td></tr>\n";
    }
    out += "</tbody>\n</table>\n";

    const std::size_t top = layout.top;
    const std::size_t bars = top == 0 ? max_bars : std::min(top, max_bars);
    const auto by_file = r.top_inputs(top);
    // Side by side where the page is wide enough, one under another on a phone.
    out += "<h2 id=\"charts\">Charts</h2>\n<div class=\"charts\">\n";
    append_table_chart(out, r, "Top hosts", report_table::host, bars);
    append_table_chart(out, r, "Schemes", report_table::scheme, bars);
    std::vector<chart_bar> files;
    for (std::size_t k = 0; k < std::min(bars, by_file.size()); ++k)
        files.push_back({shown_input_name(r, by_file[k]), r.inputs()[by_file[k]].references});
    append_figure(out, "References per file", files);
    out += "</div>\n";

    for (const report_section& s : report_sections) {
        append_section(out, r, s, top);
        if (s.table == report_table::domain) append_files(out, r, by_file, top);
    }
    out += "</body>\n</html>\n";
}

}  // namespace urlsift::cli
