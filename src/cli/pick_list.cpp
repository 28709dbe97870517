#include "cli/pick_list.hpp"

#include <algorithm>

namespace urlsift::cli {

namespace {

char fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool contains_folded(std::string_view hay, std::string_view needle) {
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                       [](char a, char b) { return fold(a) == fold(b); }) != hay.end();
}

}  // namespace

bool matches(const pick_item& item, std::string_view query) {
    std::size_t i = 0;
    while (i < query.size()) {
        if (query[i] == ' ') {
            ++i;
            continue;
        }
        std::size_t end = query.find(' ', i);
        if (end == std::string_view::npos) end = query.size();
        const std::string_view word = query.substr(i, end - i);
        if (!contains_folded(item.url, word) && !contains_folded(item.context, word)) return false;
        i = end;
    }
    return true;
}

bool pick_list::add(pick_item item) {
    if (!urls_.insert(item.url).second) return false;
    items_.push_back(std::move(item));
    if (matches(items_.back(), query_)) shown_.push_back(items_.size() - 1);
    return true;
}

void pick_list::set_query(std::string query) {
    const std::size_t was = shown_.empty() ? items_.size() : shown_[cursor_];
    query_ = std::move(query);
    shown_.clear();
    cursor_ = 0;
    for (std::size_t i = 0; i < items_.size(); ++i) {
        if (!matches(items_[i], query_)) continue;
        if (i == was) cursor_ = shown_.size();
        shown_.push_back(i);
    }
}

void pick_list::move_by(long n) noexcept {
    if (shown_.empty()) return;
    const auto last = static_cast<long>(shown_.size() - 1);
    cursor_ = static_cast<std::size_t>(std::clamp(static_cast<long>(cursor_) + n, 0L, last));
}

std::size_t pick_list::window_top(std::size_t top, std::size_t rows) const noexcept {
    if (rows == 0) return cursor_;
    if (cursor_ < top) top = cursor_;
    if (cursor_ >= top + rows) top = cursor_ - rows + 1;
    // No empty rows at the bottom while items above are hidden.
    if (shown_.size() >= rows && top > shown_.size() - rows) top = shown_.size() - rows;
    if (shown_.size() < rows) top = 0;
    return top;
}

}  // namespace urlsift::cli
