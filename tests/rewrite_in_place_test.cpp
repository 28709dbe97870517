// rewrite -i on the files sed -i users worry about: special files, links,
// read-only and set-ID files, extended attributes, two runs at once, and a
// run interrupted by a signal.

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <thread>
#include <unistd.h>

using namespace urlsift::test;
namespace fs = std::filesystem;

namespace {

const std::string before = "see www.example.org/a and <../g>\n";
const std::string after = "see http://www.example.org/a and <http://a/g>\n";
const std::string rewrite_i = "rewrite --base http://a/b/ -i";

mode_t mode_of(const fs::path& p) {
    struct stat st {};
    ::lstat(p.c_str(), &st);
    return st.st_mode;
}

// The temporary files an in-place edit leaves in `dir`.
int temporaries_in(const fs::path& dir) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find(".urlsift-") != std::string::npos) ++n;
    return n;
}

}  // namespace

TEST_CASE("rewrite -i refuses files that are not regular, without waiting on them", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto fifo = dir.path / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
    // No writer ever opens the FIFO: opening it for reading would hang.
    const auto r = run_cli(rewrite_i + " " + shell_quote(fifo.string()), "", "timeout 20");
    CHECK(r.status == 2);
    CHECK(r.err.find("not a regular file") != std::string::npos);
    CHECK(S_ISFIFO(mode_of(fifo)));
    const auto dev = run_cli(rewrite_i + " --binary text /dev/null");
    CHECK(dev.status == 2);
    CHECK(dev.err.find("/dev/null: not a regular file") != std::string::npos);
    CHECK(S_ISCHR(mode_of("/dev/null")));
}

TEST_CASE("rewrite -i replaces a symbolic link, or with --follow-symlinks edits its target",
          "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto target = dir.path / "target.txt", link = dir.path / "link.txt";
    write_file(target, before);
    fs::create_symlink("target.txt", link);
    CHECK(run_cli(rewrite_i + " " + shell_quote(link.string())).status == 0);
    CHECK(S_ISREG(mode_of(link)));  // as sed -i does
    CHECK(read_file(link) == after);
    CHECK(read_file(target) == before);

    fs::remove(link);
    fs::create_symlink("target.txt", link);
    CHECK(run_cli(rewrite_i + " --follow-symlinks " + shell_quote(link.string())).status == 0);
    CHECK(S_ISLNK(mode_of(link)));
    CHECK(read_file(target) == after);
}

TEST_CASE("rewrite -i keeps the mode of read-only and set-group-ID files", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto ro = dir.path / "ro.txt", sgid = dir.path / "sgid.txt";
    write_file(ro, before);
    write_file(sgid, before);
    ::chmod(ro.c_str(), 0444);
    ::chmod(sgid.c_str(), 02755);
    const auto r = run_cli(rewrite_i + " " + shell_quote(ro.string()) + " " + shell_quote(sgid.string()));
    CHECK(r.status == 0);
    CHECK(read_file(ro) == after);
    CHECK((mode_of(ro) & 07777) == 0444);
    CHECK(read_file(sgid) == after);
    CHECK((mode_of(sgid) & 07777) == 02755);  // our own file: owner and group kept, so the bit is too
}

TEST_CASE("rewrite -i keeps extended attributes", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "tagged.txt";
    write_file(f, before);
    if (::setxattr(f.c_str(), "user.origin", "mail", 4, 0) != 0) {
        WARN("no user extended attributes on " << dir.path.string() << ": not checked");
        return;
    }
    CHECK(run_cli(rewrite_i + " " + shell_quote(f.string())).status == 0);
    CHECK(read_file(f) == after);
    char value[16] = {};
    CHECK(::getxattr(f.c_str(), "user.origin", value, sizeof value) == 4);
    CHECK(std::string(value) == "mail");
}

TEST_CASE("rewrite -i gives a hard-linked file a new inode, as documented", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto a = dir.path / "a.txt", b = dir.path / "b.txt";
    write_file(a, before);
    fs::create_hard_link(a, b);
    CHECK(run_cli(rewrite_i + " " + shell_quote(a.string())).status == 0);
    CHECK(read_file(a) == after);
    CHECK(read_file(b) == before);
    CHECK(run_cli("rewrite --help").out.find("the other\n    links keep the old text") != std::string::npos);
}

TEST_CASE("two rewrite -i runs on one file take turns", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "shared.txt";
    std::string text;
    for (int i = 0; i < 20000; ++i) text += before;
    const std::string rewritten = [&] {
        std::string s;
        for (int i = 0; i < 20000; ++i) s += after;
        return s;
    }();
    const std::string one = "'" URLSIFT_CLI_PATH "' " + rewrite_i + ".bak " + shell_quote(f.string());
    for (int round = 0; round < 5; ++round) {
        write_file(f, text);
        fs::remove(dir.path / "shared.txt.bak");
        run_shell(one + " & " + one + " & wait");
        INFO("round " << round);
        CHECK(read_file(f) == rewritten);
        // The backup is the original: the second run found nothing to change.
        CHECK(read_file(dir.path / "shared.txt.bak") == text);
    }
}

TEST_CASE("an interrupted rewrite -i leaves the original and no temporary file", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "big.txt";
    std::string unit;
    for (int i = 0; i < 1000; ++i) unit += before;
    // Large enough that the signal comes while the new text is written;
    // doubled until it does on a fast machine.
    bool interrupted = false;
    for (int size = 16; size <= 256 && !interrupted; size *= 2) {
        std::string text;
        for (int i = 0; i < size * 1024 * 1024 / static_cast<int>(unit.size()); ++i) text += unit;
        write_file(f, text);
        const pid_t child = ::fork();
        if (child == 0) {
            ::execl(URLSIFT_CLI_PATH, URLSIFT_CLI_PATH, "rewrite", "-i", "--base", "http://a/b/", f.c_str(),
                    static_cast<char*>(nullptr));
            ::_exit(127);
        }
        REQUIRE(child > 0);
        int status = 0;
        bool done = false;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (temporaries_in(dir.path) == 0 && std::chrono::steady_clock::now() < deadline) {
            if (::waitpid(child, &status, WNOHANG) == child) {
                done = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        if (done) continue;  // finished first: try a larger file
        ::kill(child, SIGTERM);
        ::waitpid(child, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;  // finished first after all
        interrupted = true;
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == SIGTERM);
        CHECK(temporaries_in(dir.path) == 0);
        CHECK(read_file(f) == text);
    }
    CHECK(interrupted);
}

TEST_CASE("a temporary file left by a killed rewrite -i is no input to -r", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    write_file(dir.path / "a.txt", "http://example.org/a\n");
    write_file(dir.path / ".a.txt.urlsift-Ab12Cd", "http://example.org/half-written\n");
    const auto r = run_cli("extract -r " + shell_quote(dir.path.string()));
    CHECK(r.status == 0);
    CHECK(r.out.find("http://example.org/a\n") != std::string::npos);
    CHECK(r.out.find("half-written") == std::string::npos);
}
