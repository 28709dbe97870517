#pragma once
// The bytes of the input GMime parses, from an offset on, for the reader of
// simple messages (simple_message.hpp): a memory stream's own buffer, or a
// window of a file read with pread(2), which leaves the position GMime
// reads at alone.

#include <gmime/gmime.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace urlsift::detail {

class input_bytes {
public:
    /// `input`: the stream GMime parses; it must outlive this. A pipe's
    /// stream is not readable: its bytes are gone once GMime has read them.
    explicit input_bytes(GMimeStream* input) noexcept;

    bool readable() const noexcept { return readable_; }

    /// At least `want` bytes from `offset` (in GMime's coordinates) when the
    /// input has them, else the rest of it; `at_end` says whether they run
    /// to its end. Valid until the next call.
    std::string_view at(gint64 offset, std::size_t want, bool& at_end);

private:
    GMimeStream* input_;
    bool readable_ = false;
    bool memory_ = false;
    std::string window_;        ///< a file's bytes from `window_start_`
    gint64 window_start_ = -1;  ///< -1: none read
    bool window_at_end_ = false; ///< `window_` runs to the end of the file
};

}  // namespace urlsift::detail
