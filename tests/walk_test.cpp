// The gitignore subset -r honours (walk.hpp), one row a pattern and path.

#include "cli/walk.hpp"

#include <catch2/catch.hpp>

#include <string>

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
