#pragma once
// Reports made and read in tests.

#include <urlsift/report.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace urlsift::test {

/// The count of `key` in table `t`; 0 when it is not there.
inline std::uint64_t count_of(const report& r, report_table t, std::string_view key) {
    for (const auto& row : r.rows(t))
        if (row.key == key) return row.count;
    return 0;
}

/// A report over `n` inputs; input `i` names URLs `i * step` to
/// `i * step + width - 1`, so that neighbouring inputs share some.
inline report numbered_urls(std::size_t from, std::size_t to, std::uint64_t limit, std::size_t step = 700,
                            std::size_t width = 1000) {
    report r(limit);
    for (std::size_t i = from; i < to; ++i) {
        const auto in = r.add_input("u" + std::to_string(i));
        for (std::size_t k = 0; k < width; ++k) {
            urlsift::found_reference ref;
            ref.url = "http://h" + std::to_string(k % 7) + ".example/p/" + std::to_string(i * step + k);
            ref.line = k + 1;
            r.add(in, ref);
        }
        r.finish_input(in, width * 30, urlsift::input_status::read);
    }
    return r;
}

}  // namespace urlsift::test
