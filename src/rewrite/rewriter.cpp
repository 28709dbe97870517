// The rewriting filter's lossless copy: the input goes out byte for byte,
// but for the references whose edit the policy (edit_policy.cpp) calls for.
// It reads nothing itself: the scanner reports each reference with the
// text around it, and says up to where the input is final.

#include "rewrite/edit_policy.hpp"

#include <urlsift/resolution.hpp>
#include <urlsift/rewriter.hpp>

#include <algorithm>
#include <optional>
#include <utility>

namespace urlsift {

// The input not yet written out sits in `pending`, from absolute offset
// `pending_start`. Output has been produced for every byte before
// `emitted` (pending_start <= emitted <= pending_start + pending.size()).
struct rewriter::impl {
    rewrite_options options;
    text_sink out;
    edit_observer on_edit;
    std::string pending;
    std::uint64_t pending_start = 0;
    std::uint64_t emitted = 0;
    std::uint64_t edits = 0;
    /// The last line of a URL broken across lines and left as written; 0: none.
    std::uint64_t held_line = 0;
    bool stopped = false;
    detail::lone_reading check; ///< the edit policy's
    scanner scan;

    impl(rewrite_options o, text_sink s, edit_observer e)
        : options(for_rewriting(std::move(o))), out(std::move(s)), on_edit(std::move(e)), check(options.scan),
          scan(options.scan, [this](found_reference& r) { return on_reference(r); }) {}

    // The edit policy decides from what surrounds each reference; a
    // second pass must read every reference the first one did.
    static rewrite_options for_rewriting(rewrite_options o) {
        o.scan.surroundings = true;
        o.scan.skip_named_urls = false;
        return o;
    }

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

    bool on_reference(found_reference& ref) {
        if (options.base) resolve_reference(ref, *options.base);
        const bool on_held_line = held_line != 0 && ref.line == held_line;
        const std::optional<rewrite_edit> e = on_held_line ? std::nullopt : detail::edit_for(ref, options, check);
        if (e) apply(*e);
        // Appendix E: a URL broken across lines was continued onto its last
        // line partly because of what the rest of that line holds. Left as
        // written, it is read again next time, so an edit later on that
        // line (`S]c.ee` completed) could end it sooner: leave that line be.
        if (!e && ref.pieces.size() > 1)
            if (const auto breaks = static_cast<std::uint64_t>(std::count(ref.raw.begin(), ref.raw.end(), '\n')))
                held_line = ref.line + breaks;
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

    // Writes out what the scanner has made final and forgets it.
    void release_committed() {
        copy_to(std::max(emitted, scan.committed_offset()));
        pending.erase(0, static_cast<std::size_t>(emitted - pending_start));
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
