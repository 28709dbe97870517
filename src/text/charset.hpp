#pragma once
// --encoding: turning input in a named charset into the UTF-8 the scanner
// reads, chunk by chunk, and the rewriter's UTF-8 back into that charset.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace urlsift::detail {

/// Which way a charset_converter converts.
enum class conversion { to_utf8, from_utf8 };

/// A streaming converter from a named charset to UTF-8 (decoding, the
/// default) or from UTF-8 to it (encoding), on ICU's converters.
///
/// Contract:
/// - `open` accepts any name or alias ICU knows, matched as ICU matches them
///   (case, `-` and `_` do not matter): `latin1`, `ISO-8859-15`,
///   `windows-1252`, `UTF-16LE`, `UTF-16BE`, `Shift_JIS`, `EUC-JP`,
///   `GB18030`, `KOI8-R`, ... An empty or unknown name makes it return
///   `std::nullopt` and set `error` to a message that names the encoding and
///   suggests values, ready for a usage_error ("unknown encoding 'x' ...").
/// - `feed` takes chunks of any size, split anywhere, and appends the UTF-8
///   for the complete characters to `out_utf8`; a character split between
///   chunks is held back and completed by the next `feed` (or by `finish`).
///   The output is the same however the input is split.
/// - A byte sequence that is invalid or unmapped in the charset becomes
///   U+FFFD and conversion goes on; so does a sequence cut short by the end
///   of the input, in `finish`. Nothing is ever dropped silently and
///   nothing stops the stream.
/// - UTF-8 (any alias: `utf-8`, `UTF8`) is passed through byte for byte,
///   invalid sequences included: the scanner already treats invalid UTF-8 as
///   a delimiter, and the rewriter must reproduce it unchanged.
/// - `UTF-16` (and `UTF-32`) without LE/BE choose the byte order from a
///   byte-order mark and drop it, big-endian without one; `UTF-16LE` and
///   the like read a mark as the character U+FEFF.
/// - After `finish` the decoder is back at its initial state and can read
///   another input.
///
///     std::string error, utf8;
///     auto dec = charset_converter::open("latin1", error);  // nullopt: error says why
///     dec->feed("caf\xE9", utf8);  dec->finish(utf8);      // utf8 == "caf\xC3\xA9"
///
/// Byte offsets and columns reported by the scanner then count bytes of the
/// UTF-8 text, not of the original input.
class charset_converter {
public:
    /// Opens a converter between the charset `name` and UTF-8; on failure
    /// returns nullopt and sets `error`.
    static std::optional<charset_converter> open(std::string_view name, std::string& error,
                                                 conversion way = conversion::to_utf8);

    /// Appends the conversion of the complete characters in `in` (and of any
    /// held back from the previous chunk) to `out`.
    void feed(std::string_view in, std::string& out);

    /// Appends what is held back (U+FFFD for an incomplete sequence) and
    /// resets the converter for a new input.
    void finish(std::string& out);

    /// How many sequences have been replaced with U+FFFD so far, over all
    /// inputs (invalid or unmapped in the charset, or cut short).
    std::uint64_t replacements() const noexcept;

    /// Whether the charset is UTF-8 and bytes pass through unchanged.
    bool is_pass_through() const noexcept { return state_ == nullptr; }

    /// ICU's canonical name of the charset ("ISO-8859-1" for `latin1`).
    const std::string& name() const noexcept { return name_; }

    charset_converter(charset_converter&&) noexcept;
    charset_converter& operator=(charset_converter&&) noexcept;
    ~charset_converter();

private:
    struct state;
    struct state_deleter {
        void operator()(state* s) const noexcept;
    };
    charset_converter(std::string name, std::unique_ptr<state, state_deleter> s) noexcept;
    void convert(std::string_view in, std::string& out, bool flush);

    std::string name_;
    std::unique_ptr<state, state_deleter> state_;  ///< null when passing UTF-8 through
};

}  // namespace urlsift::detail
