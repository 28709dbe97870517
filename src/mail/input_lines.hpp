#pragma once
// Positions that point into the input: GMime's offsets (of a header field,
// of a part's body, which the parts of a seekable input keep as pieces of
// it) turned into the input's line numbers.

#include <gmime/gmime.h>

#include <cstdint>
#include <string_view>

namespace urlsift::detail {

/// Counts the lines of the stream GMime parses, as far as asked, once: the
/// offsets asked for grow through a mailbox, but for a jump back within
/// the message last marked (a multipart/alternative's plain part is read
/// first).
class input_lines {
public:
    /// `input`: a memory stream, or a file stream read with pread(2), which
    /// leaves the position GMime reads at alone. It must outlive this.
    explicit input_lines(GMimeStream* input) noexcept;

    /// The 1-based line at byte `offset` of the input (in GMime's
    /// coordinates); 0 when it cannot be known (a pipe, an unreadable byte).
    std::uint64_t line_at(gint64 offset);
    /// Where `content`, a part's content stream, starts in the input; -1
    /// when it is no piece of it (a pipe's parts are copies).
    gint64 start_of(GMimeStream* content) const noexcept;
    /// `offset` (a message's first byte) is a place counting may go back to.
    void mark(gint64 offset);
    /// `bytes` are the input's from offset `at` on, and stay so until the
    /// next call: lines within them are counted there, not read again.
    /// `lend({}, -1)` ends the loan.
    void lend(std::string_view bytes, gint64 at) noexcept {
        lent_ = bytes;
        lent_at_ = at;
    }

private:
    /// Counts the line ends from the counting point up to `offset`.
    bool count_to(gint64 offset);

    GMimeStream* input_;
    bool readable_ = false;
    gint64 counted_to_ = 0;       ///< every line end before this offset is counted
    std::uint64_t line_ends_ = 0; ///< ... and there are this many
    gint64 mark_ = -1;            ///< the marked offset, counted; -1: none
    std::uint64_t mark_line_ends_ = 0;
    std::string_view lent_; ///< the input's bytes from `lent_at_` (lend)
    gint64 lent_at_ = -1;
};

}  // namespace urlsift::detail
