// The report's key table: open addressing with linear probing over an
// index of slots, entries in first-seen order, keys in blocks.

#include "report/key_table.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace urlsift::detail {

void* allocate_table_bytes(std::size_t bytes) { return ::operator new(bytes); }

void deallocate_table_bytes(void* p, std::size_t) noexcept { ::operator delete(p); }

void* reallocate_table_bytes(void* p, std::size_t bytes, std::size_t used, std::size_t new_bytes) {
    void* q = allocate_table_bytes(new_bytes);
    if (p != nullptr) {
        std::memcpy(q, p, used);
        deallocate_table_bytes(p, bytes);
    }
    return q;
}

namespace {

// Blocks grow from 4 KiB to 4 MiB: a table of a few keys, as each run of a
// threaded report has, costs a page, and a table of millions one
// allocation for every 4 MiB of keys.
constexpr std::size_t first_block_size = std::size_t{1} << 12;
constexpr std::size_t block_size = std::size_t{1} << 22;

constexpr std::uint64_t odd_constant = 0x9E3779B97F4A7C15ULL;  // 2^64 over the golden ratio

std::uint64_t word_at(const char* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}

/// One word into the state: the multiply spreads its low bits upwards, the
/// rotation brings the high ones back down for the next.
std::uint64_t absorb(std::uint64_t h, std::uint64_t w) noexcept { return std::rotl((h ^ w) * odd_constant, 29); }

}  // namespace

std::uint64_t key_table::hash(std::string_view key) noexcept {
    // Eight bytes at a time: keys are URLs and host names, tens of bytes,
    // hashed once or twice for every reference. The last word overlaps the
    // one before rather than being read byte by byte (the length, mixed in
    // first, keeps `ab` and `abab...` apart).
    const char* p = key.data();
    const std::size_t n = key.size();
    std::uint64_t h = absorb(odd_constant, n);
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8) h = absorb(h, word_at(p + i));
        h = absorb(h, word_at(p + n - 8));
    } else {
        std::uint64_t w = 0;
        for (std::size_t i = 0; i < n; ++i) w |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
        h = absorb(h, w);
    }
    // Every bit of the result depends on every bit of the state: the index
    // takes the low bits, the slot's tag the high ones.
    h ^= h >> 32;
    h *= odd_constant;
    h ^= h >> 29;
    return h;
}

key_table::key_table(const key_table& other) { *this = other; }

key_table& key_table::operator=(const key_table& other) {
    if (this == &other) return *this;
    clear();
    for (const entry& e : other.entries_) add(e.key(), e.hash, e.tally.count, e.tally.first);
    return *this;
}

void key_table::clear() noexcept {
    entries_.clear();
    slots_.clear();
    last_ = 0;
    blocks_.clear();
    next_block_size_ = 0;
    block_left_ = 0;
    block_at_ = nullptr;
}

void key_table::renumber_inputs(std::span<const std::uint64_t> ordinals) noexcept {
    for (entry& e : entries_) e.tally.first.input = ordinals[static_cast<std::size_t>(e.tally.first.input)];
}

std::size_t key_table::probe(std::string_view key, std::uint64_t h) const noexcept {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = home_slot(h);; i = (i + 1) & mask) {
        const std::uint64_t s = slots_[i];
        if (s == 0) return i;
        if ((s & ~index_mask) != (h & ~index_mask)) continue;
        const entry& e = entries_[static_cast<std::size_t>((s & index_mask) - 1)];
        if (e.hash == h && e.key() == key) return i;
    }
}

const key_table::entry* key_table::find(std::string_view key, std::uint64_t h) const noexcept {
    if (slots_.empty()) return nullptr;
    const std::uint64_t s = slots_[probe(key, h)];
    return s == 0 ? nullptr : &entries_[static_cast<std::size_t>((s & index_mask) - 1)];
}

void key_table::grow() {
    // At most half the slots in use keeps probes short.
    const std::size_t n = std::max<std::size_t>(16, slots_.size() * 2);
    slots_.assign(n, 0);
    for (std::size_t k = 0; k < entries_.size(); ++k) {
        const std::uint64_t h = entries_[k].hash;
        std::size_t i = static_cast<std::size_t>(h) & (n - 1);
        while (slots_[i] != 0) i = (i + 1) & (n - 1);
        slots_[i] = slot_value(k, h);
    }
}

const char* key_table::store(std::string_view key) {
    if (key.empty()) return "";
    if (key.size() > block_size / 4) {
        // A long key gets a block of its own, so that the shared block's
        // remainder is not wasted.
        blocks_.emplace_back(key.size());
        std::memcpy(blocks_.back().data(), key.data(), key.size());
        return blocks_.back().data();
    }
    if (key.size() > block_left_) {
        const std::size_t size = std::max({first_block_size, next_block_size_, std::bit_ceil(key.size())});
        blocks_.emplace_back(size);
        block_at_ = blocks_.back().data();
        block_left_ = size;
        next_block_size_ = std::min(block_size, size * 2);
    }
    char* at = block_at_;
    std::memcpy(at, key.data(), key.size());
    block_at_ += key.size();
    block_left_ -= key.size();
    return at;
}

// References come in runs that share a key (the scheme, wrapper and form of
// nearly every one; a host over a page): the key added last is tried before
// the index, and before the key is hashed.
key_table::entry& key_table::add(std::string_view key, std::uint64_t count, report_location first) {
    if (last_ < entries_.size() && entries_[last_].key() == key) return add_at(last_, count, first);
    return add_indexed(key, hash(key), count, first);
}

key_table::entry& key_table::add(std::string_view key, std::uint64_t h, std::uint64_t count, report_location first) {
    if (last_ < entries_.size() && entries_[last_].hash == h && entries_[last_].key() == key)
        return add_at(last_, count, first);
    return add_indexed(key, h, count, first);
}

key_table::entry& key_table::add_indexed(std::string_view key, std::uint64_t h, std::uint64_t count,
                                         report_location first) {
    if ((entries_.size() + 1) * 2 > slots_.size()) grow();
    const std::size_t i = probe(key, h);
    if (slots_[i] == 0) {
        if (entries_.size() >= index_mask) throw std::length_error("report: more than 4294967294 distinct keys in a table");
        entries_.push_back({h, store(key), key.size(), {}, 0, 0});
        slots_[i] = slot_value(entries_.size() - 1, h);
    }
    last_ = static_cast<std::size_t>((slots_[i] & index_mask) - 1);
    return add_at(last_, count, first);
}

bool operator==(const key_table& a, const key_table& b) noexcept {
    if (a.size() != b.size()) return false;
    return std::all_of(a.entries_.begin(), a.entries_.end(), [&b](const key_table::entry& e) {
        const key_table::entry* o = b.find(e.key());
        return o != nullptr && o->tally == e.tally;
    });
}

}  // namespace urlsift::detail
