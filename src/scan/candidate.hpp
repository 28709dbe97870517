#pragma once
// What the delimiting rules hand each other: a candidate reference being
// built, and the verdict a rule returns. Included by scanner.cpp only.

#include <urlsift/found_reference.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace urlsift::detail {

/// A reference as the rules delimit it, before it is reported.
///
///     ...warning in <URL:http://www.ics.uci.edu/pub/\n ietf/uri/x.html>.
///                   ^ outer_start  |<- pieces[0] ->|   |<-pieces[1]->| ^ outer_end
struct candidate {
    std::vector<byte_range> pieces;     ///< source ranges of the text, in absolute offsets
    /// Hyphens at line breaks inside it (Appendix E), as indexes in the
    /// joined text: each one's other reading drops it.
    std::vector<std::size_t> hyphens;
    std::size_t scheme_length = 0;      ///< of an absolute URL's scheme name
    reference_form form = reference_form::absolute;
    wrapper_kind wrapper = wrapper_kind::none;
    std::uint64_t outer_start = 0;      ///< absolute start of the span with its wrappers
    std::uint64_t outer_end = 0;        ///< absolute end of that span (a bare URL: its end)
    bool truncated = false;             ///< cut at the length limit

    void clear() noexcept {
        pieces.clear();
        hyphens.clear();
        scheme_length = 0;
        truncated = false;
    }

    /// Bytes in all pieces.
    std::size_t total() const noexcept {
        std::size_t n = 0;
        for (const auto& p : pieces) n += static_cast<std::size_t>(p.length);
        return n;
    }
    /// Absolute end of the last piece.
    std::uint64_t end() const noexcept { return pieces.back().offset + pieces.back().length; }
};

/// What a delimiting rule decided about the text at an anchor.
struct verdict {
    enum class kind : std::uint8_t {
        none,      ///< no reference here
        need_more, ///< the bytes that decide are not fed yet
        reference, ///< a reference was reported
    };
    kind what = kind::none;
    /// none, reference: the index where scanning resumes (for `none` from
    /// an inner rule, 0: the caller decides). need_more: the index where
    /// the carried bytes must start.
    std::size_t at = 0;
    /// reference: it ended at a closing bracket without a partner, so the
    /// text after it starts a new run.
    bool new_run = false;
    /// reference: it was cut at the length limit and the rest of its run
    /// lies past the visible bytes; scanning skips to the run's end.
    bool skip_rest = false;

    static constexpr verdict nothing(std::size_t resume = 0) noexcept { return {kind::none, resume, false, false}; }
    static constexpr verdict more(std::size_t stop) noexcept { return {kind::need_more, stop, false, false}; }
    static constexpr verdict reported(std::size_t resume, bool new_run = false) noexcept {
        return {kind::reference, resume, new_run, false};
    }
    bool needs_more() const noexcept { return what == kind::need_more; }
    bool found() const noexcept { return what == kind::reference; }
};

}  // namespace urlsift::detail
