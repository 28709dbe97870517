#include <urlsift/rewriter.hpp>

#include <urlsift/normalize.hpp>

#include <algorithm>
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

// Whether a `<...>` put around a URL leaves the text on both sides as it
// was read. Before it: a blank or an opening bracket; glued to a word
// (`fhttp://x`, which the scanner reads as `http://x`), the `<` would split
// that word. After it: a blank or sentence punctuation; a `>` glued to what
// follows (`ftp://x/y<a@b.example>`) would change how that reads.
// What may stand between a URL and what follows it in a sentence.
constexpr std::string_view sentence_punctuation = ".,;:!?)]}'\"";

bool stands_apart(surroundings around) noexcept {
    constexpr std::string_view blanks = " \t\n\r\f\v";
    const bool before = blanks.find(around.before) != std::string_view::npos ||
                        std::string_view("([{,;").find(around.before) != std::string_view::npos;
    const bool after = blanks.find(around.after) != std::string_view::npos ||
                       std::string_view(".,;:!?)]}'").find(around.after) != std::string_view::npos;
    return before && after;
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
    if (ref.wrapper != wrapper_kind::angle && (around.before == '<' || around.after_punctuation == '>'))
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

    rewrite_edit e{ref.offset, ref.length, {}};
    e.replacement.reserve(text.size() + 2);
    if (wrap) e.replacement += '<';
    e.replacement += text;
    if (wrap) e.replacement += '>';
    return e;
}

// The input not yet written out sits in `pending_`, from absolute offset
// `pending_start_`. Output has been produced for every byte before
// `emitted_` (pending_start_ <= emitted_ <= pending_start_ + pending_.size()).
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

    // The input bytes around a span starting at or after pending_start. A
    // reference is reported once a byte after it was seen, or at the end.
    surroundings around(const byte_range& span) const {
        surroundings s;
        s.before = span.offset > pending_start ? pending[span.offset - 1 - pending_start] : last_released;
        const std::uint64_t fed = pending_start + pending.size();
        std::uint64_t end = span.offset + span.length;
        if (end < fed) s.after = pending[end - pending_start];
        while (end < fed && sentence_punctuation.find(pending[end - pending_start]) != std::string_view::npos) ++end;
        if (end < fed) s.after_punctuation = pending[end - pending_start];
        return s;
    }

    bool on_reference(const found_reference& ref) {
        auto e = edit_for(ref, options, around(ref.outer));
        // The scanner reports references in order and never overlapping; an
        // edit behind what is written already would be a scanner fault, and
        // the safe answer to it is to leave the text alone.
        if (!e || e->offset < emitted) return !stopped;
        copy_to(e->offset);
        write(e->replacement);
        emitted = e->offset + e->length;
        ++edits;
        if (on_edit) on_edit(*e);
        return !stopped;
    }

    void release_committed() {
        copy_to(std::max(emitted, scan.committed_offset()));
        if (emitted > pending_start) last_released = pending[emitted - 1 - pending_start];
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
    m.scan.finish();
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
