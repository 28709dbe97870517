#include <urlsift/rewriter.hpp>

#include <urlsift/normalize.hpp>

#include "scan/line_rules.hpp"
#include "text/char_roles.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

namespace urlsift {

std::optional<rewrite_set> parse_rewrite_list(std::string_view list) {
    if (list == "all") return rewrite_all;
    rewrite_set set = 0;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto name = list.substr(0, comma);
        if (name == "relative") set |= static_cast<rewrite_set>(rewrite_kind::relative);
        else if (name == "abbreviated") set |= static_cast<rewrite_set>(rewrite_kind::abbreviated);
        else if (name == "joined") set |= static_cast<rewrite_set>(rewrite_kind::joined);
        else return std::nullopt;
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
        if (list.empty()) return std::nullopt;  // a trailing comma names nothing
    }
    return set == 0 ? std::nullopt : std::optional(set);
}

namespace {

// What may stand between a URL and the blank before it: `(`, `[`, `{`, `,`, `;`.
constexpr bool is_leading_punctuation(char c) noexcept {
    return c == '(' || c == '[' || c == '{' || c == ',' || c == ';';
}

// Whether a `<...>` put around a URL leaves the text on both sides as it
// was read. Before it: a blank, perhaps followed by opening brackets, `,`
// or `;`; glued to a word (`fhttp://x`, which the scanner reads as
// `http://x`, or `x.org/f[http://y`), the `<` would split that word and
// leave its start to be read on its own. After it: a blank or sentence
// punctuation; a `>` glued to what follows (`ftp://x/y<a@b.example>`)
// would change how that reads.
bool stands_apart(surroundings around) noexcept {
    constexpr std::string_view blanks = " \t\n\r\f\v";
    const bool before = (blanks.find(around.before) != std::string_view::npos ||
                         is_leading_punctuation(around.before)) &&
                        blanks.find(around.before_punctuation) != std::string_view::npos;
    const bool after = blanks.find(around.after) != std::string_view::npos ||
                       detail::is_trailing_ascii(static_cast<unsigned char>(around.after));
    return before && after;
}

using detail::is_break_char;
using detail::max_indent;
using detail::max_quote_prefix;
using detail::quote_depth_of;

bool starts_with_url_prefix(std::string_view s) noexcept {
    constexpr std::string_view prefix = "url:";
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if ((s[i] >= 'A' && s[i] <= 'Z' ? static_cast<char>(s[i] - 'A' + 'a') : s[i]) != prefix[i]) return false;
    return true;
}

}  // namespace

std::optional<rewrite_edit> edit_for(const found_reference& ref, const rewrite_options& options,
                                     surroundings around) {
    // A reference cut at the length limit has no known end, and one that
    // touches a `<` or `>` it is not wrapped by sits in brackets the scanner
    // did not take as a wrapper (too long, unclosed, or holding spaces):
    // rewriting it could change how the brackets read next time, so that a
    // second pass would read the text differently. Leave them as written.
    if (ref.truncated) return std::nullopt;
    if (ref.wrapper != wrapper_kind::angle &&
        (around.before == '<' || around.after_punctuation == '>' || around.in_brackets))
        return std::nullopt;
    // Joining a reference moves the rest of its last line onto its first.
    // A URL continues only onto a line quoted as deep as its own (Appendix
    // E with mail quoting, docs/scanning.md), so when the two depths differ,
    // what follows would be read differently next time.
    if (const auto* nl = static_cast<const char*>(memrchr(ref.raw.data(), '\n', ref.raw.size()));
        nl != nullptr && quote_depth_of(std::string_view(nl + 1, static_cast<std::size_t>(ref.raw.data() + ref.raw.size() - nl - 1))) != around.quote_depth)
        return std::nullopt;
    const auto allowed = [&](rewrite_kind k) { return (options.only & static_cast<rewrite_set>(k)) != 0; };
    const bool joined = ref.pieces.size() > 1;

    // The text the reference should read as, if anything about it changes.
    // A relative reference is rewritten only once a base made it absolute
    // (Section 5.1: without a base it means nothing more than what is written).
    const std::string* target = nullptr;
    std::string normal;
    if (ref.form == reference_form::relative && ref.url != ref.cleaned && allowed(rewrite_kind::relative))
        target = &ref.url;
    else if (ref.form == reference_form::abbreviated && allowed(rewrite_kind::abbreviated))
        target = &ref.url;
    else if (ref.form == reference_form::absolute && options.normalize) {
        // Section 6; a URL the normalizer rejects is left as written.
        if (auto n = normalize(ref.url)) {
            normal = std::move(*n);
            target = &normal;
        } else if (joined && allowed(rewrite_kind::joined)) {
            target = &ref.cleaned;
        }
    }
    // Appendix E: a URL broken across lines is one URL; join its pieces.
    else if (joined && allowed(rewrite_kind::joined))
        target = &ref.cleaned;

    const bool wrap = options.angle_style && ref.wrapper == wrapper_kind::none && stands_apart(around);
    const std::string& text = target != nullptr ? *target : ref.raw;
    if (!wrap && text == ref.raw) return std::nullopt;
    // Appendix E: `URL:` at the start of a reference is its prefix, not part
    // of it. Joining `<U\nRL://x/>` would write one there, and the next pass
    // would read `//x/` behind a prefix.
    if (starts_with_url_prefix(text) && !starts_with_url_prefix(ref.raw)) return std::nullopt;

    rewrite_edit e{ref.offset, ref.length, {}};
    e.replacement.reserve(text.size() + 2);
    if (wrap) e.replacement += '<';
    e.replacement += text;
    if (wrap) e.replacement += '>';
    return e;
}

// The input not yet written out sits in `pending`, from absolute offset
// `pending_start`. Output has been produced for every byte before
// `emitted` (pending_start <= emitted <= pending_start + pending.size()).
// Every input byte is also read once, in order, before it leaves `pending`
// (pending_start <= read): the line and the brackets a reference starts in
// are known from that reading, whatever chunks the input came in.
struct rewriter::impl {
    rewrite_options options;
    text_sink out;
    edit_observer on_edit;
    std::string pending;
    std::uint64_t pending_start = 0;
    std::uint64_t emitted = 0;
    char last_released = '\n';  ///< the input byte just before `pending`
    std::uint64_t edits = 0;
    bool stopped = false;
    bool at_end = false;        ///< finish() was called: all of the input is in `pending`

    // The reading of the input before `read`.
    std::uint64_t read = 0;
    int line_depth = 0;            ///< `>` marks in the quote prefix of the current line so far
    std::size_t prefix_length = 0; ///< bytes of that prefix so far
    bool in_prefix = true;         ///< nothing but the prefix read on the current line yet
    /// before_punctuation_at() for the bytes released from `pending`.
    char released_before_punctuation = '\n';
    bool in_brackets = false;      ///< see surroundings::in_brackets
    int brackets_depth = 0;        ///< quote depth of the line of that `<`
    bool brackets_break = false;   ///< a line break inside the brackets, and only blanks since

    /// An edit held back until the bytes after its reference are in (see settle()).
    std::optional<rewrite_edit> held;

    scanner scan;

    impl(rewrite_options o, text_sink s, edit_observer e)
        : options(std::move(o)), out(std::move(s)), on_edit(std::move(e)),
          scan(options.scan, [this](const found_reference& r) { return on_reference(r); }) {}

    bool write(std::string_view bytes) {
        if (!stopped && !bytes.empty() && !out(bytes)) stopped = true;
        return !stopped;
    }

    // Copies the input through unchanged up to `upto`.
    void copy_to(std::uint64_t upto) {
        if (upto <= emitted) return;
        write(std::string_view(pending).substr(emitted - pending_start, upto - emitted));
        emitted = upto;
    }

    // The input bytes around a reference starting at or after pending_start.
    // Only bytes the scanner has looked at count, so that the answer does
    // not depend on where chunks end: it reports a reference once the end
    // of the word holding it is in (the blank or delimiter after the
    // word, the closing `"` of a quote), or at the end of the input.
    surroundings around(const found_reference& ref) const {
        const byte_range& span = ref.outer;
        surroundings s;
        s.before = span.offset > pending_start ? pending[span.offset - 1 - pending_start] : last_released;
        const std::uint64_t fed = pending_start + pending.size();
        const std::uint64_t end = span.offset + span.length;
        if (end < fed) s.after = pending[end - pending_start];
        std::uint64_t k = ref.offset + ref.length;
        while (k < fed && detail::is_trailing_ascii(byte(k))) ++k;
        if (k < fed) s.after_punctuation = pending[k - pending_start];
        return s;
    }

    std::uint8_t byte(std::uint64_t at) const { return static_cast<std::uint8_t>(pending[at - pending_start]); }

    // Appendix E and 003_*.txt: whether the `<` at `lt`, which the scanner
    // did not take as a wrapper, could become one were the text after it
    // changed. It looks ahead as scan_angle does: a `>` before another `<`,
    // a delimiter or a blank line could close a wrapper, and so could one
    // past where the scanner stopped for length (a rewrite can shorten the
    // text). Having decided this `<`, the scanner has been fed every byte
    // looked at here (up to the end of the input when that came first);
    // where a byte is missing all the same, the answer is yes.
    bool may_become_wrapper(std::uint64_t lt) const {
        using detail::char_role;
        const std::string_view text(pending);
        const std::size_t n = text.size();
        const std::size_t p = static_cast<std::size_t>(lt + 1 - pending_start);
        const std::size_t limit = std::max<std::size_t>(options.scan.max_url_length, 16);
        // The character at text[i]; false when more input could complete it.
        detail::char_info c{};
        const auto decode = [&](std::size_t i) {
            bool incomplete = false;
            c = detail::char_at(text, i, incomplete);
            return !incomplete || at_end;
        };
        if (p >= n || !decode(p)) return !at_end;
        // A `<` followed by a blank or a delimiter wraps nothing.
        if (c.role == char_role::space || c.role == char_role::delimiter) return false;
        bool saw_break = false;
        for (std::size_t q = p;;) {
            if (q >= n) return !at_end;
            if (q - p > limit) return true;
            if (!decode(q)) return true;
            q += c.len;
            if (c.cp == '>') return true;
            if (c.cp == '<' || c.cp < 0) return false;  // invalid UTF-8 is never inside a wrapper
            if (c.cp < 0x80 && c.role == char_role::delimiter && c.cp != '"' && c.cp != '`') return false;
            if (c.role != char_role::space) {
                saw_break = false;
                continue;
            }
            if (c.cp != '\n') continue;
            if (saw_break) return false;  // a blank line
            saw_break = true;
            // A mail quote prefix as deep as the `<`'s line is part of the break.
            if (line_depth > 0) {
                int d = 0;
                std::size_t j = q;
                for (; j < n && j - q < max_quote_prefix && (text[j] == '>' || text[j] == ' ' || text[j] == '\t'); ++j)
                    if (text[j] == '>') ++d;
                if (j >= n && !at_end) return true;
                if (d == line_depth) q = j;
            }
        }
    }

    // The quote prefix of the line ended: a `>` in it closes the brackets
    // unless the prefix is as deep as the `<`'s line (scan_angle skips it).
    void end_prefix() {
        in_prefix = false;
        if (in_brackets && line_depth > 0 && line_depth != brackets_depth) in_brackets = false;
    }

    void read_to(std::uint64_t upto) {
        while (read < upto) {
            if (in_brackets) {
                read_byte(byte(read));
                ++read;
                continue;
            }
            // Outside brackets only the last line start and the next `<`
            // change the reading: each line start resets the same state.
            const char* p = pending.data() + (read - pending_start);
            const auto len = static_cast<std::size_t>(upto - read);
            const auto* lt = static_cast<const char*>(std::memchr(p, '<', len));
            const std::uint64_t stop = read + (lt != nullptr ? static_cast<std::uint64_t>(lt - p) : len);
            if (const auto* nl = static_cast<const char*>(memrchr(p, '\n', static_cast<std::size_t>(stop - read)))) {
                read += static_cast<std::uint64_t>(nl - p);
                read_byte('\n');
                ++read;
            }
            while (read < stop && in_prefix) {
                read_byte(byte(read));
                ++read;
            }
            read = stop;
            if (read == upto) return;
            read_byte(byte(read));  // the `<`
            ++read;
        }
    }

    /// The last input byte before `at` that is not an opening bracket, `,`
    /// or `;` (surroundings::before_punctuation).
    char before_punctuation_at(std::uint64_t at) const {
        for (std::uint64_t k = at; k > pending_start; --k)
            if (const char c = pending[k - 1 - pending_start]; !is_leading_punctuation(c)) return c;
        return released_before_punctuation;
    }

    /// Takes the input byte at `read` into the reading.
    void read_byte(std::uint8_t c) {
        if (in_prefix) {
            if (prefix_length < max_quote_prefix && (c == '>' || c == ' ' || c == '\t')) {
                if (c == '>') ++line_depth;
                ++prefix_length;
                return;
            }
            end_prefix();
        }
        if (c == '\n') {
            if (brackets_break) in_brackets = false;  // a blank line
            brackets_break = in_brackets;
            line_depth = 0;
            prefix_length = 0;
            in_prefix = true;
            return;
        }
        if (c == '<') {
            in_brackets = may_become_wrapper(read);
            brackets_depth = line_depth;
            brackets_break = false;
            return;
        }
        if (!in_brackets) return;
        const detail::char_role role = c < 0x80 ? detail::ascii_role(c) : detail::char_role::url;
        if (c == '>' || (role == detail::char_role::delimiter && c != '"' && c != '`'))
            in_brackets = false;
        else if (role != detail::char_role::space)
            brackets_break = false;
    }

    bool on_reference(const found_reference& ref) {
        read_to(ref.outer.offset);
        if (ref.wrapper == wrapper_kind::angle && read == ref.outer.offset) {
            // A wrapper's `<` ends the brackets open before it and opens none.
            in_brackets = false;
            ++read;
        }
        read_to(ref.offset);
        surroundings s = around(ref);
        s.quote_depth = line_depth;
        s.before_punctuation = before_punctuation_at(ref.offset);
        s.in_brackets = in_brackets;
        if (in_prefix && line_depth > 0 && line_depth != brackets_depth) s.in_brackets = false;
        // Text before this reference shows whether the line ended after a
        // held one; if not, nothing was held for long enough: leave it.
        if (!settle()) held.reset();
        auto e = edit_for(ref, options, s);
        if (!e) return !stopped;
        if (ref.wrapper == wrapper_kind::none || ref.wrapper == wrapper_kind::url_prefix) {
            const char was = ref.raw.empty() ? '\n' : ref.raw.back();
            const char now = e->replacement.back();
            if (is_break_char(now) && (now != was || ref.raw.size() < 2)) {
                held = std::move(*e);
                settle();
                return !stopped;
            }
        }
        apply(*e);
        return !stopped;
    }

    void apply(const rewrite_edit& e) {
        // The scanner reports references in order and never overlapping; an
        // edit behind what is written already would be a scanner fault, and
        // the safe answer to it is to leave the text alone.
        if (e.offset < emitted) return;
        copy_to(e.offset);
        write(e.replacement);
        emitted = e.offset + e.length;
        ++edits;
        if (on_edit) on_edit(e);
    }

    // Appendix E (docs/scanning.md): a bare URL, or one after `URL:`, may
    // continue on the next line when it ends a line in a character a URL is
    // broken after. An edit that makes a reference end in such a character,
    // or another one, is held until the input shows whether a line break
    // follows it; if one does, the reference is left as written, since the
    // next pass could read it as going on. Returns false while the bytes
    // that decide are still to come.
    bool settle() {
        if (!held) return true;
        const std::uint64_t fed = pending_start + pending.size();
        const std::uint64_t end = held->offset + held->length;
        std::uint64_t k = end;
        // As continuation() looks: blanks, perhaps a CR, then the LF.
        while (k < fed && (byte(k) == ' ' || byte(k) == '\t') && k - end <= max_indent) ++k;
        if (k < fed && byte(k) == '\r') ++k;
        if (k >= fed && !at_end) return false;
        const bool line_ends = k < fed && byte(k) == '\n';
        if (!line_ends) apply(*held);
        held.reset();
        return true;
    }

    void release_committed() {
        settle();
        std::uint64_t upto = std::max(emitted, scan.committed_offset());
        if (held) upto = std::min(upto, held->offset);
        copy_to(upto);
        read_to(emitted);
        if (emitted > pending_start) last_released = pending[emitted - 1 - pending_start];
        released_before_punctuation = before_punctuation_at(emitted);
        pending.erase(0, emitted - pending_start);
        pending_start = emitted;
    }
};

rewriter::rewriter(rewrite_options options, text_sink out, edit_observer on_edit)
    : impl_(std::make_unique<impl>(std::move(options), std::move(out), std::move(on_edit))) {}
rewriter::rewriter(rewriter&&) noexcept = default;
rewriter& rewriter::operator=(rewriter&&) noexcept = default;
rewriter::~rewriter() = default;

bool rewriter::feed(std::string_view chunk) {
    auto& m = *impl_;
    if (m.stopped) return false;
    m.pending.append(chunk);
    m.scan.feed(chunk);
    m.release_committed();
    return !m.stopped;
}

bool rewriter::finish() {
    auto& m = *impl_;
    if (m.stopped) return false;
    m.at_end = true;
    m.scan.finish();
    m.settle();
    m.copy_to(m.pending_start + m.pending.size());
    m.pending.clear();
    m.pending_start = m.emitted;
    return !m.stopped;
}

std::uint64_t rewriter::edit_count() const noexcept { return impl_->edits; }

std::string rewrite(std::string_view text, const rewrite_options& options) {
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    rewriter w(options, [&out](std::string_view s) {
        out += s;
        return true;
    });
    w.feed(text);
    w.finish();
    return out;
}

}  // namespace urlsift
