#pragma once
// Buffered output to a file descriptor, written with write(2).

#include <cstddef>
#include <string>
#include <string_view>

namespace urlsift::cli {

/// Collects bytes and writes them in large blocks. A write that fails with
/// EPIPE throws `broken_pipe`; any other failure throws std::system_error.
/// `flush_each` makes every `end_record()` flush, for interactive filters.
class output {
public:
    explicit output(int fd = 1, std::size_t capacity = 1 << 16);
    ~output();
    output(const output&) = delete;
    output& operator=(const output&) = delete;

    void write(std::string_view bytes);
    void put(char c) {
        buf_.push_back(c);
        if (buf_.size() >= capacity_) flush();
    }
    /// Marks the end of a line or record; flushes when `flush_each` is set.
    void end_record() {
        if (flush_each_ || buf_.size() >= capacity_) flush();
    }
    void flush();

    bool is_terminal() const noexcept { return terminal_; }
    void set_flush_each(bool on) noexcept { flush_each_ = on; }

private:
    void write_all(std::string_view bytes);

    int fd_;
    std::size_t capacity_;
    std::string buf_;
    bool terminal_;
    bool flush_each_ = false;
};

}  // namespace urlsift::cli
