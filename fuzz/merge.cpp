// Fuzz target: `urlsift report --merge`, given a partial report changed in
// any way.
//
// Input: a partial report (the seeds in fuzz/corpus/merge are partials
// `report --partial` wrote, which the fuzzer changes), merged with another
// partial made at start-up (--merge --partial --no-timestamp).
//
// Property checked (merge_check.hpp, as the suite's corruption test): the
// merge is refused (exit status 2, no report, a message naming the input)
// or gives exactly the report the merge of one of the partials `report
// --partial` writes for the seeds' texts gives. A changed partial never
// changes a merged report without a word.

#include "../tests/merge_check.hpp"
#include "fuzz_check.hpp"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

/// The texts whose partials are the seeds; the last is the partial each
/// input is merged with.
constexpr const char* texts[] = {
    "See http://www.example.com/x and <ftp://ftp.example.org/pub/>.\nAnd http://www.example.com/x again, and <../rel/g>.\n",
    "Mail ada@example.net, or see www.example.org/docs/ and http://[2001:db8::1]/ and http://xn--e1afmkfd.example/.\n",
    "More at http://192.168.0.1/admin and http://www.example.com/y\nand mailto:ada@example.net.\n",
};
constexpr std::size_t other = std::size(texts) - 1;

void write(const fs::path& p, std::string_view bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// What `run` returns, run with `file` on standard input.
template <class Run>
auto from_stdin(const fs::path& file, const Run& run) {
    const int saved = ::dup(0), fd = ::open(file.c_str(), O_RDONLY);
    URLSIFT_FUZZ_CHECK(saved >= 0 && fd >= 0);
    ::dup2(fd, 0);
    ::close(fd);
    auto r = run();
    ::dup2(saved, 0);
    ::close(saved);
    return r;
}

const std::vector<std::string> merge_args = {"--merge", "--partial", "--no-timestamp"};

std::vector<std::string> merging(const fs::path& first, const fs::path& second) {
    std::vector<std::string> a = merge_args;
    a.push_back(first.string());
    a.push_back(second.string());
    return a;
}

/// A scratch directory with the partials of `texts` and the merges a
/// changed partial may give (the seeds are the partials of the first two
/// texts, as `urlsift report --partial --no-timestamp - < TEXT` writes
/// them).
struct fixture {
    fs::path dir;
    fs::path input, with, out;
    std::vector<urlsift::test::report_run> valid;

    fixture() {
        std::string templ = (fs::temp_directory_path() / "urlsift-fuzz-merge-XXXXXX").string();
        if (::mkdtemp(templ.data()) == nullptr) std::abort();
        dir = templ;
        input = dir / "input.json";
        with = dir / "with.json";
        out = dir / "out.json";
        std::vector<fs::path> partials;
        for (std::size_t i = 0; i < std::size(texts); ++i) {
            const fs::path text = dir / ("t" + std::to_string(i) + ".txt"), part = dir / ("p" + std::to_string(i) + ".json");
            write(text, texts[i]);
            // From standard input, so that the partial names no path of
            // this run's: the seeds were made the same way.
            const auto made = from_stdin(text, [&] {
                return urlsift::test::report_in_process({"--partial", "--no-timestamp", "-"}, part);
            });
            URLSIFT_FUZZ_CHECK(made.status == 0);
            write(part, made.out);
            partials.push_back(part);
        }
        write(with, read(partials[other]));
        for (std::size_t i = 0; i < other; ++i) {
            valid.push_back(urlsift::test::report_in_process(merging(partials[i], with), out));
            URLSIFT_FUZZ_CHECK(valid.back().status == 0);
        }
    }
    ~fixture() {
        std::error_code gone;
        fs::remove_all(dir, gone);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const fixture f;
    if (size > 64 * 1024) return 0;
    write(f.input, std::string_view(reinterpret_cast<const char*>(data), size));
    const urlsift::test::report_run got = urlsift::test::report_in_process(merging(f.input, f.with), f.out);
    bool kept = false;
    for (const urlsift::test::report_run& v : f.valid)
        if (urlsift::test::judge_merge(got, v, f.input.string()) != urlsift::test::merge_verdict::silent) kept = true;
    if (!kept) std::fprintf(stderr, "merge: status %d, said: %s\n", got.status, got.said.c_str());
    URLSIFT_FUZZ_CHECK(kept);
    return 0;
}
