// The streaming scanner: Appendix E delimiting, the `URL:` prefix and `<...>`
// wrappers of 003_*.txt, and the calls into Appendix F completion.
//
// How the text is walked:
//
//     ordinary prose ... ordinary prose <ftp://ds.internic.\n net/rfc/> ...
//     \_ skipped 16 or 32 bytes at a time _/^ anchor: `<`, `:`, `.`, `@`
//
// Only bytes that can anchor a reference stop the skip. From an anchor the
// scanner looks at the "run" around it (the characters between two
// delimiters) or at the `<...>` it opens, and decides. A decision that needs
// bytes not fed yet is left open: the scan stops at the start of the
// candidate and the bytes from there on are carried to the next feed. So a
// candidate is always examined whole, in one contiguous buffer, and the
// result does not depend on where chunks end.

#include <urlsift/scanner.hpp>

#include "text/ascii.hpp"
#include "scan/line_rules.hpp"
#include "scan/schemes.hpp"
#include "scan/anchors.hpp"
#include "text/char_roles.hpp"
#include "abbrev/tld_table.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

namespace urlsift {

std::string_view to_string(wrapper_kind w) noexcept {
    switch (w) {
    case wrapper_kind::none: return "none";
    case wrapper_kind::angle: return "angle";
    case wrapper_kind::quote: return "quote";
    case wrapper_kind::url_prefix: return "url-prefix";
    }
    return "none";
}

std::string_view to_string(reference_form f) noexcept {
    switch (f) {
    case reference_form::absolute: return "absolute";
    case reference_form::relative: return "relative";
    case reference_form::abbreviated: return "abbreviated";
    }
    return "absolute";
}

namespace {

using detail::char_info;
using detail::char_role;

constexpr std::size_t npos = static_cast<std::size_t>(-1);
/// Bytes of text kept before the carried buffer: enough for a scheme name,
/// the `before` evidence of Appendix F and a mail quote prefix.
constexpr std::size_t context_size = 64;
using detail::is_break_char;
using detail::max_indent;
using detail::max_quote_prefix;
/// Smallest growth of the carried buffer before it is scanned again.
constexpr std::size_t min_rescan_growth = 64;

constexpr bool is_run_role(char_role r) noexcept { return r != char_role::space && r != char_role::delimiter; }

// The vector back-scan (anchors.hpp) must stop where the role table does.
static_assert([] {
    for (unsigned b = 0; b < 0x80; ++b)
        if (detail::is_ascii_run_stop(static_cast<unsigned char>(b)) == is_run_role(detail::ascii_roles[b])) return false;
    return true;
}());

bool is_ascii_alnum(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/// What a byte is to a word that may hold a host (Section 4.3.1): the
/// scanner's per-byte loops over dotted words read this table.
enum host_byte : std::uint8_t {
    host_label = 1, ///< letter, digit or `-`
    host_dot = 2,   ///< `.`
    host_end = 4,   ///< `/ ? #`: the host ends before it
    host_other = 8, ///< `@ : ' *`, a closing bracket or a non-ASCII byte: the word needs the full rules
};

constexpr std::array<std::uint8_t, 256> make_host_bytes() noexcept {
    std::array<std::uint8_t, 256> t{};
    for (int c = 0; c < 256; ++c) {
        const auto b = static_cast<unsigned char>(c);
        if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '-')
            t[b] = host_label;
        else if (b == '.')
            t[b] = host_dot;
        else if (b == '/' || b == '?' || b == '#')
            t[b] = host_end;
        else if (b >= 0x80 || b == '@' || b == ':' || b == '\'' || b == '*' || b == ')' || b == ']' || b == '}')
            t[b] = host_other;
    }
    return t;
}

constexpr std::array<std::uint8_t, 256> host_bytes = make_host_bytes();

static_assert([] {
    for (unsigned b = 0; b < 0x80; ++b)
        if ((detail::ascii_roles[b] == char_role::close) != (b == ')' || b == ']' || b == '}')) return false;
    return true;
}(), "host_other must hold the ASCII closing brackets");

constexpr std::uint8_t host_byte_of(char c) noexcept { return host_bytes[static_cast<unsigned char>(c)]; }

/// Whether `s` holds a `.` or `@` (std::string_view::find_first_of calls
/// memchr once per byte here).
bool has_dot_or_at(std::string_view s) noexcept {
    for (const char c : s)
        if (c == '.' || c == '@') return true;
    return false;
}

/// Whether `s` holds a line end or `>`, which may settle carried bytes.
bool has_settling_byte(std::string_view s) noexcept {
    for (const char c : s)
        if (c == '\n' || c == '>') return true;
    return false;
}

/// False when complete_abbreviated cannot match any reading of `word`
/// (`libs/fusion/test/x.cpp`, a path in prose): its text before the first
/// `/ ? #` has no `.`, `@` or `:`, so the host has one label (Section 4.3.1
/// and the TLD rule want two) and no `@` makes it a mail address. What the
/// scanner would take from the word (cut at a bracket, trailing punctuation
/// trimmed, continued on the next line) starts with that same text, so the
/// answer holds for it too.
bool may_hold_site(std::string_view word) noexcept {
    for (const char c : word) {
        if (c == '/' || c == '?' || c == '#') return false;
        if (c == '.' || c == '@' || c == ':') return true;
    }
    return true;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) noexcept {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != prefix[i]) return false;
    }
    return true;
}

enum class outcome { done, need_more };

/// What the `<` at an anchor turned out to be (Appendix E, 003_*.txt).
enum class angle_verdict {
    need_more,   ///< the bytes that decide are not fed yet
    no_wrapper,  ///< nothing a change of the text after it could make a wrapper
    could_wrap,  ///< no wrapper, but a `>` could close one were its content different
    reference,   ///< a wrapper: its reference was reported
};

/// What emitting a candidate came to.
enum class emitted { none, need_more, reported };

/// Whether `c` may stand between a URL and the blank before it: opening
/// brackets, `,` and `;` (reference_surroundings::before_punctuation).
constexpr bool is_leading_punctuation(char c) noexcept {
    return c == '(' || c == '[' || c == '{' || c == ',' || c == ';';
}

/// How far past a reference its surroundings are looked for.
constexpr std::size_t surroundings_reach = 64;

}  // namespace

/// The reading of `<...>` that were not taken as a wrapper but could become
/// one (reference_surroundings::in_brackets), kept as the scanner moves on:
/// the brackets stay open until a `>`, a delimiter, a blank line or a line
/// quoted to another depth closes them. Each `<` is decided by scan_angle;
/// the bytes between decisions are read here once, in order.
struct bracket_reading {
    std::uint64_t pos = 0;         ///< every byte before this has been read
    int line_depth = 0;            ///< `>` marks in the quote prefix of the current line so far
    std::size_t prefix_length = 0; ///< bytes of that prefix so far
    bool in_prefix = true;         ///< nothing but the prefix read on the current line yet
    bool open = false;             ///< inside `<...>` that could become a wrapper
    int open_depth = 0;            ///< quote depth of the line of that `<`
    bool open_break = false;       ///< a line break inside the brackets, and only blanks since

    /// Reads t[pos - base, upto - base): the bytes must be visible.
    void read_to(std::string_view t, std::uint64_t base, std::uint64_t upto) {
        while (pos < upto) {
            if (open) {
                read_byte(static_cast<unsigned char>(t[static_cast<std::size_t>(pos - base)]));
                ++pos;
                continue;
            }
            // Outside brackets only the last line start changes the reading.
            const char* p = t.data() + (pos - base);
            const auto len = static_cast<std::size_t>(upto - pos);
            if (const auto* nl = static_cast<const char*>(memrchr(p, '\n', len))) {
                pos += static_cast<std::uint64_t>(nl - p);
                read_byte('\n');
                ++pos;
            }
            while (pos < upto && in_prefix) {
                read_byte(static_cast<unsigned char>(t[static_cast<std::size_t>(pos - base)]));
                ++pos;
            }
            pos = upto;
        }
    }

    /// The `<` at `pos` was decided: it opens brackets that could become a
    /// wrapper, or not (a wrapper's own `<` opens none).
    void read_angle(bool could_wrap) {
        open = could_wrap;
        open_depth = line_depth;
        open_break = false;
        ++pos;
    }

    /// in_brackets for a reference starting at `pos`.
    bool in_brackets() const noexcept {
        // A line quoted to another depth closes the brackets once its prefix ends.
        return open && !(in_prefix && line_depth > 0 && line_depth != open_depth);
    }

    void read_byte(unsigned char c) {
        if (in_prefix) {
            if (prefix_length < max_quote_prefix && (c == '>' || c == ' ' || c == '\t')) {
                if (c == '>') ++line_depth;
                ++prefix_length;
                return;
            }
            in_prefix = false;
            // A `>` in a prefix as deep as the `<`'s line is part of the break (scan_angle).
            if (open && line_depth > 0 && line_depth != open_depth) open = false;
        }
        if (c == '\n') {
            if (open_break) open = false; // a blank line
            open_break = open;
            line_depth = 0;
            prefix_length = 0;
            in_prefix = true;
            return;
        }
        if (!open) return;
        const char_role role = c < 0x80 ? detail::ascii_role(c) : char_role::url;
        if (c == '>' || c == '<' || (role == char_role::delimiter && c != '"' && c != '`'))
            open = false;
        else if (role != char_role::space)
            open_break = false;
    }
};

struct scanner::impl {
    scan_options opt;
    reference_sink sink;

    // --- carried between calls ------------------------------------------------
    /// Undecided bytes, from absolute offset `buf_offset`. Empty when the
    /// next chunk can be scanned in place.
    std::string buf;
    std::uint64_t buf_offset = 0;
    std::uint64_t fed = 0;
    std::size_t rescan_at = 0; ///< buf is scanned again once it reaches this size
    /// Up to `context_size` bytes just before `buf_offset`.
    std::string context;
    /// Start of the run that contains `buf_offset` (== buf_offset at a boundary).
    std::uint64_t run_start_carried = 0;
    /// Lines: `line` is the number of the line holding `counted`, which
    /// starts at `line_start`. Counting never moves backwards.
    std::uint64_t line = 1;
    std::uint64_t line_start = 0;
    std::uint64_t counted = 0;
    /// Mail quote depth of the line starting at `depth_line_start`, kept for
    /// when that line start has scrolled out of the visible bytes.
    std::uint64_t depth_line_start = 0;
    int depth = 0;
    /// Inside a run that was cut at `max_url_length`: skip to its end.
    bool skipping = false;
    /// Set by scan_bare when the reference ended at an unpartnered closing
    /// bracket: the text after it starts a new run.
    bool closed_at_bracket = false;
    /// End of the last reported `outer` span: spans never overlap.
    std::uint64_t last_outer_end = 0;
    /// The last byte before `buf_offset` that is not leading punctuation
    /// (reference_surroundings::before_punctuation), for when the context
    /// holds nothing else.
    char before_punctuation_carried = '\n';
    bracket_reading brackets;
    bool stopped = false;
    bool finished = false;

    // --- valid during one scan ------------------------------------------------
    std::string_view t;   ///< the bytes being scanned
    std::uint64_t base = 0; ///< absolute offset of t[0]
    bool at_end = false;
    std::uint64_t scan_line_start = 0; ///< start of the line holding t[0]
    std::size_t stop_index = 0;
    bool ls_cache_valid = false;
    std::size_t ls_cache_index = 0;
    std::uint64_t ls_cache_value = 0;
    std::uint64_t stop_run_start = 0;

    /// Whether `.` and `@` anchor too (Appendix F heuristics on).
    bool abbrev_anchors = false;
    found_reference ref;           // reused: no allocation per reference once warm
    std::vector<std::size_t> hyphens; // indexes in ref.cleaned of hyphens at line breaks
    std::string alt;
    char window_buf[2 * context_size + 8];

    impl(scan_options o, reference_sink s) : opt(std::move(o)), sink(std::move(s)) {
        abbrev_anchors = opt.abbrev.kinds != abbrev_none;
        if (opt.max_url_length < 16) opt.max_url_length = 16;
    }

    // ------------------------------------------------------------------ driver
    void feed(std::string_view chunk) {
        if (stopped || finished) return;
        std::size_t pos = 0;
        while (pos < chunk.size() && !stopped) {
            if (buf.empty()) {
                const std::string_view rest = chunk.substr(pos);
                const std::size_t stop = run_scan(rest, buf_offset, false);
                buf.assign(rest.substr(stop));
                rescan_at = buf.size() + std::max(min_rescan_growth, buf.size() / 2);
                break;
            }
            const std::size_t old = buf.size();
            const std::size_t want = rescan_at > old ? rescan_at - old : min_rescan_growth;
            const std::size_t k = std::min(chunk.size() - pos, want);
            buf.append(chunk.substr(pos, k));
            pos += k;
            // Scan again once the carried bytes have grown enough, or when a
            // line end or `>` arrived that may settle them (for interactive
            // streams fed a line at a time).
            if (buf.size() < rescan_at && !has_settling_byte(chunk.substr(pos - k, k)))
                break; // the chunk is used up
            const std::string carried = std::move(buf);
            buf.clear();
            const std::size_t stop = run_scan(carried, buf_offset, false);
            if (stop >= old) {
                // Everything carried is decided: go on in place in the chunk.
                pos = pos - k + (stop - old);
                continue;
            }
            buf.assign(std::string_view(carried).substr(stop));
            rescan_at = buf.size() + std::max(min_rescan_growth, buf.size() / 2);
        }
        fed += chunk.size();
    }

    void finish() {
        if (finished) return;
        if (!stopped) {
            const std::string carried = std::move(buf);
            buf.clear();
            run_scan(carried, buf_offset, true);
        }
        buf.clear();
        finished = true;
        buf_offset = fed;
    }

    /// Scans `text` (at absolute `offset`), then records the carried state
    /// at the stop index it returns.
    std::size_t run_scan(std::string_view text, std::uint64_t offset, bool end) {
        t = text;
        base = offset;
        at_end = end;
        scan_line_start = line_start; // counted == base here
        ls_cache_valid = false;
        scan();
        std::size_t stop = stopped ? t.size() : stop_index;
        commit(stop, stop_run_start);
        return stop;
    }

    void commit(std::size_t stop, std::uint64_t run_start) {
        advance_lines(stop);
        remember_depth(stop);
        brackets.read_to(t, base, base + stop);
        before_punctuation_carried = before_punctuation_at(base + stop);
        // The new context: the last bytes before the stop.
        const std::size_t take = std::min(stop, context_size);
        if (take == context_size) {
            context.assign(t.substr(stop - take, take));
        } else {
            std::string next = context.substr(context.size() - std::min(context.size(), context_size - take));
            next.append(t.substr(0, stop));
            context = std::move(next);
        }
        run_start_carried = run_start;
        buf_offset = base + stop;
    }

    // ----------------------------------------------------------- lines, context
    void advance_lines(std::size_t index) {
        const std::uint64_t target = base + index;
        if (target <= counted) return;
        // Counted in bulk over the span, then the last line start found
        // once: prose has many short lines between references.
        const char* first = t.data() + (counted - base);
        const auto len = static_cast<std::size_t>(target - counted);
        const std::size_t lines = detail::count_newlines(first, len);
        if (lines != 0) {
            line += lines;
            const auto* nl = static_cast<const char*>(memrchr(first, '\n', len));
            line_start = counted + static_cast<std::uint64_t>(nl - first) + 1;
        }
        counted = target;
    }

    /// The absolute start of the line holding t[index]. Queries come in
    /// increasing order, so the search starts from the last answer.
    std::uint64_t line_start_for(std::size_t index) {
        std::size_t floor = 0;
        std::uint64_t known = scan_line_start;
        if (ls_cache_valid && ls_cache_index <= index) {
            floor = ls_cache_index;
            known = ls_cache_value;
        }
        std::uint64_t result = known;
        if (index > floor)
            if (const auto* nl = static_cast<const char*>(memrchr(t.data() + floor, '\n', index - floor)))
                result = base + static_cast<std::uint64_t>(nl - t.data()) + 1;
        ls_cache_valid = true;
        ls_cache_index = index;
        ls_cache_value = result;
        return result;
    }

    /// The byte at absolute offset `abs` if it is still visible, else -1.
    int byte_at(std::uint64_t abs) const {
        if (abs >= base) {
            const std::uint64_t i = abs - base;
            return i < t.size() ? static_cast<unsigned char>(t[static_cast<std::size_t>(i)]) : -1;
        }
        const std::uint64_t back = base - abs;
        if (back > context.size()) return -1;
        return static_cast<unsigned char>(context[context.size() - static_cast<std::size_t>(back)]);
    }

    /// Mail quote prefix at `abs` (a line start): depth and byte length.
    /// `complete` is false when the visible bytes end inside the prefix.
    std::pair<int, std::size_t> quote_prefix(std::uint64_t abs, bool& complete) const {
        int d = 0;
        std::size_t len = 0, last_mark_end = 0;
        complete = true;
        for (; len < max_quote_prefix; ++len) {
            const int b = byte_at(abs + len);
            if (b < 0) {
                complete = at_end;
                break;
            }
            if (b == '>') {
                ++d;
                last_mark_end = len + 1;
            } else if (b != ' ' && b != '\t') {
                break;
            }
        }
        return {d, last_mark_end};
    }

    /// Mail quote depth (`> `, `>> `) of the line holding t[index].
    int depth_at(std::size_t index) {
        const std::uint64_t ls = line_start_for(index);
        bool complete = true;
        if (byte_at(ls) >= 0 || ls == base + t.size()) return quote_prefix(ls, complete).first;
        return depth_line_start == ls ? depth : 0;
    }

    void remember_depth(std::size_t stop) {
        const std::uint64_t ls = line_start_for(stop);
        if (byte_at(ls) < 0 && ls != base + t.size()) return;
        bool complete = true;
        const int d = quote_prefix(ls, complete).first;
        if (complete) {
            depth_line_start = ls;
            depth = d;
        }
    }

    /// Up to `n` bytes just before t[index], from the context if needed.
    std::string_view window_before(std::size_t index, std::size_t n) {
        if (index >= n) return t.substr(index - n, n);
        const std::size_t from_context = std::min(context.size(), n - index);
        std::memcpy(window_buf, context.data() + context.size() - from_context, from_context);
        std::memcpy(window_buf + from_context, t.data(), index);
        return {window_buf, from_context + index};
    }

    /// The text before t[index] on its line: evidence for Appendix F.
    std::string_view before_on_line(std::size_t index) {
        std::string_view w = window_before(index, context_size);
        if (const auto* nl = static_cast<const char*>(memrchr(w.data(), '\n', w.size())))
            w.remove_prefix(static_cast<std::size_t>(nl - w.data()) + 1);
        return w;
    }

    // ------------------------------------------------------------ characters
    /// Role of the character at t[i]; sets `more` when it is a UTF-8 sequence
    /// cut by the end of a buffer that is not the end of the input.
    char_info at(std::size_t i, bool& more) const {
        bool incomplete = false;
        char_info c = detail::char_at(t, i, incomplete);
        more = incomplete && !at_end;
        return c;
    }

    /// The end of the run that t[i] is in (the index of the first space or
    /// delimiter at or after i), or npos when the buffer ends first (and is
    /// not the end of the input). Stops early at `limit`.
    std::size_t run_end(std::size_t i, std::size_t limit = npos) const {
        const std::size_t n = t.size();
        const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
        while (i < n && i < limit) {
            // ASCII run bytes, the common case, 16 at a time.
            i = detail::forward_to<detail::run_stop_bytes>(bytes, i, std::min(n, limit), n);
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
    std::uint64_t run_start(std::size_t index, std::size_t floor, std::uint64_t floor_run_start) const {
        const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
        std::size_t k = index;
        while (k > floor) {
            // ASCII run bytes, the common case, 16 at a time.
            k = detail::back_over_ascii_run(bytes, floor, k);
            if (k == floor) break;
            if (bytes[k - 1] < 0x80) return base + k;
            const char_info c = detail::char_before(t, k);
            if (!is_run_role(c.role)) return base + k;
            k -= c.len;
        }
        return floor_run_start;
    }

    // ----------------------------------------------------------------- scan
    void set_stop(std::size_t index, std::uint64_t run_start_abs) {
        stop_index = index;
        stop_run_start = std::min(run_start_abs, base + index);
    }

    /// `n`, less a UTF-8 sequence cut by the end of the buffer.
    std::size_t complete_end(std::size_t n) const {
        if (at_end || n == 0) return n;
        std::size_t k = n;
        while (k > 0 && n - k < 3 && (static_cast<unsigned char>(t[k - 1]) & 0xC0) == 0x80) --k;
        if (k > 0 && static_cast<unsigned char>(t[k - 1]) >= 0xC0) {
            bool incomplete = false;
            detail::char_at(t, k - 1, incomplete);
            if (incomplete) return k - 1;
        }
        return n;
    }

    /// Where to stop inside a run too long to be an abbreviated URL: only a
    /// scheme name at its end can still matter, so that is carried.
    std::size_t long_run_stop(std::size_t index) const {
        std::size_t s = index;
        while (s > 0 && index - s <= detail::max_scheme_length &&
               detail::is_scheme_char(static_cast<unsigned char>(t[s - 1])))
            --s;
        if (index - s > detail::max_scheme_length) s = index;
        return std::min(s, complete_end(index));
    }

    bool run_continues_at(std::size_t i) const {
        if (i == 0 || i >= t.size()) return false;
        bool incomplete = false;
        return is_run_role(detail::char_at(t, i, incomplete).role);
    }

    void scan() {
        std::size_t i = 0;
        std::uint64_t i_run_start = run_start_carried;
        const std::size_t n = t.size();
        if (skipping) {
            const std::size_t e = run_end(0);
            if (e == npos) {
                set_stop(complete_end(n), i_run_start);
                return;
            }
            skipping = false;
            i = e;
            i_run_start = base + e;
        }
        detail::anchor_cursor anchors(reinterpret_cast<const unsigned char*>(t.data()), n, abbrev_anchors);
        while (!stopped) {
            const std::size_t a = anchors.next(i);
            if (a >= n) {
                stop_trailing(i, i_run_start);
                return;
            }
            if (a + 2 < n && i_run_start == base + i && ends_plain_word(a)) {
                i = a + 1;
                i_run_start = base + i;
                continue;
            }
            std::size_t word_end = 0;
            if (t[a] == '.' && i_run_start == base + i && dotted_word_without_site(a, word_end)) {
                i = word_end;
                i_run_start = base + i;
                continue;
            }
            if (t[a] == '<') {
                std::size_t next = 0;
                const angle_verdict v = scan_angle(a, next);
                if (v == angle_verdict::need_more) {
                    set_stop(a, base + a);
                    return;
                }
                if (v != angle_verdict::reference) {
                    brackets.read_to(t, base, base + a);
                    brackets.read_angle(v == angle_verdict::could_wrap);
                }
                i = next;
                i_run_start = base + next;
                continue;
            }
            const std::uint64_t rs = run_start(a, i, i_run_start);
            std::size_t next = 0;
            std::size_t stop = 0;
            if (scan_run(rs, a, next, stop) == outcome::need_more) {
                set_stop(stop, rs);
                return;
            }
            if (skipping) {
                set_stop(complete_end(n), rs);
                return;
            }
            i = next;
            // `next` is a run boundary unless the run was too long to judge whole.
            i_run_start = run_continues_at(next) && !closed_at_bracket ? rs : base + next;
            closed_at_bracket = false;
        }
    }

    /// True when the anchor t[a] (the first in its run, and t[a + 1]
    /// visible) only ends a word that cannot be a reference, so scan_run
    /// would find nothing and resume at a + 1. Prose is full of these:
    ///
    ///     "the end. Next"   a `.` followed by a blank: once trailing
    ///                       punctuation is trimmed, the word holds no `.`
    ///                       or `@` (Appendix F) and no `:` (no scheme)
    ///     "Note: the"       a `:` followed by a blank: the scheme part
    ///                       would be empty, so only `URL:` (Appendix E)
    ///                       could make something of it
    bool ends_plain_word(std::size_t a) const {
        const auto next = static_cast<unsigned char>(t[a + 1]);
        if (next >= 0x80 || detail::ascii_roles[next] != char_role::space) return false;
        const char c = t[a];
        if (c == '.') return true;
        if (c != ':' || a < 3) return false;
        return !starts_with_nocase(t.substr(a - 3, 3), "url");
    }

    /// True when the `.` at t[a], the first anchor of its run, is in a word
    /// that cannot hold a site: after it come only ASCII labels joined by
    /// dots, then sentence punctuation or closing brackets up to the end of
    /// the run (at `end`), and the last label is no known top-level domain
    /// nor a number (Appendix F; may_complete_host). Prose is full of these:
    /// `foo.c`, `e.g.`, `cron.daily)`, `libs/x/y.hpp`, `Makefile.am:`.
    ///
    /// Nothing else in the run can change that: it has no `:`, `@` or `.`
    /// before the anchor, so no scheme or mail address; a `/ ? #` before it
    /// leaves the host one label; a `:` among the final punctuation ends no
    /// scheme URL (nothing follows it in the run). A run that may go on in
    /// the next chunk or on the next line is left to scan_run.
    bool dotted_word_without_site(std::size_t a, std::size_t& end) const {
        const std::size_t n = t.size();
        std::size_t k = a + 1, label = k;
        for (;;) {
            label = k;
            while (k < n && host_byte_of(t[k]) == host_label) ++k;
            if (k + 1 < n && t[k] == '.' && is_ascii_alnum(t[k + 1])) {
                ++k;
                continue;
            }
            break;
        }
        const std::string_view last = t.substr(label, k - label);
        std::size_t e = k;
        while (e < n && detail::is_trailing_ascii(static_cast<unsigned char>(t[e]))) ++e;
        if (e >= n) return false;
        const auto stop = static_cast<unsigned char>(t[e]);
        if (stop >= 0x80 || !detail::is_ascii_run_stop(stop)) return false;
        if (last.empty() || detail::is_digit(last.front()) || detail::is_known_tld(last)) return false;
        // continuation(): a break character at a line end may join the next line.
        if (is_break_char(t[e - 1])) {
            std::size_t j = e;
            while (j < n && (t[j] == ' ' || t[j] == '\t')) ++j;
            if (j >= n || t[j] == '\r' || t[j] == '\n') return false;
        }
        end = e;
        return true;
    }

    /// No anchor in t[i..]: stop before the last run, which later bytes
    /// could still turn into a reference.
    void stop_trailing(std::size_t i, std::uint64_t i_run_start) {
        const std::size_t n = t.size();
        if (at_end) {
            set_stop(n, base + n);
            return;
        }
        // A UTF-8 sequence cut by the end of the buffer may be a letter of
        // the last run: look back from before it.
        const std::size_t whole = std::max(complete_end(n), i);
        const std::uint64_t rs = run_start(whole, i, i_run_start);
        if (rs >= base && base + n - rs <= opt.max_url_length) {
            std::size_t s = static_cast<std::size_t>(rs - base);
            if (s > 0 && t[s - 1] == '"') --s; // keep a quote wrapper's `"` with its URL
            set_stop(s, rs);
            return;
        }
        set_stop(long_run_stop(n), rs);
    }

    // -------------------------------------------------------------- runs
    /// Judges the run starting at absolute `rs` that holds the anchor t[a].
    /// On `done`, `next` is where scanning resumes; on `need_more`, `stop`
    /// is where the carried bytes must start.
    outcome scan_run(std::uint64_t rs, std::size_t a, std::size_t& next, std::size_t& stop) {
        closed_at_bracket = false;
        const std::size_t n = t.size();
        const std::size_t limit = opt.max_url_length;
        const bool visible = rs >= base;
        const std::size_t r0 = visible ? static_cast<std::size_t>(rs - base) : 0;
        // Short enough to be a word that Appendix F may complete?
        const bool word = visible && a - r0 <= limit;
        std::size_t cand_stop = r0;
        if (word && r0 > 0 && t[r0 - 1] == '"') cand_stop = r0 - 1;

        // Appendix E: the prefix `URL:` marks a URL and is not part of it.
        if (word) {
            std::size_t u = r0;
            if (u < n && (t[u] == '(' || t[u] == '[')) ++u;
            if (n - u >= 4 && starts_with_nocase(t.substr(u, 4), "url:")) {
                const outcome o = scan_url_prefix(u, next);
                if (o == outcome::need_more) stop = cand_stop;
                if (o == outcome::need_more || next > 0) return o;
            }
        }

        // A scheme URL anywhere in the run: `(http://x)`, `redirect=http://x`.
        const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
        std::size_t c = a;
        while (true) {
            if (c >= n) {
                if (at_end) break;
                stop = word && n - r0 <= limit ? cand_stop : long_run_stop(n); // the run may still end here
                return outcome::need_more;
            }
            if (c - a > limit) {
                next = c; // too long to judge whole; scanning goes on inside it
                return outcome::done;
            }
            const auto b = static_cast<unsigned char>(t[c]);
            if (b < 0x80) {
                if (!is_run_role(detail::ascii_role(b))) break;
            } else {
                bool more = false;
                const char_info ci = at(c, more);
                if (more) {
                    stop = word && c - r0 <= limit ? cand_stop : long_run_stop(c);
                    return outcome::need_more;
                }
                if (!is_run_role(ci.role)) break;
                c += ci.len;
                continue;
            }
            if (b != ':') {
                // On to the next byte that needs a look; the bound keeps the
                // length check above seeing the same index.
                c = detail::forward_to<detail::colon_or_stop_bytes>(bytes, c + 1, std::min(n, a + limit + 1), n);
                continue;
            }
            const std::size_t s0 = scheme_start(c);
            if (s0 != npos) {
                std::size_t url_stop = s0;
                if (s0 > 0 && t[s0 - 1] == '"') url_stop = s0 - 1;
                // While the run may still turn out to be a word for Appendix F,
                // the carried bytes start with the run.
                if (word) url_stop = std::min(url_stop, cand_stop);
                if (c + 3 > n && !at_end) {
                    stop = url_stop;
                    return outcome::need_more;
                }
                const std::size_t s = choose_scheme(s0, c);
                if (s != npos && !detail::is_url_prefix(t.substr(s, c - s))) {
                    const outcome o = scan_bare(s, c - s, reference_form::absolute, wrapper_kind::none, s, next);
                    if (o == outcome::need_more) {
                        stop = url_stop;
                        return o;
                    }
                    if (next != 0) return outcome::done;
                    // Nothing usable after the scheme (`http://.`): look further on.
                }
            }
            ++c;
        }
        const std::size_t re = c;
        if (word && re - r0 <= limit && opt.abbrev.kinds != abbrev_none) {
            const outcome o = scan_abbreviated(r0, re, a, next);
            if (o == outcome::need_more) {
                stop = cand_stop;
                return o;
            }
            if (next != 0) return outcome::done;
        }
        next = re;
        return outcome::done;
    }

    /// The start of the scheme name ending just before the colon t[c], or
    /// npos. The name is the whole run of scheme characters before the colon
    /// (looking into the context), less any leading non-letters.
    std::size_t scheme_start(std::size_t c) {
        const std::string_view w = window_before(c, detail::max_scheme_length + 1);
        std::size_t k = w.size();
        while (k > 0 && detail::is_scheme_char(static_cast<unsigned char>(w[k - 1]))) --k;
        if (w.size() - k > detail::max_scheme_length) return npos;
        while (k < w.size() && !((w[k] >= 'a' && w[k] <= 'z') || (w[k] >= 'A' && w[k] <= 'Z'))) ++k;
        const std::size_t len = w.size() - k;
        if (len == 0 || len > c) return npos;
        return c - len;
    }

    /// The scheme that the colon t[c] ends, given the run of scheme
    /// characters t[s0, c): the whole run if it is a scheme, else its longest
    /// suffix that is a registered one (`randomtexthttp://x`, `can...http://x`),
    /// else npos.
    std::size_t choose_scheme(std::size_t s0, std::size_t c) const {
        const std::string_view rest = t.substr(c + 1, 2);
        if (detail::classify_scheme(t.substr(s0, c - s0), rest) != detail::scheme_kind::none &&
            (detail::is_registered_scheme(t.substr(s0, c - s0)) || !has_registered_suffix(s0, c)))
            return s0;
        // Shorter suffixes only: longer names are in no registered entry.
        for (std::size_t k = std::max(s0 + 1, c - std::min(c, detail::max_registered_scheme_length)); k + 2 <= c; ++k) {
            const std::string_view name = t.substr(k, c - k);
            const char f = t[k];
            if (!((f >= 'a' && f <= 'z') || (f >= 'A' && f <= 'Z'))) continue;
            if (detail::is_registered_scheme(name) && detail::classify_scheme(name, rest) != detail::scheme_kind::none)
                return k;
        }
        return npos;
    }

    bool has_registered_suffix(std::size_t s0, std::size_t c) const {
        const std::string_view rest = t.substr(c + 1, 2);
        for (std::size_t k = std::max(s0 + 1, c - std::min(c, detail::max_registered_scheme_length)); k + 2 <= c; ++k) {
            const char f = t[k];
            if (!((f >= 'a' && f <= 'z') || (f >= 'A' && f <= 'Z'))) continue;
            // A compound scheme (`git+ssh`, `svn+ssh`) names itself whole.
            if (t.substr(s0, c - s0).find('+') != std::string_view::npos) return false;
            if (detail::is_registered_scheme(t.substr(k, c - k)) &&
                detail::classify_scheme(t.substr(k, c - k), rest) != detail::scheme_kind::none)
                return true;
        }
        return false;
    }

    /// `URL:` at t[u]: the reference follows directly or after blanks.
    /// Sets `next` to 0 when there is no reference after all.
    outcome scan_url_prefix(std::size_t u, std::size_t& next) {
        next = 0;
        std::size_t p = u + 4;
        if (p < t.size() && is_run_role(detail::ascii_role(static_cast<unsigned char>(t[p]))) &&
            static_cast<unsigned char>(t[p]) < 0x80) {
            return scan_prefixed(u, p, next);
        }
        // `URL: http://x/`: blanks, perhaps one line break, then the reference.
        std::size_t k = p, breaks = 0;
        while (k < t.size() && k - p <= max_indent) {
            if (t[k] == ' ' || t[k] == '\t' || t[k] == '\r') {
                ++k;
            } else if (t[k] == '\n' && breaks == 0) {
                ++breaks;
                ++k;
            } else {
                break;
            }
        }
        if (k >= t.size()) {
            if (!at_end) return outcome::need_more;
            return outcome::done;
        }
        if (k == p || k - p > max_indent) return outcome::done;
        bool more = false;
        const char_info c = at(k, more);
        if (more) return outcome::need_more;
        if (!is_run_role(c.role) || c.role == char_role::trailing) return outcome::done;
        return scan_prefixed(u, k, next);
    }

    /// The reference written after `URL:` (at t[u]) starts at t[p].
    outcome scan_prefixed(std::size_t u, std::size_t p, std::size_t& next) {
        // A scheme at its start makes it absolute; otherwise it is a
        // reference relative to the base.
        std::size_t c = p;
        while (c < t.size() && c - p <= detail::max_scheme_length &&
               detail::is_scheme_char(static_cast<unsigned char>(t[c])))
            ++c;
        if (c >= t.size() && !at_end) return outcome::need_more;
        if (c < t.size() && t[c] == ':' && c > p) {
            if (c + 3 > t.size() && !at_end) return outcome::need_more;
            if (detail::classify_scheme(t.substr(p, c - p), t.substr(c + 1, std::min<std::size_t>(2, t.size() - c - 1))) !=
                detail::scheme_kind::none)
                return scan_bare(p, c - p, reference_form::absolute, wrapper_kind::url_prefix, u, next);
        }
        return scan_bare(p, 0, reference_form::relative, wrapper_kind::url_prefix, u, next);
    }

    /// An abbreviated URL candidate: the word t[r0, re).
    /// `a` is the anchor that led here, a byte of the run.
    outcome scan_abbreviated(std::size_t r0, std::size_t re, std::size_t a, std::size_t& next) {
        next = 0;
        // Leading brackets, quotes and emphasis marks are not part of the word.
        std::size_t s = r0;
        while (s < re) {
            const auto b = static_cast<unsigned char>(t[s]);
            if (b >= 0x80) {
                bool more = false;
                const char_info c = at(s, more);
                if (c.role == char_role::url) break;
                s += c.len;
                continue;
            }
            if (is_ascii_alnum(static_cast<char>(b))) break;
            ++s;
        }
        if (s >= re) return outcome::done;
        // Appendix F candidates hold a `.` or `@` before any trailing
        // punctuation: a sentence's last word ("end.") is not one.
        std::size_t e = re;
        while (e > s && static_cast<unsigned char>(t[e - 1]) < 0x80 &&
               detail::ascii_role(static_cast<unsigned char>(t[e - 1])) == char_role::trailing)
            --e;
        // Most words that reach here are file names, paths and version
        // numbers: one pass over the host settles them.
        if (settled_without_site(s, e, re)) return outcome::done;
        const bool anchor_inside = a >= s && a < e && (t[a] == '.' || t[a] == '@');
        if (!anchor_inside && !has_dot_or_at(t.substr(s, e - s))) return outcome::done;
        if (!may_hold_site(t.substr(s, e - s))) return outcome::done;
        return scan_bare(s, 0, reference_form::abbreviated, wrapper_kind::none, s, next);
    }

    /// True when the word t[s, re) (t[s, e) without its trailing
    /// punctuation) is certain to be no abbreviated URL: its host has one
    /// label (`libs/fusion/x.cpp`), its last label is no known top-level
    /// domain (`cron.daily`, `BSL-1.0`, `3.1`, `src/x.cc`), or it is a bare
    /// name that complete_abbreviated turns down (`Makefile.in`). Taken
    /// early, and only where scan_bare would hand complete_abbreviated a
    /// token whose host is exactly t[s, h) (Section 4.3.1: the host ends at
    /// `/ ? #` or the end of the token):
    ///  - ASCII without `@` or `:` before h (no mail address, userinfo or
    ///    port) and without `'`, `*` or closing brackets (trim_trailing and
    ///    a bracket that ends the reference cut no more than the trailing
    ///    punctuation);
    ///  - when the host runs to the end of the word, the run cannot go on
    ///    on the next line (continuation(): it does not end in a break
    ///    character, or text follows on the same line).
    bool settled_without_site(std::size_t s, std::size_t e, std::size_t re) {
        // t[e, re) is ASCII sentence punctuation, which trim_trailing takes
        // off again (`path.c:`), so only t[s, e) is looked at.
        std::size_t last_dot = npos;
        std::size_t h = s;
        for (; h < e; ++h) {
            const std::uint8_t k = host_byte_of(t[h]);
            if (k <= host_label) continue;
            if (k == host_dot) last_dot = h;
            else if (k == host_end) break;
            else if (k == host_other) return false;
        }
        // One label and no `@`: neither a domain nor a mail address, however
        // the word goes on (has_dot_or_at and may_hold_site say the same).
        if (last_dot == npos) return true;
        if (h == e && is_break_char(t[re - 1])) {
            std::size_t k = re;
            while (k < t.size() && (t[k] == ' ' || t[k] == '\t')) ++k;
            if (k >= t.size() || t[k] == '\r' || t[k] == '\n') return false;
        }
        if (!may_complete_host(t.substr(s, h - s))) return true;
        // A bare name with a known TLD (`Makefile.in`, `README.md`): the
        // token scan_bare would report is t[s, e) itself, so the full rules
        // can judge it now.
        return h == e && !complete_abbreviated(t.substr(s, e - s), before_on_line(s), opt.abbrev);
    }

    // ----------------------------------------------------- bare references
    /// A bare reference (or one after `URL:`) starting at t[s]: its pieces
    /// run to the end of the run, continue across line breaks where the
    /// continuation rule allows, and lose trailing punctuation.
    /// `scheme_len` is the scheme name's length for an absolute URL.
    /// On `done`, `next` is 0 when nothing was reported.
    outcome scan_bare(std::size_t s, std::size_t scheme_len, reference_form form, wrapper_kind wrapper,
                      std::size_t outer_start, std::size_t& next) {
        const outcome o = scan_bare_pieces(s, scheme_len, form, wrapper, outer_start, next);
        // Only a reported reference that ended at a bracket starts a new run there.
        if (next == 0) closed_at_bracket = false;
        return o;
    }

    outcome scan_bare_pieces(std::size_t s, std::size_t scheme_len, reference_form form, wrapper_kind wrapper,
                             std::size_t outer_start, std::size_t& next) {
        next = 0;
        ref.pieces.clear();
        hyphens.clear();
        const std::size_t limit = opt.max_url_length;
        std::size_t total = 0; // bytes in pieces so far
        std::size_t p = s;
        int url_depth = -1;
        std::array<int, 6> open_count{};
        closed_at_bracket = false;
        for (;;) {
            const std::size_t cap = p + (limit - total) + 1;
            std::size_t e = run_end(p, cap);
            if (e == npos) return outcome::need_more;
            // A closing bracket with no partner inside the URL ends it, even
            // with text right after it: `（http://x/）をご覧ください`.
            const std::size_t x = unbalanced_closer(p, e, open_count);
            if (x != npos) {
                e = x;
                closed_at_bracket = true;
            }
            if (total + (e - p) > limit) {
                if (form == reference_form::abbreviated) {
                    next = 0;
                    return outcome::done; // a word that long is no abbreviation
                }
                return report_truncated(p, limit - total, form, wrapper, outer_start, next);
            }
            if (e == p) {
                next = e;
                break;
            }
            ref.pieces.push_back({base + p, e - p});
            total += e - p;
            // Appendix E: a line break right after a hyphen is not the end;
            // other breaks continue only when the next line looks like the
            // rest of a URL (docs/scanning.md).
            std::size_t cont = 0;
            bool hyphen = false;
            const outcome o = closed_at_bracket
                                  ? outcome::done
                                  : continuation(s, e, url_depth, cont, hyphen);
            if (o == outcome::need_more) return o;
            if (cont == 0) {
                next = e;
                break;
            }
            if (hyphen) hyphens.push_back(total - 1);
            p = cont;
        }
        trim_trailing(scheme_len);
        if (ref.pieces.empty()) {
            next = 0;
            return outcome::done;
        }
        // `http://` alone, `mailto:` alone: no scheme-specific part.
        if (form == reference_form::absolute) {
            std::size_t need = scheme_len + 1;
            if (total_bytes() >= scheme_len + 3 && t[s + scheme_len + 1] == '/' &&
                s + scheme_len + 2 < t.size() && t[s + scheme_len + 2] == '/')
                need = scheme_len + 3;
            if (total_bytes() <= need) {
                next = 0;
                return outcome::done;
            }
            // A host starts with a letter, digit, `[` or `%`: `http://.x`, `http://#` are no URLs.
            if (need == scheme_len + 3) {
                const char h = ref.pieces.size() == 1 || ref.pieces[0].length > need
                                   ? t[static_cast<std::size_t>(ref.pieces[0].offset - base) + need]
                                   : t[static_cast<std::size_t>(ref.pieces[1].offset - base)];
                const bool file = starts_with_nocase(t.substr(s, scheme_len), "file");
                if (h == '.' || h == '-' || h == '#' || h == '?' || (h == '/' && !file)) {
                    next = 0;
                    return outcome::done;
                }
            }
        }
        const std::size_t end_of_run = next;
        // A word that completes to nothing is not a reference; the lines it
        // would have continued on are scanned on their own.
        const emitted e = emit_bare(form, wrapper, outer_start);
        if (e == emitted::need_more) return outcome::need_more;
        next = e == emitted::reported ? end_of_run : 0;
        return outcome::done;
    }

    static int bracket_index(std::int32_t cp) noexcept {
        switch (cp) {
        case '(': return 0;
        case '[': return 1;
        case '{': return 2;
        case 0xFF08: return 3;
        case 0xFF3B: return 4;
        case 0xFF5B: return 5;
        default: return -1;
        }
    }

    /// The first closing bracket in t[p, e) without an opening partner
    /// (counting from earlier pieces in `open_count`), or npos.
    std::size_t unbalanced_closer(std::size_t p, std::size_t e, std::array<int, 6>& open_count) const {
        const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
        for (std::size_t i = p; i < e;) {
            // Only brackets count: skip to the next one, 16 bytes at a time.
            i = detail::forward_to<detail::bracket_bytes>(bytes, i, e, t.size());
            if (i >= e) break;
            const auto b = bytes[i];
            std::int32_t cp = b;
            std::size_t len = 1;
            char_role role;
            if (b < 0x80) {
                role = detail::ascii_role(b);
            } else {
                bool incomplete = false;
                const char_info c = detail::char_at(t, i, incomplete);
                cp = c.cp;
                len = c.len;
                role = c.role;
            }
            if (role == char_role::open) {
                const int k = bracket_index(cp);
                if (k >= 0) ++open_count[static_cast<std::size_t>(k)];
            } else if (role == char_role::close) {
                const int k = bracket_index(detail::opening_partner(cp));
                if (k >= 0) {
                    if (open_count[static_cast<std::size_t>(k)] == 0) return i;
                    --open_count[static_cast<std::size_t>(k)];
                }
            }
            i += len;
        }
        return npos;
    }

    std::size_t total_bytes() const {
        std::size_t n = 0;
        for (const auto& pc : ref.pieces) n += static_cast<std::size_t>(pc.length);
        return n;
    }

    /// Whether a URL with a registered scheme starts anywhere in `word`
    /// (`mailto:x`, or `mailto:` ending a longer run, `URLsmailto:x`): the
    /// scanner reports a reference from there, which a rewrite may change.
    static bool holds_scheme_start(std::string_view word) {
        for (std::size_t colon = word.find(':'); colon != std::string_view::npos; colon = word.find(':', colon + 1)) {
            std::size_t from = colon;
            while (from > 0 && colon - from < detail::max_scheme_length &&
                   detail::is_scheme_char(static_cast<unsigned char>(word[from - 1])))
                --from;
            const std::string_view rest = word.substr(colon + 1);
            for (std::size_t b = from; b < colon; ++b) {
                if (colon - b > detail::max_registered_scheme_length) continue;
                const std::string_view name = word.substr(b, colon - b);
                if (detail::is_registered_scheme(name) && detail::classify_scheme(name, rest) != detail::scheme_kind::none)
                    return true;
            }
        }
        return false;
    }

    /// Whether `word`, the first word of a line, is an abbreviated URL on
    /// its own under the options. It is taken as scan_abbreviated takes it:
    /// without the brackets, quotes and marks before it (`~example.org/x`)
    /// and the sentence punctuation after it. The text before it on its
    /// line (blanks, a quote prefix, those marks) names no word, so none is
    /// passed: a mark such as `#` there could only stop a completion.
    bool completes_alone(std::string_view word) const {
        if (opt.abbrev.kinds == abbrev_none) return false;
        while (!word.empty()) {
            bool incomplete = false;
            const char_info c = detail::char_at(word, 0, incomplete);
            if (c.cp < 0x80 ? is_ascii_alnum(word[0]) : c.role == char_role::url) break;
            word.remove_prefix(c.len);
        }
        while (!word.empty() && std::string_view(".,;:!?'\")]").find(word.back()) != std::string_view::npos)
            word.remove_suffix(1);
        if (word.find_first_of(".@") == std::string_view::npos) return false;
        return complete_abbreviated(word, {}, opt.abbrev).has_value();
    }

    /// At t[e], the end of a piece of the reference starting at t[s]: does
    /// the reference go on on the next line? Sets `cont` to where it goes on
    /// (0: it ends here) and `hyphen` when the hyphen rule joined it.
    outcome continuation(std::size_t s, std::size_t e, int& url_depth, std::size_t& cont, bool& hyphen) {
        cont = 0;
        hyphen = false;
        const char last = t[e - 1];
        if (!is_break_char(last)) return outcome::done;
        const std::size_t n = t.size();
        std::size_t k = e;
        while (k < n && (t[k] == ' ' || t[k] == '\t') && k - e <= max_indent) ++k;
        if (k >= n) return at_end ? outcome::done : outcome::need_more;
        if (t[k] == '\r') {
            ++k;
            if (k >= n) return at_end ? outcome::done : outcome::need_more;
        }
        if (t[k] != '\n') return outcome::done;
        ++k;
        if (url_depth < 0) url_depth = depth_at(s);
        // A mail quote prefix as deep as the URL's own line is skipped.
        if (url_depth > 0) {
            int d = 0;
            std::size_t j = k;
            while (j < n && j - k < max_quote_prefix && (t[j] == '>' || t[j] == ' ' || t[j] == '\t')) {
                if (t[j] == '>') ++d;
                ++j;
            }
            if (j >= n && !at_end) return outcome::need_more;
            if (d != url_depth) return outcome::done;
            k = j;
        } else {
            const std::size_t j0 = k;
            while (k < n && (t[k] == ' ' || t[k] == '\t') && k - j0 <= max_indent) ++k;
        }
        if (k >= n) return at_end ? outcome::done : outcome::need_more;
        // The first word of the next line.
        const std::size_t te = run_end(k, k + opt.max_url_length + 1);
        if (te == npos) return outcome::need_more;
        if (te == k) return outcome::done;
        const std::string_view word = t.substr(k, te - k);
        const char first = word[0];
        if (static_cast<unsigned char>(first) < 0x80 && !is_ascii_alnum(first) && first != '/' && first != '~' &&
            first != '%' && first != '_')
            return outcome::done;
        // A new URL on the next line is not a continuation, and neither is
        // an abbreviated one the options would complete: completing it
        // writes a scheme there, and the reading must not change with that.
        if (word.find("://") != std::string_view::npos || starts_with_nocase(word, "www.") ||
            starts_with_nocase(word, "url:") || holds_scheme_start(word) || completes_alone(word))
            return outcome::done;
        if (last == '-' && e - s > 1) {
            // Appendix E: ignore the whitespace around a break after a hyphen.
            cont = k;
            hyphen = true;
            return outcome::done;
        }
        // After a period the next line usually starts a sentence: only a
        // lower-case or digit start continues (`ds.internic.` + `net/rfc/`).
        if (last == '.' && !((first >= 'a' && first <= 'z') || (first >= '0' && first <= '9'))) return outcome::done;
        // Other breaks: the next word must itself look like URL text.
        bool structural = false;
        for (std::size_t j = 0; j < word.size(); ++j) {
            const char c = word[j];
            if (c == '/' || c == '?' || c == '=' || c == '#' || c == '%') structural = true;
            if (c == '.' && j + 1 < word.size() && is_ascii_alnum(word[j + 1])) structural = true;
        }
        if (structural) cont = k;
        return outcome::done;
    }

    /// Appendix E: sentence punctuation after a bare URL is not part of it,
    /// nor is a closing bracket without an opening partner inside the URL
    /// (so `wiki/Mercury_(planet)` keeps its parenthesis).
    void trim_trailing(std::size_t scheme_len) {
        // Emphasis marks around a URL (`*http://x/*`) are not part of it.
        int emphasis = -1;
        if (!ref.pieces.empty()) {
            const std::size_t s = static_cast<std::size_t>(ref.pieces.front().offset - base);
            const int b = s > 0 ? static_cast<unsigned char>(t[s - 1]) : byte_at(ref.pieces.front().offset - 1);
            if (b == '*') emphasis = b;
        }
        // A possessive `'s` after a URL (`http://x/abc's page`) when the URL
        // has no other apostrophe.
        if (!ref.pieces.empty()) {
            auto& last = ref.pieces.back();
            const std::size_t from = static_cast<std::size_t>(last.offset - base);
            const std::size_t end = from + static_cast<std::size_t>(last.length);
            if (end - from > 2 && t[end - 2] == '\'' && (t[end - 1] == 's' || t[end - 1] == 'S')) {
                std::size_t quotes = 0;
                for (const auto& pc : ref.pieces)
                    quotes += static_cast<std::size_t>(std::count(t.begin() + static_cast<std::ptrdiff_t>(pc.offset - base),
                                                                  t.begin() + static_cast<std::ptrdiff_t>(pc.offset - base + pc.length),
                                                                  '\''));
                if (quotes == 1) last.length -= 2;
            }
        }
        while (!ref.pieces.empty()) {
            auto& last = ref.pieces.back();
            const std::size_t from = static_cast<std::size_t>(last.offset - base);
            std::size_t end = from + static_cast<std::size_t>(last.length);
            while (end > from) {
                const char_info c = detail::char_before(t, end);
                if (c.role == char_role::trailing) {
                    // Keep `mailto:` and the like from losing the colon after the scheme.
                    if (ref.pieces.size() == 1 && end - c.len - from <= scheme_len) break;
                    end -= c.len;
                    continue;
                }
                if (c.cp == emphasis && ref.pieces.size() == 1 && end - 1 - from > scheme_len) {
                    end -= 1;
                    continue;
                }
                if (c.role == char_role::close && !balanced(c.cp, end)) {
                    end -= c.len;
                    continue;
                }
                break;
            }
            last.length = end - from;
            if (last.length == 0) {
                ref.pieces.pop_back();
                continue;
            }
            break;
        }
        // A hyphen that ends the reference is no longer at a line break inside it.
        const std::size_t total = total_bytes();
        while (!hyphens.empty() && hyphens.back() + 1 >= total) hyphens.pop_back();
    }

    /// True when the closing bracket `close` ending at t[end] has an opening
    /// partner earlier in the reference.
    bool balanced(std::int32_t close, std::size_t end) const {
        const std::int32_t open = detail::opening_partner(close);
        long depth_count = 0;
        for (const auto& pc : ref.pieces) {
            std::size_t i = static_cast<std::size_t>(pc.offset - base);
            const std::size_t stop = std::min<std::size_t>(i + static_cast<std::size_t>(pc.length), end);
            while (i < stop) {
                bool incomplete = false;
                const char_info c = detail::char_at(t, i, incomplete);
                if (c.cp == open) ++depth_count;
                else if (c.cp == close) --depth_count;
                i += c.len;
            }
        }
        // The closer at the end is counted: balanced when opens >= closes.
        return depth_count >= 0;
    }

    /// Appendix E gives no length limit, but memory must have one: the
    /// reference is reported cut after `room` more bytes of t[p..], marked
    /// `truncated`, and the rest of its run is skipped.
    outcome report_truncated(std::size_t p, std::size_t room, reference_form form, wrapper_kind wrapper,
                             std::size_t outer_start, std::size_t& next) {
        // Cut at a character boundary.
        std::size_t cut = p + room;
        while (cut > p && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;
        if (cut > p) ref.pieces.push_back({base + p, cut - p});
        ref.truncated = true;
        const emitted result = emit_bare(form, wrapper, outer_start);
        ref.truncated = false;
        if (result == emitted::need_more) return outcome::need_more;
        if (result == emitted::none) {
            next = 0; // not a reference after all: the run is scanned on as usual
            return outcome::done;
        }
        const std::size_t e = run_end(cut);
        if (e == npos) {
            skipping = true;
            next = t.size();
        } else {
            next = e;
        }
        return outcome::done;
    }

    // --------------------------------------------------------- angle brackets
    /// `<` at t[a]. Unless more input is needed, `next` is where scanning
    /// resumes: after the `>` when a reference was reported, else right
    /// after the `<`.
    angle_verdict scan_angle(std::size_t a, std::size_t& next) {
        next = a + 1;
        const std::size_t n = t.size();
        const std::size_t p = a + 1;
        if (p >= n) return at_end ? angle_verdict::no_wrapper : angle_verdict::need_more;
        {
            bool more = false;
            const char_info c = at(p, more);
            if (more) return angle_verdict::need_more;
            if (!is_run_role(c.role)) return angle_verdict::no_wrapper;
        }
        int d = -1; // the `<` line's mail quote depth, found at the first line break
        ref.pieces.clear();
        hyphens.clear();
        std::size_t q = p, piece_start = p;
        bool in_piece = true, saw_break = false;
        std::size_t gt = npos;
        const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
        while (q < n) {
            if (q - p > opt.max_url_length) return angle_verdict::could_wrap;
            const auto b = static_cast<unsigned char>(t[q]);
            if (b < 0x80 && !detail::is_ascii_run_stop(b)) {
                // Text of a piece: on to the next byte that needs a look,
                // 16 at a time; the bound keeps the length check above exact.
                if (!in_piece) {
                    in_piece = true;
                    piece_start = q;
                }
                q = detail::forward_to<detail::run_stop_bytes>(bytes, q + 1, std::min(n, p + opt.max_url_length + 1), n);
                continue;
            }
            if (b == '>') {
                gt = q;
                break;
            }
            if (b == '<') return angle_verdict::no_wrapper;
            char_role role;
            std::size_t len = 1;
            if (b < 0x80) {
                role = detail::ascii_role(b);
                if (role == char_role::delimiter && b != '"' && b != '`') return angle_verdict::no_wrapper;
            } else {
                bool more = false;
                const char_info c = at(q, more);
                if (more) return angle_verdict::need_more;
                if (c.cp < 0) return angle_verdict::no_wrapper; // invalid UTF-8 is never part of a URL
                role = c.role;
                len = c.len;
            }
            if (role == char_role::space) {
                if (in_piece) {
                    ref.pieces.push_back({base + piece_start, q - piece_start});
                    in_piece = false;
                    saw_break = false;
                }
                if (b == '\n') {
                    if (saw_break) return angle_verdict::no_wrapper; // a blank line: this `<` wraps nothing
                    saw_break = true;
                    // Appendix E: the break is whitespace the writer inserted;
                    // a hyphen before it may or may not belong to the URL.
                    if (!ref.pieces.empty()) {
                        const auto& lp = ref.pieces.back();
                        if (t[static_cast<std::size_t>(lp.offset - base + lp.length - 1)] == '-')
                            if (hyphens.empty() || hyphens.back() != ref.pieces.size() - 1)
                                hyphens.push_back(ref.pieces.size() - 1);
                    }
                    if (d < 0) d = depth_at(a);
                    if (d > 0) {
                        // A mail quote prefix as deep as the `<`'s line is part of the break.
                        int dd = 0;
                        std::size_t j = q + 1;
                        while (j < n && j - q - 1 < max_quote_prefix && (t[j] == '>' || t[j] == ' ' || t[j] == '\t')) {
                            if (t[j] == '>') ++dd;
                            ++j;
                        }
                        if (j >= n && !at_end) return angle_verdict::need_more;
                        if (dd == d) {
                            q = j;
                            continue;
                        }
                    }
                }
                q += len;
                continue;
            }
            if (!in_piece) {
                in_piece = true;
                piece_start = q;
            }
            q += len;
        }
        if (gt == npos) return at_end ? angle_verdict::no_wrapper : angle_verdict::need_more;
        if (in_piece && gt > piece_start) ref.pieces.push_back({base + piece_start, gt - piece_start});
        // hyphens[] holds piece indexes so far; convert them after the prefix is removed.
        std::vector<std::size_t> hyphen_pieces;
        hyphen_pieces.swap(hyphens);
        hyphens.clear();
        if (ref.pieces.empty()) return angle_verdict::could_wrap;

        // Appendix E: `<URL:http://x/>`, `<URL: http://x/>`.
        bool prefixed = false;
        {
            auto& f = ref.pieces.front();
            const std::string_view fs = t.substr(static_cast<std::size_t>(f.offset - base), static_cast<std::size_t>(f.length));
            if (starts_with_nocase(fs, "url:")) {
                prefixed = true;
                f.offset += 4;
                f.length -= 4;
                if (f.length == 0) {
                    ref.pieces.erase(ref.pieces.begin());
                    for (auto& h : hyphen_pieces) --h;
                }
            }
        }
        if (ref.pieces.empty()) return angle_verdict::could_wrap;
        std::size_t total = 0;
        for (std::size_t k = 0; k < ref.pieces.size(); ++k) {
            total += static_cast<std::size_t>(ref.pieces[k].length);
            if (std::find(hyphen_pieces.begin(), hyphen_pieces.end(), k) != hyphen_pieces.end() &&
                k + 1 < ref.pieces.size())
                hyphens.push_back(total - 1);
        }
        build_cleaned();
        const std::size_t body_start = static_cast<std::size_t>(ref.pieces.front().offset - base);
        const auto& lastp = ref.pieces.back();
        const std::size_t body_end = static_cast<std::size_t>(lastp.offset - base + lastp.length);

        // A scheme makes it an absolute URL; without one, Appendix F: only
        // something shaped like a reference is resolved against the base.
        reference_form form = reference_form::relative;
        const std::string_view cl = ref.cleaned;
        std::size_t c = 0;
        while (c < cl.size() && c <= detail::max_scheme_length && detail::is_scheme_char(static_cast<unsigned char>(cl[c])))
            ++c;
        bool absolute = false;
        if (c > 0 && c < cl.size() && cl[c] == ':' &&
            detail::classify_scheme(cl.substr(0, c), cl.substr(c + 1)) != detail::scheme_kind::none) {
            absolute = cl.size() > c + 1 && !(cl.size() == c + 3 && cl.substr(c + 1) == "//");
            if (!absolute) return angle_verdict::could_wrap;
            form = reference_form::absolute;
        }
        std::optional<abbrev_match> match;
        if (!absolute) {
            const angle_content kind = prefixed ? angle_content::reference
                                                : classify_angle(t.substr(body_start, body_end - body_start));
            if (prefixed && cl.find('@') != std::string_view::npos && cl.find('/') == std::string_view::npos) {
                match = complete_abbreviated(cl, before_on_line(a), opt.abbrev);
                if (match) form = reference_form::abbreviated;
            } else if (kind == angle_content::address) {
                match = complete_abbreviated(cl, before_on_line(a), opt.abbrev);
                if (!match) return angle_verdict::could_wrap;
                form = reference_form::abbreviated;
            } else if (kind != angle_content::reference) {
                return angle_verdict::could_wrap;
            }
        }
        fill_common(wrapper_kind::angle, base + a, gt + 1 - a);
        ref.form = form;
        if (finish_and_emit(match ? &*match : nullptr) == emitted::need_more) return angle_verdict::need_more;
        next = gt + 1;
        return angle_verdict::reference;
    }

    // ---------------------------------------------------------------- emit
    void build_cleaned() {
        ref.cleaned.clear();
        for (const auto& pc : ref.pieces)
            ref.cleaned.append(t.substr(static_cast<std::size_t>(pc.offset - base), static_cast<std::size_t>(pc.length)));
    }

    void fill_common(wrapper_kind wrapper, std::uint64_t outer_offset, std::uint64_t outer_length) {
        const auto& f = ref.pieces.front();
        const auto& l = ref.pieces.back();
        ref.offset = f.offset;
        ref.length = l.offset + l.length - f.offset;
        ref.raw.assign(t.substr(static_cast<std::size_t>(ref.offset - base), static_cast<std::size_t>(ref.length)));
        ref.wrapper = wrapper;
        ref.outer = {outer_offset, outer_length};
        ref.joined = ref.pieces.size() > 1;
        advance_lines(static_cast<std::size_t>(ref.offset - base));
        ref.line = line;
        ref.column = ref.offset - line_start + 1;
    }

    /// Reports a bare reference (pieces set): `none` when it was not one
    /// after all (a word Appendix F does not complete).
    emitted emit_bare(reference_form form, wrapper_kind wrapper, std::size_t outer_start) {
        build_cleaned();
        std::optional<abbrev_match> match;
        if (form == reference_form::abbreviated) {
            // Appendix F candidates hold a `.` or `@` once trailing punctuation is gone.
            if (!has_dot_or_at(ref.cleaned)) {
                ref.truncated = false;
                return emitted::none;
            }
            const std::size_t s = static_cast<std::size_t>(ref.pieces.front().offset - base);
            match = complete_abbreviated(ref.cleaned, before_on_line(s), opt.abbrev);
            if (!match) {
                ref.truncated = false;
                return emitted::none;
            }
        } else if (form == reference_form::relative) {
            // After `URL:`: a mail address completes (Appendix F); markup is no reference.
            const angle_content kind = classify_angle(ref.cleaned);
            if (kind == angle_content::address) {
                match = complete_abbreviated(ref.cleaned, before_on_line(outer_start), opt.abbrev);
                if (match) form = reference_form::abbreviated;
            } else if (kind != angle_content::reference) {
                // `URL: is optional` is prose; only reference-shaped text follows the prefix.
                return emitted::none;
            }
        }
        const auto& l = ref.pieces.back();
        const std::uint64_t end = l.offset + l.length;
        std::uint64_t outer_offset = base + outer_start;
        std::uint64_t outer_end = end;
        if (wrapper == wrapper_kind::none) {
            // Appendix E: `"http://x/"`: the quotes wrap it.
            const std::size_t s = static_cast<std::size_t>(ref.pieces.front().offset - base);
            const int before = s > 0 ? static_cast<unsigned char>(t[s - 1]) : byte_at(base + s - 1);
            const std::size_t e = static_cast<std::size_t>(end - base);
            // A `"` that closed the previous reference does not open this one.
            if (before == '"' && e < t.size() && t[e] == '"' && !ref.truncated &&
                ref.pieces.front().offset - 1 >= last_outer_end) {
                wrapper = wrapper_kind::quote;
                outer_offset = ref.pieces.front().offset - 1;
                outer_end = end + 1;
            }
        }
        fill_common(wrapper, outer_offset, outer_end - outer_offset);
        ref.form = form;
        return finish_and_emit(match ? &*match : nullptr);
    }

    /// Sets `url`, `alternatives` and `around`, applies the hyphen policy
    /// and calls the sink; `need_more` when the bytes that give the
    /// surroundings are not fed yet.
    emitted finish_and_emit(const abbrev_match* match) {
        if (!read_surroundings()) {
            ref.truncated = false;
            return emitted::need_more;
        }
        ref.alternatives.clear();
        // The other reading of hyphens at line breaks (Appendix E).
        alt.clear();
        if (!hyphens.empty()) {
            std::size_t from = 0;
            for (std::size_t h : hyphens) {
                alt.append(ref.cleaned, from, h - from);
                from = h + 1;
            }
            alt.append(ref.cleaned, from, std::string::npos);
            if (opt.hyphen == hyphen_policy::drop) std::swap(alt, ref.cleaned);
        }
        if (match != nullptr && ref.form == reference_form::abbreviated) {
            ref.url = match->url;
            if (!alt.empty()) {
                auto other = complete_abbreviated(alt, {}, opt.abbrev);
                ref.alternatives.push_back(other ? other->url : alt);
                if (opt.hyphen == hyphen_policy::drop) std::swap(ref.url, ref.alternatives.back());
            }
        } else {
            // Resolution against a base is a later stage (resolve_reference).
            ref.url = ref.cleaned;
            if (!alt.empty()) ref.alternatives.push_back(alt);
        }
        last_outer_end = ref.outer.offset + ref.outer.length;
        if (!sink(ref)) stopped = true;
        ref.truncated = false;
        return emitted::reported;
    }

    /// Fills ref.around from the bytes around the reference; false when
    /// some of them are not fed yet. What is looked at past the reference
    /// is bounded (surroundings_reach), so a reference waits for a few
    /// bytes at most.
    bool read_surroundings() {
        reference_surroundings& s = ref.around;
        const std::uint64_t end = ref.offset + ref.length;
        const std::uint64_t outer_end = ref.outer.offset + ref.outer.length;
        const std::uint64_t fed_end = base + t.size();
        // After the reference: the byte after its span, the first that is
        // no sentence punctuation, and whether a line break follows.
        if (outer_end >= fed_end && !at_end) return false;
        s.after = outer_end < fed_end ? t[static_cast<std::size_t>(outer_end - base)] : '\n';
        std::uint64_t k = end;
        while (k < fed_end && k - end < surroundings_reach &&
               detail::is_trailing_ascii(static_cast<unsigned char>(t[static_cast<std::size_t>(k - base)])))
            ++k;
        if (k >= fed_end && !at_end) return false;
        // Past the reach, the answer that leaves the text alone.
        s.after_punctuation = k - end >= surroundings_reach ? '>' : k < fed_end ? t[static_cast<std::size_t>(k - base)] : '\n';
        // As continuation() looks: blanks, perhaps a CR, then the LF.
        k = end;
        while (k < fed_end && (t[static_cast<std::size_t>(k - base)] == ' ' || t[static_cast<std::size_t>(k - base)] == '\t') &&
               k - end <= max_indent)
            ++k;
        if (k < fed_end && t[static_cast<std::size_t>(k - base)] == '\r') ++k;
        if (k >= fed_end && !at_end) return false;
        s.line_break_after = k < fed_end && t[static_cast<std::size_t>(k - base)] == '\n';
        // Before it.
        s.before = ref.outer.offset == 0 ? '\n' : static_cast<char>(byte_at(ref.outer.offset - 1));
        s.before_punctuation = before_punctuation_at(ref.offset);
        // Its lines: quote depths and the brackets it may sit in.
        const std::size_t start = static_cast<std::size_t>(ref.offset - base);
        s.quote_depth = depth_at(start);
        const auto* nl = static_cast<const char*>(memrchr(ref.raw.data(), '\n', ref.raw.size()));
        s.quote_depth_end = nl == nullptr ? s.quote_depth
                                          : detail::quote_depth_of(std::string_view(ref.raw).substr(
                                                static_cast<std::size_t>(nl - ref.raw.data()) + 1));
        brackets.read_to(t, base, ref.outer.offset);
        if (ref.wrapper == wrapper_kind::angle) brackets.read_angle(false);
        brackets.read_to(t, base, ref.offset);
        s.in_brackets = brackets.in_brackets();
        return true;
    }

    /// The last byte before absolute `at` that is not leading punctuation.
    char before_punctuation_at(std::uint64_t at) const {
        for (std::uint64_t k = at; k > 0; --k) {
            const int b = byte_at(k - 1);
            if (b < 0) return before_punctuation_carried;
            if (!is_leading_punctuation(static_cast<char>(b))) return static_cast<char>(b);
        }
        return '\n';
    }
};

// ------------------------------------------------------------------- scanner

scanner::scanner(scan_options options, reference_sink sink)
    : impl_(std::make_unique<impl>(std::move(options), std::move(sink))) {}
scanner::scanner(scanner&&) noexcept = default;
scanner& scanner::operator=(scanner&&) noexcept = default;
scanner::~scanner() = default;

bool scanner::feed(std::string_view chunk) {
    impl_->feed(chunk);
    return !impl_->stopped;
}

bool scanner::finish() {
    impl_->finish();
    return !impl_->stopped;
}

std::uint64_t scanner::committed_offset() const noexcept { return impl_->buf_offset; }
std::uint64_t scanner::fed_offset() const noexcept { return impl_->fed; }

std::vector<found_reference> scan(std::string_view text, const scan_options& options, const resolver* base) {
    std::vector<found_reference> out;
    scanner s(options, [&out, base](found_reference& r) {
        if (base != nullptr) resolve_reference(r, *base);
        out.push_back(r);
        return true;
    });
    s.feed(text);
    s.finish();
    return out;
}

}  // namespace urlsift
