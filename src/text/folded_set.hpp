#pragma once
// A fixed set of lower-case words, looked up with ASCII letters folded to
// lower case: the scanner's word lists (top-level domains, cue words, file
// extensions) are asked about nearly every dotted word of running text, so
// the index is a hash table built at compile time. A lookup is one pass over
// the word (folding and hashing) and usually one comparison; no allocation.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace urlsift::detail {

constexpr char fold_ascii(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

/// FNV-1a over `s` with ASCII letters folded to lower case.
constexpr std::uint32_t hash_folded(std::string_view s) noexcept {
    std::uint32_t h = 2166136261u;
    for (const char c : s) {
        h ^= static_cast<unsigned char>(fold_ascii(c));
        h *= 16777619u;
    }
    return h;
}

template <std::size_t N>
class folded_set {
public:
    /// `entries` must be lower case (ASCII letters) and distinct.
    constexpr explicit folded_set(const std::array<std::string_view, N>& entries) : entries_(entries) {
        for (std::size_t i = 0; i < N; ++i) {
            for (const char c : entries_[i])
                if (c != fold_ascii(c)) throw "folded_set: an entry is not lower case";  // fails the build
            if (entries_[i].size() > longest_) longest_ = entries_[i].size();
            std::size_t k = hash_folded(entries_[i]) & mask;
            while (slots_[k] != 0) k = (k + 1) & mask;
            slots_[k] = static_cast<std::uint16_t>(i + 1);
        }
    }

    bool contains(std::string_view word) const noexcept {
        if (word.empty() || word.size() > longest_) return false;
        for (std::size_t k = hash_folded(word) & mask; slots_[k] != 0; k = (k + 1) & mask)
            if (equals_folded(word, entries_[slots_[k] - 1U])) return true;
        return false;
    }

    const std::array<std::string_view, N>& entries() const noexcept { return entries_; }

private:
    // Open addressing with linear probing, at most half full; a slot holds
    // an entry's index + 1, 0 when empty.
    static constexpr std::size_t slot_count = std::bit_ceil(2 * N);
    static constexpr std::size_t mask = slot_count - 1;
    static_assert(N < 0xFFFF, "slots hold 16-bit indexes");

    static bool equals_folded(std::string_view word, std::string_view entry) noexcept {
        if (word.size() != entry.size()) return false;
        for (std::size_t i = 0; i < word.size(); ++i)
            if (fold_ascii(word[i]) != entry[i]) return false;
        return true;
    }

    std::array<std::string_view, N> entries_;
    std::array<std::uint16_t, slot_count> slots_{};
    std::size_t longest_ = 0;
};

}  // namespace urlsift::detail
