#pragma once
// Reading bytes through the input stage (text_source) in a test: the
// bytes go to a scratch file, and the text handed on is kept whole.

#include "file_util.hpp"

#include <urlsift/text_source.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

namespace urlsift::test {

struct read_back {
    text_read result;
    std::string text;
};

inline read_back read_through(text_options options, std::string_view bytes) {
    const scratch_dir dir;
    const auto path = dir.path / "input";
    write_file(path, bytes);
    std::string error;
    auto source = text_source::open(std::move(options), error);
    REQUIRE(source);
    read_back r;
    r.result = source->read_file(path.string(), [&r](std::string_view chunk) {
        r.text += chunk;
        return true;
    });
    return r;
}

}  // namespace urlsift::test
