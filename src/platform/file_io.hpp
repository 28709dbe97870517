#pragma once
// Opening, reading and closing input files, and what a file system says
// of its files' reads.

#include <cstddef>
#include <sys/types.h>

namespace urlsift::platform {

/// openat(2).
int open_at(int dir, const char* path, int flags) noexcept;
/// read(2).
ssize_t read_some(int fd, char* into, std::size_t n) noexcept;
/// close(2).
void close_fd(int fd) noexcept;

/// The flags that open a directory only to open files relative to it.
int directory_handle_flags() noexcept;

/// Whether the regular files of the file system `fd` is on give a read
/// whole up to their end, as POSIX read(2) asks, so that a short read
/// means the end: disk file systems do; /proc, sysfs and FUSE may not.
/// False where that cannot be told (the caller then asks fstat(2)).
bool reads_to_the_end(int fd) noexcept;

}  // namespace urlsift::platform
