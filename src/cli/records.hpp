#pragma once
// The parts of extract's output records that every input kind writes the
// same way (text files and mail): the reference's own JSON fields and the
// csv/tsv row. Each appends to `line`.

#include <urlsift/found_reference.hpp>

#include <string>
#include <string_view>

namespace urlsift::cli {

/// What `extract --unwrap` did to one reference: a mail security gateway's
/// link (unwrap.hpp) is listed as its target, and the record keeps the link.
struct gateway_note {
    bool on = false;          ///< --unwrap was given: records have the fields below
    std::string wrapped;      ///< the URL as found, when `url` became its target; else empty
    std::string_view gateway; ///< the outermost gateway's name when `wrapped` is set; else empty

    /// With `on`, replaces `r.url` and each alternative reading by its
    /// target when it is a gateway's link (at most 4 layers deep), and
    /// notes what `r.url` was. Call once per reference, before the record.
    void apply(found_reference& r);
};

/// How a reference was written, as the records name it: the form of the
/// link its document's format declares (`markdown-link`, `html-attribute`,
/// ...), else `absolute`, `relative` or `abbreviated`.
std::string_view form_name(const found_reference& r) noexcept;

/// `,"line":..,"column":..,"offset":..,"length":..,"raw":..,"url":..,
/// "wrapper":..,"form":..,"joined":..,"alternatives":[..],"pieces":[..]`:
/// the fields of a jsonl record that come from the reference itself. With
/// `note.on`, `"wrapped":..,"gateway":..` (null when not unwrapped) follow `url`.
void append_reference_json(std::string& line, const found_reference& r, std::string_view url,
                           const gateway_note& note = {});

/// The csv header row for `append_reference_row`, without the record's end;
/// `unwrap`: with the columns `gateway_note::on` adds.
std::string_view reference_csv_header(bool unwrap);

/// `FILE,LINE,COLUMN,URL,RAW,WRAPPER,FORM` as a csv row (guarded cells) or
/// a tsv row, without the record's end; with `note.on`, `WRAPPED,GATEWAY`
/// after them (empty when not unwrapped).
void append_reference_row(std::string& line, bool csv, std::string_view file, const found_reference& r,
                          std::string_view url, const gateway_note& note = {});

}  // namespace urlsift::cli
