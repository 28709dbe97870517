#pragma once
// The scanner's view of its input: the one place that knows where chunks
// end. Included by scanner.cpp only (the hot path is one translation unit).
//
//        carried context        the bytes being scanned (t)
//     ... [ up to 64 bytes ] [ t[0] ...................... t[n-1] ]
//                            ^ base (absolute offset of t[0])
//
// A scan runs over `t`: the bytes carried from earlier feeds followed by
// the new ones, or the new chunk in place when nothing was carried. A
// decision that needs bytes past t[n-1] is left open (a rule returns
// need_more); the scan stops at the start of the candidate and the bytes
// from there on are carried to the next feed. Every decision is thus made
// on the same bytes whatever the chunks were. The window also keeps what
// lies before `base` that rules look back at: a little context, the line
// count, and the mail quote depth of the current line and what its start
// says (a header field, a change log's bullet).

#include "abbrev/lexicon.hpp"
#include "scan/anchors.hpp"
#include "scan/line_rules.hpp"
#include "uri/schemes.hpp"
#include "text/char_roles.hpp"

#include <urlsift/abbrev.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace urlsift::detail {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);
/// Bytes of text kept before the carried buffer: enough for a scheme name,
/// the `before` evidence of Appendix F and a mail quote prefix.
inline constexpr std::size_t context_size = 64;

constexpr bool is_run_role(char_role r) noexcept { return r != char_role::space && r != char_role::delimiter; }

// The vector walks (anchors.hpp) must stop where the role table does.
static_assert([] {
    for (unsigned b = 0; b < 0x80; ++b)
        if (is_ascii_run_stop(static_cast<unsigned char>(b)) == is_run_role(ascii_roles[b])) return false;
    return true;
}());

class scan_window {
public:
    // --- the bytes being scanned ----------------------------------------------
    std::string_view t;      ///< the bytes being scanned
    std::uint64_t base = 0;  ///< absolute offset of t[0]
    bool at_end = false;     ///< t ends where the input ends

    /// Starts a scan of `text`, at absolute `offset` (where the last one
    /// stopped).
    void begin(std::string_view text, std::uint64_t offset, bool end) noexcept {
        t = text;
        base = offset;
        at_end = end;
        scan_line_start_ = line_start_; // counted_ == base here
        ls_cache_valid_ = false;
    }

    /// Forgets the input: as a new window, the context's memory kept.
    void reset() noexcept {
        std::string context = std::move(context_);
        context.clear();
        *this = scan_window{};
        context_ = std::move(context);
    }

    /// Ends the scan at t[stop]: the bytes before it are final. Keeps what
    /// later scans look back at.
    void commit(std::size_t stop) {
        advance_lines(stop);
        remember_depth(stop);
        // What a line's start says, for when it has scrolled out of view,
        // and the walk of a name list along that line.
        if (const std::uint64_t ls = line_start_for(stop);
            ls == noted_line_start_ || ls + context_size < base + stop) {
            note_line_start(ls);
            if (ls == noted_line_start_) list_done_ = list_query_ = walk_list(list_done_, base + stop);
        }
        before_punctuation_ = before_punctuation_at(base + stop);
        // The new context: the last bytes before the stop, cut and filled
        // in place, so that once it has held context_size bytes no input
        // costs an allocation here, however short.
        const std::size_t take = std::min(stop, context_size);
        context_.erase(0, context_.size() - std::min(context_.size(), context_size - take));
        context_.append(t.data() + (stop - take), take);
    }

    std::size_t size() const noexcept { return t.size(); }
    std::uint64_t end_offset() const noexcept { return base + t.size(); }
    std::size_t index_of(std::uint64_t abs) const noexcept { return static_cast<std::size_t>(abs - base); }

    /// The byte at absolute offset `abs` if it is still visible (in t or
    /// the context), else -1.
    int byte_at(std::uint64_t abs) const noexcept {
        if (abs >= base) {
            const std::uint64_t i = abs - base;
            return i < t.size() ? static_cast<unsigned char>(t[static_cast<std::size_t>(i)]) : -1;
        }
        const std::uint64_t back = base - abs;
        if (back > context_.size()) return -1;
        return static_cast<unsigned char>(context_[context_.size() - static_cast<std::size_t>(back)]);
    }

    /// Whether the bytes from absolute offset `abs` on are `s`; a byte that
    /// is not visible (see byte_at) is none of them.
    bool bytes_are(std::uint64_t abs, std::string_view s) const noexcept {
        for (std::size_t k = 0; k < s.size(); ++k)
            if (byte_at(abs + k) != static_cast<unsigned char>(s[k])) return false;
        return true;
    }

    /// Up to `n` bytes just before t[index], from the context if needed.
    /// Valid until the next call.
    std::string_view before(std::size_t index, std::size_t n) {
        if (index >= n) return t.substr(index - n, n);
        const std::size_t from_context = std::min(context_.size(), n - index);
        std::memcpy(window_buf_, context_.data() + context_.size() - from_context, from_context);
        std::memcpy(window_buf_ + from_context, t.data(), index);
        return {window_buf_, from_context + index};
    }

    /// The text before t[index] on its line: evidence for Appendix F. It
    /// starts where the line does, or, on a line longer than the context
    /// kept, at its first space, so that no word in it is the end of a
    /// longer one; with no space, it is all one word's. Such a cut start
    /// moves when the text before it is rewritten, so it is marked as no
    /// line start, and comes with the header field the line starts with,
    /// which does not. Right after the `>` of a reported `<...>` wrapper it is
    /// that `>` alone: the reference in the brackets is no part of what
    /// follows (`<http://t->` ends in no C arrow `->`), and reads so
    /// however it is rewritten.
    text_before before_on_line(std::size_t index) {
        if (base + index == wrapper_end_) return {before(index, 1), false};
        std::string_view w = before(index, context_size);
        if (const auto* nl = static_cast<const char*>(memrchr(w.data(), '\n', w.size()))) {
            w.remove_prefix(static_cast<std::size_t>(nl - w.data()) + 1);
            return {w, true};
        }
        if (w.size() < context_size) return {w, true};  // the input's first line
        if (const auto* space = static_cast<const char*>(std::memchr(w.data(), ' ', w.size())))
            w.remove_prefix(static_cast<std::size_t>(space - w.data()));
        const std::uint64_t ls = line_start_for(index);
        note_line_start(ls);
        return {w, false, ls == noted_line_start_ ? std::string_view(field_, field_size_) : std::string_view()};
    }

    /// Whether the text before t[index] on its line, a line longer than the
    /// context kept (before_on_line says so), is an item of a change log's
    /// list of names: blanks, a `* ` or `- ` bullet, then names each
    /// followed by `, ` (names_changelog_file reads a shorter one itself).
    /// The line is walked as it goes by, so that the answer is that of the
    /// whole line however much of it is still in view.
    bool lists_names_before(std::size_t index) noexcept {
        const std::uint64_t ls = line_start_for(index), at = base + index;
        note_line_start(ls);
        if (ls != noted_line_start_) return false;
        // Asked in order as a rule, so a walk goes on from the last answer.
        const list_walk& from = list_query_.at <= at ? list_query_ : list_done_;
        if (from.at > at) return false;
        list_query_ = walk_list(from, at);
        return list_query_.state == list_state::separator;
    }

    /// A `<...>` wrapper was reported, ending at absolute `end`.
    void wrapper_reported(std::uint64_t end) noexcept { wrapper_end_ = end; }

    /// The last byte before absolute `at` that is not leading punctuation.
    char before_punctuation_at(std::uint64_t at) const noexcept {
        for (std::uint64_t k = at; k > 0; --k) {
            const int b = byte_at(k - 1);
            if (b < 0) return before_punctuation_;
            if (!is_leading_punctuation(static_cast<char>(b))) return static_cast<char>(b);
        }
        return '\n';
    }

    // --- characters and runs --------------------------------------------------
    /// Role of the character at t[i]; sets `more` when it is a UTF-8 sequence
    /// cut by the end of a buffer that is not the end of the input.
    char_info at(std::size_t i, bool& more) const noexcept {
        bool incomplete = false;
        char_info c = char_at(t, i, incomplete);
        more = incomplete && !at_end;
        return c;
    }

    /// The end of the run that t[i] is in (the index of the first space or
    /// delimiter at or after i), or npos when the buffer ends first (and is
    /// not the end of the input). Stops early at `limit`.
    std::size_t run_end(std::size_t i, std::size_t limit = npos) const noexcept {
        const std::size_t n = t.size();
        const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
        while (i < n && i < limit) {
            // ASCII run bytes, the common case, 16 at a time.
            i = forward_to<run_stop_bytes>(bytes, i, std::min(n, limit), n);
            if (i >= n || i >= limit) break;
            if (bytes[i] < 0x80) return i;
            bool more = false;
            const char_info c = at(i, more);
            if (more) return npos;
            if (!is_run_role(c.role)) return i;
            i += c.len;
        }
        if (i >= n && !at_end) return npos;
        return std::min(i, n);
    }

    /// The start (absolute) of the run that ends just before t[index],
    /// looking back no further than t[floor]; `floor_run_start` is the run
    /// start known for t[floor].
    std::uint64_t run_start(std::size_t index, std::size_t floor, std::uint64_t floor_run_start) const noexcept {
        const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
        std::size_t k = index;
        while (k > floor) {
            // ASCII run bytes, the common case, 16 at a time.
            k = back_over_ascii_run(bytes, floor, k);
            if (k == floor) break;
            if (bytes[k - 1] < 0x80) return base + k;
            const char_info c = char_before(t, k);
            if (!is_run_role(c.role)) return base + k;
            k -= c.len;
        }
        return floor_run_start;
    }

    /// Whether t[i] continues the run of t[i - 1].
    bool run_continues_at(std::size_t i) const noexcept {
        if (i == 0 || i >= t.size()) return false;
        bool incomplete = false;
        return is_run_role(char_at(t, i, incomplete).role);
    }

    /// `n`, less a UTF-8 sequence cut by the end of the buffer.
    std::size_t complete_end(std::size_t n) const noexcept {
        if (at_end || n == 0) return n;
        std::size_t k = n;
        while (k > 0 && n - k < 3 && (static_cast<unsigned char>(t[k - 1]) & 0xC0) == 0x80) --k;
        if (k > 0 && static_cast<unsigned char>(t[k - 1]) >= 0xC0) {
            bool incomplete = false;
            char_at(t, k - 1, incomplete);
            if (incomplete) return k - 1;
        }
        return n;
    }

    /// Where to stop inside a run too long to be an abbreviated URL: only a
    /// scheme name at its end can still matter, so that is carried.
    std::size_t long_run_stop(std::size_t index) const noexcept {
        std::size_t s = index;
        while (s > 0 && index - s <= max_scheme_length && is_scheme_char(static_cast<unsigned char>(t[s - 1]))) --s;
        if (index - s > max_scheme_length) s = index;
        return std::min(s, complete_end(index));
    }

    /// The bytes from t[i] on while they are blanks (at most a line's
    /// indentation, `max_indent`), and the index after them.
    std::size_t skip_indent(std::size_t i) const noexcept {
        const std::size_t from = i;
        while (i < t.size() && (t[i] == ' ' || t[i] == '\t') && i - from <= max_indent) ++i;
        return i;
    }

    // --- lines and mail quoting ---------------------------------------------
    /// Line number and start of absolute offset base + index, which must not
    /// be before the last one asked for. Counting never moves backwards.
    std::pair<std::uint64_t, std::uint64_t> line_of(std::size_t index) {
        advance_lines(index);
        return {line_, line_start_};
    }

    /// The absolute start of the line holding t[index]. Queries come in
    /// increasing order, so the search starts from the last answer.
    std::uint64_t line_start_for(std::size_t index) {
        std::size_t floor = 0;
        std::uint64_t known = scan_line_start_;
        if (ls_cache_valid_ && ls_cache_index_ <= index) {
            floor = ls_cache_index_;
            known = ls_cache_value_;
        }
        std::uint64_t result = known;
        if (index > floor)
            if (const auto* nl = static_cast<const char*>(memrchr(t.data() + floor, '\n', index - floor)))
                result = base + static_cast<std::uint64_t>(nl - t.data()) + 1;
        ls_cache_valid_ = true;
        ls_cache_index_ = index;
        ls_cache_value_ = result;
        return result;
    }

    /// Mail quote depth (`> `, `>> `) of the line holding t[index].
    int depth_at(std::size_t index) {
        const std::uint64_t ls = line_start_for(index);
        if (byte_at(ls) >= 0 || ls == end_offset()) return read_quote_prefix(ls).depth;
        return depth_line_start_ == ls ? depth_ : 0;
    }

    /// The quote prefix at absolute `abs`, a line start, as far as it is visible.
    quote_prefix read_quote_prefix(std::uint64_t abs) const noexcept {
        return read_prefix(abs, [this](std::uint64_t k) { return byte_at(k); }, at_end);
    }

private:
    void advance_lines(std::size_t index) {
        const std::uint64_t target = base + index;
        if (target <= counted_) return;
        // Counted in bulk over the span, then the last line start found
        // once: prose has many short lines between references.
        const char* first = t.data() + (counted_ - base);
        const auto len = static_cast<std::size_t>(target - counted_);
        const std::size_t lines = count_newlines(first, len);
        if (lines != 0) {
            line_ += lines;
            const auto* nl = static_cast<const char*>(memrchr(first, '\n', len));
            line_start_ = counted_ + static_cast<std::uint64_t>(nl - first) + 1;
        }
        counted_ = target;
    }

    void remember_depth(std::size_t stop) {
        const std::uint64_t ls = line_start_for(stop);
        if (byte_at(ls) < 0 && ls != end_offset()) return;
        const quote_prefix q = read_quote_prefix(ls);
        if (q.complete) {
            depth_line_start_ = ls;
            depth_ = q.depth;
        }
    }

    /// Reads what the start of the line at absolute `ls` says (its header
    /// field, a bullet), once the bytes that decide it are in view, and
    /// keeps it for when that start has scrolled out of view.
    void note_line_start(std::uint64_t ls) noexcept {
        if (ls == noted_line_start_) return;
        // The line's first bytes: in `t` as a rule, else partly in the context.
        char copy[lexicon::field_reach];
        std::string_view line;
        if (ls >= base) {
            line = t.substr(static_cast<std::size_t>(ls - base), sizeof copy);
        } else {
            std::size_t n = 0;
            for (int b; n < sizeof copy && (b = byte_at(ls + n)) >= 0; ++n) copy[n] = static_cast<char>(b);
            line = {copy, n};
        }
        const std::size_t end = line.find('\n');
        if (end == npos && line.size() < sizeof copy && !(at_end && ls + line.size() == end_offset())) return;
        line = line.substr(0, end);
        const std::string_view name = lexicon::header_field_name(text_before{line});
        std::copy(name.begin(), name.end(), field_);
        field_size_ = name.size();
        const std::size_t names = changelog_list_start(line);
        list_done_ = list_query_ = {ls + names, names == 0 ? list_state::none : list_state::separator};
        noted_line_start_ = ls;
    }

    /// A walk along a change log's list of names: where it has come to,
    /// and what it last read there.
    enum class list_state : std::uint8_t { separator, name, comma, none };
    struct list_walk {
        std::uint64_t at = 0;
        list_state state = list_state::none;
    };

    /// `from`, walked on to absolute `to` over the bytes in view.
    list_walk walk_list(list_walk from, std::uint64_t to) const noexcept {
        list_state s = from.state;
        for (std::uint64_t k = from.at; k < to && s != list_state::none; ++k) {
            const int b = byte_at(k);
            const bool blank = b == ' ' || b == '\t';
            switch (s) {
            case list_state::separator: s = blank || b == ',' ? list_state::none : list_state::name; break;
            case list_state::name: s = b == ',' ? list_state::comma : blank ? list_state::none : s; break;
            case list_state::comma: s = b == ' ' ? list_state::separator : list_state::none; break;
            case list_state::none: break;
            }
        }
        return {std::max(from.at, to), s};
    }

    /// Up to `context_size` bytes just before `base`.
    std::string context_;
    /// Lines: `line_` is the number of the line holding `counted_`, which
    /// starts at `line_start_`.
    std::uint64_t line_ = 1;
    std::uint64_t line_start_ = 0;
    std::uint64_t counted_ = 0;
    /// Mail quote depth of the line starting at `depth_line_start_`, kept for
    /// when that line start has scrolled out of the visible bytes.
    std::uint64_t depth_line_start_ = 0;
    int depth_ = 0;
    /// before_punctuation_at() for the bytes before the context.
    char before_punctuation_ = '\n';
    /// Absolute end of the last `<...>` wrapper reported (0: none yet).
    std::uint64_t wrapper_end_ = 0;
    /// What the start of the line at `noted_line_start_` says: its header
    /// field name, and how far a walk along its list of names has come.
    std::uint64_t noted_line_start_ = static_cast<std::uint64_t>(-1);
    char field_[lexicon::field_reach];
    std::size_t field_size_ = 0;
    list_walk list_done_;   ///< up to the last commit
    list_walk list_query_;  ///< up to the last question
    // Valid during one scan.
    std::uint64_t scan_line_start_ = 0; ///< start of the line holding t[0]
    bool ls_cache_valid_ = false;
    std::size_t ls_cache_index_ = 0;
    std::uint64_t ls_cache_value_ = 0;
    char window_buf_[2 * context_size + 8];
};

/// The carried bytes between feeds, and the feeding loop that decides when
/// to scan them again.
class carried_input {
public:
    /// Absolute offset of the first byte not yet final.
    std::uint64_t offset() const noexcept { return offset_; }
    std::uint64_t fed() const noexcept { return fed_; }

    /// Feeds `chunk`; `scan(text, offset, at_end)` scans bytes and returns
    /// the index where it stopped (the bytes from there on are carried).
    /// `stopped()` ends the loop early.
    template <class Scan, class Stopped>
    void feed(std::string_view chunk, Scan&& scan, Stopped&& stopped) {
        std::size_t pos = 0;
        while (pos < chunk.size() && !stopped()) {
            if (buf_.empty()) {
                const std::string_view rest = chunk.substr(pos);
                const std::size_t stop = scan(rest, offset_, false);
                offset_ += stop;
                buf_.assign(rest.substr(stop));
                rescan_at_ = buf_.size() + std::max(min_rescan_growth, buf_.size() / 2);
                break;
            }
            const std::size_t old = buf_.size();
            const std::size_t want = rescan_at_ > old ? rescan_at_ - old : min_rescan_growth;
            const std::size_t k = std::min(chunk.size() - pos, want);
            buf_.append(chunk.substr(pos, k));
            pos += k;
            // Scan again once the carried bytes have grown enough, or when a
            // line end or `>` arrived that may settle them (for interactive
            // streams fed a line at a time). Past `settle_limit` (only a
            // raised --max-url-length carries that much), growth alone
            // decides: a rescan at every line of a URL broken over millions
            // of lines made the time grow with the square of its length.
            if (buf_.size() < rescan_at_ &&
                (buf_.size() > settle_limit || !has_settling_byte(chunk.substr(pos - k, k))))
                break;
            const std::string carried = std::move(buf_);
            buf_.clear();
            const std::size_t stop = scan(std::string_view(carried), offset_, false);
            offset_ += stop;
            if (stop >= old) {
                // Everything carried is decided: go on in place in the chunk.
                pos = pos - k + (stop - old);
                continue;
            }
            buf_.assign(std::string_view(carried).substr(stop));
            rescan_at_ = buf_.size() + std::max(min_rescan_growth, buf_.size() / 2);
        }
        fed_ += chunk.size();
    }

    /// Ends the input: scans what is carried one last time.
    template <class Scan>
    void finish(Scan&& scan) {
        const std::string carried = std::move(buf_);
        buf_.clear();
        scan(std::string_view(carried), offset_, true);
        offset_ = fed_;
    }

    /// Drops what is carried (the sink stopped the scan).
    void drop() noexcept {
        buf_.clear();
        offset_ = fed_;
    }

    /// Forgets the input: as new, the buffer's memory kept.
    void reset() noexcept {
        std::string buf = std::move(buf_);
        buf.clear();
        *this = carried_input{};
        buf_ = std::move(buf);
    }

private:
    /// Smallest growth of the carried buffer before it is scanned again.
    static constexpr std::size_t min_rescan_growth = 64;
    /// Carried bytes up to which a line end or `>` is scanned at once.
    static constexpr std::size_t settle_limit = std::size_t{1} << 16;

    /// Whether `s` holds a line end or `>`, which may settle carried bytes.
    static bool has_settling_byte(std::string_view s) noexcept {
        for (const char c : s)
            if (c == '\n' || c == '>') return true;
        return false;
    }

    /// Undecided bytes, from absolute offset `offset_`. Empty when the next
    /// chunk can be scanned in place.
    std::string buf_;
    std::uint64_t offset_ = 0;
    std::uint64_t fed_ = 0;
    std::size_t rescan_at_ = 0; ///< buf_ is scanned again once it reaches this size
};

}  // namespace urlsift::detail
