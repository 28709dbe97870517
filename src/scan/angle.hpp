#pragma once
// References in angle brackets (Appendix E; the `<URL:...>` wrapper of
// 003_*.txt): the whitespace inside was inserted by the writer and is
// ignored, and what the brackets hold decides whether they wrap a
// reference (Appendix F, classify_angle). Included by scanner.cpp only.

#include <urlsift/abbrev.hpp>

#include "abbrev/lexicon.hpp"
#include "scan/continuation.hpp"
#include "scan/emit.hpp"
#include "text/ascii.hpp"

#include <algorithm>
#include <vector>

namespace urlsift::detail {

/// What the `<` at an anchor turned out to be.
enum class angle_verdict {
    need_more,   ///< the bytes that decide are not fed yet
    no_wrapper,  ///< nothing a change of the text after it could make a wrapper
    could_wrap,  ///< no wrapper, but a `>` could close one were its content different
    reference,   ///< a wrapper: its reference was reported
};

/// The walk from a `<` to its `>`: the pieces of text between, with the
/// blanks, line breaks and quote prefixes inside left out.
struct angle_walk {
    angle_verdict verdict = angle_verdict::no_wrapper; ///< meaningful when `gt` is npos
    std::size_t gt = npos;                             ///< index of the closing `>`
    std::vector<std::size_t> hyphen_pieces;            ///< pieces that end in a hyphen at a line break
};

/// Appendix E: the line break at t[q] inside brackets opened on a line of
/// quote depth `depth` is whitespace the writer inserted, and so is the
/// next line's quote prefix when it is as deep. Returns the index after
/// what is skipped, or npos when the prefix is not all visible yet.
inline std::size_t skip_break(scan_window& w, std::size_t q, int depth) {
    if (depth <= 0) return q + 1;
    const quote_prefix prefix = w.read_quote_prefix(w.base + q + 1);
    if (!prefix.complete) return npos;
    return prefix.depth == depth ? q + 1 + prefix.length : q + 1;
}

/// Walks from the `<` at t[a] to the `>` that closes it, filling the
/// candidate's pieces. Stops at what rules a wrapper out: another `<`, a
/// delimiter, a blank line, invalid UTF-8, or more than the length limit
/// (which a rewrite could shorten, so the brackets could still wrap).
inline angle_walk walk_angle(scan_parts& p, std::size_t a) {
    scan_window& w = p.w;
    candidate& c = p.cand;
    const std::string_view t = w.t;
    const std::size_t n = t.size();
    const std::size_t from = a + 1;
    const std::size_t limit = p.opt.max_url_length;
    angle_walk walk;
    const auto stop = [&walk](angle_verdict v) {
        walk.verdict = v;
        return walk;
    };
    int depth = -1; // the `<` line's mail quote depth, found at the first line break
    std::size_t q = from, piece_start = from;
    bool in_piece = true, saw_break = false;
    const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
    while (q < n) {
        if (q - from > limit) return stop(angle_verdict::could_wrap);
        const auto b = static_cast<unsigned char>(t[q]);
        if (b < 0x80 && !is_ascii_run_stop(b)) {
            // Text of a piece: on to the next byte that needs a look, 16 at
            // a time; the bound keeps the length check above exact.
            if (!in_piece) {
                in_piece = true;
                piece_start = q;
            }
            q = forward_to<run_stop_bytes>(bytes, q + 1, std::min(n, from + limit + 1), n);
            continue;
        }
        if (b == '>') {
            walk.gt = q;
            break;
        }
        if (b == '<') return stop(angle_verdict::no_wrapper);
        char_role role;
        std::size_t len = 1;
        if (b < 0x80) {
            role = ascii_role(b);
            if (role == char_role::delimiter && b != '"' && b != '`') return stop(angle_verdict::no_wrapper);
        } else {
            bool more = false;
            const char_info ch = w.at(q, more);
            if (more) return stop(angle_verdict::need_more);
            if (ch.cp < 0) return stop(angle_verdict::no_wrapper); // invalid UTF-8 is never part of a URL
            role = ch.role;
            len = ch.len;
        }
        if (role != char_role::space) {
            if (!in_piece) {
                in_piece = true;
                piece_start = q;
            }
            q += len;
            continue;
        }
        if (in_piece) {
            c.pieces.push_back({w.base + piece_start, q - piece_start});
            in_piece = false;
            saw_break = false;
        }
        if (b != '\n') {
            q += len;
            continue;
        }
        if (saw_break) return stop(angle_verdict::no_wrapper); // a blank line: this `<` wraps nothing
        saw_break = true;
        // A typesetter's hyphen at the break belongs to neither line's text.
        if (!c.pieces.empty() && !in_piece) {
            auto& last = c.pieces.back();
            const std::size_t cut = typeset_hyphen_before(t, w.index_of(last.offset + last.length));
            if (cut != 0 && cut < last.length) last.length -= cut;
        }
        // Appendix E: a hyphen before the break may or may not belong to the URL.
        if (!c.pieces.empty() && t[w.index_of(c.end()) - 1] == '-' &&
            (walk.hyphen_pieces.empty() || walk.hyphen_pieces.back() != c.pieces.size() - 1))
            walk.hyphen_pieces.push_back(c.pieces.size() - 1);
        if (depth < 0) depth = w.depth_at(a);
        q = skip_break(w, q, depth);
        if (q == npos) return stop(angle_verdict::need_more);
    }
    if (walk.gt == npos) return stop(w.at_end ? angle_verdict::no_wrapper : angle_verdict::need_more);
    if (in_piece && walk.gt > piece_start) c.pieces.push_back({w.base + piece_start, walk.gt - piece_start});
    return walk;
}

/// Appendix E: `<URL:http://x/>`, `<URL: http://x/>`: the prefix is no
/// part of the reference. Returns whether there was one.
inline bool drop_url_prefix(const scan_window& w, candidate& c, std::vector<std::size_t>& hyphen_pieces) {
    auto& f = c.pieces.front();
    if (!starts_with_url_prefix(w.t.substr(w.index_of(f.offset), static_cast<std::size_t>(f.length)))) return false;
    f.offset += 4;
    f.length -= 4;
    if (f.length == 0) {
        c.pieces.erase(c.pieces.begin());
        if (!hyphen_pieces.empty() && hyphen_pieces.front() == 0) hyphen_pieces.erase(hyphen_pieces.begin());
        for (auto& h : hyphen_pieces) --h;
    }
    return true;
}

/// Whether the joined text starts with a scheme (Section 4.1): -1 when it
/// does but nothing usable follows (`<http://>`), 1 when it does, 0 when not.
/// After `URL:` any name a scheme may be counts: the prefix says a URL
/// follows (`<URL:g:h>`, Section 5's own absolute example); elsewhere a
/// name must be a known scheme or be followed by `//`.
inline int starts_with_scheme(std::string_view joined, bool prefixed) {
    std::size_t c = 0;
    while (c < joined.size() && c <= max_scheme_length && is_scheme_char(static_cast<unsigned char>(joined[c]))) ++c;
    if (c == 0 || c >= joined.size() || joined[c] != ':' || !is_alpha(joined[0])) return 0;
    if (!prefixed && classify_scheme(joined.substr(0, c), joined.substr(c + 1)) == scheme_kind::none) return 0;
    const bool usable = joined.size() > c + 1 && !(joined.size() == c + 3 && joined.substr(c + 1) == "//");
    return usable ? 1 : -1;
}

/// Whether brackets without a scheme, between `before` (their line up to
/// the `<`) and the two bytes `after` and `then` after the `>` (-1 past
/// the end), hold a name from a program, markup or a mail header rather
/// than a reference: `#include <x/y>`, a reST role's target
/// `` :doc:`text </a/b>` ``, `List-Id: <a.b.org>`,
/// `Received: ... <relay.example.org>`, POD's `F</etc/adduser.conf>`, a
/// file in a tool's message `<src/x.1>:20`.
inline bool holds_program_text(text_before line, int after, int then) noexcept {
    std::string_view before = line.text;
    if (after == '`') return true;
    // A line number after the brackets: the file a compiler or groff
    // names in a message (`<stdin>:3:12: error`), not a link.
    if (after == ':' && then >= 0 && is_digit(static_cast<char>(then))) return true;
    // Appendix E's brackets delimit a reference within text, so a blank or
    // punctuation comes before them. Glued to a word, `<` opens a formatting
    // code (POD's B<...>, F<...>, perlpod(1)) or a type argument
    // (`vector<T.h>`); glued to a path, a placeholder in it (`docs/<x.h>`);
    // glued to `=`, a value a program printed (`argc[0]=</home/mtk/x>`,
    // core(5)); glued to `$`, terminfo's padding and make's variable
    // (`$<..>`, terminfo(5)). The `/` also keeps a rewrite's verdict: a name glued to the `<` that
    // is completed and normalized ends in one (`host.example<../x>` becomes
    // `http://host.example/<../x>`), and must not make a wrapper of it then.
    if (!before.empty() &&
        (is_alnum(before.back()) || std::string_view("_/=$").find(before.back()) != std::string_view::npos))
        return true;
    // Glued to a word after it as well: a unit after a placeholder
    // (`age <S.MMM>sec`, ip-tcp_metrics(8)). A digit may follow, a note's number.
    if (after >= 0 && is_alpha(static_cast<char>(after))) return true;
    // Doubled brackets: AsciiDoc's cross reference (`<<Increment/Decrement>>`,
    // `<<install.adoc#,Installing>>`), or a C++ shift around a name.
    if (!before.empty() && before.back() == '<' && after == '>') return true;
    // Alternatives in a syntax (`<realname>|<ext>|<mtime.sec>`, man-db's
    // manual), and a code span or a reST role's target that a backquote
    // opens right before the bracket (`` :meth:`<unittest.TestLoader> x` ``).
    if (after == '|' || (!before.empty() && (before.back() == '|' || before.back() == '`'))) return true;
    const std::string_view field = lexicon::header_field_name(line);
    if (lexicon::is_identifier_header(field) || lexicon::is_trace_header(field)) return true;
    while (!before.empty() && (before.back() == ' ' || before.back() == '\t')) before.remove_suffix(1);
    // The argument of a command's option names what to put there:
    // `tmux -S <tmpfile.tms>`, `curl -o <out.html>`, `'--debug-file <x.txt>'`.
    std::string_view option = before.substr(before.find_last_of(" \t") + 1);  // the last word
    while (!option.empty() && std::string_view("'\"`([").find(option.front()) != std::string_view::npos)
        option.remove_prefix(1);
    if (option.starts_with("--")) option.remove_prefix(1);
    // An option may carry a value (`-std=gnu++98`, `-a/-o`), but a word
    // with a dot may hold a host name, which a rewrite completes and so
    // moves the start of the text before the brackets: `-x\x93host.org/a
    // <.>` would hide `<.>` in one pass and not in the next.
    if (option.size() >= 2 && option[0] == '-' && is_alpha(option[1]) &&
        option.find_first_of(".<>") == std::string_view::npos)
        return true;
    for (const std::string_view directive : {"include", "import", "include_next"}) {
        if (!before.ends_with(directive)) continue;
        std::string_view rest = before.substr(0, before.size() - directive.size());
        while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
        if (rest.ends_with('#')) return true;
    }
    return false;
}

/// `<mailto:xcb at lists.example.org>`, `<jdoe at example dot org>`: blanks
/// around a lone `at` or `dot` spell an address out for human readers;
/// they were not inserted to break a long URL (Appendix E), and joining
/// the pieces would make an address nobody wrote. Such brackets hold a
/// few words on one line; a `<` and a `>` lines apart hold prose.
inline bool spells_out_address(const scan_window& w, const candidate& c, std::size_t lt, std::size_t gt) noexcept {
    constexpr std::size_t most_pieces = 5;
    if (c.pieces.size() < 3 || c.pieces.size() > most_pieces) return false;
    if (w.t.substr(lt, gt - lt).find('\n') != std::string_view::npos) return false;
    for (std::size_t k = 1; k + 1 < c.pieces.size(); ++k) {
        const auto& piece = c.pieces[k];
        const std::string_view word = w.t.substr(w.index_of(piece.offset), static_cast<std::size_t>(piece.length));
        if (iequals(word, "at") || iequals(word, "dot")) return true;
    }
    return false;
}

/// Whether the first `colon` bytes of the joined pieces (a scheme) span a
/// blank within a line. A line break may fall inside a scheme (groff's
/// `<tel‐` + `net://x/>`), but joining `y`, `-`, `look`, `at` and
/// `https://x`, words of prose on three lines, must not make `y-lookathttps:`.
inline bool scheme_spans_a_blank(const scan_window& w, const candidate& c, std::size_t colon) noexcept {
    std::size_t seen = 0;
    for (std::size_t k = 0; k + 1 < c.pieces.size(); ++k) {
        seen += static_cast<std::size_t>(c.pieces[k].length);
        if (seen > colon) return false;
        const std::size_t gap = w.index_of(c.pieces[k].offset + c.pieces[k].length);
        const std::size_t next = w.index_of(c.pieces[k + 1].offset);
        if (w.t.substr(gap, next - gap).find('\n') == std::string_view::npos) return true;
    }
    return false;
}

/// Whether a piece after the first holds `://`: a URL of its own inside
/// brackets whose content has no scheme.
inline bool holds_url_of_its_own(const scan_window& w, const candidate& c) noexcept {
    for (std::size_t k = 1; k < c.pieces.size(); ++k) {
        const auto& piece = c.pieces[k];
        if (w.t.substr(w.index_of(piece.offset), static_cast<std::size_t>(piece.length)).find("://") !=
            std::string_view::npos)
            return true;
    }
    return false;
}

/// Whether a reference starts as only a relative path does: `/ . ? #`.
inline bool starts_like_a_path(std::string_view s) noexcept {
    return !s.empty() && (s[0] == '/' || s[0] == '.' || s[0] == '?' || s[0] == '#');
}

/// `<` at t[a]. Unless more input is needed, `next` is where scanning
/// resumes: after the `>` when a reference was reported, else right
/// after the `<`.
inline angle_verdict scan_angle(scan_parts& p, std::size_t a, std::size_t& next) {
    scan_window& w = p.w;
    candidate& c = p.cand;
    next = a + 1;
    if (a + 1 >= w.size()) return w.at_end ? angle_verdict::no_wrapper : angle_verdict::need_more;
    {
        bool more = false;
        const char_info ch = w.at(a + 1, more);
        if (more) return angle_verdict::need_more;
        if (!is_run_role(ch.role)) return angle_verdict::no_wrapper;
    }
    c.clear();
    angle_walk walk = walk_angle(p, a);
    if (walk.gt == npos) return walk.verdict;
    // From here on the brackets are closed: what they hold decides, and a
    // change to it could make them a wrapper.
    if (c.pieces.empty()) return angle_verdict::could_wrap;
    const bool prefixed = drop_url_prefix(w, c, walk.hyphen_pieces);
    if (c.pieces.empty()) return angle_verdict::could_wrap;
    // Nothing inside is a reference either: neither `mailto:xcb` nor the
    // mailbox's host alone.
    if (spells_out_address(w, c, a, walk.gt)) {
        next = walk.gt + 1;
        return angle_verdict::no_wrapper;
    }
    // hyphen_pieces is ascending: one pass over both keeps a URL of many
    // hyphenated breaks linear.
    std::size_t total = 0;
    auto hyphen = walk.hyphen_pieces.begin();
    for (std::size_t k = 0; k < c.pieces.size(); ++k) {
        total += static_cast<std::size_t>(c.pieces[k].length);
        while (hyphen != walk.hyphen_pieces.end() && *hyphen < k) ++hyphen;
        if (k + 1 < c.pieces.size() && hyphen != walk.hyphen_pieces.end() && *hyphen == k) c.hyphens.push_back(total - 1);
    }
    const std::string& joined = p.out.join(w, c);
    const std::size_t body_start = w.index_of(c.pieces.front().offset);

    // A scheme makes it an absolute URL; without one, Appendix F: only
    // something shaped like a reference is resolved against the base.
    c.form = reference_form::relative;
    std::optional<abbrev_completion> match;
    int scheme = starts_with_scheme(joined, prefixed);
    // Blanks inside brackets are joined only when the joined text is the
    // reference they held: a scheme whose colon comes after a blank on the
    // same line (`<URL:J ://d>`, `<a b:c>`) would be written as one, and
    // read back as an absolute URL that was never there.
    if (scheme != 0 && c.pieces.size() > 1 && scheme_spans_a_blank(w, c, joined.find(':')))
        return angle_verdict::could_wrap;
    if (scheme < 0 || (scheme > 0 && breaks_its_scheme(joined))) return angle_verdict::could_wrap;
    if (scheme > 0) {
        c.form = reference_form::absolute;
    } else if (prefixed) {
        if (joined.find('@') != std::string::npos && joined.find('/') == std::string::npos) {
            match = abbreviated_completion(joined, w.before_on_line(a), p.opt.abbrev);
            if (match) c.form = reference_form::abbreviated;
        }
    } else {
        // Up to the `>`: blanks before it are evidence (`<tmp.pack >out`).
        angle_content kind = classify_angle(w.t.substr(body_start, walk.gt - body_start));
        // Joined, the pieces must still read as a reference: `</strin` and
        // `g>` on two lines are an end tag a line break cut.
        if (kind == angle_content::reference && c.pieces.size() > 1) kind = classify_angle(joined);
        // A later piece that starts a URL of its own: the brackets hold lines
        // of prose around it (`<y` ... `look at https://x/` ... `>0`), not
        // one reference broken across them.
        if (kind == angle_content::reference && holds_url_of_its_own(w, c)) return angle_verdict::could_wrap;
        if (kind == angle_content::reference) {
            const int after = w.byte_at(w.base + walk.gt + 1);
            const int then = after == ':' ? w.byte_at(w.base + walk.gt + 2) : -1;
            if ((after < 0 || (after == ':' && then < 0)) && !w.at_end) return angle_verdict::need_more;
            if (holds_program_text(w.before_on_line(a), after, then)) return angle_verdict::could_wrap;
            // Appendix F says an abbreviated URL cannot be used where a base
            // is defined; writers do it anyway: `ACME <www.acme.com>` means
            // the site, not a path under the base.
            // A kind the options leave out is not read as a path instead.
            if (!p.opt.abbrev.literal_in_brackets && !starts_like_a_path(joined)) {
                abbrev_options any = p.opt.abbrev;
                any.kinds = abbrev_all;
                match = abbreviated_completion(joined, w.before_on_line(a), any);
                if (match && (p.opt.abbrev.kinds & static_cast<abbrev_set>(match->kind)) == 0)
                    return angle_verdict::could_wrap;
                if (match) c.form = reference_form::abbreviated;
                // An IPv4 address names a host (getifaddrs(3)'s `address:
                // <127.0.0.1>`), no path under the base: read at all only
                // when the options ask for addresses (rule "ipv4").
                else if (is_ipv4(joined) && (p.opt.abbrev.kinds & static_cast<abbrev_set>(abbrev_kind::ipv4)) == 0)
                    return angle_verdict::could_wrap;
            }
        }
        if (kind == angle_content::address) {
            match = abbreviated_completion(joined, w.before_on_line(a), p.opt.abbrev);
            if (!match) return angle_verdict::could_wrap;
            c.form = reference_form::abbreviated;
        } else if (kind != angle_content::reference) {
            return angle_verdict::could_wrap;
        }
    }
    c.wrapper = wrapper_kind::angle;
    c.outer_start = w.base + a;
    c.outer_end = w.base + walk.gt + 1;
    if (p.out.emit(w, c, match ? &*match : nullptr) == emitted::need_more) return angle_verdict::need_more;
    next = walk.gt + 1;
    return angle_verdict::reference;
}

}  // namespace urlsift::detail
