#pragma once
// Reading JSON documents urlsift wrote (report --merge), as a cursor that
// walks the text once: no tree is built, so a large report is read in the
// memory of what it holds.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace urlsift::cli {

/// Malformed or unexpected JSON; the message names the byte offset.
struct json_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A pull reader over one JSON text (RFC 8259). The caller says what it
/// expects next; anything else throws json_error.
///
///     json_reader in(text);
///     in.begin_object();
///     for (std::string key; in.next_member(key);)
///         if (key == "count") n = in.read_uint(); else in.skip();
///     in.end_of_input();
class json_reader {
public:
    explicit json_reader(std::string_view text) : text_(text) {}

    void begin_object();
    /// The next member's name into `key` (true), or the closing `}` (false).
    bool next_member(std::string& key);
    void begin_array();
    /// Whether another element follows (false at the closing `]`).
    bool next_element();

    std::string read_string();
    /// A non-negative integer that fits 64 bits.
    std::uint64_t read_uint();
    bool read_bool();
    /// Consumes `null` and returns true, or returns false and consumes nothing.
    bool read_null();
    /// Consumes any one value.
    void skip();
    /// Only whitespace may follow.
    void end_of_input();

    std::size_t offset() const noexcept { return pos_; }
    [[noreturn]] void fail(const std::string& what) const;

private:
    char peek();  ///< the next byte after whitespace, or '\0' at the end
    void expect(char c);
    void literal(std::string_view word);
    std::uint32_t read_hex4();

    std::string_view text_;
    std::size_t pos_ = 0;
    bool first_ = false; ///< no member or element read yet in the current container
    int depth_ = 0;
};

}  // namespace urlsift::cli
