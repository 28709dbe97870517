#pragma once
// Editing a file in place safely: the original opened, checked and locked;
// its new contents written beside it, synced and renamed over it.

#include <string>
#include <string_view>
#include <sys/stat.h>

namespace urlsift::cli {

/// A file opened to be edited in place. Only a regular file is accepted:
/// a FIFO, a device or a socket is refused before anything is read from
/// it. The open file is locked (flock, exclusive) against other urlsift
/// runs editing it; a run that finds it locked waits up to `wait_seconds`
/// for the lock, and reads the file again if the other run replaced it.
/// On a file system without flock the file is edited unlocked, as sed does.
class edit_target {
public:
    /// Opens `path`. A symbolic link is read through; with `follow_symlinks`
    /// the file it names is the one replaced, else the link itself is
    /// replaced by a regular file (as sed -i does). Check `error()`.
    edit_target(const std::string& path, bool follow_symlinks, int wait_seconds = 10);
    ~edit_target();
    edit_target(const edit_target&) = delete;
    edit_target& operator=(const edit_target&) = delete;

    /// Empty when all is well, else what went wrong ("not a regular file").
    const std::string& error() const noexcept { return error_; }
    /// The open original, positioned at its start.
    int fd() const noexcept { return fd_; }
    /// Its status, as opened.
    const struct stat& status() const noexcept { return st_; }
    /// The path to put the new version at.
    const std::string& replaced_path() const noexcept { return replaced_; }
    /// Whether `replaced_path()` still leads to the file opened.
    bool still_in_place() const;

private:
    std::string replaced_;
    std::string error_;
    struct stat st_ {};
    int fd_ = -1;
};

/// A new version of a file, written to a temporary file in the same
/// directory and put in place by `commit()` with rename(2), so that a
/// reader sees either the old file or the new one, never a mix. The
/// original's owner and group are kept when permitted (else the group
/// alone, if we are in it); its mode bits are kept, the set-user-ID and
/// set-group-ID bits only along with the owner and group they belong to;
/// extended attributes (ACLs among them) are copied where permitted. Until
/// `commit()` succeeds the original is untouched; the destructor removes
/// an uncommitted temporary file, and so do SIGINT, SIGTERM and SIGHUP once
/// `remove_on_signals()` was called. Temporary files of the same file left
/// by a killed run (ours, unwritten for an hour) are removed on the way.
class atomic_file {
public:
    /// Creates the temporary file beside `target.replaced_path()`. Check `error()`.
    explicit atomic_file(const edit_target& target);
    /// Creates the temporary file beside `path`, an output file (`report
    /// -o`) that need not exist yet. An existing `path` must be a regular
    /// file that may be opened for writing (a read-only one is refused, as
    /// writing it in place would refuse it), and it keeps its owner, mode
    /// and extended attributes as above; a symbolic link that leads to a
    /// file is followed. A new file gets the mode open(2) would give it:
    /// 0666 less the umask. Check `error()`.
    explicit atomic_file(const std::string& path);
    ~atomic_file();
    atomic_file(const atomic_file&) = delete;
    atomic_file& operator=(const atomic_file&) = delete;

    /// Empty when all is well, else what went wrong ("No space left on device").
    const std::string& error() const noexcept { return error_; }

    /// Appends bytes; on failure records the error and ignores later writes.
    bool write(std::string_view bytes);
    /// Flushes, fsyncs, optionally links the original to `path + backup_suffix`
    /// (or renames it there where it cannot be linked), and renames the new
    /// file over the original.
    bool commit(const std::string& backup_suffix);

    /// Makes SIGINT, SIGTERM and SIGHUP remove the temporary file of the
    /// atomic_file alive at the time, then end the process as the signal would.
    static void remove_on_signals();

    /// Whether `name` (a file name without directories) is one of the
    /// temporary files an atomic_file makes: `.NAME.urlsift-XXXXXX`, NAME
    /// cut to keep it within NAME_MAX.
    static bool is_temporary_name(std::string_view name) noexcept;

private:
    /// Makes the temporary file beside `path_`; false (with `error()`) when it cannot.
    bool create_temporary();
    void fail(const std::string& what);
    bool flush();
    /// Gives the temporary file the owner, mode and extended attributes of
    /// the original, whose status is `st` and which is open as `fd`.
    void copy_attributes(const struct stat& st, int fd);

    std::string path_;
    std::string temp_path_;
    std::string buf_;
    std::string error_;
    int fd_ = -1;
};

}  // namespace urlsift::cli
