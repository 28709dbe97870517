#pragma once
// What GMime would hold to read each message of an input, estimated from
// its bytes before GMime sees them: GMime keeps every header field and an
// object for every part in memory until the message is read, so a header
// line of 25 MB, or a message of 100,000 tiny parts, takes many times its
// size. A message that would take more than its cap is read another way
// (read_mail: as plain text; rewrite_mail: copied through unchanged).

#include <gmime/gmime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace urlsift::detail {

/// About what GMime holds for each byte of a header field (its raw and
/// unfolded values, the parser's growing buffer, the decoded copy read
/// back), and for each part (its objects, header list and content type),
/// as measured on GMime 3.2.
inline constexpr std::size_t gmime_bytes_a_header_byte = 8;
inline constexpr std::size_t gmime_bytes_a_part = 2048;

/// A message whose reading by GMime would take more than the cap.
struct oversized_message {
    gint64 start = 0; ///< its first byte (a mailbox: its `From ` line's)
    gint64 end = 0;   ///< one past its last byte
    gint64 body = 0;  ///< where what follows a mailbox's `From ` line starts (a message: `start`)
    std::string why;  ///< "a header field of 26214400 bytes", "120000 parts"
};

/// The messages of `input` (a memory stream, or a file stream read with
/// pread(2), which leaves the position GMime reads at alone; anything
/// else is not looked at) that GMime would need more than `cap` bytes to
/// hold, in order. In a mailbox (`mbox`) a message starts at each line
/// that starts with `From `. The estimate counts the header blocks (the
/// message's, and each part's after a boundary line of a multipart the
/// headers declare) and the boundary lines; memory for the estimate is
/// bounded (the boundaries it remembers, a line's first bytes). `has_cr`,
/// when given, says whether the input holds a CR byte (true too when it is
/// not looked at).
std::vector<oversized_message> oversized_messages(GMimeStream* input, bool mbox, std::size_t cap,
                                                  bool* has_cr = nullptr);

}  // namespace urlsift::detail
