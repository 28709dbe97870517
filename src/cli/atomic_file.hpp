#pragma once
// Replacing a file's contents atomically: write beside it, fsync, rename.

#include <string>
#include <string_view>

namespace urlsift::cli {

/// A new version of an existing file, written to a temporary file in the
/// same directory and put in place by `commit()` with rename(2), so that a
/// reader sees either the old file or the new one, never a mix. Mode bits
/// (and, when permitted, owner and group) of the original are kept. Until
/// `commit()` succeeds the original is untouched; the destructor removes
/// an uncommitted temporary file.
class atomic_file {
public:
    /// Creates the temporary file beside `path`. Check `error()`.
    explicit atomic_file(std::string path);
    ~atomic_file();
    atomic_file(const atomic_file&) = delete;
    atomic_file& operator=(const atomic_file&) = delete;

    /// Empty when all is well, else what went wrong ("No space left on device").
    const std::string& error() const noexcept { return error_; }

    /// Appends bytes; on failure records the error and ignores later writes.
    bool write(std::string_view bytes);
    /// Flushes, fsyncs, optionally links the original to `path + backup_suffix`,
    /// and renames the new file over the original.
    bool commit(const std::string& backup_suffix);

private:
    bool flush();
    void fail(const std::string& what);

    std::string path_;
    std::string temp_path_;
    std::string buf_;
    std::string error_;
    int fd_ = -1;
};

}  // namespace urlsift::cli
