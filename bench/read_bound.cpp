// The lower bound for a scanner: read the file in blocks (as a streaming
// tool would) and find every newline with memchr.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: read_bound FILE\n");
        return 2;
    }
    const int fd = ::open(argv[1], O_RDONLY);
    if (fd < 0) {
        std::perror(argv[1]);
        return 2;
    }
    std::vector<char> buf(1 << 18);
    const auto t0 = std::chrono::steady_clock::now();
    unsigned long long bytes = 0, lines = 0;
    for (;;) {
        const ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0) {
            std::perror("read");
            return 2;
        }
        if (n == 0) break;
        bytes += static_cast<unsigned long long>(n);
        const char* p = buf.data();
        const char* end = p + n;
        while (p < end) {
            const void* q = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
            if (!q) break;
            ++lines;
            p = static_cast<const char*>(q) + 1;
        }
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ::close(fd);
    std::printf("read_bound bytes=%llu lines=%llu seconds=%.6f mb_per_s=%.1f\n", bytes, lines, s,
                static_cast<double>(bytes) / 1e6 / s);
    return 0;
}
