#include "cli/atomic_file.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <sys/file.h>
#include <sys/xattr.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace urlsift::cli {

namespace {

constexpr std::size_t buffer_size = 1 << 20;
constexpr std::string_view temp_marker = ".urlsift-";

std::string directory_of(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

bool same_file(const struct stat& a, const struct stat& b) noexcept { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// The temporary file a signal handler removes: a fixed buffer, written with
// signals blocked, read by the handler alone.
std::array<char, PATH_MAX> pending_temp{};

class signals_blocked {
public:
    signals_blocked() {
        sigset_t set;
        sigemptyset(&set);
        for (const int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
        ::sigprocmask(SIG_BLOCK, &set, &old_);
    }
    ~signals_blocked() { ::sigprocmask(SIG_SETMASK, &old_, nullptr); }
    signals_blocked(const signals_blocked&) = delete;
    signals_blocked& operator=(const signals_blocked&) = delete;

private:
    sigset_t old_{};
};

// A path too long for the buffer is not recorded: a cut one could name
// another file. (The kernel refuses such paths anyway, so mkstemp failed.)
void set_pending_temp(const std::string& path) {
    const signals_blocked blocked;
    const std::size_t n = path.size() < pending_temp.size() ? path.size() : 0;
    std::memcpy(pending_temp.data(), path.data(), n);
    pending_temp[n] = '\0';
}

extern "C" void remove_temp_and_exit(int signal) {
    if (pending_temp[0] != '\0') ::unlink(pending_temp.data());
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

// A temporary file left by a run that was killed (SIGKILL, a crash, a
// power cut) is removed by a later run editing the same file, once it is
// this old. A live run writes its temporary file as it goes, so that file's
// modification time stays recent.
constexpr std::time_t stale_after_seconds = 60 * 60;

bool is_stale(const struct stat& st, std::time_t now) noexcept {
    return S_ISREG(st.st_mode) && st.st_uid == ::geteuid() && st.st_mtime < now - stale_after_seconds;
}

// The stale temporary files of each directory edited in, by name: a
// directory is read once per process, not once per file edited in it.
std::map<std::string, std::vector<std::string>, std::less<>> stale_by_directory;

std::vector<std::string> find_stale_temporaries(const std::string& dir) {
    std::vector<std::string> found;
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return found;
    const std::time_t now = std::time(nullptr);
    while (const dirent* e = ::readdir(d)) {
        struct stat st {};
        if (atomic_file::is_temporary_name(e->d_name) &&
            ::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && is_stale(st, now))
            found.emplace_back(e->d_name);
    }
    ::closedir(d);
    return found;
}

// Removes the stale temporary files `prefix` + XXXXXX in `dir`: ours, regular,
// and not written to for `stale_after_seconds`.
void remove_stale_temporaries(const std::string& dir, std::string_view prefix) {
    auto [it, first_visit] = stale_by_directory.try_emplace(dir);
    if (first_visit) it->second = find_stale_temporaries(dir);
    const std::time_t now = std::time(nullptr);
    std::erase_if(it->second, [&](const std::string& name) {
        if (name.size() != prefix.size() + 6 || !name.starts_with(prefix)) return false;
        const std::string path = dir + "/" + name;
        struct stat st {};
        if (::lstat(path.c_str(), &st) == 0 && is_stale(st, now)) ::unlink(path.c_str());
        return true;
    });
}

}  // namespace

// ------------------------------------------------------------ edit_target

edit_target::edit_target(const std::string& path, bool follow_symlinks, int wait_seconds) : replaced_(path) {
    if (follow_symlinks) {
        char* real = ::realpath(path.c_str(), nullptr);
        if (real == nullptr) {
            error_ = std::strerror(errno);
            return;
        }
        replaced_ = real;
        std::free(real);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait_seconds);
    for (;;) {
        // The type is checked before opening: opening a FIFO for reading
        // would wait for a writer.
        struct stat named {};
        if (::stat(replaced_.c_str(), &named) != 0) {
            error_ = std::strerror(errno);
            return;
        }
        if (!S_ISREG(named.st_mode)) {
            error_ = S_ISDIR(named.st_mode) ? "Is a directory" : "not a regular file (a device, FIFO or socket)";
            return;
        }
        fd_ = ::open(replaced_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd_ < 0 || ::fstat(fd_, &st_) != 0) {
            error_ = std::strerror(errno);
            return;
        }
        if (!S_ISREG(st_.st_mode)) {  // replaced between the two looks
            error_ = "not a regular file (a device, FIFO or socket)";
            return;
        }
        // Another urlsift editing it holds the lock until it has renamed
        // its new version into place; then this one reads that version.
        while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EBADF || errno == ENOLCK || errno == EINVAL || errno == EOPNOTSUPP) {
                // A file system without flock: NFS emulates it with fcntl
                // locks, which need a file open for writing (EBADF). Edit
                // unlocked, as sed -i always does.
                break;
            }
            if (errno != EWOULDBLOCK && errno != EINTR) {
                error_ = errno_text("cannot lock it");
                return;
            }
            if (std::chrono::steady_clock::now() >= deadline) {
                error_ = "another process is editing it (it stayed locked for " + std::to_string(wait_seconds) + " s)";
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        // Its mode or owner may have changed while this run waited.
        if (::fstat(fd_, &st_) != 0) {
            error_ = std::strerror(errno);
            return;
        }
        if (still_in_place()) return;
        ::close(fd_);
        fd_ = -1;
        if (std::chrono::steady_clock::now() >= deadline) {
            error_ = "it kept being replaced by another process for " + std::to_string(wait_seconds) + " s";
            return;
        }
    }
}

edit_target::~edit_target() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
}

bool edit_target::still_in_place() const {
    struct stat now {};
    return ::stat(replaced_.c_str(), &now) == 0 && same_file(now, st_);
}

// ------------------------------------------------------------ atomic_file

atomic_file::atomic_file(const edit_target& target) : path_(target.replaced_path()) {
    if (create_temporary()) copy_attributes(target.status(), target.fd());
}

atomic_file::atomic_file(const std::string& path) : path_(path) {
    // The file a link leads to is the one replaced, as writing through the
    // link would change it; a link that leads nowhere is replaced itself.
    if (struct stat link {}; ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
        if (char* real = ::realpath(path.c_str(), nullptr)) {
            path_ = real;
            std::free(real);
        }
    }
    // Opened as writing it in place would open it, so that what that
    // refuses (a read-only file, a directory) is refused here too, rather
    // than replaced. O_NONBLOCK: a FIFO put there since is not waited on.
    struct original_file {
        int fd;
        ~original_file() {
            if (fd >= 0) ::close(fd);
        }
    } const original{::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)};
    if (original.fd < 0 && errno != ENOENT) {
        fail(std::strerror(errno));
        return;
    }
    struct stat st {};
    if (original.fd >= 0 && ::fstat(original.fd, &st) != 0) {
        fail(errno_text("cannot read its status"));
        return;
    }
    if (original.fd >= 0 && !S_ISREG(st.st_mode)) {
        fail("not a regular file");
        return;
    }
    if (!create_temporary()) return;
    if (original.fd >= 0) {
        copy_attributes(st, original.fd);
        return;
    }
    // umask(2) is read by setting it; no other thread makes files while an
    // output file is opened.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd_, 0666 & ~mask) != 0) fail(errno_text("cannot set the mode of the temporary file"));
}

bool atomic_file::create_temporary() {
    const std::string dir = directory_of(path_);
    const auto slash = path_.rfind('/');
    std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
    // A long name is cut so that the temporary one still fits in NAME_MAX.
    base.resize(std::min(base.size(), std::size_t{NAME_MAX} - 1 - temp_marker.size() - 6));
    const std::string prefix = "." + base + std::string(temp_marker);
    remove_stale_temporaries(dir, prefix);
    std::string templ = dir + "/" + prefix + "XXXXXX";
    int error = 0;
    {
        // The name is recorded before a signal could leave the file behind.
        const signals_blocked blocked;
        fd_ = ::mkstemp(templ.data());
        if (fd_ >= 0) set_pending_temp(templ);
        else error = errno;
    }
    if (fd_ < 0) {
        fail("cannot create a temporary file in " + dir + ": " + std::strerror(error));
        return false;
    }
    temp_path_ = templ;
    buf_.reserve(buffer_size);
    return true;
}

void atomic_file::copy_attributes(const struct stat& st, int from) {
    // Owner first: changing it clears the set-ID bits. Where it cannot be
    // kept (not our file), the new file is ours, as with any editor's save,
    // its group kept if we are in it (as sed -i does), and set-ID bits that
    // would now name us are dropped.
    const bool owner_kept = ::fchown(fd_, st.st_uid, st.st_gid) == 0;
    if (!owner_kept) (void)::fchown(fd_, static_cast<uid_t>(-1), st.st_gid);
    // The directory's default ACL gave the new file an access ACL of its
    // own; the original's, if any, comes with the other attributes below.
    (void)::fremovexattr(fd_, "system.posix_acl_access");
    const mode_t mode = owner_kept ? st.st_mode & 07777 : st.st_mode & 0777;
    if (::fchmod(fd_, mode) != 0) {
        fail(errno_text("cannot set the mode of the temporary file"));
        return;
    }
    // Extended attributes (user.*, ACLs as system.posix_acl_access, ...)
    // where the file system has them and we may set them. The sizes are
    // asked first; ERANGE means an attribute grew in between.
    std::string names;
    for (;;) {
        const ssize_t size = ::flistxattr(from, nullptr, 0);
        if (size <= 0) return;
        names.resize(static_cast<std::size_t>(size));
        const ssize_t got = ::flistxattr(from, names.data(), names.size());
        if (got >= 0) {
            names.resize(static_cast<std::size_t>(got));
            break;
        }
        if (errno != ERANGE) return;
    }
    std::string value;
    for (std::size_t at = 0; at < names.size();) {
        const char* name = names.c_str() + at;
        at += std::strlen(name) + 1;
        ssize_t read = -1;
        do {
            const ssize_t length = ::fgetxattr(from, name, nullptr, 0);
            if (length < 0) break;
            value.resize(static_cast<std::size_t>(length));
            read = ::fgetxattr(from, name, value.data(), value.size());
        } while (read < 0 && errno == ERANGE);
        if (read < 0) continue;
        (void)::fsetxattr(fd_, name, value.data(), static_cast<std::size_t>(read), 0);  // not permitted: skipped
    }
}

atomic_file::~atomic_file() {
    if (fd_ >= 0) ::close(fd_);
    // Signals blocked: a handler running between the two steps would
    // remove the name again, by then perhaps another run's file.
    const signals_blocked blocked;
    if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
    set_pending_temp({});
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
            fail(errno_text("cannot write"));
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
    if (::fsync(fd_) != 0) fail(errno_text("cannot sync"));
    if (::close(fd_) != 0) fail(errno_text("cannot close"));
    fd_ = -1;
    if (!error_.empty()) return false;
    // Signals are held from here to the rename: one arriving after the
    // original was moved to its backup would leave no file at its name.
    const signals_blocked blocked;
    // The backup is a second link to the original, so the file's name is
    // never missing. Where that link cannot be made (a file system without
    // hard links, the most links a file can have, or fs.protected_hardlinks
    // for another user's file) the original is renamed to it, as sed -i does.
    std::string moved_to;
    if (!backup_suffix.empty()) {
        const std::string backup = path_ + backup_suffix;
        ::unlink(backup.c_str());
        if (::link(path_.c_str(), backup.c_str()) != 0) {
            const int error = errno;
            if ((error != EPERM && error != EMLINK && error != EOPNOTSUPP && error != ENOSYS) ||
                ::rename(path_.c_str(), backup.c_str()) != 0) {
                fail("cannot make the backup " + backup + ": " + std::strerror(error));
                return false;
            }
            moved_to = backup;
        }
    }
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
        fail(errno_text("cannot replace the file"));
        if (!moved_to.empty()) ::rename(moved_to.c_str(), path_.c_str());
        return false;
    }
    temp_path_.clear();
    set_pending_temp({});
    // Make the rename itself durable.
    const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

void atomic_file::remove_on_signals() {
    struct sigaction action {};
    action.sa_handler = remove_temp_and_exit;
    // One handler at a time: none interrupts another halfway.
    sigemptyset(&action.sa_mask);
    for (const int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&action.sa_mask, s);
    for (const int s : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        // A signal the caller's parent ignored (nohup) stays ignored.
        if (::sigaction(s, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        ::sigaction(s, &action, nullptr);
    }
}

bool atomic_file::is_temporary_name(std::string_view name) noexcept {
    const std::size_t marker = name.rfind(temp_marker);
    if (name.size() < 2 || name.front() != '.' || marker == std::string_view::npos || marker < 2 ||
        name.size() - marker - temp_marker.size() != 6)
        return false;
    // mkstemp's six characters are letters and digits.
    const std::string_view suffix = name.substr(name.size() - 6);
    return std::all_of(suffix.begin(), suffix.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    });
}

}  // namespace urlsift::cli
