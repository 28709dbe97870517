#pragma once
// A table of counted keys for the batch report, made for millions of
// distinct keys: the keys live back to back in large blocks, the entries in
// one array, and an open-addressing index of 8-byte slots points into it.
// Compared with a node-based map of strings this takes a memory allocation
// per block instead of two per key, a third of the memory, and a lookup
// touches one slot and, nearly always, only the entry it wants.

#include <urlsift/report.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace urlsift::detail {

/// table_array's memory, from the heap.
void* allocate_table_bytes(std::size_t bytes);
void deallocate_table_bytes(void* p, std::size_t bytes) noexcept;
/// Moves the first `used` bytes of `p` (`bytes` long, from
/// allocate_table_bytes; may be null) into `new_bytes` (more) and frees
/// the old.
void* reallocate_table_bytes(void* p, std::size_t bytes, std::size_t used, std::size_t new_bytes);

/// An array of trivially copyable values in table memory, grown by
/// doubling, whose clear() gives its memory back.
template <class T>
class table_array {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    table_array() = default;
    table_array(const table_array&) = delete;
    table_array& operator=(const table_array&) = delete;
    table_array(table_array&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
          capacity_(std::exchange(other.capacity_, 0)) {}
    table_array& operator=(table_array&& other) noexcept {
        if (this != &other) {
            clear();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
            capacity_ = std::exchange(other.capacity_, 0);
        }
        return *this;
    }
    ~table_array() { clear(); }

    void push_back(const T& value) {
        if (size_ == capacity_) {
            const std::size_t n = std::max<std::size_t>(16, capacity_ * 2);
            data_ = static_cast<T*>(reallocate_table_bytes(data_, capacity_ * sizeof(T), size_ * sizeof(T), bytes_of(n)));
            capacity_ = n;
        }
        data_[size_++] = value;
    }
    /// Empties the array and gives its memory back.
    void clear() noexcept {
        if (data_ != nullptr) deallocate_table_bytes(data_, capacity_ * sizeof(T));
        data_ = nullptr;
        size_ = capacity_ = 0;
    }

    T& operator[](std::size_t i) noexcept { return data_[i]; }
    const T& operator[](std::size_t i) const noexcept { return data_[i]; }
    const T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    T* begin() noexcept { return data_; }
    T* end() noexcept { return data_ + size_; }
    const T* begin() const noexcept { return data_; }
    const T* end() const noexcept { return data_ + size_; }

private:
    static std::size_t bytes_of(std::size_t n) {
        if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
        return n * sizeof(T);
    }

    T* data_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

/// A key's count and where it was seen first. `first` is the minimum over
/// every reference counted: that is what makes merging exact whatever the
/// order of the additions.
struct tally {
    std::uint64_t count = 0;
    report_location first{std::numeric_limits<std::uint64_t>::max(), std::numeric_limits<std::uint64_t>::max()};
    friend bool operator==(const tally&, const tally&) = default;
};

class key_table {
public:
    struct entry {
        std::uint64_t hash = 0;
        const char* key_data = nullptr; ///< in one of the table's blocks
        std::size_t key_size = 0;
        detail::tally tally;
        /// What the table's owner keeps about the key, computed once; 0
        /// for a key just added (and in a copy of the table).
        std::uint32_t facts = 0;
        /// The owner's: an entry of another table that goes with this one,
        /// as its index + 1; 0 for none known.
        std::uint32_t link = 0;
        std::string_view key() const noexcept { return {key_data, key_size}; }
    };

    /// The hash the table files `key` under.
    static std::uint64_t hash(std::string_view key) noexcept;

    key_table() = default;
    key_table(const key_table& other);
    key_table& operator=(const key_table& other);
    key_table(key_table&&) noexcept = default;
    key_table& operator=(key_table&&) noexcept = default;

    /// Adds `count` to `key`, first seen at `first`; returns its entry,
    /// valid until the next change to the table.
    entry& add(std::string_view key, std::uint64_t count, report_location first);
    /// The same, with `h`, the key's hash(), known.
    entry& add(std::string_view key, std::uint64_t h, std::uint64_t count, report_location first);
    /// Adds `count` to the key of entry `index`, first seen at `first`.
    entry& add_at(std::size_t index, std::uint64_t count, report_location first) noexcept {
        entry& e = entries_[index];
        e.tally.count += count;
        e.tally.first = std::min(e.tally.first, first);
        return e;
    }
    /// The entry of `key` (hash `h`), or null.
    const entry* find(std::string_view key) const noexcept { return find(key, hash(key)); }
    const entry* find(std::string_view key, std::uint64_t h) const noexcept;
    /// Starts loading the slot where a key of hash `h` is looked up first.
    void prefetch_slot(std::uint64_t h) const noexcept {
        if (!slots_.empty()) __builtin_prefetch(&slots_[home_slot(h)]);
    }
    /// Starts loading the entry that slot holds, when it may be the key's
    /// (best after prefetch_slot, some time before).
    void prefetch_entry(std::uint64_t h) const noexcept {
        if (const entry* e = first_candidate(h)) __builtin_prefetch(e);
    }
    /// Starts loading that entry's key bytes (best after prefetch_entry).
    void prefetch_key(std::uint64_t h) const noexcept {
        if (const entry* e = first_candidate(h)) __builtin_prefetch(e->key_data);
    }
    /// The index of `e`, an entry of this table.
    std::size_t index_of(const entry& e) const noexcept { return static_cast<std::size_t>(&e - entries_.data()); }

    std::size_t size() const noexcept { return entries_.size(); }
    bool empty() const noexcept { return entries_.empty(); }
    /// Every entry, in the order the keys were first added.
    std::span<const entry> entries() const noexcept { return entries_; }
    void clear() noexcept;
    /// Renumbers the inputs of the first locations: input i becomes
    /// `ordinals[i]`. The ordinals must increase, so that the first stays first.
    void renumber_inputs(std::span<const std::uint64_t> ordinals) noexcept;

    /// Same keys with the same tallies, whatever the order they came in.
    friend bool operator==(const key_table& a, const key_table& b) noexcept;

private:
    /// A slot: 0 when empty; else the entry's index + 1 in the low half and
    /// the hash's high half above it, so that a probe rarely looks at a
    /// wrong entry.
    static constexpr std::uint64_t index_mask = 0xFFFFFFFFu;
    static std::uint64_t slot_value(std::size_t index, std::uint64_t h) noexcept {
        return (h & ~index_mask) | static_cast<std::uint64_t>(index + 1);
    }
    /// The slot a key of hash `h` is looked up in first.
    std::size_t home_slot(std::uint64_t h) const noexcept { return static_cast<std::size_t>(h) & (slots_.size() - 1); }
    /// Adds to `key` through the index (it is not the key added last).
    entry& add_indexed(std::string_view key, std::uint64_t h, std::uint64_t count, report_location first);
    /// The entry in the slot a key of hash `h` is looked up in first, when
    /// its hash may be that one; else null.
    const entry* first_candidate(std::uint64_t h) const noexcept {
        if (slots_.empty()) return nullptr;
        const std::uint64_t s = slots_[home_slot(h)];
        if (s == 0 || (s & ~index_mask) != (h & ~index_mask)) return nullptr;
        return &entries_[static_cast<std::size_t>((s & index_mask) - 1)];
    }
    /// The slot index of `key` (hash `h`): its entry's, or the empty slot
    /// where it would go.
    std::size_t probe(std::string_view key, std::uint64_t h) const noexcept;
    void grow();
    const char* store(std::string_view key);

    table_array<entry> entries_;
    std::vector<std::uint64_t> slots_; ///< see slot_value
    std::size_t last_ = 0; ///< the entry added to last, tried first
    /// Key bytes, from allocate_table_bytes.
    class block {
    public:
        explicit block(std::size_t size) : data_(static_cast<char*>(allocate_table_bytes(size))), size_(size) {}
        block(block&& other) noexcept : data_(std::exchange(other.data_, nullptr)), size_(other.size_) {}
        block& operator=(block&&) = delete;
        ~block() {
            if (data_ != nullptr) deallocate_table_bytes(data_, size_);
        }
        char* data() const noexcept { return data_; }

    private:
        char* data_;
        std::size_t size_;
    };
    std::vector<block> blocks_;
    std::size_t next_block_size_ = 0; ///< the size of the next block (0: the first size)
    std::size_t block_left_ = 0;
    char* block_at_ = nullptr;
};

}  // namespace urlsift::detail
