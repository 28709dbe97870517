#pragma once
// The model of `urlsift pick`: the URLs found, each once, the ones the
// filter leaves shown, and the one selected. No terminal here, so that the
// list, the filter and the movement are tested as plain values.

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace urlsift::cli {

/// A URL of the list, with where it was met.
struct pick_item {
    std::string url;     ///< absolute, as extract prints it
    std::string context; ///< the line it was found on, as read (one line, unescaped)
    std::size_t focus = 0; ///< byte of `context` where the URL starts
};

/// Whether `item` is kept by the filter `query`: every blank-separated word
/// of it is in the URL or in the context, ASCII letters matched without
/// regard to case. An empty query keeps everything.
bool matches(const pick_item& item, std::string_view query);

class pick_list {
public:
    /// Adds the URL unless it is listed already: the first time a URL is met
    /// gives its context, as a reader met it first. Returns whether it was added.
    bool add(pick_item item);

    /// Every URL, in the order first met.
    const std::vector<pick_item>& items() const noexcept { return items_; }

    /// Shows only the items `query` matches. The selection stays on the
    /// same item when that one is still shown, else goes to the first.
    void set_query(std::string query);
    const std::string& query() const noexcept { return query_; }

    /// How many items the filter shows, and the i-th of them.
    std::size_t shown_count() const noexcept { return shown_.size(); }
    const pick_item& shown(std::size_t i) const { return items_[shown_[i]]; }
    /// The position in `items()` of the i-th shown item.
    std::size_t shown_index(std::size_t i) const { return shown_[i]; }

    /// The selected position among the shown items (0 when none is shown).
    std::size_t cursor() const noexcept { return cursor_; }
    /// The selected item; null when the filter shows none.
    const pick_item* selected() const noexcept { return shown_.empty() ? nullptr : &shown(cursor_); }

    /// Moves the selection by `n` (negative: up), stopping at either end.
    void move_by(long n) noexcept;
    void move_to_first() noexcept { cursor_ = 0; }
    void move_to_last() noexcept { cursor_ = shown_.empty() ? 0 : shown_.size() - 1; }

    /// The first shown item of a window of `rows` items that keeps the
    /// selection in view, moving the window from `top` as little as it can.
    std::size_t window_top(std::size_t top, std::size_t rows) const noexcept;

private:
    std::vector<pick_item> items_;
    std::unordered_set<std::string> urls_; ///< the URLs of items_
    std::string query_;
    std::vector<std::size_t> shown_; ///< positions in items_ the filter keeps, ascending
    std::size_t cursor_ = 0;         ///< < shown_.size(), or 0 when it is empty
};

}  // namespace urlsift::cli
