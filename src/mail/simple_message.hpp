#pragma once
// Messages that need no MIME work, read without GMime: one text/plain
// part (or no Content-Type), no transfer encoding to undo, a charset ICU
// reads, not format=flowed, and headers written plainly. read_mail reads
// each such message of an input here and hands every other one to GMime;
// what it makes of a message is the same either way (docs/architecture.md).
//
// The rules below are GMime 3.2's own, as its parser applies them to these
// messages: where a mailbox's messages start and end (a line that starts
// with `From `; Content-Length is not read), which byte is the last of the
// body (the line break before the next `From ` line is not), where the
// headers end (a blank line), and how a header's value is unfolded. A
// message on which any of them could go another way is not simple.

#include "mail/header_urls.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::detail {

/// A URL header of a simple message.
struct simple_header {
    std::string_view name; ///< as written
    header_kind kind = header_kind::none;
    std::string value;      ///< unfolded: line breaks out, blanks around it trimmed
    std::size_t offset = 0; ///< of its first line
};

/// What read_mail needs of a simple message. Offsets count from the start
/// of the bytes read (the `From ` line in a mailbox).
struct simple_message {
    std::size_t body_begin = 0; ///< after the blank line that ends the headers
    std::size_t body_end = 0;   ///< the body is [body_begin, body_end)
    /// Where the next message's `From ` line starts (a mailbox); the end of
    /// the bytes read when this is the last message.
    std::size_t next = 0;
    std::string message_id;     ///< the last Message-ID's msg-id, without `<>`
    /// The URL headers in the order read_mail lists them: the message's own
    /// (List-*, Archived-At), then those GMime gives its body part
    /// (Content-Base, Content-Location).
    std::vector<simple_header> url_headers, part_url_headers;
    std::optional<std::string> content_base;     ///< the Content-Base value
    std::optional<std::string> content_location; ///< the Content-Location value
    std::optional<std::string> charset;          ///< the charset parameter
    bool automatic = false; ///< sent as a program sends reports (automatic_message.hpp)
};

/// What reading `bytes` as a simple message came to.
enum class simple_read {
    read,        ///< it is one: `out` holds it
    needs_more,  ///< its end is not within `bytes`, which the input goes on past
    not_simple,  ///< it needs GMime
};

/// Reads the message at the start of `bytes`: in a mailbox (`mbox`),
/// `bytes` starts with its `From ` line. `at_end`: `bytes` runs to the end
/// of the input. A message is simple when it needs no MIME work and its
/// body is at most `max_body` bytes.
simple_read read_simple_message(std::string_view bytes, bool mbox, bool at_end, std::size_t max_body,
                                simple_message& out);

/// Whether read_mail reads simple messages here: yes, unless the
/// environment says URLSIFT_MAIL_FAST=0 or set_simple_messages(false) was
/// called (the tests and the fuzz target read each input both ways).
bool simple_messages_on() noexcept;
void set_simple_messages(bool on) noexcept;

}  // namespace urlsift::detail
