#pragma once
// mboxrd's quoting of `From ` lines, undone: a text line `>From `,
// `>>From `, ... was escaped when the message was stored in a mailbox, and
// one `>` comes off.

#include <string>
#include <string_view>

namespace urlsift::detail {

/// Undoes mboxrd escapes in a text fed a block at a time; it holds back
/// only the start of a line that may still turn out to be such an escape.
class from_unescaper {
public:
    /// Appends `in` to `out`, escapes undone.
    void feed(std::string_view in, std::string& out);
    /// Appends what is held back: the input has ended.
    void finish(std::string& out);

private:
    bool line_start_ = true;
    std::string held_;
};

/// mboxrd escapes undone in a whole text.
void unescape_from_lines(std::string& text);

}  // namespace urlsift::detail
