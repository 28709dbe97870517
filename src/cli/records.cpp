#include "cli/records.hpp"

#include "cli/escape.hpp"
#include "cli/json.hpp"

#include <urlsift/document.hpp>
#include <urlsift/unwrap.hpp>

#include <span>

namespace urlsift::cli {

void gateway_note::apply(found_reference& r) {
    wrapped.clear();
    gateway = {};
    if (!on) return;
    // Four layers cover a link wrapped by two services and forwarded
    // through a third; the bound keeps the work per link linear.
    constexpr unsigned max_layers = 4;
    for (auto& alt : r.alternatives)
        if (auto u = unwrap_gateways(alt, max_layers)) alt = std::move(u->url);
    auto u = unwrap_gateways(r.url, max_layers);
    if (!u) return;
    wrapped = std::move(r.url);
    r.url = std::move(u->url);
    gateway = to_string(u->gateway);
}

void append_reference_json(std::string& line, const found_reference& r, std::string_view url,
                           const gateway_note& note) {
    line += ",\"line\":" + std::to_string(r.line);
    line += ",\"column\":" + std::to_string(r.column);
    line += ",\"offset\":" + std::to_string(r.offset);
    line += ",\"length\":" + std::to_string(r.length);
    line += ",\"raw\":";
    append_json_string(line, std::string_view(r.raw));
    line += ",\"url\":";
    append_json_string(line, url);
    if (note.on) {
        line += ",\"wrapped\":";
        if (note.wrapped.empty())
            line += "null";
        else
            append_json_string(line, std::string_view(note.wrapped));
        line += ",\"gateway\":";
        if (note.gateway.empty())
            line += "null";
        else
            append_json_string(line, note.gateway);
    }
    line += ",\"wrapper\":";
    append_json_string(line, to_string(r.wrapper));
    line += ",\"form\":";
    append_json_string(line, form_name(r));
    line += r.joined ? ",\"joined\":true" : ",\"joined\":false";
    line += ",\"alternatives\":[";
    for (std::size_t i = 0; i < r.alternatives.size(); ++i) {
        if (i > 0) line += ',';
        append_json_string(line, std::string_view(r.alternatives[i]));
    }
    line += "],\"pieces\":[";
    for (std::size_t i = 0; i < r.pieces.size(); ++i) {
        if (i > 0) line += ',';
        line += '[' + std::to_string(r.pieces[i].offset) + ',' + std::to_string(r.pieces[i].length) + ']';
    }
    line += ']';
}

std::string_view form_name(const found_reference& r) noexcept {
    return r.declared != nullptr ? to_string(r.declared->form) : to_string(r.form);
}

std::string_view reference_csv_header(bool unwrap) {
    return unwrap ? "file,line,column,url,raw,wrapper,form,wrapped,gateway" : "file,line,column,url,raw,wrapper,form";
}

void append_reference_row(std::string& line, bool csv, std::string_view file, const found_reference& r,
                          std::string_view url, const gateway_note& note) {
    const char sep = csv ? ',' : '\t';
    const std::string line_no = std::to_string(r.line), column = std::to_string(r.column);
    const std::string_view fields[] = {file, line_no, column, url, r.raw, to_string(r.wrapper), form_name(r),
                                       note.wrapped, note.gateway};
    bool first = true;
    for (const std::string_view f : std::span(fields).first(note.on ? 9 : 7)) {
        if (!first) line += sep;
        first = false;
        if (csv)
            append_csv_field(line, f);
        else
            append_tsv_field(line, f);
    }
}

}  // namespace urlsift::cli
