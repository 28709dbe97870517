#include "cli/diff.hpp"

#include <algorithm>
#include <cstdint>

namespace urlsift::cli {

namespace {

constexpr std::size_t context = 3;

// A run of whole lines [first, last] of the original touched by edits
// [edit_begin, edit_end).
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

void append_range(std::string& out, std::size_t start, std::size_t count) {
    // Unified diff: 1-based start; an empty range names the line before it.
    out += std::to_string(count == 0 ? start : start + 1);
    out += ',';
    out += std::to_string(count);
}

}  // namespace

void append_unified_diff(std::string& out, std::string_view label, std::string_view original,
                         const std::vector<rewrite_edit>& edits) {
    if (edits.empty()) return;

    // starts[i] is the offset of line i; a sentinel closes the last line.
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < original.size(); ++i)
        if (original[i] == '\n' && i + 1 < original.size()) starts.push_back(i + 1);
    const std::size_t line_count = starts.size();
    starts.push_back(original.size());
    const auto line_of = [&](std::uint64_t offset) {
        return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end() - 1, offset) - starts.begin()) - 1;
    };

    std::vector<region> regions;
    for (std::size_t i = 0; i < edits.size(); ++i) {
        const auto& e = edits[i];
        const std::size_t first = line_of(e.offset);
        const std::size_t last = line_of(e.offset + std::max<std::uint64_t>(e.length, 1) - 1);
        if (!regions.empty() && first <= regions.back().last + 1) {
            regions.back().last = std::max(regions.back().last, last);
            regions.back().edit_end = i + 1;
        } else {
            regions.push_back({first, last, i, i + 1});
        }
    }

    const auto text_of = [&](std::size_t first, std::size_t last) {
        return original.substr(starts[first], starts[last + 1] - starts[first]);
    };
    const auto new_text_of = [&](const region& r) {
        std::string s;
        std::uint64_t at = starts[r.first];
        for (std::size_t i = r.edit_begin; i < r.edit_end; ++i) {
            s.append(original.substr(at, edits[i].offset - at));
            s += edits[i].replacement;
            at = edits[i].offset + edits[i].length;
        }
        s.append(original.substr(at, starts[r.last + 1] - at));
        return s;
    };

    out += "--- a/";
    out += label;
    out += "\n+++ b/";
    out += label;
    out += '\n';

    std::ptrdiff_t delta = 0;  // new line number minus old, before the current hunk
    for (std::size_t h = 0; h < regions.size();) {
        // A hunk takes regions whose context would touch or overlap.
        std::size_t end = h + 1;
        while (end < regions.size() && regions[end].first <= regions[end - 1].last + 2 * context + 1) ++end;
        const std::size_t from = regions[h].first >= context ? regions[h].first - context : 0;
        const std::size_t to = std::min(line_count - 1, regions[end - 1].last + context);

        std::string body;
        std::size_t old_count = 0;
        std::size_t new_count = 0;
        std::size_t line = from;
        std::ptrdiff_t hunk_delta = 0;
        for (std::size_t r = h; r < end; ++r) {
            const auto& reg = regions[r];
            if (reg.first > line) {
                const auto ctx = text_of(line, reg.first - 1);
                append_lines(body, ' ', ctx);
                old_count += reg.first - line;
                new_count += reg.first - line;
            }
            const auto before = text_of(reg.first, reg.last);
            const auto after = new_text_of(reg);
            append_lines(body, '-', before);
            append_lines(body, '+', after);
            old_count += reg.last - reg.first + 1;
            const std::size_t added = count_lines(after);
            new_count += added;
            hunk_delta += static_cast<std::ptrdiff_t>(added) - static_cast<std::ptrdiff_t>(reg.last - reg.first + 1);
            line = reg.last + 1;
        }
        if (line <= to) {
            append_lines(body, ' ', text_of(line, to));
            old_count += to - line + 1;
            new_count += to - line + 1;
        }
        out += "@@ -";
        append_range(out, from, old_count);
        out += " +";
        append_range(out, static_cast<std::size_t>(static_cast<std::ptrdiff_t>(from) + delta), new_count);
        out += " @@\n";
        out += body;
        delta += hunk_delta;
        h = end;
    }
}

}  // namespace urlsift::cli
