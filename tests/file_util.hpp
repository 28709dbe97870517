#pragma once
// Files in tests: read and written whole, and a scratch directory for them.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <unistd.h>

namespace urlsift::test {

inline std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::filesystem::path& p, std::string_view bytes) {
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// A fresh empty directory under the system's temporary directory, removed
/// when the object goes away.
struct scratch_dir {
    std::filesystem::path path;
    scratch_dir() {
        std::string templ = (std::filesystem::temp_directory_path() / "urlsift-test-XXXXXX").string();
        path = ::mkdtemp(templ.data());
    }
    ~scratch_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    scratch_dir(const scratch_dir&) = delete;
    scratch_dir& operator=(const scratch_dir&) = delete;
};

}  // namespace urlsift::test
