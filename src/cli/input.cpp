#include "cli/input.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift::cli {

namespace {

constexpr std::size_t block_size = 1 << 18;  // fits the L2 cache of common processors

struct fd_closer {
    int fd;
    ~fd_closer() {
        if (fd > 0) ::close(fd);
    }
};

}  // namespace

std::string read_chunks(const std::string& path, const std::function<bool(std::string_view)>& on_chunk) {
    int fd = 0;
    if (path != "-") {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return std::strerror(errno);
    }
    fd_closer closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) return "Is a directory";

    auto buf = std::make_unique_for_overwrite<char[]>(block_size);
    for (;;) {
        const ssize_t n = ::read(fd, buf.get(), block_size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return std::strerror(errno);
        }
        if (n == 0) return {};
        if (!on_chunk(std::string_view(buf.get(), static_cast<std::size_t>(n)))) return {};
    }
}

std::vector<std::string> expand_operands(const std::vector<std::string>& operands, bool recursive,
                                         std::vector<input_error>& errors) {
    namespace fs = std::filesystem;
    if (operands.empty()) return {"-"};
    std::vector<std::string> files;
    for (const auto& op : operands) {
        std::error_code ec;
        if (op == "-" || !fs::is_directory(op, ec)) {
            files.push_back(op);
            continue;
        }
        if (!recursive) {
            errors.push_back({op, "Is a directory (use -r to read the files in it)"});
            continue;
        }
        std::vector<std::string> found;
        fs::recursive_directory_iterator it(op, fs::directory_options::skip_permission_denied, ec), end;
        if (ec) {
            errors.push_back({op, ec.message()});
            continue;
        }
        for (; it != end; it.increment(ec)) {
            if (ec) {
                errors.push_back({it->path().string(), ec.message()});
                break;
            }
            std::error_code fec;
            if (it->is_regular_file(fec)) found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

}  // namespace urlsift::cli
