// The gitignore subset -r honours (walk.hpp), one row a pattern and path,
// and the order -r lists files in.

#include "cli/walk.hpp"

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace {

void check(const char* pattern, const char* path, bool is_dir, bool expected) {
    INFO("pattern '" << pattern << "', path '" << path << "'" << (is_dir ? " (directory)" : ""));
    CHECK(urlsift::cli::gitignore_match(pattern, path, is_dir) == expected);
}

}  // namespace

TEST_CASE("grep-style: gitignore patterns", "[cli][walk]") {
    // No slash: a name at any depth.
    check("*.log", "a.log", false, true);
    check("*.log", "x/y/a.log", false, true);
    check("*.log", "a.log.txt", false, false);
    check("*", ".hidden", false, true);  // `*` matches a leading dot in gitignore
    check("d?t.txt", "dot.txt", false, true);
    check("[ab].txt", "c.txt", false, false);
    check("[!ab].txt", "c.txt", false, true);
    check("\\#x", "#x", false, true);
    // A slash anchors at the directory of the ignore file.
    check("/top.txt", "top.txt", false, true);
    check("/top.txt", "sub/top.txt", false, false);
    check("doc/*.txt", "doc/a.txt", false, true);
    check("doc/*.txt", "doc/x/a.txt", false, false);  // `*` stays within a name
    check("doc/*.txt", "x/doc/a.txt", false, false);
    // `**`: any number of directories; at the end, everything inside.
    check("**/foo", "foo", false, true);
    check("**/foo", "a/b/foo", false, true);
    check("a/**/b", "a/b", false, true);
    check("a/**/b", "a/x/y/b", false, true);
    check("abc/**", "abc/x/y", false, true);
    check("abc/**", "abc", true, false);
    // A trailing slash: directories only.
    check("build/", "build", true, true);
    check("build/", "build", false, false);
    check("build/", "x/build", true, true);
    // Blank lines and comments match nothing; trailing blanks are dropped.
    check("", "x", false, false);
    check("# x", "# x", false, false);
    check("x.txt   ", "x.txt", false, true);
}

TEST_CASE("The walk of -r lists files in the byte order of their paths, as it finds them", "[cli][walk]") {
    // A directory's files come right after its name and a `/`: `a.txt`
    // (`.` is below `/`) before `a/x`, `a0` after it. Each file is handed
    // on as the walk reaches it, and the walk stops when told to.
    const urlsift::test::scratch_dir dir;
    // UTF-8 names sort after ASCII ones, byte by byte (`a\xC3\xA9` after `a/`).
    const std::vector<std::string> names = {"A",   "a b/y", "a-b", "a.txt", "a/x",
                                            "a/y/z", "a0",  "ab",  "a\xC3\xA9", "b/z"};
    for (const auto& n : names) {
        std::filesystem::create_directories((dir.path / n).parent_path());
        urlsift::test::write_file(dir.path / n, "x");
    }
    const std::string root = dir.path.string();
    std::vector<std::string> expected;
    for (const auto& n : names) expected.push_back(root + "/" + n);
    REQUIRE(std::is_sorted(expected.begin(), expected.end()));
    std::vector<urlsift::cli::input_error> errors;
    urlsift::cli::walk_settings s;
    s.recursive = true;
    CHECK(urlsift::cli::expand_operands({root}, s, errors) == expected);
    CHECK(errors.empty());

    std::vector<std::string> seen;
    urlsift::cli::walk_files({root, root + "/a.txt"}, s, errors, [&](urlsift::cli::listed_file f) {
        seen.push_back(std::move(f.path));
        return seen.size() < 5;
    });
    CHECK(seen == std::vector<std::string>(expected.begin(), expected.begin() + 5));
}

