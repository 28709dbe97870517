#pragma once
// Compressed input: gzip, bzip2, xz and zstd files read as the text they
// hold, each told by its magic number and streamed through its own library
// (zlib, libbz2, liblzma, libzstd) in bounded memory.

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace urlsift::detail {

enum class compression : unsigned char { none, gzip, bzip2, xz, zstd };

/// The compression `head` (an input's first bytes) starts with, by magic
/// number; `none` for anything else.
compression compression_of(std::string_view head) noexcept;

/// "gzip", "bzip2", "xz", "zstd"; "" for none.
std::string_view to_string(compression c) noexcept;

/// Receives decompressed bytes in order, in chunks valid only during the
/// call. Return false to stop.
using byte_consumer = std::function<bool(std::string_view)>;

/// Decompresses one input fed in pieces of any size. Concatenated streams
/// (`cat a.gz b.gz`) read as one, as gzip -d reads them.
class decompressor {
public:
    /// The decompressor for `c`, which is not `none`.
    static std::unique_ptr<decompressor> open(compression c);
    virtual ~decompressor() = default;

    enum class outcome : unsigned char { more, stopped, failed };
    /// Decompresses `in`, handing the output on as it comes. `failed` sets
    /// `error` (corrupt data); `stopped` when `out` asked to stop.
    virtual outcome feed(std::string_view in, const byte_consumer& out, std::string& error) = 0;
    /// The input ended: hands on what is left. `failed`, with `error` set,
    /// when it ended inside a stream (a truncated file).
    virtual outcome finish(const byte_consumer& out, std::string& error) = 0;

protected:
    decompressor() = default;
    decompressor(const decompressor&) = delete;
    decompressor& operator=(const decompressor&) = delete;
};

}  // namespace urlsift::detail
