#pragma once
// The parts of extract's output records that every input kind writes the
// same way (text files and mail): the reference's own JSON fields and the
// csv/tsv row. Each appends to `line`.

#include <urlsift/found_reference.hpp>

#include <string>
#include <string_view>

namespace urlsift::cli {

/// `,"line":..,"column":..,"offset":..,"length":..,"raw":..,"url":..,
/// "wrapper":..,"form":..,"joined":..,"alternatives":[..],"pieces":[..]`:
/// the fields of a jsonl record that come from the reference itself.
void append_reference_json(std::string& line, const found_reference& r, std::string_view url);

/// `FILE,LINE,COLUMN,URL,RAW,WRAPPER,FORM` as a csv row (guarded cells) or
/// a tsv row, without the record's end.
void append_reference_row(std::string& line, bool csv, std::string_view file, const found_reference& r,
                          std::string_view url);

}  // namespace urlsift::cli
