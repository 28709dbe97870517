#include "cli/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift::cli {

namespace {

constexpr std::size_t buffer_size = 1 << 20;

std::string directory_of(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

atomic_file::atomic_file(std::string path) : path_(std::move(path)) {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) {
        fail(std::strerror(errno));
        return;
    }
    const auto slash = path_.rfind('/');
    const std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
    std::string templ = directory_of(path_) + "/." + base + ".urlsift-XXXXXX";
    fd_ = ::mkstemp(templ.data());
    if (fd_ < 0) {
        fail("cannot create a temporary file in " + directory_of(path_) + ": " + std::strerror(errno));
        return;
    }
    temp_path_ = templ;
    // Keep the original's permission bits, and its owner where we may.
    if (::fchmod(fd_, st.st_mode & 07777) != 0) {
        fail(std::string("cannot set the mode of the temporary file: ") + std::strerror(errno));
        return;
    }
    if (::fchown(fd_, st.st_uid, st.st_gid) != 0) {
        // Not the owner: the new file is ours, as with any editor's save.
    }
    buf_.reserve(buffer_size);
}

atomic_file::~atomic_file() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void atomic_file::fail(const std::string& what) {
    if (error_.empty()) error_ = what;
}

bool atomic_file::write(std::string_view bytes) {
    if (!error_.empty()) return false;
    buf_.append(bytes);
    return buf_.size() < buffer_size || flush();
}

bool atomic_file::flush() {
    const char* p = buf_.data();
    std::size_t left = buf_.size();
    while (left > 0 && error_.empty()) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail(std::string("cannot write: ") + std::strerror(errno));
            break;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    buf_.clear();
    return error_.empty();
}

bool atomic_file::commit(const std::string& backup_suffix) {
    if (!error_.empty() || !flush()) return false;
    if (::fsync(fd_) != 0) fail(std::string("cannot sync: ") + std::strerror(errno));
    if (::close(fd_) != 0) fail(std::string("cannot close: ") + std::strerror(errno));
    fd_ = -1;
    if (!error_.empty()) return false;
    if (!backup_suffix.empty()) {
        const std::string backup = path_ + backup_suffix;
        ::unlink(backup.c_str());
        if (::link(path_.c_str(), backup.c_str()) != 0) {
            fail("cannot make the backup " + backup + ": " + std::strerror(errno));
            return false;
        }
    }
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
        fail(std::string("cannot replace the file: ") + std::strerror(errno));
        return false;
    }
    temp_path_.clear();
    // Make the rename itself durable.
    const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

}  // namespace urlsift::cli
