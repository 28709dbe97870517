#pragma once
// The reading of `<...>` that were not taken as a wrapper but could become
// one (reference_surroundings::in_brackets). Included by scanner.cpp only.
//
// The brackets stay open until a `>`, a delimiter, a blank line or a line
// quoted to another depth closes them: what scan_angle's walk would stop
// at (Appendix E; 003_*.txt). Each `<` is decided by scan_angle; the bytes
// between decisions are read here once, in order.

#include "scan/line_rules.hpp"
#include "text/char_roles.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace urlsift::detail {

class bracket_reading {
public:
    /// Reads the bytes up to absolute `upto`; `t` holds them from absolute
    /// `base` on, and every byte from the reading's position is in it.
    void read_to(std::string_view t, std::uint64_t base, std::uint64_t upto) {
        while (pos_ < upto) {
            if (open_) {
                read_byte(static_cast<unsigned char>(t[static_cast<std::size_t>(pos_ - base)]));
                ++pos_;
                continue;
            }
            // Outside brackets only the last line start changes the reading.
            const char* p = t.data() + (pos_ - base);
            const auto len = static_cast<std::size_t>(upto - pos_);
            if (const auto* nl = static_cast<const char*>(memrchr(p, '\n', len))) {
                pos_ += static_cast<std::uint64_t>(nl - p);
                read_byte('\n');
                ++pos_;
            }
            while (pos_ < upto && in_prefix_) {
                read_byte(static_cast<unsigned char>(t[static_cast<std::size_t>(pos_ - base)]));
                ++pos_;
            }
            pos_ = upto;
        }
    }

    /// The `<` at the reading's position was decided: it opens brackets
    /// that could become a wrapper, or not (a wrapper's own `<` opens none).
    void read_angle(bool could_wrap) noexcept {
        open_ = could_wrap;
        open_depth_ = prefix_.depth;
        open_break_ = false;
        ++pos_;
    }

    /// The mail quote depth of the line at the reading's position (its
    /// prefix is read whole by then: a reference starts with no `>` or blank).
    int line_depth() const noexcept { return prefix_.depth; }

    /// Whether a reference starting at the reading's position is in_brackets.
    bool in_brackets() const noexcept {
        // A line quoted to another depth closes the brackets once its prefix ends.
        return open_ && !(in_prefix_ && prefix_.depth > 0 && prefix_.depth != open_depth_);
    }

private:
    void read_byte(unsigned char c) {
        if (in_prefix_) {
            if (prefix_.take(c)) return;
            in_prefix_ = false;
            // A quote prefix as deep as the `<`'s line is part of the break (scan_angle).
            if (open_ && prefix_.depth > 0 && prefix_.depth != open_depth_) open_ = false;
        }
        if (c == '\n') {
            if (open_break_) open_ = false; // a blank line
            open_break_ = open_;
            prefix_ = {};
            in_prefix_ = true;
            return;
        }
        if (!open_) return;
        const char_role role = c < 0x80 ? ascii_role(c) : char_role::url;
        if (c == '>' || c == '<' || (role == char_role::delimiter && c != '"' && c != '`'))
            open_ = false;
        else if (role != char_role::space)
            open_break_ = false;
    }

    std::uint64_t pos_ = 0;         ///< every byte before this has been read
    quote_prefix_reader prefix_;    ///< the current line's quote prefix so far
    bool in_prefix_ = true;         ///< nothing but the prefix read on the current line yet
    bool open_ = false;             ///< inside `<...>` that could become a wrapper
    int open_depth_ = 0;            ///< quote depth of the line of that `<`
    bool open_break_ = false;       ///< a line break inside the brackets, and only blanks since
};

}  // namespace urlsift::detail
