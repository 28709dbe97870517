// Compressed input, one codec a class over one loop: the loop feeds input,
// hands output on and moves from one concatenated stream to the next; a
// codec only says what one call of its library did.

#include "text/decompress.hpp"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <new>
#include <span>

namespace urlsift::detail {

compression compression_of(std::string_view head) noexcept {
    using namespace std::string_view_literals;
    // The magic numbers: RFC 1952 (gzip), the bzip2 file header ("BZh" and a
    // block size digit), the .xz file format, RFC 8878 (zstd).
    if (head.starts_with("\x1F\x8B"sv)) return compression::gzip;
    if (head.size() >= 4 && head.starts_with("BZh"sv) && head[3] >= '1' && head[3] <= '9') return compression::bzip2;
    if (head.starts_with("\xFD" "7zXZ\0"sv)) return compression::xz;
    if (head.starts_with("\x28\xB5\x2F\xFD"sv)) return compression::zstd;
    return compression::none;
}

std::string_view to_string(compression c) noexcept {
    switch (c) {
    case compression::gzip: return "gzip";
    case compression::bzip2: return "bzip2";
    case compression::xz: return "xz";
    case compression::zstd: return "zstd";
    case compression::none: break;
    }
    return "";
}

namespace {

constexpr std::size_t out_size = 1 << 18;
/// What one codec call may take: the libraries count in `unsigned int`.
constexpr std::size_t max_step_input = 1U << 30;

/// What one call of a codec's library did.
struct step {
    step(std::size_t u, std::size_t m) : used(u), made(m) {}
    std::size_t used = 0; ///< input bytes taken
    std::size_t made = 0; ///< output bytes written
    /// `refused`: well-formed data the library will not read within the
    /// memory it is given; `error` then says so whole.
    enum class state : unsigned char { going, stream_end, corrupt, refused } what = state::going;
    std::string error;    ///< for `corrupt`: the library's word for it; for `refused`: the message
};

/// The loop every codec shares.
class codec_loop : public decompressor {
public:
    outcome feed(std::string_view in, const byte_consumer& out, std::string& error) final {
        return run(in, false, out, error);
    }

    outcome finish(const byte_consumer& out, std::string& error) final {
        const outcome o = run({}, true, out, error);
        if (o != outcome::more) return o;
        if (in_stream_ && !ignoring_rest_) {
            error = "the " + std::string(to_string(kind_)) + " data ends early (a truncated file?)";
            return outcome::failed;
        }
        return outcome::more;
    }

protected:
    explicit codec_loop(compression kind) : kind_(kind) {}
    /// Starts the next stream of a concatenation.
    virtual void restart() = 0;
    /// Decompresses what it can of `in` into `out`; `last`: no input follows.
    virtual step advance(std::string_view in, std::span<char> out, bool last) = 0;

private:
    outcome run(std::string_view in, bool last, const byte_consumer& out, std::string& error) {
        bool full = false;
        while (!ignoring_rest_ && (!in.empty() || full || (last && in_stream_))) {
            if (!in_stream_) {
                if (in.empty()) break;
                restart();
                in_stream_ = true;
                made_in_stream_ = 0;
            }
            step s = advance(in.substr(0, max_step_input), {buffer_.get(), out_size}, last);
            in.remove_prefix(s.used);
            full = s.made == out_size;
            made_in_stream_ += s.made;
            if (s.made > 0 && !out({buffer_.get(), s.made})) return outcome::stopped;
            if (s.what == step::state::stream_end) {
                in_stream_ = false;
                ++streams_ended_;
            } else if (s.what == step::state::refused) {
                // Not trailing garbage to ignore, even after a whole stream:
                // the text it holds would be lost without a word.
                error = s.error;
                return outcome::failed;
            } else if (s.what == step::state::corrupt) {
                // As gzip -d and bzip2 -d do, bytes after the last whole
                // stream that do not start another are ignored.
                if (streams_ended_ > 0 && made_in_stream_ == 0) {
                    ignoring_rest_ = true;
                    break;
                }
                error = "corrupt " + std::string(to_string(kind_)) + " data (" + s.error + ")";
                return outcome::failed;
            } else if (s.used == 0 && s.made == 0) {
                break; // the library needs more input than there is
            }
        }
        return outcome::more;
    }

    compression kind_;
    std::unique_ptr<char[]> buffer_ = std::make_unique_for_overwrite<char[]>(out_size);
    bool in_stream_ = false;
    bool ignoring_rest_ = false;
    std::size_t streams_ended_ = 0;
    std::uint64_t made_in_stream_ = 0;
};

// RFC 1952 members through zlib; 15 + 16 window bits: gzip framing only.
class gzip_codec final : public codec_loop {
public:
    gzip_codec() : codec_loop(compression::gzip) {
        if (inflateInit2(&z_, 15 + 16) != Z_OK) throw std::bad_alloc();
    }
    ~gzip_codec() override { inflateEnd(&z_); }

private:
    void restart() override { inflateReset(&z_); }
    step advance(std::string_view in, std::span<char> out, bool) override {
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        z_.avail_in = static_cast<uInt>(in.size());
        z_.next_out = reinterpret_cast<Bytef*>(out.data());
        z_.avail_out = static_cast<uInt>(out.size());
        const int rc = inflate(&z_, Z_NO_FLUSH);
        step s(in.size() - z_.avail_in, out.size() - z_.avail_out);
        if (rc == Z_STREAM_END) s.what = step::state::stream_end;
        else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            s.what = step::state::corrupt;
            s.error = z_.msg != nullptr ? z_.msg : "zlib error " + std::to_string(rc);
        }
        return s;
    }
    z_stream z_{};
};

class bzip2_codec final : public codec_loop {
public:
    bzip2_codec() : codec_loop(compression::bzip2) {}
    ~bzip2_codec() override { close(); }

private:
    void close() {
        if (open_) BZ2_bzDecompressEnd(&s_);
        open_ = false;
    }
    void restart() override {
        close();
        s_ = bz_stream{};
        if (BZ2_bzDecompressInit(&s_, 0, 0) != BZ_OK) throw std::bad_alloc();
        open_ = true;
    }
    step advance(std::string_view in, std::span<char> out, bool) override {
        s_.next_in = const_cast<char*>(in.data());
        s_.avail_in = static_cast<unsigned>(in.size());
        s_.next_out = out.data();
        s_.avail_out = static_cast<unsigned>(out.size());
        const int rc = BZ2_bzDecompress(&s_);
        step s(in.size() - s_.avail_in, out.size() - s_.avail_out);
        if (rc == BZ_STREAM_END) s.what = step::state::stream_end;
        else if (rc != BZ_OK) {
            s.what = step::state::corrupt;
            s.error = "libbz2 error " + std::to_string(rc);
        }
        return s;
    }
    bz_stream s_{};
    bool open_ = false;
};

// The .xz format through liblzma. LZMA_CONCATENATED reads streams one after
// another, with the padding between them, and reports the end only once it
// is told that no input follows.
class xz_codec final : public codec_loop {
public:
    xz_codec() : codec_loop(compression::xz) {}
    ~xz_codec() override { lzma_end(&s_); }

private:
    void restart() override {
        if (lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) throw std::bad_alloc();
    }
    step advance(std::string_view in, std::span<char> out, bool last) override {
        s_.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
        s_.avail_in = in.size();
        s_.next_out = reinterpret_cast<std::uint8_t*>(out.data());
        s_.avail_out = out.size();
        const lzma_ret rc = lzma_code(&s_, last ? LZMA_FINISH : LZMA_RUN);
        step s(in.size() - s_.avail_in, out.size() - s_.avail_out);
        if (rc == LZMA_STREAM_END) s.what = step::state::stream_end;
        else if (rc != LZMA_OK && rc != LZMA_BUF_ERROR) { // no progress: more input needed, or none left
            s.what = step::state::corrupt;
            s.error = "liblzma error " + std::to_string(rc);
        }
        return s;
    }
    lzma_stream s_ = LZMA_STREAM_INIT;
};

// RFC 8878 frames through libzstd; a return of 0 ends a frame. A frame
// says how much history (its window) the decoder must keep. The cap is
// libzstd's default, 2^27 bytes (128 MiB), set here so that it is ours:
// -j reads a file on each thread. A frame made with `zstd --long=31` asks
// for 2 GiB; it is refused with what it asks for and how to read it.
constexpr int zstd_max_window_log = 27;

/// The window a zstd frame asks for, from its first bytes (RFC 8878
/// section 3.1.1.1.2: the Window_Descriptor after the magic number and the
/// Frame_Header_Descriptor); 0 when they do not say.
std::uint64_t zstd_frame_window(std::string_view head) noexcept {
    if (head.size() < 6) return 0;
    const auto descriptor = static_cast<unsigned char>(head[4]);
    if ((descriptor & 0x20) != 0) return 0;  // Single_Segment_flag: no Window_Descriptor
    const auto window = static_cast<unsigned char>(head[5]);
    const std::uint64_t base = std::uint64_t{1} << (10 + (window >> 3));
    return base + base / 8 * (window & 7);
}

class zstd_codec final : public codec_loop {
public:
    zstd_codec() : codec_loop(compression::zstd), d_(ZSTD_createDStream()) {
        if (d_ == nullptr) throw std::bad_alloc();
        ZSTD_DCtx_setParameter(d_, ZSTD_d_windowLogMax, zstd_max_window_log);
    }
    ~zstd_codec() override { ZSTD_freeDStream(d_); }

private:
    static constexpr std::size_t header_size = 6;

    void restart() override {
        ZSTD_DCtx_reset(d_, ZSTD_reset_session_only);
        header_.clear();
        taken_ = 0;
    }
    step advance(std::string_view in, std::span<char> out, bool) override {
        // `in` starts `taken_` bytes into the frame. Kept before the call:
        // one that fails does not say what it took.
        if (header_.size() < header_size && header_.size() >= taken_)
            header_.append(in.substr(std::min(in.size(), header_.size() - taken_), header_size - header_.size()));
        ZSTD_inBuffer src{in.data(), in.size(), 0};
        ZSTD_outBuffer dst{out.data(), out.size(), 0};
        const std::size_t rc = ZSTD_decompressStream(d_, &dst, &src);
        taken_ += src.pos;
        step s(src.pos, dst.pos);
        if (ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge) {
            s.what = step::state::refused;
            s.error = window_too_large();
        } else if (ZSTD_isError(rc) != 0) {
            s.what = step::state::corrupt;
            s.error = ZSTD_getErrorName(rc);
        } else if (rc == 0) {
            s.what = step::state::stream_end;
        }
        return s;
    }
    /// Why a frame whose window passes the cap is not read, and what to do.
    std::string window_too_large() const {
        const auto mib = [](std::uint64_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB"; };
        const std::uint64_t cap = std::uint64_t{1} << zstd_max_window_log;
        const std::uint64_t window = zstd_frame_window(header_);
        // `zstd -d --long=N` reads windows of up to 2^N bytes.
        const std::string long_option =
            "--long=" + std::to_string(window > cap ? std::bit_width(window - 1) : zstd_max_window_log + 1);
        return "the zstd data asks for a window of " + (window > cap ? mib(window) : "more than " + mib(cap)) +
               " (zstd " + (window > cap ? long_option : "--long=N") + " makes such data), and urlsift gives a " +
               "zstd file a window of at most " + mib(cap) + ", to bound the memory each file takes: decompress " +
               "it first (zstd -d " + long_option + ") and read the text";
    }
    ZSTD_DStream* d_;
    std::string header_; ///< the current frame's first bytes, up to its Window_Descriptor
    std::uint64_t taken_ = 0; ///< bytes of the current frame the library has taken
};

}  // namespace

std::unique_ptr<decompressor> decompressor::open(compression c) {
    switch (c) {
    case compression::gzip: return std::make_unique<gzip_codec>();
    case compression::bzip2: return std::make_unique<bzip2_codec>();
    case compression::xz: return std::make_unique<xz_codec>();
    case compression::zstd: return std::make_unique<zstd_codec>();
    case compression::none: break;
    }
    return nullptr;
}

}  // namespace urlsift::detail
