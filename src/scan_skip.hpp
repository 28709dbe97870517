#pragma once
// The scanner's loops over plain ASCII text, 16 bytes at a time with SSE2
// (baseline on x86-64; the anchor search uses 32 with AVX2 when the
// processor has it) and bytewise elsewhere:
//  - find the next byte that can anchor a reference (docs/scanning.md,
//    "Streaming": `:`, `<`, and with abbreviations on `.` and `@`);
//  - walk back to the start of a run and forward to its next `:` or end;
//  - count line feeds for the positions of the references reported.

#include <cstddef>

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
/// find_anchor 32 bytes at a time, for processors that have AVX2.
template <bool Abbrev>
__attribute__((target("avx2"))) std::size_t find_anchor_avx2(const unsigned char* p, std::size_t i,
                                                               std::size_t n) noexcept {
    const __m256i colon = _mm256_set1_epi8(':');
    const __m256i lt = _mm256_set1_epi8('<');
    const __m256i dot = _mm256_set1_epi8('.');
    const __m256i at = _mm256_set1_epi8('@');
    while (i + 32 <= n) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
        __m256i hit = _mm256_or_si256(_mm256_cmpeq_epi8(v, colon), _mm256_cmpeq_epi8(v, lt));
        if constexpr (Abbrev)
            hit = _mm256_or_si256(hit, _mm256_or_si256(_mm256_cmpeq_epi8(v, dot), _mm256_cmpeq_epi8(v, at)));
        const auto mask = static_cast<unsigned>(_mm256_movemask_epi8(hit));
        if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
        i += 32;
    }
    for (; i < n; ++i)
        if (is_anchor<Abbrev>(p[i])) return i;
    return n;
}

/// Checked once, on first use (after the C runtime has started).
inline bool has_avx2() noexcept {
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return yes;
}
#endif

/// The index of the first byte in p[i, n) that is `:` or `<`, or also `.` or
/// `@` when `Abbrev` is set; `n` when there is none.
template <bool Abbrev>
inline std::size_t find_anchor(const unsigned char* p, std::size_t i, std::size_t n) noexcept {
#if defined(URLSIFT_SCAN_AVX2)
    // A buffer too short for one round of the wide loop stays with SSE2.
    if (n - i >= 64 && has_avx2()) return find_anchor_avx2<Abbrev>(p, i, n);
#endif
#if defined(__SSE2__)
    const __m128i colon = _mm_set1_epi8(':');
    const __m128i lt = _mm_set1_epi8('<');
    const __m128i dot = _mm_set1_epi8('.');
    const __m128i at = _mm_set1_epi8('@');
    while (i + 16 <= n) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, lt));
        if constexpr (Abbrev) hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(v, dot), _mm_cmpeq_epi8(v, at)));
        const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
        if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
        i += 16;
    }
#endif
    for (; i < n; ++i)
        if (is_anchor<Abbrev>(p[i])) return i;
    return n;
}

/// Whether the ASCII byte `b` ends a run (scan_unicode: space or delimiter
/// role). Kept in step with make_ascii_roles.
constexpr bool is_ascii_run_stop(unsigned char b) noexcept {
    return b <= 0x20 || b == 0x7F || b == '<' || b == '>' || b == '"' || b == '`' || b == '|';
}

/// Walking back from p[k], the index j >= floor such that p[j, k) are ASCII
/// bytes inside a run and p[j - 1] (when j > floor) is an ASCII run stop or
/// a non-ASCII byte, which the caller decodes.
inline std::size_t back_over_ascii_run(const unsigned char* p, std::size_t floor, std::size_t k) noexcept {
#if defined(__SSE2__)
    // A signed compare flags controls, the space and every byte >= 0x80 at once.
    const __m128i low = _mm_set1_epi8(0x21);
    const __m128i del = _mm_set1_epi8(0x7F);
    const __m128i lt = _mm_set1_epi8('<');
    const __m128i gt = _mm_set1_epi8('>');
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i tick = _mm_set1_epi8('`');
    const __m128i bar = _mm_set1_epi8('|');
    while (k >= floor + 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k - 16));
        const __m128i a = _mm_or_si128(_mm_cmplt_epi8(v, low), _mm_cmpeq_epi8(v, del));
        const __m128i b = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, gt)),
                                       _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, tick)));
        const __m128i hit = _mm_or_si128(_mm_or_si128(a, b), _mm_cmpeq_epi8(v, bar));
        const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
        if (mask != 0) return k - 16 + static_cast<std::size_t>(31 - __builtin_clz(mask)) + 1;
        k -= 16;
    }
#endif
    while (k > floor) {
        const unsigned char b = p[k - 1];
        if (b >= 0x80 || is_ascii_run_stop(b)) return k;
        --k;
    }
    return k;
}

/// The first index in p[i, n) holding `:`, an ASCII run stop or a
/// non-ASCII byte; `n` when there is none.
inline std::size_t forward_to_colon_or_stop(const unsigned char* p, std::size_t i, std::size_t n) noexcept {
#if defined(__SSE2__)
    const __m128i low = _mm_set1_epi8(0x21);
    const __m128i del = _mm_set1_epi8(0x7F);
    const __m128i colon = _mm_set1_epi8(':');
    const __m128i lt = _mm_set1_epi8('<');
    const __m128i gt = _mm_set1_epi8('>');
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i tick = _mm_set1_epi8('`');
    const __m128i bar = _mm_set1_epi8('|');
    while (i + 16 <= n) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const __m128i a = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, low), _mm_cmpeq_epi8(v, del)),
                                       _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, bar)));
        const __m128i b = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, gt)),
                                       _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, tick)));
        const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(a, b)));
        if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
        i += 16;
    }
#endif
    for (; i < n; ++i) {
        const unsigned char b = p[i];
        if (b >= 0x80 || b == ':' || is_ascii_run_stop(b)) return i;
    }
    return n;
}

/// The number of line feeds in p[0, n).
inline std::size_t count_newlines(const char* p, std::size_t n) noexcept {
    std::size_t count = 0, i = 0;
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
#endif
    for (; i < n; ++i) count += p[i] == '\n';
    return count;
}

}  // namespace urlsift::detail
