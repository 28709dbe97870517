#pragma once
// The input stage: files and streams become the UTF-8 text the scanner
// reads, with binary input told apart and other charsets decoded.

#include <urlsift/export.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace urlsift {

/// How a text_source reads its inputs.
struct text_options {
    /// Charset of the input: any name or alias ICU knows (`latin1`,
    /// `windows-1252`, `UTF-16LE`, `Shift_JIS`, ...). UTF-8 passes through
    /// byte for byte, invalid sequences included; other charsets are decoded,
    /// with U+FFFD for what they cannot hold.
    std::string encoding = "utf-8";
    /// A UTF-8 input with a NUL byte in its first block (256 KiB) is binary,
    /// and is reported so rather than read, unless this is set. Input in
    /// another charset is never binary (UTF-16 text is full of NUL bytes).
    bool binary_as_text = false;
    /// Check, as the input is read, that the decoded text encodes back to
    /// exactly the input bytes: a filter that writes its output in the
    /// input's charset then changes nothing outside its edits. An input that
    /// does not come back unchanged fails to read.
    bool check_round_trip = false;
    /// Read gzip, bzip2, xz and zstd input (told by its first bytes, not its
    /// name) as the text it holds; the binary test and the charset then
    /// apply to that text. Unset, compressed input is binary.
    bool decompress = false;
    /// A flag another thread or a signal handler sets to end the reading
    /// early: checked before each read, and when a read is interrupted by a
    /// signal, so that a read waiting on a pipe ends too. The result is then
    /// `stopped`. None: read to the end.
    const std::atomic<bool>* stop = nullptr;
};

/// What reading one input came to.
struct text_read {
    enum class status {
        done,    ///< read to its end
        stopped, ///< the consumer asked to stop
        binary,  ///< binary input: nothing was handed on
        failed,  ///< an I/O error, or a charset round trip that changes bytes; see `error`
    };
    status what = status::done;
    std::string error; ///< for `failed`: what went wrong, ready for a message
    /// A charset the input looks like when it may not be what was assumed
    /// (from its first block): for binary input that is UTF-16 or UTF-32
    /// text (a byte-order mark, or NUL bytes on every other byte),
    /// "UTF-16LE", "UTF-16BE", "UTF-32LE" or "UTF-32BE"; for input read as
    /// UTF-16 or UTF-32 that has no NUL byte at all, "8-bit". Else empty.
    std::string looks_like;
    /// Byte sequences the charset could not read, each decoded as U+FFFD.
    std::uint64_t invalid_sequences = 0;
    /// The compression the input is in ("gzip", "bzip2", "xz", "zstd"),
    /// whether or not it was decompressed; empty for none.
    std::string compression;
};

/// Receives UTF-8 text in order, in chunks valid only during the call.
/// Return false to stop reading.
using text_consumer = std::function<bool(std::string_view)>;

/// Reads inputs as UTF-8 text, chunk by chunk, in bounded memory.
///
/// Contract: the text handed on does not depend on how the input arrives
/// (a character split between reads is completed first). Offsets a later
/// stage reports count bytes of that UTF-8 text. One source reads one input
/// at a time and can read many in turn.
///
///     std::string error;
///     auto source = urlsift::text_source::open({.encoding = "latin1"}, error);   // nullopt: error says why
///     auto r = source->read_file("notes.txt", [&](std::string_view utf8) { return scanner.feed(utf8); });
class URLSIFT_EXPORT text_source {
public:
    /// A source for `options`; nullopt, with `error` set, when the encoding is unknown.
    static std::optional<text_source> open(text_options options, std::string& error);

    /// Reads the file at `path` (`-`: standard input) to its end. A
    /// directory fails ("Is a directory"), as in grep without -r.
    text_read read_file(const std::string& path, const text_consumer& consumer);
    /// Reads the open file descriptor `fd` to its end; it stays open.
    text_read read_fd(int fd, const text_consumer& consumer);

    /// The input's charset as ICU names it ("ISO-8859-1" for `latin1`).
    const std::string& charset() const noexcept;
    /// Whether the input is decoded (its charset is not UTF-8).
    bool decodes() const noexcept;
    /// Whether compressed input is read decompressed (text_options::decompress).
    bool decompresses() const noexcept;
    /// Whether an input whose first block is `first_block` is binary by
    /// the rule of text_options::binary_as_text (a NUL byte in UTF-8 input),
    /// for a reader that sets binary_as_text to look at the input first
    /// and decides for itself.
    bool looks_binary(std::string_view first_block) const noexcept;

    text_source(text_source&&) noexcept;
    text_source& operator=(text_source&&) noexcept;
    ~text_source();

private:
    struct impl;
    explicit text_source(std::unique_ptr<impl> p) noexcept;
    std::unique_ptr<impl> impl_;
};

/// Turns UTF-8 text back into a charset: a filter's output, in the charset
/// its input was in. Chunks may split characters anywhere.
///
///     auto enc = urlsift::text_encoder::open("latin1", error);
///     std::string out; enc->write("caf\xC3\xA9", out); enc->finish(out);   // out == "caf\xE9"
class URLSIFT_EXPORT text_encoder {
public:
    /// nullopt, with `error` set, when the encoding is unknown.
    static std::optional<text_encoder> open(std::string_view encoding, std::string& error);
    /// Appends the encoding of the complete characters of `utf8` to `out`.
    void write(std::string_view utf8, std::string& out);
    /// Appends what is held back and gets ready for another text.
    void finish(std::string& out);
    /// Whether the charset is UTF-8, so that text passes through unchanged.
    bool passes_through() const noexcept;

    text_encoder(text_encoder&&) noexcept;
    text_encoder& operator=(text_encoder&&) noexcept;
    ~text_encoder();

private:
    struct impl;
    explicit text_encoder(std::unique_ptr<impl> p) noexcept;
    std::unique_ptr<impl> impl_;
};

}  // namespace urlsift
