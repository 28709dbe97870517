#pragma once
// The platform devices: ways of doing a job that only some systems offer,
// each with a portable default that does the same job. A device is used
// when this build has it and the environment variable URLSIFT_PORTABLE
// does not name it (a comma-separated list of the names below, or `all`):
// the benchmarks compare a device with its default in one binary.

#include <string_view>

namespace urlsift::platform {

enum class device {
    syscalls,         ///< open(2) and close(2) as plain system calls, no cancellation points (Linux)
    disk_reads,       ///< a regular file on a disk file system is read to a short read, no fstat(2) (Linux)
    placement,        ///< a worker thread starts on another processor than its parent's (Linux)
    descriptor_table, ///< each worker thread has a descriptor table of its own (Linux)
    spin,             ///< a worker waits on the processor for 2 ms before it sleeps (x86)
    huge_pages,       ///< large table arrays mapped apart in huge pages, grown by remapping (Linux)
};

/// Its name in URLSIFT_PORTABLE.
std::string_view name_of(device d) noexcept;

/// Whether `d` is used: built here and not turned off. Decided once.
bool device_on(device d) noexcept;

}  // namespace urlsift::platform
