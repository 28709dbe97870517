// The input's line numbers for GMime's offsets (input_lines.hpp).

#include "mail/input_lines.hpp"

#include <algorithm>
#include <unistd.h>

namespace urlsift::detail {

input_lines::input_lines(GMimeStream* input) noexcept : input_(input), counted_to_(input->bound_start) {
    if (GMIME_IS_STREAM_MEM(input))
        readable_ = GMIME_STREAM_MEM(input)->buffer != nullptr;
    else if (GMIME_IS_STREAM_FS(input))
        readable_ = ::lseek(GMIME_STREAM_FS(input)->fd, 0, SEEK_CUR) >= 0;
    // Any other (a pipe's): its bytes are gone once GMime has read them.
}

gint64 input_lines::start_of(GMimeStream* content) const noexcept {
    if (!readable_ || content == nullptr) return -1;
    // GMime keeps a seekable input's part bodies as pieces of it: streams
    // over the same bytes, bounded, rather than copies.
    if (GMIME_IS_STREAM_MEM(input_))
        return GMIME_IS_STREAM_MEM(content) && GMIME_STREAM_MEM(content)->buffer == GMIME_STREAM_MEM(input_)->buffer
                   ? content->bound_start
                   : -1;
    return GMIME_IS_STREAM_FS(content) && GMIME_STREAM_FS(content)->fd == GMIME_STREAM_FS(input_)->fd
               ? content->bound_start
               : -1;
}

void input_lines::mark(gint64 offset) {
    if (line_at(offset) == 0) return;  // counted up to `offset` when known
    mark_ = offset;
    mark_line_ends_ = line_ends_;
}

std::uint64_t input_lines::line_at(gint64 offset) {
    if (!readable_ || offset < input_->bound_start) return 0;
    if (offset < counted_to_) {
        if (mark_ < 0 || offset < mark_) return 0;
        counted_to_ = mark_;
        line_ends_ = mark_line_ends_;
    }
    return count_to(offset) ? line_ends_ + 1 : 0;
}

bool input_lines::count_to(gint64 offset) {
    char buffer[65536];
    while (counted_to_ < offset) {
        const auto want = static_cast<std::size_t>(std::min<gint64>(offset - counted_to_, sizeof buffer));
        const char* bytes = buffer;
        std::size_t got = 0;
        if (lent_at_ >= 0 && counted_to_ >= lent_at_ &&
            counted_to_ < lent_at_ + static_cast<gint64>(lent_.size())) {
            const auto from = static_cast<std::size_t>(counted_to_ - lent_at_);
            bytes = lent_.data() + from;
            got = std::min<std::size_t>(static_cast<std::size_t>(offset - counted_to_), lent_.size() - from);
        } else if (GMIME_IS_STREAM_MEM(input_)) {
            const GByteArray* all = GMIME_STREAM_MEM(input_)->buffer;
            if (counted_to_ >= static_cast<gint64>(all->len)) return false;
            bytes = reinterpret_cast<const char*>(all->data) + counted_to_;
            got = std::min<std::size_t>(want, all->len - static_cast<std::size_t>(counted_to_));
        } else {
            const ssize_t n = ::pread(GMIME_STREAM_FS(input_)->fd, buffer, want, counted_to_);
            if (n <= 0) return false;
            got = static_cast<std::size_t>(n);
        }
        line_ends_ += static_cast<std::uint64_t>(std::count(bytes, bytes + got, '\n'));
        counted_to_ += static_cast<gint64>(got);
    }
    return true;
}

}  // namespace urlsift::detail
