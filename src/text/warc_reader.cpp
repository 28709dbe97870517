// WARC records (ISO 28500, WARC 1.0 and 1.1): a version line, named fields,
// a blank line, then exactly Content-Length bytes of content, then two line
// breaks. Read as a push parser, so that a record's content, which can be
// any size, is streamed and never held.

#include <urlsift/warc.hpp>

#include "text/ascii.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

namespace urlsift {

namespace {

constexpr std::size_t max_header = 1 << 20; // a WARC header block larger than this is not one
constexpr std::size_t max_http_header = 1 << 16;

/// Where the blank line that ends a header block in `held` ends, or npos,
/// looking at line breaks from `from` on. The formats say CRLF; a bare LF
/// is read too.
std::size_t header_end(std::string_view held, std::size_t from) {
    for (std::size_t i = held.find('\n', from); i != std::string_view::npos; i = held.find('\n', i + 1)) {
        std::size_t j = i + 1;
        if (j < held.size() && held[j] == '\r') ++j;
        if (j < held.size() && held[j] == '\n') return j + 1;
    }
    return std::string_view::npos;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

/// The value of field `name` (case-insensitive) in a header block of
/// `Name: value` lines, continuation lines joined; nullopt if absent.
std::optional<std::string> field(std::string_view block, std::string_view name) {
    std::optional<std::string> value;
    bool in_field = false;
    while (!block.empty()) {
        const std::size_t nl = block.find('\n');
        std::string_view line = block.substr(0, nl);
        block = nl == std::string_view::npos ? std::string_view{} : block.substr(nl + 1);
        if (!line.empty() && (line.front() == ' ' || line.front() == '\t')) {
            if (in_field) value->append(" ").append(trim(line));
            continue;
        }
        if (value && in_field) break;
        in_field = false;
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || !detail::iequals(trim(line.substr(0, colon)), name)) continue;
        value = std::string(trim(line.substr(colon + 1)));
        in_field = true;
    }
    return value;
}

void lower(std::string& s) {
    for (char& c : s) c = detail::to_lower(c);
}

/// "text/html" from "Text/HTML; charset=utf-8".
std::string media_type(std::string_view content_type) {
    std::string t(trim(content_type.substr(0, content_type.find(';'))));
    lower(t);
    return t;
}

}  // namespace

struct warc_reader::impl {
    warc_handler handler;
    enum class state : unsigned char { between, header, http_header, content } at = state::between;
    std::string held;            ///< the header block read so far
    warc_record record;
    std::uint64_t left = 0;      ///< content bytes still to come
    bool wanted = false;         ///< whether the payload is handed on
    std::uint64_t lines = 0;     ///< line breaks consumed so far
    std::uint64_t records = 0;   ///< records whose header was read
    std::uint64_t start_line = 1; ///< where the record being read starts
    std::string error;

    bool fail(std::string why) {
        const std::uint64_t number = at == state::header ? records + 1 : records;
        error = "record " + std::to_string(number) + " (line " + std::to_string(start_line) + "): " + why;
        return false;
    }

    void consumed(std::string_view bytes) { lines += static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), '\n')); }

    /// Parses the WARC header block in `held` and moves on to the content.
    bool start_record(std::string_view block) {
        if (!block.starts_with("WARC/")) return fail("does not start with a WARC version line");
        const auto length = field(block, "Content-Length");
        if (!length) return fail("has no Content-Length");
        const auto [end, ec] = std::from_chars(length->data(), length->data() + length->size(), left);
        if (ec != std::errc() || end != length->data() + length->size()) return fail("has a bad Content-Length: " + *length);
        ++records;
        record = {};
        record.type = field(block, "WARC-Type").value_or("");
        lower(record.type);
        const std::string target = field(block, "WARC-Target-URI").value_or("");
        std::string_view uri = trim(target);
        // WARC 1.0 wrote the URI in angle brackets; 1.1 does not.
        if (uri.size() >= 2 && uri.front() == '<' && uri.back() == '>') uri = uri.substr(1, uri.size() - 2);
        record.target_uri = std::string(uri);
        const std::string type = media_type(field(block, "Content-Type").value_or(""));
        // A response record holds the HTTP response: its payload follows the
        // HTTP header, whose Content-Type is the payload's.
        if (record.type == "response" && type == "application/http") {
            at = state::http_header;
            return true;
        }
        record.content_type = type;
        return open_payload();
    }

    bool open_payload() {
        record.line = lines + 1;
        wanted = handler.record(record);
        at = state::content;
        return true;
    }

    bool feed(std::string_view in) {
        while (!in.empty()) {
            switch (at) {
            case state::between: {
                // The two line breaks after a record's content, and any more.
                const std::size_t n = std::min(in.find_first_not_of("\r\n"), in.size());
                consumed(in.substr(0, n));
                in.remove_prefix(n);
                if (!in.empty()) {
                    at = state::header;
                    start_line = lines + 1;
                }
                break;
            }
            case state::header:
            case state::http_header: {
                const bool http = at == state::http_header;
                const std::size_t before = held.size();
                std::string_view take = in;
                if (http) take = take.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(left, take.size())));
                held.append(take.substr(0, std::min(take.size(), max_header)));
                // The blank line may begin in what was held before: a CR LF CR.
                const std::size_t end = header_end(held, before > 3 ? before - 3 : 0);
                const std::size_t used = (end == std::string::npos ? held.size() : end) - before;
                consumed(in.substr(0, used));
                in.remove_prefix(used);
                if (http) left -= used;
                if (end == std::string::npos) {
                    if (!http && held.size() >= max_header) return fail("has a header block over 1 MiB");
                    if (http && (left == 0 || held.size() >= max_http_header)) {
                        // No blank line: all header, no payload to scan.
                        held.clear();
                        wanted = false;
                        at = state::content;
                    }
                    break;
                }
                held.resize(end);
                const std::string block = std::move(held);
                held.clear();
                if (!http) {
                    if (!start_record(block)) return false;
                } else {
                    record.content_type = media_type(field(block, "Content-Type").value_or(""));
                    open_payload();
                }
                break;
            }
            case state::content: {
                const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, in.size()));
                const std::string_view piece = in.substr(0, n);
                consumed(piece);
                in.remove_prefix(n);
                left -= n;
                if (wanted && !piece.empty() && !handler.payload(piece)) return false;
                break;
            }
            }
            // Content that ended here, or was empty.
            if (at == state::content && left == 0) end_record();
        }
        return true;
    }

    void end_record() {
        if (wanted && handler.record_end) handler.record_end();
        wanted = false;
        at = state::between;
    }
};

warc_reader::warc_reader(warc_handler handler) : impl_(std::make_unique<impl>()) { impl_->handler = std::move(handler); }
warc_reader::warc_reader(warc_reader&&) noexcept = default;
warc_reader& warc_reader::operator=(warc_reader&&) noexcept = default;
warc_reader::~warc_reader() = default;

bool warc_reader::feed(std::string_view bytes) { return impl_->error.empty() && impl_->feed(bytes); }

bool warc_reader::finish() {
    if (!impl_->error.empty()) return false;
    switch (impl_->at) {
    case impl::state::between: return true;
    case impl::state::header: return impl_->fail("the input ends inside its header");
    case impl::state::http_header:
    case impl::state::content:
        return impl_->fail("the input ends " + std::to_string(impl_->left) + " bytes before the end of its content");
    }
    return true;
}

const std::string& warc_reader::error() const noexcept { return impl_->error; }

bool warc_reader::starts_warc(std::string_view head) noexcept {
    return head.starts_with("WARC/1.0\r\n") || head.starts_with("WARC/1.1\r\n") || head.starts_with("WARC/1.0\n") ||
           head.starts_with("WARC/1.1\n");
}

}  // namespace urlsift
