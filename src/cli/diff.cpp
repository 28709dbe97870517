#include "cli/diff.hpp"

#include <algorithm>

namespace urlsift::cli {

namespace {

constexpr std::size_t context = 3;
// Regions this many lines apart or closer share a hunk: their context would meet.
constexpr std::size_t joining_gap = 2 * context + 1;

// A run of whole lines [first, last] (indexes into the held lines) touched
// by edits [edit_begin, edit_end).
struct region {
    std::size_t first;
    std::size_t last;
    std::size_t edit_begin;
    std::size_t edit_end;
};

// Appends each line of `text` with `mark` in front; a last line without a
// newline gets the marker diff and patch expect.
void append_lines(std::string& out, char mark, std::string_view text) {
    while (!text.empty()) {
        const auto nl = text.find('\n');
        const auto line = text.substr(0, nl == std::string_view::npos ? text.size() : nl + 1);
        out += mark;
        out += line;
        if (nl == std::string_view::npos) out += "\n\\ No newline at end of file\n";
        text.remove_prefix(line.size());
    }
}

std::size_t count_lines(std::string_view text) {
    if (text.empty()) return 0;
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + (text.back() == '\n' ? 0 : 1);
}

void append_range(std::string& out, std::int64_t start, std::size_t count) {
    // Unified diff: 1-based start; an empty range names the line before it.
    out += std::to_string(count == 0 ? start : start + 1);
    out += ',';
    out += std::to_string(count);
}

}  // namespace

unified_diff::unified_diff(std::string label, writer write, std::size_t max_held)
    : label_(std::move(label)), write_(std::move(write)), max_held_(max_held), line_starts_{0} {}

void unified_diff::text(std::string_view chunk) {
    const std::uint64_t at = held_start_ + held_.size();
    for (auto nl = chunk.find('\n'); nl != std::string_view::npos; nl = chunk.find('\n', nl + 1))
        line_starts_.push_back(at + nl + 1);
    held_.append(chunk);
}

void unified_diff::edit(const rewrite_edit& e) { pending_.push_back(e); }

std::size_t unified_diff::line_index(std::uint64_t offset) const {
    return static_cast<std::size_t>(std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) -
                                    line_starts_.begin()) - 1;
}

std::size_t unified_diff::last_line_of(const rewrite_edit& e) const {
    // An edit that takes a line feed joins the next line to its own.
    return line_index(e.offset + e.length);
}

bool unified_diff::settle(std::uint64_t offset) {
    // A later edit starts on the line of `offset` or after. The pending
    // edits up to the last gap so wide that no hunk spans it are complete.
    // Gaps between pending edits stay as they are, so each is judged once.
    for (; checked_ + 1 < pending_.size(); ++checked_) {
        const std::size_t last = last_line_of(pending_[checked_]);
        if (line_index(pending_[checked_ + 1].offset) > last + joining_gap) complete_ = checked_ + 1;
    }
    std::size_t complete = complete_;
    if (!pending_.empty() && line_index(offset) > last_line_of(pending_.back()) + joining_gap) complete = pending_.size();
    if (complete > 0) write_hunks(complete, last_line_of(pending_[complete - 1]) + context + 1);
    // Keep the context a later hunk may show before its first edit.
    if (pending_.empty()) {
        const std::size_t next_line = line_index(offset);
        forget_lines_before(next_line > context ? next_line - context : 0);
    }
    return held_.size() <= max_held_;
}

void unified_diff::finish() {
    if (pending_.empty()) return;
    // A final line feed starts no line of its own.
    const bool ends_in_newline = line_starts_.back() == held_start_ + held_.size();
    write_hunks(pending_.size(), line_starts_.size() - (ends_in_newline ? 1 : 0));
}

// Writes the hunks of pending_[0, edit_count), which lie in the held lines
// before `end_line` and share no hunk with a later edit, and forgets those
// lines.
void unified_diff::write_hunks(std::size_t edit_count, std::size_t end_line) {
    // The held text of lines [first, last]; the last line may be unfinished.
    const auto line_start = [&](std::size_t line) {
        return line < line_starts_.size() ? line_starts_[line] : held_start_ + held_.size();
    };
    const auto text_of = [&](std::size_t first, std::size_t last) {
        const std::uint64_t from = line_start(first), to = line_start(last + 1);
        return std::string_view(held_).substr(from - held_start_, to - from);
    };
    const std::size_t line_count = std::min(end_line, line_starts_.size());

    std::vector<region> regions;
    for (std::size_t i = 0; i < edit_count; ++i) {
        // An edit that takes the final line feed ends on the last line.
        const std::size_t first = line_index(pending_[i].offset);
        const std::size_t last = std::min(last_line_of(pending_[i]), line_count - 1);
        if (!regions.empty() && first <= regions.back().last + 1) {
            regions.back().last = std::max(regions.back().last, last);
            regions.back().edit_end = i + 1;
        } else {
            regions.push_back({first, last, i, i + 1});
        }
    }
    const auto new_text_of = [&](const region& r) {
        std::string s;
        std::uint64_t at = line_start(r.first);
        for (std::size_t i = r.edit_begin; i < r.edit_end; ++i) {
            const rewrite_edit& e = pending_[i];
            s.append(std::string_view(held_).substr(at - held_start_, e.offset - at));
            s += e.replacement;
            at = e.offset + e.length;
        }
        const std::uint64_t end = line_start(r.last + 1);
        s.append(std::string_view(held_).substr(at - held_start_, end - at));
        return s;
    };

    // Written in pieces: a hunk of many nearby edits can be as long as the
    // held text, and is not copied whole.
    std::string out;
    const auto flush_if_large = [&] {
        if (out.size() < (1 << 16)) return;
        write_(out);
        out.clear();
    };
    if (!header_written_) {
        out += "--- a/" + label_ + "\n+++ b/" + label_ + '\n';
        header_written_ = true;
    }
    for (std::size_t h = 0; h < regions.size();) {
        std::size_t end = h + 1;
        while (end < regions.size() && regions[end].first <= regions[end - 1].last + joining_gap) ++end;
        const std::size_t from = regions[h].first >= context ? regions[h].first - context : 0;
        const std::size_t to = std::min(line_count - 1, regions[end - 1].last + context);

        // The header counts lines first; the body is made again as it is written.
        const std::size_t old_count = to - from + 1;
        std::int64_t hunk_delta = 0;
        for (std::size_t r = h; r < end; ++r) {
            const region& reg = regions[r];
            hunk_delta += static_cast<std::int64_t>(count_lines(new_text_of(reg))) -
                          static_cast<std::int64_t>(reg.last - reg.first + 1);
        }
        const auto old_start = static_cast<std::int64_t>(first_line_ + from);
        out += "@@ -";
        append_range(out, old_start, old_count);
        out += " +";
        append_range(out, old_start + line_delta_, static_cast<std::size_t>(static_cast<std::int64_t>(old_count) + hunk_delta));
        out += " @@\n";
        std::size_t line = from;
        for (std::size_t r = h; r < end; ++r) {
            const region& reg = regions[r];
            if (reg.first > line) append_lines(out, ' ', text_of(line, reg.first - 1));
            append_lines(out, '-', text_of(reg.first, reg.last));
            append_lines(out, '+', new_text_of(reg));
            line = reg.last + 1;
            flush_if_large();
        }
        if (line <= to) append_lines(out, ' ', text_of(line, to));
        flush_if_large();
        line_delta_ += hunk_delta;
        h = end;
    }
    write_(out);
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(edit_count));
    checked_ = checked_ >= edit_count ? checked_ - edit_count : 0;
    complete_ = complete_ >= edit_count ? complete_ - edit_count : 0;
    forget_lines_before(std::min(end_line, line_starts_.size() - 1));
}

void unified_diff::forget_lines_before(std::size_t line) {
    if (line == 0) return;
    const std::uint64_t start = line_starts_[line];
    held_.erase(0, static_cast<std::size_t>(start - held_start_));
    held_start_ = start;
    first_line_ += line;
    line_starts_.erase(line_starts_.begin(), line_starts_.begin() + static_cast<std::ptrdiff_t>(line));
}

}  // namespace urlsift::cli
