#pragma once
// urlsift::result<T>: a value, or an error code with the byte offset where the
// input went wrong. Bad input is data, not an exception.

#include <urlsift/export.hpp>
#include <cassert>
#include <cstddef>
#include <string_view>
#include <utility>
#include <variant>

namespace urlsift {

/// Why a reference, a base or an option value was rejected.
enum class error {
    empty,                 ///< nothing left after trimming wrappers and whitespace
    invalid_character,     ///< a character no URL may hold (control, space, `<>"`)
    invalid_scheme,        ///< `scheme:` does not follow Section 4.1's grammar
    invalid_port,          ///< the port is not a decimal number in range
    invalid_host,          ///< the host is not a valid name, IPv4 or IPv6 literal
    invalid_percent,       ///< `%` not followed by two hex digits where that matters
    base_not_absolute,     ///< a base URL without a scheme (Section 5.1)
    base_not_hierarchical, ///< a relative reference against an opaque base (Section 5)
    too_long,              ///< longer than the configured limit
};

/// A short English phrase for `e`, for messages ("invalid port").
URLSIFT_EXPORT std::string_view describe(error e) noexcept;

/// An error and where, in bytes from the start of the input, it was found.
struct failure {
    urlsift::error code;
    std::size_t offset = 0;
};

/// A value or a failure. Test with `if (r)`, read with `*r` or `r->`.
template <class T>
class [[nodiscard]] result {
public:
    result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
    result(failure f) : v_(f) {}               // NOLINT: implicit by design

    explicit operator bool() const noexcept { return v_.index() == 0; }
    bool has_value() const noexcept { return v_.index() == 0; }

    T& operator*() & { assert(has_value()); return std::get<0>(v_); }
    const T& operator*() const& { assert(has_value()); return std::get<0>(v_); }
    T&& operator*() && { assert(has_value()); return std::get<0>(std::move(v_)); }
    T* operator->() { return &**this; }
    const T* operator->() const { return &**this; }

    urlsift::error error() const { assert(!has_value()); return std::get<1>(v_).code; }
    std::size_t error_offset() const { assert(!has_value()); return std::get<1>(v_).offset; }

private:
    std::variant<T, failure> v_;
};

}  // namespace urlsift
