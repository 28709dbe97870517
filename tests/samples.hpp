#pragma once
// The realistic texts in samples/ with an expected extraction:
// samples/NAME.expected is what `urlsift extract samples/NAME.txt` prints.

#include <array>

namespace urlsift::test {

inline constexpr std::array<const char*, 3> extraction_samples = {"mail-thread", "news-article", "rfc-style"};

}  // namespace urlsift::test
