#pragma once
// A unified diff of a text and the edits made to it, written as the text
// streams through.

#include <urlsift/rewriter.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// The diff (3 lines of context) between a text and the text with edits
/// applied, labelled `a/LABEL` and `b/LABEL`, written hunk by hunk as soon
/// as no later edit can join a hunk. Only the lines a hunk may still show
/// are held, so memory follows the longest run of edited lines and their
/// context, not the text. Nothing is written when there are no edits.
///
///     unified_diff d("notes.txt", write, 64 << 20);
///     for each chunk: d.text(chunk); feed the rewriter (edits go to d.edit);
///                     d.settle(offset up to which the rewriter has written);
///     d.finish();
class unified_diff {
public:
    using writer = std::function<void(std::string_view)>;

    unified_diff(std::string label, writer write, std::size_t max_held);

    /// The next bytes of the original text.
    void text(std::string_view chunk);
    /// The next edit, in input order, not overlapping the one before, and
    /// inside the text given so far.
    void edit(const rewrite_edit& e);
    /// No edit will start before `offset`: writes the hunks that are
    /// complete and forgets the lines no hunk will show. Returns false when
    /// more than `max_held` bytes would still have to be held.
    bool settle(std::uint64_t offset);
    /// The text is complete: writes the remaining hunks.
    void finish();

private:
    std::size_t line_index(std::uint64_t offset) const;
    std::size_t last_line_of(const rewrite_edit& e) const;
    void write_hunks(std::size_t edit_count, std::size_t end_line);
    void forget_lines_before(std::size_t line);

    std::string label_;
    writer write_;
    std::size_t max_held_;
    std::string held_;                       ///< the text from the start of line `first_line_`
    std::uint64_t held_start_ = 0;           ///< its offset in the text
    std::uint64_t first_line_ = 0;           ///< its line number, from 0
    std::deque<std::uint64_t> line_starts_;  ///< offsets of the held lines' starts
    std::vector<rewrite_edit> pending_;      ///< edits not yet written
    std::size_t checked_ = 0;                ///< gaps after pending_[0, checked_) are judged
    std::size_t complete_ = 0;               ///< pending_[0, complete_) ends at a gap no hunk spans
    std::int64_t line_delta_ = 0;            ///< new line number minus old, after the hunks written
    bool header_written_ = false;
};

}  // namespace urlsift::cli
