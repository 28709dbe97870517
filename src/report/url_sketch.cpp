// The distinct-URL sketch: a portable hash, the registers and the
// estimate with its small-range correction.

#include "report/url_sketch.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace urlsift::detail {

namespace {

/// MurmurHash3's 64-bit finalizer: every input bit reaches every output bit.
constexpr std::uint64_t mix(std::uint64_t h) noexcept {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/// Eight bytes as a little-endian number, whatever the machine's order.
std::uint64_t load_le(const char* p, std::size_t n) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}

constexpr unsigned max_rank = 64 - url_sketch::precision + 1;

}  // namespace

std::uint64_t stable_hash(std::string_view key) noexcept {
    constexpr std::uint64_t k1 = 0x9e3779b97f4a7c15ULL;
    constexpr std::uint64_t k2 = 0xbf58476d1ce4e5b9ULL;
    std::uint64_t h = k1 ^ (key.size() * k2);
    std::size_t i = 0;
    for (; i + 8 <= key.size(); i += 8) h = std::rotl(h ^ mix(load_le(key.data() + i, 8)), 27) * k1 + k2;
    if (i < key.size()) h = std::rotl(h ^ mix(load_le(key.data() + i, key.size() - i)), 27) * k1 + k2;
    return mix(h);
}

void url_sketch::add(std::string_view key) noexcept {
    const std::uint64_t h = stable_hash(key);
    const std::size_t bucket = static_cast<std::size_t>(h >> (64 - precision));
    // The rank: 1 + the leading zeros of the bits below the bucket's.
    const std::uint64_t rest = h << precision;
    const auto rank = static_cast<std::uint8_t>(rest == 0 ? max_rank : static_cast<unsigned>(std::countl_zero(rest)) + 1);
    registers_[bucket] = std::max(registers_[bucket], rank);
}

bool url_sketch::merge(std::span<const std::uint8_t> registers) noexcept {
    if (registers.size() != size ||
        std::any_of(registers.begin(), registers.end(), [](std::uint8_t r) { return r > max_rank; }))
        return false;
    for (std::size_t i = 0; i < size; ++i) registers_[i] = std::max(registers_[i], registers[i]);
    return true;
}

std::uint64_t url_sketch::estimate() const noexcept {
    const double m = static_cast<double>(size);
    double sum = 0;
    std::size_t zeros = 0;
    for (const std::uint8_t r : registers_) {
        sum += std::ldexp(1.0, -static_cast<int>(r));
        if (r == 0) ++zeros;
    }
    const double alpha = 0.7213 / (1.0 + 1.079 / m);
    double e = alpha * m * m / sum;
    // Small range: linear counting over the empty registers is the better
    // estimate (the paper's correction). With 64-bit hashes no large-range
    // correction is needed.
    if (e <= 2.5 * m && zeros != 0) e = m * std::log(m / static_cast<double>(zeros));
    return static_cast<std::uint64_t>(std::llround(e));
}

double url_sketch::relative_error() noexcept { return 1.04 / std::sqrt(static_cast<double>(size)); }

}  // namespace urlsift::detail
