// What the rewriting filter changes, reference by reference: the edit
// policy. The lossless copy around the edits is in rewriter.cpp.

#include "rewrite/edit_policy.hpp"

#include <urlsift/normalize.hpp>
#include <urlsift/reference.hpp>
#include <urlsift/warnings.hpp>

#include "text/ascii.hpp"
#include "text/char_roles.hpp"

#include <algorithm>
#include <string_view>

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

// Whether a `<...>` put around a URL leaves the text on both sides as it
// was read. Before it: a blank, perhaps followed by opening brackets, `,`
// or `;`; glued to a word (`fhttp://x`, which the scanner reads as
// `http://x`, or `x.org/f[http://y`), the `<` would split that word and
// leave its start to be read on its own. After it: a blank or sentence
// punctuation, then a blank; a `>` glued to what follows
// (`ftp://x/y<a@b.example>`) would change how that reads: a `[` after its
// punctuation (`http://www.[acl.example/x`) was read as link text, which
// a URL closed by `>` no longer has, and the next item of a list glued to
// it (`P://E,s://i-` + `r`) starts after a word no longer.
bool stands_apart(const reference_surroundings& around) noexcept {
    constexpr std::string_view blanks = " \t\n\r\f\v";
    const bool before = (blanks.find(around.before) != std::string_view::npos ||
                         detail::is_leading_punctuation(around.before)) &&
                        blanks.find(around.before_punctuation) != std::string_view::npos;
    const bool after = (blanks.find(around.after) != std::string_view::npos ||
                        detail::is_trailing_ascii(static_cast<unsigned char>(around.after))) &&
                       blanks.find(around.after_punctuation) != std::string_view::npos;
    return before && after;
}

// Whether `ref`, written as `replacement` (its new text `text`, perhaps
// wrapped), could read differently on the next pass because of what
// surrounds it.
bool changes_next_reading(const found_reference& ref, std::string_view text, std::string_view replacement) {
    const reference_surroundings& around = ref.around;
    // Appendix E: `URL:` at the start of a reference is its prefix, not part
    // of it. Joining `<U\nRL://x/>` would write one there, and the next pass
    // would read `//x/` behind a prefix.
    if (detail::starts_with_url_prefix(text) && !detail::starts_with_url_prefix(ref.raw)) return true;
    // Appendix E (docs/scanning.md): a bare URL, or one after `URL:`, may
    // continue on the next line when it ends a line in a character a URL is
    // broken after. An edit that makes it end in such a character, or in
    // another one, could make the next pass read it as going on.
    if (ref.wrapper == wrapper_kind::none || ref.wrapper == wrapper_kind::url_prefix) {
        const char was = ref.raw.empty() ? '\n' : ref.raw.back();
        const char now = replacement.empty() ? '\n' : replacement.back();
        if (around.line_break_after && detail::is_break_char(now) && (now != was || ref.raw.size() < 2)) return true;
        // A line that ends in a character outside ASCII (`u‐`, U+2010, a
        // typesetter's hyphen) tells how the next line's first word reads;
        // an edit that ends it otherwise (IDNA's `xn--u-0gn`) changes that.
        if (around.line_break_after && static_cast<unsigned char>(was) >= 0x80 &&
            !std::string_view(replacement).ends_with(ref.raw.substr(ref.raw.size() - std::min<std::size_t>(ref.raw.size(), 4))))
            return true;
    }
    return false;
}

// `hostname: 'www.example.org'`, `path: 'www.example.org:80'`: a host in
// single quotes is as often a string in a program as a link, and
// completing it would change what the program does.
bool in_single_quotes(const reference_surroundings& around) noexcept {
    return around.before == '\'' && around.after == '\'';
}

// `[www.openssl.org]` and its definition `[www.openssl.org]: <https://...>`:
// a host that is all of a square-bracketed label is the label a Markdown
// reference link is matched by, letter for letter; completed in one place,
// the link breaks where the label is written another way.
bool is_bracketed_label(const reference_surroundings& around) noexcept {
    return around.before == '[' && around.after == ']';
}

}  // namespace

namespace detail {

bool lone_reading::reads_as_one(std::string_view text) {
    if (scanner_)
        scanner_->reset();
    else
        scanner_.emplace(options_, [this](found_reference& r) {
            if (++found_ == 1) {
                whole_ = r.offset == 0 && r.length == size_;
                form_ = r.form;
            }
            return found_ == 1;  // a second reference settles it
        });
    found_ = 0;
    whole_ = false;
    size_ = text.size();
    scanner_->feed(text);
    scanner_->finish();
    return found_ == 1 && whole_;
}

std::optional<rewrite_edit> edit_for(const found_reference& ref, const rewrite_options& options, lone_reading& check) {
    const reference_surroundings& around = ref.around;
    // A reference cut at the length limit has no known end, and one that
    // touches a `<` or `>` it is not wrapped by sits in brackets the scanner
    // did not take as a wrapper (too long, unclosed, or holding spaces):
    // rewriting it could change how the brackets read next time, so that a
    // second pass would read the text differently. Leave them as written.
    if (ref.truncated) return std::nullopt;
    if (ref.wrapper != wrapper_kind::angle &&
        (around.before == '<' || around.after_punctuation == '>' || around.in_brackets))
        return std::nullopt;
    // A URL broken across lines that was too long to be an abbreviated URL
    // was read line by line instead; completing one of those lines could
    // end the broken URL early next time, and make it short enough.
    if (around.in_longer_reading) return std::nullopt;
    // Joining a reference moves the rest of its last line onto its first.
    // A URL continues only onto a line quoted as deep as its own (Appendix
    // E with mail quoting, docs/scanning.md), so when the two depths differ,
    // what follows would be read differently next time.
    if (around.quote_depth_end != around.quote_depth) return std::nullopt;
    const auto allowed = [&](rewrite_kind k) { return (options.only & static_cast<rewrite_set>(k)) != 0; };
    const bool joined = ref.pieces.size() > 1;
    // A URL broken across lines that starts glued to a word before it
    // (`s://R[a://w-` + `R`): written on one line, the run the two make
    // is read as a whole next time, and otherwise.
    if (joined && is_alnum(around.before_punctuation))
        return std::nullopt;

    // The text the reference should read as, if anything about it changes.
    // A relative reference is rewritten only once a base made it absolute
    // (Section 5.1: without a base it means nothing more than what is
    // written), and never one to the current document (Section 4.2).
    const std::string* target = nullptr;
    if (ref.form == reference_form::relative && ref.url != ref.cleaned && allowed(rewrite_kind::relative) &&
        !is_same_document(ref.cleaned))
        target = &ref.url;
    else if (ref.form == reference_form::abbreviated && allowed(rewrite_kind::abbreviated) && !in_single_quotes(around) &&
             !is_bracketed_label(around))
        target = &ref.url;
    // Appendix E: a URL broken across lines is one URL; join its pieces.
    else if (joined && allowed(rewrite_kind::joined))
        target = &ref.cleaned;

    // Section 6, for an absolute URL and for one the rewrite completes (a
    // completed `WWW.Example.COM/a` would otherwise be normalized by the
    // next pass). A URL the normalizer rejects keeps the form above; so
    // does one whose normal form the scanner would not read as one URL
    // (`https://%2e/x` becomes `https://./x`), which the next pass would
    // read differently.
    std::string normal;
    if (options.normalize && (ref.form == reference_form::absolute || target == &ref.url)) {
        if (auto n = normalize(ref.url); n && (*n == ref.raw || check.reads_as_one(*n))) {
            normal = std::move(*n);
            target = &normal;
        }
    }
    const std::string& text = target != nullptr ? *target : ref.raw;
    // What a join or a completion writes must read back as one URL: a
    // rule that ends a URL inside a line (a `[` that opens link text) would
    // cut a joined text short on the next pass, and an abbreviated word
    // keeps a trailing `[` that a written URL drops. So must a reference
    // resolved after `URL:`, which no brackets hold: `URL:///ws://y`, an
    // empty authority, resolves to `http:///ws://y`, read as `ws://y`.
    const bool resolved_after_prefix =
        ref.form == reference_form::relative && ref.wrapper == wrapper_kind::url_prefix;
    if ((joined || ref.form == reference_form::abbreviated || resolved_after_prefix) && target != nullptr &&
        target != &normal && text != ref.raw) {
        if (!check.reads_as_one(text)) return std::nullopt;
        // A join must also read back in the form it had. Pieces read as a
        // relative reference (`<URL:gttps at:/-` + `/WWW.Example.@O#x>`, a
        // blank inside the scheme) can join into an absolute URL, which the
        // next pass would read as such, and normalize (Section 6).
        if (target == &ref.cleaned && check.form() != ref.form) return std::nullopt;
    }
    // Brackets go only around an absolute URL: `<www.example.org/x>` left
    // uncompleted would read as a relative reference next time.
    const bool absolute = ref.form == reference_form::absolute || (target != nullptr && target != &ref.cleaned);
    const bool wrap = options.angle_style && ref.wrapper == wrapper_kind::none && absolute && stands_apart(around);
    if (!wrap && text == ref.raw) return std::nullopt;
    // Section 7: a join could assemble `javascript:` out of harmless lines;
    // the rewriter never writes a URL that runs code.
    if (is_script_url(text)) return std::nullopt;

    rewrite_edit e{ref.offset, ref.length, {}};
    e.replacement.reserve(text.size() + 2);
    if (wrap) e.replacement += '<';
    e.replacement += text;
    if (wrap) e.replacement += '>';
    if (changes_next_reading(ref, text, e.replacement)) return std::nullopt;
    return e;
}

}  // namespace detail

std::optional<rewrite_edit> edit_for(const found_reference& ref, const rewrite_options& options) {
    detail::lone_reading check(options.scan);
    return detail::edit_for(ref, options, check);
}

}  // namespace urlsift
