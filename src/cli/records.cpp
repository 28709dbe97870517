#include "cli/records.hpp"

#include "cli/escape.hpp"
#include "cli/json.hpp"

namespace urlsift::cli {

void append_reference_json(std::string& line, const found_reference& r, std::string_view url) {
    line += ",\"line\":" + std::to_string(r.line);
    line += ",\"column\":" + std::to_string(r.column);
    line += ",\"offset\":" + std::to_string(r.offset);
    line += ",\"length\":" + std::to_string(r.length);
    line += ",\"raw\":";
    append_json_string(line, std::string_view(r.raw));
    line += ",\"url\":";
    append_json_string(line, url);
    line += ",\"wrapper\":";
    append_json_string(line, to_string(r.wrapper));
    line += ",\"form\":";
    append_json_string(line, to_string(r.form));
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

void append_reference_row(std::string& line, bool csv, std::string_view file, const found_reference& r,
                          std::string_view url) {
    const char sep = csv ? ',' : '\t';
    const std::string line_no = std::to_string(r.line), column = std::to_string(r.column);
    const std::string_view fields[] = {file, line_no, column, url, r.raw, to_string(r.wrapper), to_string(r.form)};
    bool first = true;
    for (const std::string_view f : fields) {
        if (!first) line += sep;
        first = false;
        if (csv)
            append_csv_field(line, f);
        else
            append_tsv_field(line, f);
    }
}

}  // namespace urlsift::cli
