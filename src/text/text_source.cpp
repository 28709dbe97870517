// The input stage: reading files and streams in blocks, telling binary
// input apart, decoding charsets, and checking that a charset gives the
// input back unchanged when a filter will write its output in it.

#include <urlsift/text_source.hpp>

#include "text/charset.hpp"
#include "text/decompress.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift {

namespace {

using detail::charset_converter;
using detail::compression;
using detail::conversion;
using detail::decompressor;

constexpr std::size_t block_size = 1 << 18; // 256 KiB: fits the L2 cache of common processors

/// How a directory is opened only to open files relative to it (openat(2)).
#if defined(O_PATH)
constexpr int directory_flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
#else
constexpr int directory_flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
#endif

struct fd_closer {
    int fd;
    ~fd_closer() {
        if (fd > 0) ::close(fd);
    }
};

text_read ended(text_read::status why) {
    text_read r;
    r.what = why;
    return r;
}

text_read failure(std::string message) {
    text_read r = ended(text_read::status::failed);
    r.error = std::move(message);
    return r;
}

/// The wide Unicode form `head` (an input's first bytes) is written in, or
/// empty: its byte-order mark, else where its NUL bytes fall. ASCII text in
/// UTF-16 has a NUL in every other byte, at odd offsets in little-endian.
std::string wide_charset_of(std::string_view head) {
    const auto starts = [&](std::string_view mark) { return head.substr(0, mark.size()) == mark; };
    using namespace std::string_view_literals;
    if (starts("\xFF\xFE\0\0"sv)) return "UTF-32LE";
    if (starts("\0\0\xFE\xFF"sv)) return "UTF-32BE";
    if (starts("\xFF\xFE"sv)) return "UTF-16LE";
    if (starts("\xFE\xFF"sv)) return "UTF-16BE";
    head = head.substr(0, 4096);
    std::size_t even = 0, odd = 0;
    for (std::size_t i = 0; i < head.size(); ++i)
        if (head[i] == '\0') ++(i % 2 == 0 ? even : odd);
    // Most of one half NUL, little of the other.
    if (odd * 4 >= head.size() && even * 8 < head.size()) return "UTF-16LE";
    if (even * 4 >= head.size() && odd * 8 < head.size()) return "UTF-16BE";
    return {};
}

/// Whether `charset` (as ICU names it) is a UTF-16 or UTF-32 form.
bool is_wide(std::string_view charset) { return charset.starts_with("UTF-16") || charset.starts_with("UTF-32"); }

}  // namespace

struct text_source::impl {
    text_options options;
    charset_converter decoder;
    /// With check_round_trip: the decoded text encoded again, compared with
    /// the input bytes not yet matched (`unmatched`, from input offset
    /// `matched`). The two differ by at most a character held back.
    std::optional<charset_converter> checker;
    std::string unmatched;
    std::uint64_t matched = 0;
    std::string utf8, again;
    std::unique_ptr<char[]> block = std::make_unique_for_overwrite<char[]>(block_size);

    impl(text_options o, charset_converter d) : options(std::move(o)), decoder(std::move(d)) {}
    impl(const impl&) = delete;
    impl& operator=(const impl&) = delete;
    ~impl() {
        if (dir_fd >= 0) ::close(dir_fd);
    }

    /// The directory of the file read last, and, once a second file in it is
    /// read, a descriptor of it: files a walk lists come directory by
    /// directory, and opening by name in an open directory spares the
    /// kernel a lookup of every component of the path.
    std::string dir;
    int dir_fd = -1;
    /// Whether the file open_file opened last is in `dir`.
    bool opened_in_dir = false;

    /// Opens `path` for reading, as open(2) would.
    int open_file(const std::string& path) {
        const std::size_t slash = path.rfind('/');
        opened_in_dir = !(slash == std::string::npos || slash == 0 || slash + 1 == path.size());
        if (!opened_in_dir) return ::openat(AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC);
        const std::string_view d(path.data(), slash);
        if (d != dir) {
            if (dir_fd >= 0) ::close(dir_fd);
            dir_fd = -1;
            dir.assign(d);
            return ::openat(AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC);
        }
        if (dir_fd < 0) dir_fd = ::openat(AT_FDCWD, dir.c_str(), directory_flags);
        if (dir_fd < 0) return ::openat(AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC);
        return ::openat(dir_fd, path.c_str() + slash + 1, O_RDONLY | O_CLOEXEC);
    }

    /// Compares what the decoded text encodes back to with the input.
    bool round_trip_holds(std::string_view input, std::string_view text, bool last) {
        if (!checker) return true;
        unmatched.append(input);
        again.clear();
        checker->feed(text, again);
        if (last) checker->finish(again);
        const bool same = again.size() <= unmatched.size() &&
                          std::memcmp(again.data(), unmatched.data(), again.size()) == 0 &&
                          (!last || again.size() == unmatched.size());
        if (!same) return false;
        unmatched.erase(0, again.size());
        matched += again.size();
        return true;
    }

    text_read round_trip_failure() const {
        return failure("the text does not encode back to the same bytes in " + options.encoding + " (near byte " +
                       std::to_string(matched) +
                       "); rewriting it would change bytes outside the edits (check --encoding)");
    }

    /// The binary rule: a NUL byte in the first block, for UTF-8 input.
    /// Input in another charset is never binary (UTF-16 is full of NULs).
    bool binary(std::string_view first_block) const noexcept {
        return decoder.is_pass_through() && std::memchr(first_block.data(), '\0', first_block.size()) != nullptr;
    }

    /// What `read` found out about the input, added to its result.
    std::string looks_like;
    compression compressed = compression::none;
    bool first_text = true;

    /// Reads `fd`; `regular_size` is the size fstat(2) gave when it is a
    /// regular file, else unknown_size.
    text_read read(int fd, const text_consumer& consumer, std::uint64_t regular_size = unknown_size) {
        looks_like.clear();
        compressed = compression::none;
        const std::uint64_t replaced_before = decoder.replacements();
        text_read result = read_all(fd, consumer, regular_size);
        result.looks_like = std::move(looks_like);
        result.invalid_sequences = decoder.replacements() - replaced_before;
        result.compression = detail::to_string(compressed);
        return result;
    }

    /// Hands on one block of the input's bytes (decompressed, if it was
    /// compressed): false, with `result` set, to end the reading.
    bool take(std::string_view input, const text_consumer& consumer, text_read& result) {
        if (first_text && !input.empty()) {
            first_text = false;
            // A NUL byte marks a binary file, unless a charset was named.
            if (!options.binary_as_text && binary(input)) {
                looks_like = wide_charset_of(input);
                result = ended(text_read::status::binary);
                return false;
            }
            // Text named UTF-16 or UTF-32 without a NUL byte is 8-bit text.
            if (input.size() >= 2 && is_wide(decoder.name()) && std::memchr(input.data(), '\0', input.size()) == nullptr)
                looks_like = "8-bit";
        }
        if (decoder.is_pass_through()) {
            if (consumer(input)) return true;
            result = ended(text_read::status::stopped);
            return false;
        }
        utf8.clear();
        decoder.feed(input, utf8);
        if (!round_trip_holds(input, utf8, false)) {
            result = round_trip_failure();
            return false;
        }
        if (consumer(utf8)) return true;
        result = ended(text_read::status::stopped);
        return false;
    }

    static constexpr std::uint64_t unknown_size = ~std::uint64_t{0};

    /// Reads `fd` to its end, through a decompressor when the input is
    /// compressed and that was asked for.
    text_read read_all(int fd, const text_consumer& consumer, std::uint64_t regular_size) {
        std::uint64_t total = 0;
        first_text = true;
        bool first_block = true;
        unmatched.clear();
        matched = 0;
        text_read result;
        std::unique_ptr<decompressor> unpack;
        std::string unpack_error;
        const auto unpacked = [&](std::string_view text) { return take(text, consumer, result); };
        // A decompressor that stops or fails ends the reading; `result` then
        // says why, unless the data was corrupt.
        const auto unpack_ended = [&](decompressor::outcome o) {
            if (o == decompressor::outcome::failed) result = failure(unpack_error);
            return o != decompressor::outcome::more;
        };
        for (;;) {
            if (options.stop != nullptr && options.stop->load()) {
                result = ended(text_read::status::stopped);
                break;
            }
            const ssize_t n = ::read(fd, block.get(), block_size);
            if (n < 0) {
                if (errno == EINTR) continue; // the stop flag is checked again
                result = failure(std::strerror(errno));
                break;
            }
            const std::string_view input(block.get(), static_cast<std::size_t>(n));
            total += input.size();
            // A read of a regular file comes back short only at its end
            // (POSIX read(2)): once the size fstat gave is read, a short
            // block is the last, and the read that would return 0 is spared.
            const bool last = regular_size != unknown_size && total >= regular_size && input.size() < block_size;
            if (first_block && n > 0) {
                first_block = false;
                compressed = detail::compression_of(input);
                if (compressed != compression::none && options.decompress) unpack = decompressor::open(compressed);
            }
            if (n > 0 &&
                (unpack ? unpack_ended(unpack->feed(input, unpacked, unpack_error)) : !take(input, consumer, result)))
                break;
            if (n == 0 || last) {
                if (unpack) unpack_ended(unpack->finish(unpacked, unpack_error));
                break;
            }
        }
        if (decoder.is_pass_through()) return result;
        // Whatever happened, the decoder and checker start the next input afresh.
        utf8.clear();
        decoder.finish(utf8);
        if (result.what != text_read::status::done) {
            if (checker) checker->finish(again);
            return result;
        }
        if (!round_trip_holds({}, utf8, true)) return round_trip_failure();
        if (!utf8.empty() && !consumer(utf8)) return ended(text_read::status::stopped);
        return result;
    }
};

std::optional<text_source> text_source::open(text_options options, std::string& error) {
    auto decoder = charset_converter::open(options.encoding, error);
    if (!decoder) return std::nullopt;
    auto p = std::make_unique<impl>(options, std::move(*decoder));
    if (options.check_round_trip && !p->decoder.is_pass_through()) {
        p->checker = charset_converter::open(options.encoding, error, conversion::from_utf8);
        if (!p->checker) return std::nullopt;
    }
    return text_source(std::move(p));
}

text_read text_source::read_file(const std::string& path, const text_consumer& consumer) {
    int fd = 0;
    if (path != "-") {
        fd = impl_->open_file(path);
        if (fd < 0) return failure(std::strerror(errno));
    }
    const fd_closer closer{fd};
    // The size fstat(2) gives is asked even of a file a walk found in a
    // directory: sparing it on disk file systems, whose reads come back
    // short only at the end, gained nothing measurable on a 2 GB tree of
    // small files (bench/run, big-tree).
    struct stat st {};
    const bool known = ::fstat(fd, &st) == 0;
    if (known && S_ISDIR(st.st_mode)) return failure("Is a directory");
    const bool regular = known && S_ISREG(st.st_mode) && st.st_size > 0;
    return impl_->read(fd, consumer, regular ? static_cast<std::uint64_t>(st.st_size) : impl::unknown_size);
}

text_read text_source::read_fd(int fd, const text_consumer& consumer) { return impl_->read(fd, consumer); }

const std::string& text_source::charset() const noexcept { return impl_->decoder.name(); }
bool text_source::decodes() const noexcept { return !impl_->decoder.is_pass_through(); }
bool text_source::decompresses() const noexcept { return impl_->options.decompress; }
bool text_source::looks_binary(std::string_view first_block) const noexcept { return impl_->binary(first_block); }

text_source::text_source(std::unique_ptr<impl> p) noexcept : impl_(std::move(p)) {}
text_source::text_source(text_source&&) noexcept = default;
text_source& text_source::operator=(text_source&&) noexcept = default;
text_source::~text_source() = default;

// ------------------------------------------------------------------ encoder

struct text_encoder::impl {
    charset_converter converter;
};

std::optional<text_encoder> text_encoder::open(std::string_view encoding, std::string& error) {
    auto c = charset_converter::open(encoding, error, conversion::from_utf8);
    if (!c) return std::nullopt;
    return text_encoder(std::make_unique<impl>(impl{std::move(*c)}));
}

void text_encoder::write(std::string_view utf8, std::string& out) { impl_->converter.feed(utf8, out); }
void text_encoder::finish(std::string& out) { impl_->converter.finish(out); }
bool text_encoder::passes_through() const noexcept { return impl_->converter.is_pass_through(); }

text_encoder::text_encoder(std::unique_ptr<impl> p) noexcept : impl_(std::move(p)) {}
text_encoder::text_encoder(text_encoder&&) noexcept = default;
text_encoder& text_encoder::operator=(text_encoder&&) noexcept = default;
text_encoder::~text_encoder() = default;

}  // namespace urlsift
