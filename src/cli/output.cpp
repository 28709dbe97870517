#include "cli/output.hpp"

#include "cli/errors.hpp"

#include <cerrno>
#include <system_error>
#include <unistd.h>

namespace urlsift::cli {

output::output(int fd, std::size_t capacity) : fd_(fd), capacity_(capacity), terminal_(::isatty(fd) == 1) {
    buf_.reserve(capacity_ + 256);
}

output::~output() {
    try {
        flush();
    } catch (...) {
        // Errors surface through explicit flush() calls; a destructor stays quiet.
    }
}

void output::write(std::string_view bytes) {
    if (buf_.size() + bytes.size() > capacity_) flush();
    if (bytes.size() >= capacity_) {
        write_all(bytes);  // as large as the buffer: no point copying it there first
        return;
    }
    buf_.append(bytes);
}

void output::flush() {
    try {
        write_all(buf_);
    } catch (...) {
        buf_.clear();  // nothing is written again after an error
        throw;
    }
    buf_.clear();
}

void output::write_all(std::string_view bytes) {
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EPIPE) throw broken_pipe{};
            throw std::system_error(errno, std::generic_category(), "write error");
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

}  // namespace urlsift::cli
