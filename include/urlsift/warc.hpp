#pragma once
// WARC files, the format web archives and crawl corpora publish (ISO 28500):
// a sequence of records, each a header block and a content block. A reader
// hands on each record's payload with the URI it was retrieved from, which
// is that payload's base (Section 5.1.3).

#include <urlsift/export.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace urlsift {

/// What a record says about itself.
struct warc_record {
    std::string type;         ///< WARC-Type, lower case: response, resource, conversion, request, warcinfo, ...
    std::string target_uri;   ///< WARC-Target-URI, without the angle brackets WARC 1.0 allowed; may be empty
    std::string content_type; ///< the payload's media type, lower case, no parameters ("text/html"); may be empty
    std::uint64_t line = 0;   ///< 1-based line of the input where the payload starts
};

/// Receives a WARC input's records in order. `record` says whether to hand
/// on the record's payload; `payload` gets it in pieces (false stops the
/// reading); `record_end` follows the last piece of a payload handed on.
struct warc_handler {
    std::function<bool(const warc_record&)> record;
    std::function<bool(std::string_view)> payload;
    std::function<void()> record_end;
};

/// Reads WARC records from bytes fed in pieces of any size, in bounded
/// memory (a header block is held whole, up to 1 MiB; content is streamed).
/// The payload of a `response` record is the HTTP body, its header left
/// out; of any other record, its whole content block. WET files (text
/// conversions in `conversion` records) are WARC files too.
///
///     urlsift::warc_reader in({.record = [](const warc_record& r) { return r.type == "conversion"; },
///                              .payload = [&](std::string_view text) { return scanner.feed(text); },
///                              .record_end = [&] { scanner.finish(); }});
///     in.feed(bytes); in.finish();
class URLSIFT_EXPORT warc_reader {
public:
    explicit warc_reader(warc_handler handler);
    warc_reader(warc_reader&&) noexcept;
    warc_reader& operator=(warc_reader&&) noexcept;
    ~warc_reader();

    /// Reads the next bytes. False when the reading ended: a handler asked
    /// to stop, or the input is not WARC (`error()` says where and why).
    bool feed(std::string_view bytes);
    /// The input ended. False, with `error()` set, when it ended inside a record.
    bool finish();
    /// Why the reading failed, ready for a message; empty if it did not.
    const std::string& error() const noexcept;

    /// Whether `head`, an input's first bytes, starts a WARC file
    /// ("WARC/1.0" or "WARC/1.1" and a line break).
    static bool starts_warc(std::string_view head) noexcept;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace urlsift
