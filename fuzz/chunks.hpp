#pragma once
// How the streaming targets feed their text in chunks. The input chooses the
// boundaries: every so many bytes, or just after each occurrence of one byte
// value, so that a chunk can end exactly at a `<`, a `:`, a `-` or a line end.

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace urlsift::fuzz {

/// Where the text is cut. With `every` > 0, a chunk every `every` bytes;
/// with `every` 0, a chunk ends just after each `after` byte (the last
/// chunk with the text).
struct cuts {
    std::size_t every = 0;
    char after = '\0';
};

/// The whole text as one chunk.
inline cuts whole(std::string_view text) { return {text.size() + 1, '\0'}; }

/// Calls `feed(std::string_view)` once a chunk, in order. Each chunk is an
/// exact-size heap copy, so that sanitizers catch a read past its end.
template <class Feed>
void feed_in_chunks(std::string_view text, cuts c, Feed&& feed) {
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t n = text.size() - at;
        if (c.every != 0) {
            n = std::min(n, c.every);
        } else if (const auto hit = text.find(c.after, at); hit != std::string_view::npos) {
            n = hit + 1 - at;
        }
        const std::string chunk(text.substr(at, n));
        feed(std::string_view(chunk));
        at += n;
    }
}

}  // namespace urlsift::fuzz
