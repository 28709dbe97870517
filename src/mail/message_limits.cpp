// What GMime would hold of each message, estimated from the input's lines
// (message_limits.hpp).

#include "mail/message_limits.hpp"

#include "text/ascii.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unistd.h>

namespace urlsift::detail {

namespace {

/// The `boundary` parameter of a Content-Type field body (RFC 2046 5.1.1:
/// a token or a quoted string); empty when there is none.
std::string boundary_of(std::string_view field) {
    for (std::size_t at = 0; at < field.size();) {
        std::size_t i = at;
        while (i < field.size() && field[i] != ';') ++i;
        std::string_view param = field.substr(at, i - at);
        at = i + 1;
        while (!param.empty() && (param.front() == ' ' || param.front() == '\t' || param.front() == '\r' ||
                                  param.front() == '\n'))
            param.remove_prefix(1);
        if (param.size() < 9 || !iequals(param.substr(0, 8), "boundary")) continue;
        param.remove_prefix(8);
        while (!param.empty() && (param.front() == ' ' || param.front() == '\t')) param.remove_prefix(1);
        if (param.empty() || param.front() != '=') continue;
        param.remove_prefix(1);
        while (!param.empty() && (param.front() == ' ' || param.front() == '\t')) param.remove_prefix(1);
        if (!param.empty() && param.front() == '"') {
            param.remove_prefix(1);
            return std::string(param.substr(0, param.find('"')));
        }
        std::size_t end = 0;
        while (end < param.size() && param[end] > ' ' && param[end] != '"') ++end;
        return std::string(param.substr(0, end));
    }
    return {};
}

/// The estimate for the messages of one input, fed its lines in order.
class estimate {
public:
    estimate(bool mbox, std::size_t cap, gint64 start) : mbox_(mbox), cap_(cap), start_(start), body_(start) {}

    /// One line: its first bytes (up to kept_bytes of them, line end
    /// included when it is among them), its whole length and its offset.
    void line(std::string_view head, std::uint64_t length, gint64 offset) {
        if (mbox_ && head.starts_with("From ") && offset > start_) {
            settle(offset);
            begin(offset, offset + static_cast<gint64>(length));
            return;
        }
        if (mbox_ && offset == start_ && head.starts_with("From ")) {
            body_ = offset + static_cast<gint64>(length);
            return;
        }
        std::string_view text = head;
        if (text.ends_with('\n')) text.remove_suffix(1);
        if (text.ends_with('\r')) text.remove_suffix(1);
        if (in_header_) {
            header_bytes_ += length;
            if (text.empty()) {
                end_field();
                // A message/rfc822 part's body starts with the headers of
                // the message it holds, which GMime holds too.
                in_header_ = holds_message_;
                holds_message_ = false;
            } else if (text.front() == ' ' || text.front() == '\t') {
                field_bytes_ += length;
                if (in_content_type_ && content_type_.size() < kept_bytes) content_type_.append(text);
            } else {
                end_field();
                field_bytes_ = length;
                in_content_type_ = text.size() > 13 && iequals(text.substr(0, 13), "content-type:");
                if (in_content_type_) content_type_.assign(text.substr(13));
            }
            return;
        }
        if (text.size() < 3 || text[0] != '-' || text[1] != '-' || boundaries_.empty()) return;
        for (const std::string& b : boundaries_) {
            if (!text.substr(2).starts_with(b)) continue;
            std::string_view rest = text.substr(2 + b.size());
            const bool closing = rest.starts_with("--");
            if (closing) rest.remove_prefix(2);
            // RFC 2046 5.1.1: only blanks may follow a boundary.
            if (rest.find_first_not_of(" \t") != std::string_view::npos) continue;
            if (!closing) ++parts_;
            in_header_ = !closing;
            holds_message_ = false;
            field_bytes_ = 0;
            return;
        }
    }

    /// The input has ended at `end`.
    std::vector<oversized_message> finish(gint64 end) {
        settle(end);
        return std::move(found_);
    }

    /// The most of a line `line` looks at.
    static constexpr std::size_t kept_bytes = 1024;

private:
    void begin(gint64 start, gint64 body) {
        start_ = start;
        body_ = body;
        in_header_ = true;
        header_bytes_ = parts_ = field_bytes_ = longest_field_ = 0;
        in_content_type_ = holds_message_ = false;
        boundaries_.clear();
    }

    void end_field() {
        longest_field_ = std::max(longest_field_, field_bytes_);
        field_bytes_ = 0;
        if (!in_content_type_) return;
        in_content_type_ = false;
        std::string_view type = content_type_;
        while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
        holds_message_ = type.size() >= 14 && iequals(type.substr(0, 14), "message/rfc822");
        // A message nested deeper than any reader goes declares more
        // boundaries than are worth remembering: the first are enough to
        // count the parts of a message that has too many.
        if (std::string b = boundary_of(content_type_); !b.empty() && boundaries_.size() < max_boundaries &&
                                                         std::find(boundaries_.begin(), boundaries_.end(), b) ==
                                                             boundaries_.end())
            boundaries_.push_back(std::move(b));
    }

    void settle(gint64 end) {
        end_field();
        const std::uint64_t headers = header_bytes_ * gmime_bytes_a_header_byte;
        const std::uint64_t parts = parts_ * gmime_bytes_a_part;
        if (headers + parts > cap_ && end > start_) {
            const std::string why =
                headers >= parts ? "its header fields come to " + std::to_string(header_bytes_) +
                                       " bytes (the longest " + std::to_string(longest_field_) + ")"
                                 : "it has " + std::to_string(parts_) + " parts";
            found_.push_back({start_, end, body_, why});
        }
    }

    static constexpr std::size_t max_boundaries = 64;

    bool mbox_;
    std::uint64_t cap_;
    gint64 start_ = 0, body_ = 0;
    bool in_header_ = true;
    std::uint64_t header_bytes_ = 0, parts_ = 0, field_bytes_ = 0, longest_field_ = 0;
    bool in_content_type_ = false;
    bool holds_message_ = false; ///< the header block read declares message/rfc822
    std::string content_type_; ///< the Content-Type field being read, its first kept_bytes
    std::vector<std::string> boundaries_;
    std::vector<oversized_message> found_;
};

}  // namespace

std::vector<oversized_message> oversized_messages(GMimeStream* input, bool mbox, std::size_t cap, bool* has_cr) {
    const bool memory = GMIME_IS_STREAM_MEM(input) && GMIME_STREAM_MEM(input)->buffer != nullptr;
    const bool file = GMIME_IS_STREAM_FS(input) && ::lseek(GMIME_STREAM_FS(input)->fd, 0, SEEK_CUR) >= 0;
    if (has_cr != nullptr) *has_cr = !memory && !file;
    if (!memory && !file) return {};
    estimate e(mbox, cap, input->bound_start);
    std::string carried; // the first bytes of a line that goes on past a block
    std::uint64_t carried_length = 0;
    gint64 line_start = input->bound_start, at = input->bound_start;
    char buffer[65536];
    for (;;) {
        std::string_view block;
        if (memory) {
            const GByteArray* all = GMIME_STREAM_MEM(input)->buffer;
            const gint64 end = input->bound_end >= 0 ? std::min<gint64>(input->bound_end, all->len) : all->len;
            if (at >= end) break;
            block = {reinterpret_cast<const char*>(all->data) + at, static_cast<std::size_t>(end - at)};
        } else {
            std::size_t want = sizeof buffer;
            if (input->bound_end >= 0) want = static_cast<std::size_t>(std::min<gint64>(static_cast<gint64>(want), input->bound_end - at));
            const ssize_t n = want == 0 ? 0 : ::pread(GMIME_STREAM_FS(input)->fd, buffer, want, at);
            if (n <= 0) break;
            block = {buffer, static_cast<std::size_t>(n)};
        }
        while (!block.empty()) {
            const void* nl = std::memchr(block.data(), '\n', block.size());
            const std::size_t take =
                nl == nullptr ? block.size() : static_cast<std::size_t>(static_cast<const char*>(nl) - block.data()) + 1;
            const std::string_view piece = block.substr(0, take);
            if (has_cr != nullptr && !*has_cr) *has_cr = std::memchr(piece.data(), '\r', piece.size()) != nullptr;
            block.remove_prefix(take);
            at += static_cast<gint64>(take);
            if (nl == nullptr) {
                if (carried.size() < estimate::kept_bytes)
                    carried.append(piece.substr(0, estimate::kept_bytes - carried.size()));
                carried_length += take;
                continue;
            }
            if (carried_length == 0) {
                e.line(piece.substr(0, estimate::kept_bytes), take, line_start);
            } else {
                if (carried.size() < estimate::kept_bytes)
                    carried.append(piece.substr(0, estimate::kept_bytes - carried.size()));
                e.line(carried, carried_length + take, line_start);
                carried.clear();
                carried_length = 0;
            }
            line_start = at;
        }
    }
    if (carried_length != 0) e.line(carried, carried_length, line_start);
    return e.finish(at);
}

}  // namespace urlsift::detail
