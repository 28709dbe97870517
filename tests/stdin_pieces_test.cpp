// Standard input arriving in pieces: `extract` and `rewrite` must give the
// same output whatever sizes the reads return, as for the whole file.
// The pieces are written into a pipe with short pauses, so that the tool's
// reads really return partial data, including around its 256 KiB reads.

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <fcntl.h>
#include <random>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace urlsift::test;

namespace {

/// Runs the tool with `args` (a vector, no shell), writing `input` to its
/// standard input `piece` bytes at a time, pausing now and then.
/// Returns its standard output.
std::string run_in_pieces(const std::vector<std::string>& args, const std::string& input, std::size_t piece) {
    const scratch_dir dir;
    const auto out_path = dir.path / "stdout";
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::dup2(fds[0], 0);
        ::close(fds[0]);
        ::close(fds[1]);
        const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(out, 1);
        std::vector<char*> argv;
        std::string path = URLSIFT_CLI_PATH;
        argv.push_back(path.data());
        std::vector<std::string> copies = args;
        for (auto& a : copies) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(path.c_str(), argv.data());
        ::_exit(127);
    }
    ::close(fds[0]);
    std::size_t written = 0, pieces = 0;
    while (written < input.size()) {
        const std::size_t n = std::min(piece, input.size() - written);
        std::size_t done = 0;
        while (done < n) {
            const ssize_t w = ::write(fds[1], input.data() + written + done, n - done);
            if (w <= 0) FAIL("writing to the tool's standard input failed");
            done += static_cast<std::size_t>(w);
        }
        written += n;
        // Pause every so often (and always for large pieces) so the reader
        // drains the pipe and its reads end where these writes end.
        if (++pieces % 512 == 0 || piece >= 4096) std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
    ::close(fds[1]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    return read_file(out_path);
}

/// Text with references of every kind, and near the 256 KiB mark a long
/// word holding `/.`, multibyte characters, a URL broken across lines and
/// `<...>` spanning the mark.
std::string mixed_text() {
    std::mt19937 rng(20261122);
    const std::vector<std::string> words = {
        "the", "see", "http://a.example/x/", "www.example.org/a.b", "日本語", "é", "foo/.bar",
        "<http://x.example/a", "b>", "x.y/z.", "-", "\n", "\n> ", "URL:", "../g", "<../h>", "a.b.c/d/.e",
        "mailto:a@b.example", "(http://w.example/p)", "<URL: http://www.ics.uci.edu/pub/\n ietf/uri/>",
        "http://www.ics.uci.edu/~fielding/pubs/webarch-\nicse2000.pdf", "\"http://q.example/\""};
    std::string text;
    const auto add_until = [&](std::size_t size) {
        while (text.size() < size) {
            text += words[std::uniform_int_distribution<std::size_t>(0, words.size() - 1)(rng)];
            text += " \n"[std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? 1 : 0];
        }
    };
    constexpr std::size_t mark = 256 * 1024;
    add_until(mark - 40);
    text += " http://long.example/" + std::string(30, 'w') + "/./" + "日本語é" + std::string(40, 'z') + " ";
    text += "<http://x.example/a/\n  b/c.html> www.example.org/dir/\nnext/x ";
    add_until(mark + 300 * 1024);
    return text;
}

}  // namespace

TEST_CASE("Standard input read in pieces gives the output of the whole", "[cli][stdin]") {
    const std::string text = mixed_text();
    const std::vector<std::vector<std::string>> commands = {
        {"rewrite", "--base", "http://a/b/c/d;p?q"},
        {"rewrite"},
        {"extract", "--format", "jsonl", "--base", "http://a/b/c/d;p?q"},
        {"extract", "--abbrev", "all"},
    };
    for (const auto& args : commands) {
        std::string joined;
        for (const auto& a : args) joined += shell_quote(a) + ' ';
        // The whole input at once, from a file on standard input.
        const auto whole = run_cli(joined, text).out;
        REQUIRE_FALSE(whole.empty());
        for (const std::size_t piece : {std::size_t{7}, std::size_t{4096}, std::size_t{65536 + 13},
                                        std::size_t{262144 - 5}, std::size_t{262144 + 3}}) {
            DYNAMIC_SECTION(joined << "in pieces of " << piece) { CHECK(run_in_pieces(args, text, piece) == whole); }
        }
    }
}

TEST_CASE("Standard input one byte at a time gives the output of the whole", "[cli][stdin]") {
    const std::string text = "See <http://a.example/x/\n  y.html> and www.example.org/dir/\nnext/page or URL: ../g\n"
                             "> http://q.example/a-\n> b \xe6\x97\xa5\xe6\x9c\xac <../h>.\n";
    for (const std::vector<std::string>& args : {std::vector<std::string>{"rewrite", "--base", "http://a/b/c/d;p?q"},
                                                std::vector<std::string>{"extract", "-n"}}) {
        std::string joined;
        for (const auto& a : args) joined += shell_quote(a) + ' ';
        CHECK(run_in_pieces(args, text, 1) == run_cli(joined, text).out);
    }
}
