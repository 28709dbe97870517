// The floor under any document reader built on urlsift's parsers: read
// each file whole (as urlsift extract reads a document), then parse it and
// do nothing else. For Markdown, md4c with the extensions urlsift's reader
// turns on and empty callbacks; for HTML, gumbo's parse and the freeing of
// its tree, with parse errors not recorded as in urlsift's reader. bench/run
// times it beside `urlsift extract --input markdown|html`; what urlsift
// adds is the difference.
//
//   doc_bound markdown|html PATH ...    a directory is read recursively;
//                                       prints files=N bytes=B

#include <gumbo.h>
#include <md4c.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

int on_block(MD_BLOCKTYPE, void*, void*) { return 0; }
int on_span(MD_SPANTYPE, void*, void*) { return 0; }
int on_text(MD_TEXTTYPE, const MD_CHAR*, MD_SIZE, void*) { return 0; }

/// `path`'s bytes into `text`, in one read when the size is right.
bool read_whole(const fs::path& path, std::string& text) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return false;
    struct stat st {};
    text.clear();
    if (::fstat(fd, &st) == 0) text.reserve(static_cast<std::size_t>(st.st_size));
    char buffer[1 << 16];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
        if (n < 0) {
            ::close(fd);
            return false;
        }
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return true;
}

void parse_markdown(const std::string& text) {
    MD_PARSER parser{};
    // As src/formats/markdown.cpp: GitHub's tables, strikethrough and task lists.
    parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS;
    parser.enter_block = on_block;
    parser.leave_block = on_block;
    parser.enter_span = on_span;
    parser.leave_span = on_span;
    parser.text = on_text;
    md_parse(text.data(), static_cast<MD_SIZE>(text.size()), &parser, nullptr);
}

void parse_html(const std::string& text) {
    GumboOptions options = kGumboDefaultOptions;
    options.max_errors = 0;
    GumboOutput* out = gumbo_parse_with_options(&options, text.data(), text.size());
    gumbo_destroy_output(&options, out);
}

}  // namespace

int main(int argc, char** argv) {
    const bool markdown = argc >= 3 && std::strcmp(argv[1], "markdown") == 0;
    if (argc < 3 || (!markdown && std::strcmp(argv[1], "html") != 0)) {
        std::fprintf(stderr, "usage: doc_bound markdown|html PATH ...\n");
        return 2;
    }
    std::vector<fs::path> files;
    for (int i = 2; i < argc; ++i) {
        if (fs::is_directory(argv[i])) {
            for (const auto& e : fs::recursive_directory_iterator(argv[i]))
                if (e.is_regular_file()) files.push_back(e.path());
        } else {
            files.emplace_back(argv[i]);
        }
    }
    std::sort(files.begin(), files.end());
    unsigned long long bytes = 0;
    std::string text;
    for (const fs::path& p : files) {
        if (!read_whole(p, text)) {
            std::fprintf(stderr, "doc_bound: cannot read %s\n", p.c_str());
            return 2;
        }
        bytes += text.size();
        if (markdown)
            parse_markdown(text);
        else
            parse_html(text);
    }
    std::printf("files=%zu bytes=%llu\n", files.size(), bytes);
    return 0;
}
