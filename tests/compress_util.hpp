#pragma once
// Compressed bytes for tests, made with each library's own encoder, and a
// letter to compress.

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace urlsift::test {

inline std::string gzip(std::string_view text) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

inline std::string bzip2(std::string_view text) {
    std::string out(text.size() + text.size() / 100 + 600, '\0');
    auto size = static_cast<unsigned>(out.size());
    REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(text.data()),
                                     static_cast<unsigned>(text.size()), 9, 0, 0) == BZ_OK);
    out.resize(size);
    return out;
}

inline std::string xz(std::string_view text) {
    std::string out(lzma_stream_buffer_bound(text.size()), '\0');
    std::size_t size = 0;
    REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                    text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &size,
                                    out.size()) == LZMA_OK);
    out.resize(size);
    return out;
}

inline std::string zstd(std::string_view text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    const std::size_t size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
    REQUIRE(ZSTD_isError(size) == 0);
    out.resize(size);
    return out;
}

/// `text` as zstd writes it to a pipe with `--long=LOG`: a frame whose
/// window is 2^LOG bytes, since the size is not told ahead. The window is
/// what the decoder has to keep; the long-distance matching --long also
/// turns on changes only how the compressor searches (and costs it 130 MB),
/// so it is left off.
inline std::string zstd_window(std::string_view text, int log) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    REQUIRE(c != nullptr);
    REQUIRE(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, log)) == 0);
    std::string out(ZSTD_compressBound(text.size()) + 64, '\0');
    ZSTD_outBuffer dst{out.data(), out.size(), 0};
    ZSTD_inBuffer src{text.data(), text.size(), 0};
    REQUIRE(ZSTD_isError(ZSTD_compressStream2(c, &dst, &src, ZSTD_e_continue)) == 0);
    ZSTD_inBuffer none{nullptr, 0, 0};
    std::size_t left = 0;
    do {
        left = ZSTD_compressStream2(c, &dst, &none, ZSTD_e_end);
        REQUIRE(ZSTD_isError(left) == 0);
    } while (left != 0);
    ZSTD_freeCCtx(c);
    out.resize(dst.pos);
    return out;
}

inline std::string zstd_long31(std::string_view text) { return zstd_window(text, 31); }

/// A short text with two URLs, one of them in angle brackets.
inline const std::string letter = "See <https://example.org/notes> and ftp://ftp.example.net/pub/ for more.\n";

}  // namespace urlsift::test
