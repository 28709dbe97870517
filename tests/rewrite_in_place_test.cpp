// rewrite -i on the files sed -i users worry about: special files, links,
// read-only and set-ID files, extended attributes and ACLs, two runs at
// once, a run interrupted by a signal, and what a killed run left behind.

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <initializer_list>
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

struct stat status_of(const fs::path& p) {
    struct stat st {};
    ::lstat(p.c_str(), &st);
    return st;
}

mode_t mode_of(const fs::path& p) { return status_of(p).st_mode; }

// The temporary files an in-place edit leaves in `dir`.
int temporaries_in(const fs::path& dir) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find(".urlsift-") != std::string::npos) ++n;
    return n;
}

// `unit` `times` times over.
std::string many(const std::string& unit, int times) {
    std::string s;
    s.reserve(unit.size() * static_cast<std::size_t>(times));
    for (int i = 0; i < times; ++i) s += unit;
    return s;
}

// Starts `urlsift rewrite --base http://a/b/ -iSUFFIX FILE` and returns its
// process ID, without waiting for it.
pid_t start_rewrite_i(const fs::path& file, const std::string& suffix = "") {
    const std::string in_place = "-i" + suffix;
    const pid_t child = ::fork();
    if (child == 0) {
        ::execl(URLSIFT_CLI_PATH, URLSIFT_CLI_PATH, "rewrite", "--base", "http://a/b/", in_place.c_str(), file.c_str(),
                static_cast<char*>(nullptr));
        ::_exit(127);
    }
    return child;
}

// Waits until `child`, editing a file in `dir`, has made its temporary file
// (true), or has ended first (false, its wait status in `status`).
bool temporary_appears(const fs::path& dir, pid_t child, int& status) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (temporaries_in(dir) == 0 && std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(child, &status, WNOHANG) == child) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

// Reads a file of many megabytes: one read, not a character at a time, so
// that comparing it stays quick in a debug build.
std::string read_big_file(const fs::path& p) {
    std::string bytes(static_cast<std::size_t>(fs::file_size(p)), '\0');
    std::ifstream(p, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return bytes;
}

// Another user's files need root to make, and setpriv to run urlsift as
// `nobody_uid`; `other_uid` owns them, and `other_gid` is a group that
// nobody is given as a supplementary group.
constexpr uid_t nobody_uid = 65534;
constexpr uid_t other_uid = 4243;
constexpr gid_t other_gid = 4242;
const std::string as_nobody = "setpriv --reuid=" + std::to_string(nobody_uid) +
                              " --regid=" + std::to_string(nobody_uid) + " --groups=" + std::to_string(other_gid);

bool can_run_as_nobody() { return ::geteuid() == 0 && ::access("/usr/bin/setpriv", X_OK) == 0; }

// A directory inside `dir` that nobody owns (so nobody can write in it).
fs::path nobody_directory(const scratch_dir& dir) {
    ::chmod(dir.path.c_str(), 0755);
    const auto sub = dir.path / "nobody";
    fs::create_directory(sub);
    REQUIRE(::chown(sub.c_str(), nobody_uid, nobody_uid) == 0);
    return sub;
}

// A POSIX ACL as Linux stores it in system.posix_acl_access/_default:
// version 2, then (tag, permissions, id) entries sorted by tag, all little-endian.
enum acl_tag : std::uint16_t { user_obj = 0x01, user = 0x02, group_obj = 0x04, mask = 0x10, other = 0x20 };
struct acl_entry {
    acl_tag tag;
    std::uint16_t perm;
    std::uint32_t id = 0xFFFFFFFF;
};

std::string acl_xattr(std::initializer_list<acl_entry> entries) {
    std::string blob;
    const auto put = [&blob](std::uint32_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) blob += static_cast<char>((v >> (8 * i)) & 0xFF);
    };
    put(2, 4);
    for (const auto& e : entries) {
        put(e.tag, 2);
        put(e.perm, 2);
        put(e.id, 4);
    }
    return blob;
}

// Reads extended attribute `name` of `p` into `value`; false when it has none.
bool get_xattr(const fs::path& p, const char* name, std::string& value) {
    std::array<char, 256> buf{};
    const ssize_t n = ::getxattr(p.c_str(), name, buf.data(), buf.size());
    if (n < 0) return false;
    value.assign(buf.data(), static_cast<std::size_t>(n));
    return true;
}

}  // namespace

TEST_CASE("rewrite -i refuses a FIFO without waiting for a writer", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto fifo = dir.path / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
    // No writer ever opens the FIFO: opening it for reading would hang.
    const auto r = run_cli(rewrite_i + " " + shell_quote(fifo.string()), "", "timeout 10");
    CHECK(r.status == 2);
    CHECK(r.err.find("not a regular file") != std::string::npos);
    CHECK(r.err.find("left unchanged") != std::string::npos);
    CHECK(S_ISFIFO(mode_of(fifo)));
    CHECK(temporaries_in(dir.path) == 0);
}

TEST_CASE("rewrite -i refuses devices, also through a symbolic link", "[cli][rewrite][in-place]") {
    const auto null = run_cli(rewrite_i + " --binary text /dev/null");
    CHECK(null.status == 2);
    CHECK(null.err.find("/dev/null: not a regular file") != std::string::npos);
    CHECK(S_ISCHR(mode_of("/dev/null")));
    // Read as text, /dev/zero never ends: it must be refused before reading.
    const auto zero = run_cli(rewrite_i + " --binary text /dev/zero", "", "timeout 10");
    CHECK(zero.status == 2);
    CHECK(zero.err.find("/dev/zero: not a regular file") != std::string::npos);

    const scratch_dir dir;
    const auto link = dir.path / "null-link";
    fs::create_symlink("/dev/null", link);
    CHECK(run_cli(rewrite_i + " " + shell_quote(link.string())).status == 2);
    CHECK(S_ISLNK(mode_of(link)));
    CHECK(S_ISCHR(mode_of("/dev/null")));
}

TEST_CASE("rewrite -i replaces a symbolic link by a regular file, as sed -i does", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto target = dir.path / "target.txt", link = dir.path / "link.txt";
    write_file(target, before);
    fs::create_symlink("target.txt", link);
    CHECK(run_cli(rewrite_i + " " + shell_quote(link.string())).status == 0);
    CHECK(S_ISREG(mode_of(link)));
    CHECK(read_file(link) == after);
    CHECK(read_file(target) == before);
}

TEST_CASE("rewrite -i --follow-symlinks edits the file a link names", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    fs::create_directory(dir.path / "real");
    const auto target = dir.path / "real" / "target.txt", link = dir.path / "link.txt";
    write_file(target, before);
    fs::create_symlink("real/target.txt", link);
    CHECK(run_cli(rewrite_i + ".bak --follow-symlinks " + shell_quote(link.string())).status == 0);
    CHECK(S_ISLNK(mode_of(link)));
    CHECK(read_file(target) == after);
    // The backup and the temporary file go beside the file edited.
    CHECK(read_file(dir.path / "real" / "target.txt.bak") == before);
    CHECK(!fs::exists(dir.path / "link.txt.bak"));
    CHECK(temporaries_in(dir.path / "real") == 0);
}

TEST_CASE("rewrite -i edits a read-only file and keeps its mode", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto ro = dir.path / "ro.txt";
    write_file(ro, before);
    ::chmod(ro.c_str(), 0444);
    CHECK(run_cli(rewrite_i + " " + shell_quote(ro.string())).status == 0);
    CHECK(read_file(ro) == after);
    CHECK((mode_of(ro) & 07777) == 0444);
}

TEST_CASE("rewrite -i keeps the set-group-ID bit along with the owner", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "sgid.txt";
    write_file(f, before);
    ::chmod(f.c_str(), 02755);
    if ((mode_of(f) & 02000) == 0) {
        WARN("cannot set the set-group-ID bit in " << dir.path.string() << ": not checked");
        return;
    }
    CHECK(run_cli(rewrite_i + " " + shell_quote(f.string())).status == 0);
    CHECK(read_file(f) == after);
    CHECK((mode_of(f) & 07777) == 02755);  // our own file: owner and group kept, so the bit is too
}

TEST_CASE("rewrite -i of another user's file drops its set-ID bits and keeps its group",
          "[cli][rewrite][in-place]") {
    if (!can_run_as_nobody()) {
        WARN("needs root and setpriv to edit another user's file: not checked");
        return;
    }
    const scratch_dir dir;
    const auto sub = nobody_directory(dir);
    const auto f = sub / "setid.txt";
    write_file(f, before);
    REQUIRE(::chown(f.c_str(), other_uid, other_gid) == 0);
    REQUIRE(::chmod(f.c_str(), 06755) == 0);
    const auto r = run_cli(rewrite_i + " " + shell_quote(f.string()), "", as_nobody);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(read_file(f) == after);
    const struct stat st = status_of(f);
    CHECK(st.st_uid == nobody_uid);  // as with any editor's save
    CHECK(st.st_gid == other_gid);   // nobody is in that group
    CHECK((st.st_mode & 07777) == 0755);
}

TEST_CASE("rewrite -iSUFFIX keeps a backup where the original cannot be linked to",
          "[cli][rewrite][in-place]") {
    if (!can_run_as_nobody()) {
        WARN("needs root and setpriv to edit another user's file: not checked");
        return;
    }
    // fs.protected_hardlinks forbids linking to a file one may not write.
    const scratch_dir dir;
    const auto sub = nobody_directory(dir);
    const auto f = sub / "theirs.txt";
    write_file(f, before);
    REQUIRE(::chown(f.c_str(), other_uid, other_gid) == 0);
    REQUIRE(::chmod(f.c_str(), 0644) == 0);
    const auto r = run_cli(rewrite_i + ".orig " + shell_quote(f.string()), "", as_nobody);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(read_file(f) == after);
    CHECK(read_file(sub / "theirs.txt.orig") == before);
    CHECK(status_of(sub / "theirs.txt.orig").st_uid == other_uid);
    CHECK(temporaries_in(sub) == 0);
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
    std::string value;
    CHECK(get_xattr(f, "user.origin", value));
    CHECK(value == "mail");
}

TEST_CASE("rewrite -i keeps a POSIX ACL", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "shared.txt";
    write_file(f, before);
    const std::string acl = acl_xattr({{user_obj, 6}, {user, 6, other_uid}, {group_obj, 4}, {mask, 6}, {other, 4}});
    if (::setxattr(f.c_str(), "system.posix_acl_access", acl.data(), acl.size(), 0) != 0) {
        WARN("no POSIX ACLs on " << dir.path.string() << ": not checked");
        return;
    }
    std::string expected;
    REQUIRE(get_xattr(f, "system.posix_acl_access", expected));
    const mode_t mode = mode_of(f) & 07777;
    CHECK(run_cli(rewrite_i + " " + shell_quote(f.string())).status == 0);
    CHECK(read_file(f) == after);
    std::string kept;
    CHECK(get_xattr(f, "system.posix_acl_access", kept));
    CHECK(kept == expected);
    CHECK((mode_of(f) & 07777) == mode);
}

TEST_CASE("rewrite -i gives a file without an ACL none from its directory's default ACL",
          "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "plain.txt";
    write_file(f, before);
    ::chmod(f.c_str(), 0644);
    // Set after the file was made: new files in the directory inherit it.
    const std::string acl = acl_xattr({{user_obj, 7}, {user, 7, other_uid}, {group_obj, 5}, {mask, 7}, {other, 5}});
    if (::setxattr(dir.path.c_str(), "system.posix_acl_default", acl.data(), acl.size(), 0) != 0) {
        WARN("no POSIX ACLs on " << dir.path.string() << ": not checked");
        return;
    }
    CHECK(run_cli(rewrite_i + " " + shell_quote(f.string())).status == 0);
    CHECK(read_file(f) == after);
    std::string none;
    CHECK_FALSE(get_xattr(f, "system.posix_acl_access", none));
    CHECK((mode_of(f) & 07777) == 0644);
}

TEST_CASE("rewrite -i gives a hard-linked file a new inode, as documented", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto a = dir.path / "a.txt", b = dir.path / "b.txt";
    write_file(a, before);
    fs::create_hard_link(a, b);
    CHECK(run_cli(rewrite_i + " " + shell_quote(a.string())).status == 0);
    CHECK(read_file(a) == after);
    CHECK(read_file(b) == before);
    CHECK(run_cli("rewrite --help").out.find("a file with several hard links is replaced by a new file: the other\n"
                                             "    links keep the old text") != std::string::npos);
}

TEST_CASE("rewrite -i edits a file whose name is as long as a name can be", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / (std::string(251, 'n') + ".txt");  // 255 bytes: no room for the usual temporary name
    write_file(f, before);
    const auto r = run_cli(rewrite_i + " " + shell_quote(f.string()));
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(read_file(f) == after);
    CHECK(temporaries_in(dir.path) == 0);
}

TEST_CASE("two rewrite -i runs started together on one file take turns", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "shared.txt";
    const std::string text = many(before, 2000), rewritten = many(after, 2000);
    const std::string one = "'" URLSIFT_CLI_PATH "' " + rewrite_i + ".bak " + shell_quote(f.string());
    for (int round = 0; round < 5; ++round) {
        write_file(f, text);
        fs::remove(dir.path / "shared.txt.bak");
        const auto both = run_shell(one + " & a=$!; " + one + " & b=$!; wait $a; s=$?; wait $b; exit $((s | $?))");
        INFO("round " << round);
        CHECK(both.status == 0);
        CHECK(read_file(f) == rewritten);
        // The backup is the original: the second run found nothing to change.
        CHECK(read_file(dir.path / "shared.txt.bak") == text);
        CHECK(temporaries_in(dir.path) == 0);
    }
}

TEST_CASE("a rewrite -i started while another edits the file waits, then reads the new file",
          "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "shared.txt";
    const std::string text = many(before, 2000), rewritten = many(after, 2000);
    int overlapped = 0;
    for (int round = 0; round < 5; ++round) {
        INFO("round " << round);
        write_file(f, text);
        fs::remove(dir.path / "shared.txt.bak");
        // The second opens the original while the first holds its lock and
        // writes the new text: it must see that the name moved on.
        const pid_t first = start_rewrite_i(f, ".bak");
        REQUIRE(first > 0);
        int first_status = 0, second_status = 0;
        const bool first_ended = !temporary_appears(dir.path, first, first_status);
        overlapped += first_ended ? 0 : 1;
        const pid_t second = start_rewrite_i(f, ".bak");
        REQUIRE(second > 0);
        if (!first_ended) ::waitpid(first, &first_status, 0);
        ::waitpid(second, &second_status, 0);
        CHECK((WIFEXITED(first_status) && WEXITSTATUS(first_status) == 0));
        CHECK((WIFEXITED(second_status) && WEXITSTATUS(second_status) == 0));
        CHECK(read_file(f) == rewritten);
        CHECK(read_file(dir.path / "shared.txt.bak") == text);
        CHECK(temporaries_in(dir.path) == 0);
    }
    CHECK(overlapped > 0);
}

TEST_CASE("an interrupted rewrite -i leaves the original and no temporary file", "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "big.txt";
    const std::string unit = many(before, 1000);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
        // A signal ignored here stays ignored in urlsift (nohup, a shell's
        // background job), and so cannot interrupt it.
        struct sigaction inherited {};
        if (::sigaction(signal, nullptr, &inherited) == 0 && inherited.sa_handler == SIG_IGN) continue;
        INFO("signal " << signal);
        // Large enough that the signal comes while the new text is written;
        // doubled until it does on a fast machine.
        bool interrupted = false;
        for (int size = 16; size <= 256 && !interrupted; size *= 2) {
            const std::string text = many(unit, size * 1024 * 1024 / static_cast<int>(unit.size()));
            write_file(f, text);
            const pid_t child = start_rewrite_i(f);
            REQUIRE(child > 0);
            int status = 0;
            if (!temporary_appears(dir.path, child, status)) continue;  // finished first: try a larger file
            ::kill(child, signal);
            ::waitpid(child, &status, 0);
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;  // finished first after all
            interrupted = true;
            CHECK(WIFSIGNALED(status));
            CHECK(WTERMSIG(status) == signal);
            REQUIRE(temporaries_in(dir.path) == 0);
            CHECK(read_big_file(f) == text);
        }
        CHECK(interrupted);
    }
}

TEST_CASE("rewrite -i removes the stale temporary files a killed run left beside the file",
          "[cli][rewrite][in-place]") {
    const scratch_dir dir;
    const auto f = dir.path / "f.txt";
    write_file(f, before);
    const auto stale = dir.path / ".f.txt.urlsift-Ab12Cd", fresh = dir.path / ".f.txt.urlsift-Ef34Gh",
               other_file = dir.path / ".g.txt.urlsift-Ij56Kl", not_ours = dir.path / ".f.txt.urlsift-Mn78Op",
               look_alike = dir.path / ".f.txt.urlsift-v1.bak";
    for (const auto& p : {stale, fresh, other_file, not_ours, look_alike}) write_file(p, "half-written\n");
    // Two hours old, but for `fresh`.
    const timespec two_hours_ago[2] = {{::time(nullptr) - 7200, 0}, {::time(nullptr) - 7200, 0}};
    for (const auto& p : {stale, other_file, not_ours, look_alike})
        ::utimensat(AT_FDCWD, p.c_str(), two_hours_ago, 0);
    const bool other_owner = ::geteuid() == 0 && ::chown(not_ours.c_str(), other_uid, other_gid) == 0;

    CHECK(run_cli(rewrite_i + " " + shell_quote(f.string())).status == 0);
    CHECK(read_file(f) == after);
    CHECK(!fs::exists(stale));
    CHECK(fs::exists(fresh));       // perhaps a run still writing it
    CHECK(fs::exists(other_file));  // another file's
    CHECK(fs::exists(look_alike));  // not a name mkstemp makes
    if (other_owner) CHECK(fs::exists(not_ours));
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
