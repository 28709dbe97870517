#pragma once
// A HyperLogLog sketch of a set of strings (Flajolet, Fusy, Gandouet and
// Meunier, 2007): 2^14 one-byte registers, each the longest run of leading
// zero bits seen among the hashes that fall in it. It is a function of the
// set alone, so sketches of parts of a set merge (register by register,
// the larger) into exactly the sketch of the whole, whatever the order.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace urlsift::detail {

class url_sketch {
public:
    static constexpr unsigned precision = 14;
    static constexpr std::size_t size = std::size_t{1} << precision;

    url_sketch() : registers_(size, 0) {}

    void add(std::string_view key) noexcept;
    /// Registers of another sketch of the same precision; false when
    /// `registers` is not `size` bytes of values a sketch can hold.
    bool merge(std::span<const std::uint8_t> registers) noexcept;
    /// The estimated number of distinct keys added.
    std::uint64_t estimate() const noexcept;
    /// The relative standard error of `estimate`: 1.04 / sqrt(2^precision).
    static double relative_error() noexcept;

    std::span<const std::uint8_t> registers() const noexcept { return registers_; }
    friend bool operator==(const url_sketch&, const url_sketch&) = default;

private:
    std::vector<std::uint8_t> registers_;
};

/// A 64-bit hash of `key` that is the same on every machine and in every
/// build, so that sketches made apart can be merged.
std::uint64_t stable_hash(std::string_view key) noexcept;

}  // namespace urlsift::detail
