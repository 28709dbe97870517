#pragma once
// The scanner's loops over plain ASCII text, 16 bytes at a time with SSE2
// (baseline on x86-64; 32 with AVX2 when the processor has it) and
// bytewise elsewhere:
//  - find the bytes that can anchor a reference (docs/scanning.md,
//    "Streaming": `:`, `<`, and with abbreviations on `.` and `@`), as a
//    bit mask of 64 bytes at a time;
//  - walk back to the start of a run and forward to its next `:` or end;
//  - count line feeds for the positions of the references reported.

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define URLSIFT_SCAN_AVX2 1
#include <immintrin.h>
#endif

namespace urlsift::detail {

/// Whether `b` can anchor a reference.
template <bool Abbrev>
constexpr bool is_anchor(unsigned char b) noexcept {
    return b == ':' || b == '<' || (Abbrev && (b == '.' || b == '@'));
}

#if defined(URLSIFT_SCAN_AVX2)
/// Checked once, on first use (after the C runtime has started).
inline bool has_avx2() noexcept {
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return yes;
}

/// The anchor bits of the 32 bytes at q. With `Plain`, which reads q[-1]
/// and q[32] too, a `.` or `:` followed by a blank is left out: it ends a
/// word that holds no reference, as the scanner's ends_plain_word decides
/// one by one (a `:` after an `l` stays, for `URL:`).
template <bool Abbrev, bool Plain>
__attribute__((target("avx2"))) inline std::uint64_t anchor_bits_avx2(const unsigned char* q) noexcept {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
    const __m256i colon = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(':'));
    __m256i hit = _mm256_or_si256(colon, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('<')));
    __m256i dot = _mm256_setzero_si256();
    if constexpr (Abbrev) {
        dot = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('.'));
        hit = _mm256_or_si256(hit, _mm256_or_si256(dot, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('@'))));
    }
    if constexpr (Plain) {
        // Blanks are the space and 0x09-0x0D; bytes >= 0x80 compare negative.
        const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 1));
        const __m256i blank = _mm256_or_si256(
            _mm256_cmpeq_epi8(next, _mm256_set1_epi8(' ')),
            _mm256_and_si256(_mm256_cmpgt_epi8(next, _mm256_set1_epi8(0x08)),
                             _mm256_cmpgt_epi8(_mm256_set1_epi8(0x0E), next)));
        const __m256i prev = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q - 1));
        const __m256i after_l = _mm256_cmpeq_epi8(_mm256_or_si256(prev, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('l'));
        const __m256i ends = _mm256_or_si256(dot, _mm256_andnot_si256(after_l, colon));
        hit = _mm256_andnot_si256(_mm256_and_si256(blank, ends), hit);
    }
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(hit));
}

/// find_anchor_block with AVX2: 64 bytes in two loads; blocks with a byte
/// before and after them visible leave out the plain word ends.
template <bool Abbrev>
__attribute__((target("avx2"))) std::size_t find_anchor_block_avx2(const unsigned char* p, std::size_t i,
                                                                     std::size_t n, std::uint64_t& bits) noexcept {
    if (i == 0 && n >= 64) {
        bits = anchor_bits_avx2<Abbrev, false>(p) | (anchor_bits_avx2<Abbrev, false>(p + 32) << 32);
        if (bits != 0) return 0;
        i = 64;
    }
    for (; i + 64 < n; i += 64) {
        bits = anchor_bits_avx2<Abbrev, true>(p + i) | (anchor_bits_avx2<Abbrev, true>(p + i + 32) << 32);
        if (bits != 0) return i;
    }
    if (i + 64 == n) {
        bits = anchor_bits_avx2<Abbrev, false>(p + i) | (anchor_bits_avx2<Abbrev, false>(p + i + 32) << 32);
        if (bits != 0) return i;
        i += 64;
    }
    bits = 0;
    return i;
}
#endif

/// The ways of finding anchors. They find the same anchors; AVX2 also
/// leaves out plain word ends, which the scanner would pass over anyway.
enum class anchor_path : std::uint8_t { scalar, sse2, avx2 };

/// Whether this build and this processor can take `path`.
inline bool anchor_path_available(anchor_path path) noexcept {
    switch (path) {
    case anchor_path::scalar: return true;
    case anchor_path::sse2:
#if defined(__SSE2__)
        return true;
#else
        return false;
#endif
    case anchor_path::avx2:
#if defined(URLSIFT_SCAN_AVX2)
        return has_avx2();
#else
        return false;
#endif
    }
    return false;
}

/// The path the scanner takes: the one the build forces (CMake
/// URLSIFT_ANCHORS), else the one the environment variable URLSIFT_ANCHORS
/// names (scalar, sse2, avx2; for tests), else the widest available. A
/// path this processor lacks falls back to the widest available. Decided
/// once, on first use.
anchor_path active_anchor_path() noexcept;

/// From p[i], the first 64-byte block p[b, b + 64) (b = i + 64k, b + 64 <=
/// n) holding a byte that can anchor a reference, with bit j of `bits` set
/// when p[b + j] is one. When there is none, the index where fewer than 64
/// bytes are left, with `bits` 0. `path` must be available.
template <bool Abbrev>
inline std::size_t find_anchor_block(anchor_path path, const unsigned char* p, std::size_t i, std::size_t n,
                                     std::uint64_t& bits) noexcept {
#if defined(URLSIFT_SCAN_AVX2)
    if (path == anchor_path::avx2) return find_anchor_block_avx2<Abbrev>(p, i, n, bits);
#endif
    for (; i + 64 <= n; i += 64) {
        bits = 0;
#if defined(__SSE2__)
        if (path == anchor_path::sse2) {
            const __m128i colon = _mm_set1_epi8(':');
            const __m128i lt = _mm_set1_epi8('<');
            const __m128i dot = _mm_set1_epi8('.');
            const __m128i at = _mm_set1_epi8('@');
            for (std::size_t q = 0; q < 64; q += 16) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + q));
                __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, lt));
                if constexpr (Abbrev)
                    hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(v, dot), _mm_cmpeq_epi8(v, at)));
                bits |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(hit))) << q;
            }
            if (bits != 0) return i;
            continue;
        }
#endif
        for (std::size_t q = 0; q < 64; ++q)
            if (is_anchor<Abbrev>(p[i + q])) bits |= std::uint64_t{1} << q;
        if (bits != 0) return i;
    }
    bits = 0;
    return i;
}

/// The anchors of a buffer in order, from a bit mask of 64 bytes at a time:
/// where anchors are frequent (a `.` every sentence) most steps are a shift
/// and a count of trailing zeros, with no new loads.
class anchor_cursor {
public:
    anchor_cursor(const unsigned char* p, std::size_t n, bool abbrev, anchor_path path = active_anchor_path()) noexcept
        : p_(p), n_(n), abbrev_(abbrev), path_(path) {}

    /// The index of the first anchor in p[i, n), or n.
    std::size_t next(std::size_t i) noexcept {
        if (i >= block_ && i - block_ < 64) {
            const std::uint64_t left = bits_ & (~std::uint64_t{0} << (i - block_));
            if (left != 0) return block_ + static_cast<std::size_t>(__builtin_ctzll(left));
            i = block_ + 64;
        }
        if (i >= n_) return n_;
        block_ = abbrev_ ? find_anchor_block<true>(path_, p_, i, n_, bits_)
                         : find_anchor_block<false>(path_, p_, i, n_, bits_);
        if (bits_ == 0) {
            // Fewer than 64 bytes are left: the same test on a copy of them
            // padded with NUL bytes, which anchor nothing.
            unsigned char tail[64] = {};
            std::memcpy(tail, p_ + block_, n_ - block_);
            if (abbrev_) find_anchor_block<true>(path_, tail, 0, sizeof tail, bits_);
            else find_anchor_block<false>(path_, tail, 0, sizeof tail, bits_);
            if (bits_ == 0) return n_;
        }
        return block_ + static_cast<std::size_t>(__builtin_ctzll(bits_));
    }

private:
    const unsigned char* p_;
    std::size_t n_;
    bool abbrev_;
    anchor_path path_;
    std::size_t block_ = static_cast<std::size_t>(-1); ///< start of the 64 bytes in bits_
    std::uint64_t bits_ = 0;
};

/// Whether the ASCII byte `b` ends a run (text/char_roles.hpp: space or delimiter
/// role). Kept in step with make_ascii_roles.
constexpr bool is_ascii_run_stop(unsigned char b) noexcept {
    return b <= 0x20 || b == 0x7F || b == '<' || b == '>' || b == '"' || b == '`' || b == '|';
}

/// Whether the ASCII byte `b` is a bracket the scanner pairs inside a URL.
constexpr bool is_ascii_bracket(unsigned char b) noexcept {
    return b == '(' || b == ')' || b == '[' || b == ']' || b == '{' || b == '}';
}

// Byte classes for forward_to: `wanted` says whether a byte is one the walk
// stops at, and (with SSE2) `mask` sets bit j when q[j] is, for 16 bytes.

/// An ASCII run stop or a non-ASCII byte (which the caller decodes).
struct run_stop_bytes {
    static constexpr bool wanted(unsigned char b) noexcept { return b >= 0x80 || is_ascii_run_stop(b); }
#if defined(__SSE2__)
    static unsigned mask(const unsigned char* q) noexcept {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        // A signed compare flags controls, the space and every byte >= 0x80 at once.
        const __m128i a = _mm_or_si128(
            _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F))),
            _mm_cmpeq_epi8(v, _mm_set1_epi8('|')));
        const __m128i b = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')), _mm_cmpeq_epi8(v, _mm_set1_epi8('>'))),
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('`'))));
        return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(a, b)));
    }
#endif
};

/// A `:`, an ASCII run stop or a non-ASCII byte.
struct colon_or_stop_bytes {
    static constexpr bool wanted(unsigned char b) noexcept { return b == ':' || run_stop_bytes::wanted(b); }
#if defined(__SSE2__)
    static unsigned mask(const unsigned char* q) noexcept {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        return run_stop_bytes::mask(q) |
               static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(':'))));
    }
#endif
};

/// An ASCII bracket `()[]{}` or a non-ASCII byte (which may be a fullwidth bracket).
struct bracket_bytes {
    static constexpr bool wanted(unsigned char b) noexcept { return b >= 0x80 || is_ascii_bracket(b); }
#if defined(__SSE2__)
    static unsigned mask(const unsigned char* q) noexcept {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        // `(` and `)` are 0x28 and 0x29; `[`, `]`, `{`, `}` are 0x5B, 0x5D,
        // 0x7B, 0x7D: one compare after clearing bit 5 folds `[` with `{`
        // and `]` with `}`.
        const __m128i folded = _mm_and_si128(v, _mm_set1_epi8(static_cast<char>(0xDF)));
        const __m128i hit = _mm_or_si128(
            _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8(static_cast<char>(0xFE))), _mm_set1_epi8(0x28)),
            _mm_or_si128(_mm_cmpeq_epi8(folded, _mm_set1_epi8(0x5B)), _mm_cmpeq_epi8(folded, _mm_set1_epi8(0x5D))));
        // movemask also takes each byte's top bit: the non-ASCII bytes.
        return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(hit, v)));
    }
#endif
};

/// A `&` or a `\`: where an escape may start inside a URL.
struct escape_bytes {
    static constexpr bool wanted(unsigned char b) noexcept { return b == '&' || b == '\\'; }
#if defined(__SSE2__)
    static unsigned mask(const unsigned char* q) noexcept {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        return static_cast<unsigned>(_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('&')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
    }
#endif
};

/// A byte that ends a URL's site (`/ ? #`) or one is_syntax_template
/// must look at (`: [ $ % { *`).
struct site_end_or_mark_bytes {
    static constexpr bool wanted(unsigned char b) noexcept {
        return b == '/' || b == '?' || b == '#' || b == ':' || b == '[' || b == '$' || b == '%' || b == '{' ||
               b == '*';
    }
#if defined(__SSE2__)
    static unsigned mask(const unsigned char* q) noexcept {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        const auto eq = [v](char b) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(b)); };
        // `#` `$` `%` are 0x23-0x25, `*` 0x2A, `/` 0x2F, `:` 0x3A, `?` 0x3F, `[` 0x5B, `{` 0x7B.
        const __m128i run = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x22)), _mm_cmplt_epi8(v, _mm_set1_epi8(0x26)));
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_or_si128(run, eq('*')), _mm_or_si128(eq('/'), eq(':'))),
                                         _mm_or_si128(_mm_or_si128(eq('?'), eq('[')), eq('{')));
        return static_cast<unsigned>(_mm_movemask_epi8(hit));
    }
#endif
};

/// The first index in p[i, n) holding a byte of class `Bytes`; `n` when
/// there is none. 16 bytes at a time while p[i, i + 16) lies before
/// `readable` (the end of the buffer, >= n), the rest one by one.
template <class Bytes>
inline std::size_t forward_to(const unsigned char* p, std::size_t i, std::size_t n, std::size_t readable) noexcept {
#if defined(__SSE2__)
    for (; i < n && i + 16 <= readable; i += 16) {
        unsigned mask = Bytes::mask(p + i);
        if (n - i < 16) mask &= (1u << (n - i)) - 1;
        if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
    if (i >= n) return n;
#endif
    for (; i < n; ++i)
        if (Bytes::wanted(p[i])) return i;
    return n;
}


/// The bytes the rules after a URL's delimiting look for, by class.
enum url_byte_class : unsigned {
    url_bracket = 1, ///< bracket_bytes: an ASCII bracket or a non-ASCII byte
    url_escape = 2,  ///< escape_bytes: `&` or `\`
    url_comma = 4,   ///< `,`
};

/// Which url_byte_class bytes p[i, n) holds, in one pass, 16 bytes at a
/// time while p[i, i + 16) lies before `readable` (>= n): a URL that holds
/// none (nearly all) skips the rules that look for them.
inline unsigned url_byte_classes(const unsigned char* p, std::size_t i, std::size_t n, std::size_t readable) noexcept {
    unsigned found = 0;
#if defined(__SSE2__)
    for (; i < n && i + 16 <= readable; i += 16) {
        const unsigned keep = n - i < 16 ? (1u << (n - i)) - 1 : 0xFFFFu;
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        if ((bracket_bytes::mask(p + i) & keep) != 0) found |= url_bracket;
        if ((escape_bytes::mask(p + i) & keep) != 0) found |= url_escape;
        if ((static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')))) & keep) != 0)
            found |= url_comma;
    }
#endif
    for (; i < n; ++i) {
        if (bracket_bytes::wanted(p[i])) found |= url_bracket;
        if (escape_bytes::wanted(p[i])) found |= url_escape;
        if (p[i] == ',') found |= url_comma;
    }
    return found;
}

/// Walking back from p[k], the index j >= floor such that p[j, k) are ASCII
/// bytes inside a run and p[j - 1] (when j > floor) is an ASCII run stop or
/// a non-ASCII byte, which the caller decodes.
inline std::size_t back_over_ascii_run(const unsigned char* p, std::size_t floor, std::size_t k) noexcept {
#if defined(__SSE2__)
    for (; k >= floor + 16; k -= 16)
        if (const unsigned mask = run_stop_bytes::mask(p + k - 16); mask != 0)
            return k - 16 + static_cast<std::size_t>(31 - __builtin_clz(mask)) + 1;
#endif
    for (; k > floor; --k)
        if (run_stop_bytes::wanted(p[k - 1])) return k;
    return k;
}

#if defined(URLSIFT_SCAN_AVX2)
/// count_newlines 32 bytes at a time, for processors that have AVX2; the
/// same byte-wise counters as the SSE2 loop below.
__attribute__((target("avx2"))) inline std::size_t count_newlines_avx2(const char* p, std::size_t n,
                                                                        std::size_t& i) noexcept {
    std::size_t count = 0;
    const __m256i nl = _mm256_set1_epi8('\n');
    while (i + 32 <= n) {
        __m256i acc = _mm256_setzero_si256();
        for (int round = 0; round < 255 && i + 32 <= n; ++round, i += 32) {
            const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
            acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(v, nl));
        }
        const __m256i sums = _mm256_sad_epu8(acc, _mm256_setzero_si256());
        count += static_cast<std::size_t>(_mm256_extract_epi64(sums, 0)) +
                 static_cast<std::size_t>(_mm256_extract_epi64(sums, 1)) +
                 static_cast<std::size_t>(_mm256_extract_epi64(sums, 2)) +
                 static_cast<std::size_t>(_mm256_extract_epi64(sums, 3));
    }
    return count;
}
#endif

/// The number of line feeds in p[0, n).
inline std::size_t count_newlines(const char* p, std::size_t n) noexcept {
    std::size_t count = 0, i = 0;
#if defined(URLSIFT_SCAN_AVX2)
    if (n >= 64 && has_avx2()) count = count_newlines_avx2(p, n, i);
#endif
#if defined(__SSE2__)
    // Byte-wise counters (a match is -1, subtracted), summed before any can
    // pass 255; no popcount instruction is assumed.
    const __m128i nl = _mm_set1_epi8('\n');
    while (i + 16 <= n) {
        __m128i acc = _mm_setzero_si128();
        for (int round = 0; round < 255 && i + 16 <= n; ++round, i += 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
        }
        const __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
        count += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
                 static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
    }
    // The last bytes: the 16 that end at p[n], less those counted above.
    if (i < n && n >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
        // Few line feeds are left: one step each (no popcount instruction is assumed).
        for (auto hits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl))) >> (16 - (n - i)); hits != 0;
             hits &= hits - 1)
            ++count;
        return count;
    }
#endif
    for (; i < n; ++i) count += p[i] == '\n';
    return count;
}

}  // namespace urlsift::detail
