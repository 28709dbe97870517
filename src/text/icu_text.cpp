#include "text/icu_text.hpp"

#include <unicode/uidna.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>

namespace urlsift::detail {

namespace {

struct idna_closer {
    void operator()(UIDNA* p) const noexcept { uidna_close(p); }
};
using idna_ptr = std::unique_ptr<UIDNA, idna_closer>;

// One converter per option set and thread: uidna_openUTS46 is not cheap,
// and a UIDNA object is safe to use from one thread at a time.
const UIDNA* converter(bool strict_std3) {
    auto open = [](uint32_t options) {
        UErrorCode status = U_ZERO_ERROR;
        idna_ptr p(uidna_openUTS46(options, &status));
        return U_FAILURE(status) ? idna_ptr{} : std::move(p);
    };
    constexpr uint32_t base = UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE |
                              UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ;
    thread_local idna_ptr lenient = open(base);
    thread_local idna_ptr strict = open(base | UIDNA_USE_STD3_RULES);
    return strict_std3 ? strict.get() : lenient.get();
}

using convert_fn = int32_t (*)(const UIDNA*, const char*, int32_t, char*, int32_t, UIDNAInfo*, UErrorCode*);

// The errors that CheckHyphens and VerifyDnsLength report; ICU has no option
// to turn those checks off, so a lenient caller masks them.
constexpr uint32_t hyphen_and_length_errors =
    UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG |
    UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4;

std::optional<std::string> convert(const UIDNA* idna, convert_fn fn, std::string_view in,
                                   uint32_t ignored_errors = 0) {
    if (idna == nullptr || in.size() > static_cast<std::size_t>(std::numeric_limits<int32_t>::max() / 4))
        return std::nullopt;
    std::string out(in.size() * 4 + 64, '\0');
    for (int attempt = 0; attempt < 2; ++attempt) {
        UErrorCode status = U_ZERO_ERROR;
        UIDNAInfo info = UIDNA_INFO_INITIALIZER;
        const int32_t n = fn(idna, in.data(), static_cast<int32_t>(in.size()), out.data(),
                             static_cast<int32_t>(out.size()), &info, &status);
        if (status == U_BUFFER_OVERFLOW_ERROR) {
            out.resize(static_cast<std::size_t>(n));
            continue;
        }
        if (U_FAILURE(status) || (info.errors & ~ignored_errors) != 0) return std::nullopt;
        out.resize(static_cast<std::size_t>(n));
        return out;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> idna_to_ascii(std::string_view host, bool strict_std3, bool lenient) {
    return convert(converter(strict_std3), uidna_nameToASCII_UTF8, host,
                   lenient ? hyphen_and_length_errors : 0);
}

std::int32_t decode_utf8(std::string_view s, std::size_t i, std::size_t& length) noexcept {
    // Offsets may exceed int32_t; decode from a window of at most 4 bytes.
    const auto* p = reinterpret_cast<const uint8_t*>(s.data() + i);
    const auto n = static_cast<int32_t>(std::min<std::size_t>(s.size() - i, 4));
    int32_t pos = 0;
    UChar32 c = 0;
    U8_NEXT(p, pos, n, c);
    length = c < 0 ? 1 : static_cast<std::size_t>(pos);
    return c;
}

std::string_view valid_utf8(std::string_view s, std::string& scratch) {
    std::size_t i = 0, len = 0;
    // ASCII eight bytes at a time, nearly every URL is: the last word
    // overlaps the one before rather than being read byte by byte.
    constexpr std::uint64_t high_bits = 0x8080808080808080ULL;
    const auto word_at = [&s](std::size_t at) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + at, 8);
        return w;
    };
    while (i + 8 <= s.size() && (word_at(i) & high_bits) == 0) i += 8;
    if (s.size() >= 8 && i + 8 > s.size() && (word_at(s.size() - 8) & high_bits) == 0) return s;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) < 0x80 || decode_utf8(s, i, len) >= 0))
        i += static_cast<unsigned char>(s[i]) < 0x80 ? 1 : len;
    if (i == s.size()) return s;
    scratch.assign(s.substr(0, i));
    while (i < s.size()) {
        if (decode_utf8(s, i, len) < 0) {
            scratch += "\xEF\xBF\xBD";
            i += 1;
        } else {
            scratch.append(s.substr(i, len));
            i += len;
        }
    }
    return scratch;
}

void append_utf8(std::string& out, std::uint32_t cp) {
    // RFC 3629 section 3: one to four bytes, the lead byte saying how many.
    const auto byte = [&](std::uint32_t b) { out += static_cast<char>(b); };
    if (cp < 0x80) {
        byte(cp);
    } else if (cp < 0x800) {
        byte(0xC0 | (cp >> 6));
        byte(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        byte(0xE0 | (cp >> 12));
        byte(0x80 | ((cp >> 6) & 0x3F));
        byte(0x80 | (cp & 0x3F));
    } else {
        byte(0xF0 | (cp >> 18));
        byte(0x80 | ((cp >> 12) & 0x3F));
        byte(0x80 | ((cp >> 6) & 0x3F));
        byte(0x80 | (cp & 0x3F));
    }
}

}  // namespace urlsift::detail
