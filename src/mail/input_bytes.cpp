// The input's bytes for the reader of simple messages (input_bytes.hpp).

#include "mail/input_bytes.hpp"

#include <algorithm>
#include <unistd.h>

namespace urlsift::detail {

namespace {

constexpr std::size_t read_ahead = std::size_t{4} << 20;

}  // namespace

input_bytes::input_bytes(GMimeStream* input) noexcept : input_(input) {
    if (GMIME_IS_STREAM_MEM(input)) {
        memory_ = true;
        readable_ = GMIME_STREAM_MEM(input)->buffer != nullptr && input->bound_end == -1;
    } else if (GMIME_IS_STREAM_FS(input)) {
        readable_ = input->bound_end == -1 && ::lseek(GMIME_STREAM_FS(input)->fd, 0, SEEK_CUR) >= 0;
    }
}

std::string_view input_bytes::at(gint64 offset, std::size_t want, bool& at_end) {
    at_end = true;
    if (!readable_ || offset < input_->bound_start) return {};
    if (memory_) {
        const GByteArray* all = GMIME_STREAM_MEM(input_)->buffer;
        if (offset >= static_cast<gint64>(all->len)) return {};
        return {reinterpret_cast<const char*>(all->data) + offset, all->len - static_cast<std::size_t>(offset)};
    }
    const auto in_window = [&] {
        if (window_start_ < 0 || offset < window_start_) return false;
        const auto skip = static_cast<std::size_t>(offset - window_start_);
        return skip <= window_.size() && (window_at_end_ || window_.size() - skip >= want);
    };
    if (!in_window()) {
        // What of the window is still wanted moves to its front; the rest
        // is read after it.
        std::size_t kept = 0;
        if (window_start_ >= 0 && offset >= window_start_ &&
            static_cast<std::size_t>(offset - window_start_) < window_.size()) {
            const auto skip = static_cast<std::size_t>(offset - window_start_);
            kept = window_.size() - skip;
            window_.erase(0, skip);
        }
        window_start_ = offset;
        // Read ahead well past `want`, so that the bytes kept are moved
        // once per many messages.
        window_.resize(std::max({want, kept, read_ahead}));
        window_at_end_ = false;
        std::size_t got = kept;
        const int fd = GMIME_STREAM_FS(input_)->fd;
        while (got < window_.size()) {
            const ssize_t n = ::pread(fd, window_.data() + got, window_.size() - got, offset + static_cast<gint64>(got));
            if (n < 0) {
                window_start_ = -1;
                window_.clear();
                readable_ = false;
                return {};
            }
            if (n == 0) {
                window_at_end_ = true;
                break;
            }
            got += static_cast<std::size_t>(n);
        }
        window_.resize(got);
    }
    at_end = window_at_end_;
    return std::string_view(window_).substr(static_cast<std::size_t>(offset - window_start_));
}

}  // namespace urlsift::detail
