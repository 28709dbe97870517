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
        buf_.append(bytes);
        flush();
        return;
    }
    buf_.append(bytes);
}

void output::flush() {
    const char* p = buf_.data();
    std::size_t left = buf_.size();
    while (left > 0) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            buf_.clear();
            if (errno == EPIPE) throw broken_pipe{};
            throw std::system_error(errno, std::generic_category(), "write error");
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    buf_.clear();
}

}  // namespace urlsift::cli
