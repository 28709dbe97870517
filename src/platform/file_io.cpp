#include "platform/file_io.hpp"

#include "platform/devices.hpp"

#include <cstdint>
#include <fcntl.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/magic.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#endif

namespace urlsift::platform {

// Device `syscalls`: glibc's open and close are thread cancellation points,
// and in a process with threads (a report's workers) each call marks the
// thread cancellable and back, two atomic operations, twice a file of a
// tree. urlsift cancels no thread. read(2) stays glibc's, which the
// sanitizers see.

int open_at(int dir, const char* path, int flags) noexcept {
#if defined(__linux__)
    if (device_on(device::syscalls)) return static_cast<int>(::syscall(SYS_openat, dir, path, flags));
#endif
    return ::openat(dir, path, flags);
}

ssize_t read_some(int fd, char* into, std::size_t n) noexcept { return ::read(fd, into, n); }

void close_fd(int fd) noexcept {
#if defined(__linux__)
    if (device_on(device::syscalls)) {
        ::syscall(SYS_close, fd);
        return;
    }
#endif
    ::close(fd);
}

int directory_handle_flags() noexcept {
#if defined(O_PATH)
    return O_PATH | O_DIRECTORY | O_CLOEXEC;
#else
    return O_RDONLY | O_DIRECTORY | O_CLOEXEC;
#endif
}

bool reads_to_the_end(int fd) noexcept {
#if defined(__linux__)
    // Device `disk-reads`: the file systems that follow POSIX here.
    if (!device_on(device::disk_reads)) return false;
    struct statfs fs {};
    if (::fstatfs(fd, &fs) != 0) return false;
    switch (static_cast<std::uint32_t>(fs.f_type)) {
    case EXT4_SUPER_MAGIC:  // ext2, ext3 and ext4 alike
    case XFS_SUPER_MAGIC:
    case BTRFS_SUPER_MAGIC:
    case F2FS_SUPER_MAGIC:
    case TMPFS_MAGIC:
    case OVERLAYFS_SUPER_MAGIC:
        return true;
    default:
        return false;
    }
#else
    (void)fd;
    return false;
#endif
}

}  // namespace urlsift::platform
