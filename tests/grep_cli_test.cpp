// grep's and ripgrep's conventions, end to end: listing file names (-l,
// -L, -q, -c), stopping early (-m), messages (-s), colour, choosing files
// under -r (globs, hidden files, .gitignore), line buffering, --version on
// every command, repeated options, -0 and -Z; and the regressions found
// next to them (unreadable directories, NUL bytes late in a file).

#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;
using urlsift::test::cli_result;
using urlsift::test::read_file;
using urlsift::test::run_shell;
using urlsift::test::scratch_dir;
using urlsift::test::shell_quote;
using urlsift::test::write_file;

const std::string cli = "'" URLSIFT_CLI_PATH "'";

/// A scratch tree: note.txt (three URLs), none.txt (none), sub/deep.txt.
struct tree {
    scratch_dir dir;
    tree() {
        // Readable by nobody too, for the checks that drop root.
        fs::permissions(dir.path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                      fs::perms::others_read | fs::perms::others_exec);
        add("note.txt", "see <http://a.example/1>, <http://a.example/2>\nand <http://a.example/3>\n");
        add("none.txt", "No links here. Note: 10:30.\n");
        add("sub/deep.txt", "see <http://deep.example/>\n");
    }
    void add(const std::string& name, const std::string& text) const {
        fs::create_directories((dir.path / name).parent_path());
        write_file(dir.path / name, text);
    }
    /// Runs `urlsift ARGS` in the tree; stderr merged into stdout when `merge`.
    cli_result operator()(const std::string& args, bool merge = false) const {
        return run_shell("cd " + shell_quote(dir.path.string()) + " && " + cli + " " + args +
                         (merge ? " 2>&1" : " 2>/dev/null"));
    }
    /// Runs a shell script in the tree (`$U` is urlsift).
    cli_result script(const std::string& text) const {
        return run_shell("cd " + shell_quote(dir.path.string()) + " && U=" + cli + " && { " + text + "; }");
    }
};

const std::string note_urls = "http://a.example/1\nhttp://a.example/2\nhttp://a.example/3\n";

}  // namespace

TEST_CASE("grep-style: -l and -L list file names, exit status as grep's", "[cli][grep]") {
    const tree t;
    auto r = t("extract -l note.txt none.txt sub/deep.txt");
    CHECK(r.out == "note.txt\nsub/deep.txt\n");
    CHECK(r.status == 0);
    r = t("extract -L note.txt none.txt sub/deep.txt");
    CHECK(r.out == "none.txt\n");
    // grep 3.5 and later: -L succeeds when some file matched, not when a
    // file was listed, so listing none.txt alone is status 1.
    CHECK(r.status == 0);
    r = t("extract -L none.txt");
    CHECK(r.out == "none.txt\n");
    CHECK(r.status == 1);
    r = t("extract -l none.txt");
    CHECK(r.out.empty());
    CHECK(r.status == 1);
    CHECK(t("extract -l - < note.txt").out == "(standard input)\n");
    // -l and -L print names whatever the format, and no CSV header.
    CHECK(t("extract -l --format csv note.txt none.txt").out == "note.txt\n");
    CHECK(t("extract -l -c note.txt none.txt").out == "note.txt\n");
    // A missing file: an error, status 2, as in grep.
    CHECK(t("extract -l note.txt missing.txt").status == 2);
}

TEST_CASE("grep-style: -q prints nothing and stops at the first URL", "[cli][grep]") {
    const tree t;
    auto r = t("extract -q note.txt", true);
    CHECK(r.out.empty());
    CHECK(r.status == 0);
    CHECK(t("extract -q none.txt").status == 1);
    // grep -q: 0 once a match is found, even after an error; the message
    // for the error is still given.
    r = t("extract -q missing.txt note.txt", true);
    CHECK(r.status == 0);
    CHECK(r.out == "urlsift extract: missing.txt: No such file or directory\n");
    // Nothing after the first URL is read: missing.txt is never opened.
    r = t("extract -q note.txt missing.txt", true);
    CHECK(r.status == 0);
    CHECK(r.out.empty());
    // Reading stops: a writer that keeps the pipe open for 10 s does not
    // hold urlsift (timeout would end it with 124).
    const std::string feed = "mkfifo p; { printf '<http://a.example/>\\n'; sleep 10; } > p 2>/dev/null & ";
    for (const char* option : {"-q", "-l", "-m 1"}) {
        r = t.script(feed + "timeout 5 $U extract " + option + " p; echo \"status $?\"; rm -f p");
        CHECK(r.out.ends_with("status 0\n"));
    }
}

TEST_CASE("grep-style: -m NUM stops each file after NUM URLs", "[cli][grep]") {
    const tree t;
    CHECK(t("extract -m 1 note.txt").out == "http://a.example/1\n");
    CHECK(t("extract -m 2 -c note.txt").out == "2\n");
    CHECK(t("extract --max-count=1 note.txt sub/deep.txt").out ==
          "note.txt:http://a.example/1\nsub/deep.txt:http://deep.example/\n");
    CHECK(t("extract -m 0 note.txt").status == 1);
    CHECK(t("extract -m 0 note.txt").out.empty());
    // A negative count is no limit, as in grep.
    CHECK(t("extract --max-count=-1 note.txt").out == note_urls);
    // Counted after -u: a file's first two distinct URLs.
    t.add("dup.txt", "<http://d/1> <http://d/1> <http://d/2> <http://d/3>\n");
    CHECK(t("extract -u -m 2 dup.txt").out == "http://d/1\nhttp://d/2\n");
}

TEST_CASE("grep-style: -s hides messages about unreadable files, not the status", "[cli][grep]") {
    const tree t;
    auto r = t("extract -s missing.txt note.txt", true);
    CHECK(r.out == "note.txt:http://a.example/1\nnote.txt:http://a.example/2\nnote.txt:http://a.example/3\n");
    CHECK(r.status == 2);
    r = t("extract -s sub", true);
    CHECK(r.out.empty());
    CHECK(r.status == 2);
    CHECK(t("extract missing.txt", true).out.find("No such file") != std::string::npos);
}

TEST_CASE("grep-style: --color", "[cli][grep]") {
    const tree t;
    const std::string magenta = "\x1b[35m", green = "\x1b[32m", red = "\x1b[1;31m", cyan = "\x1b[36m",
                      reset = "\x1b[0m";
    auto r = t("extract --color=always -H -n note.txt");
    CHECK(r.out.substr(0, r.out.find('\n') + 1) == magenta + "note.txt" + reset + cyan + ":" + reset + green + "1" +
                                                       reset + cyan + ":" + reset + red + "http://a.example/1" +
                                                       reset + "\n");
    CHECK(t("extract --color always -c -H note.txt").out ==
          magenta + "note.txt" + reset + cyan + ":" + reset + "3\n");
    CHECK(t("extract --color=always -l note.txt").out == magenta + "note.txt" + reset + "\n");
    // Never in the data formats, never to a pipe unless asked.
    for (const char* args : {"--color=always --format jsonl note.txt", "--color=always --format tsv note.txt",
                             "--color=always --format csv note.txt", "note.txt", "--color=never note.txt"})
        CHECK(t(std::string("extract ") + args).out.find('\x1b') == std::string::npos);
    CHECK(t("extract --color=sometimes note.txt", true).out.find("choose auto, always or never") != std::string::npos);

    // Text from the input is escaped before it is coloured, so that its
    // own escape sequences cannot end or change the colour.
    t.add("f\x1b[2Jx.txt", "see <http://y.org/a\n  b>\n");
    r = t("extract --color=always --raw -H f*x.txt");
    CHECK(r.out == magenta + "f\\x1b[2Jx.txt" + reset + cyan + ":" + reset + red + "http://y.org/a\\n  b" + reset + "\n");

    // auto: a terminal (script gives one) with a TERM that is not dumb,
    // and no NO_COLOR.
    const auto on_terminal = [&](const std::string& env) {
        return t.script(env + " script -qec \"$U extract note.txt\" /dev/null").out;
    };
    CHECK(on_terminal("TERM=xterm").find(red + "http://a.example/1") != std::string::npos);
    CHECK(on_terminal("TERM=xterm NO_COLOR=1").find('\x1b') == std::string::npos);
    CHECK(on_terminal("TERM=dumb").find('\x1b') == std::string::npos);
    // NO_COLOR only changes auto.
    CHECK(t.script("NO_COLOR=1 $U extract --color=always note.txt").out.find(red) == 0);
    // grep's British spelling is taken too.
    CHECK(t("extract --colour=always note.txt").out == t("extract --color=always note.txt").out);
    CHECK(t("extract --colour never note.txt").out.find('\x1b') == std::string::npos);
}

TEST_CASE("grep-style: --include, --exclude and -g choose files", "[cli][grep]") {
    const tree t;
    t.add("app.js", "// <http://js.example/app>\n");
    t.add("app.min.js", "/* <http://js.example/min> */\n");
    t.add("sub/lib.js", "// <http://js.example/lib>\n");
    CHECK(t("extract -r -l --include='*.txt'").out == "note.txt\nsub/deep.txt\n");
    CHECK(t("extract -r -l --include='*.js' --exclude='*.min.js'").out == "app.js\nsub/lib.js\n");
    CHECK(t("extract -r -l -g '!*.min.js'").out == "app.js\nnote.txt\nsub/deep.txt\nsub/lib.js\n");
    CHECK(t("extract -r -l -g '*.js' -g '!*.min.js'").out == "app.js\nsub/lib.js\n");
    // The later glob wins, as in ripgrep.
    CHECK(t("extract -r -l -g '!*.min.js' -g '*.js'").out == "app.js\napp.min.js\nsub/lib.js\n");
    // -g with a / is anchored at the directory walked; !DIR prunes it.
    CHECK(t("extract -r -l -g 'sub/*.js'").out == "sub/lib.js\n");
    CHECK(t("extract -r -l -g '!sub'").out == "app.js\napp.min.js\nnote.txt\n");
    // Files named as operands pass --include and --exclude, as in grep,
    // but not -g, as in ripgrep.
    CHECK(t("extract -l --exclude='*.txt' note.txt app.js").out == "app.js\n");
    CHECK(t("extract -l --include='*.js' note.txt sub/lib.js").out == "sub/lib.js\n");
    CHECK(t("extract -l -g '*.js' note.txt").out == "note.txt\n");
}

TEST_CASE("grep-style: -r skips hidden files and what .gitignore and .ignore leave out", "[cli][grep]") {
    const tree t;
    t.add(".hidden.txt", "<http://hidden.example/>\n");
    t.add(".dir/x.txt", "<http://hidden.example/dir>\n");
    t.add(".gitignore", "# build output\n\n*.log\n!keep.log\nbuild/\n/top.txt\ndocs/**/gen.txt\n");
    t.add("a.log", "<http://log.example/a>\n");
    t.add("keep.log", "<http://log.example/keep>\n");
    t.add("build/out.txt", "<http://build.example/>\n");
    t.add("top.txt", "<http://top.example/>\n");
    t.add("sub/top.txt", "<http://top.example/sub>\n");
    t.add("docs/gen.txt", "<http://gen.example/0>\n");
    t.add("docs/a/b/gen.txt", "<http://gen.example/2>\n");
    t.add("sub/.ignore", "deep.txt\n");
    t.add("sub/.gitignore", "!deep.txt\n");
    const auto listed = t("extract -r -l").out;
    CHECK(listed == "keep.log\nnote.txt\nsub/top.txt\n");
    CHECK(t("extract -r -l --no-ignore").out ==
          "a.log\nbuild/out.txt\ndocs/a/b/gen.txt\ndocs/gen.txt\nkeep.log\nnote.txt\nsub/deep.txt\nsub/top.txt\ntop.txt\n");
    CHECK(t("extract -r -l --hidden").out == ".dir/x.txt\n.hidden.txt\n" + listed);
    // A hidden directory named as the operand is read.
    CHECK(t("extract -r -l .dir").out == ".dir/x.txt\n");
    // A -g glob comes before the ignore files.
    CHECK(t("extract -r -l -g '*.log'").out == "a.log\nkeep.log\n");
}

TEST_CASE("grep-style: -r reads a symbolic link to a file and does not follow one to a directory", "[cli][grep]") {
    const tree t;
    fs::create_symlink("note.txt", t.dir.path / "link.txt");
    fs::create_symlink("sub", t.dir.path / "linked-dir");
    fs::create_symlink("missing.txt", t.dir.path / "dangling.txt");
    ::mkfifo((t.dir.path / "pipe").c_str(), 0600);
    // The link to a directory, the dangling link and the FIFO are passed
    // by without a message; the FIFO is not opened, so nothing waits.
    const auto r = t("extract -r -l", true);
    CHECK(r.out == "link.txt\nnote.txt\nsub/deep.txt\n");
    CHECK(r.status == 0);
    // Below the top only: a link to a directory named as the operand is walked.
    CHECK(t("extract -r -l linked-dir").out == "linked-dir/deep.txt\n");
}

TEST_CASE("grep-style: -r walks a tree deeper than the descriptors a process may open", "[cli][grep]") {
    const tree t;
    std::string deep = "deep";
    for (int i = 0; i < 100; ++i) deep += "/d";
    t.add(deep + "/x.txt", "<http://deep.example/>\n");
    for (const char* command : {"extract -r -l", "report -r -j 2 --no-timestamp -f json"}) {
        INFO(command);
        const auto r = t.script("ulimit -n 64 && $U " + std::string(command) + " deep 2>&1; echo \"status $?\"");
        CHECK(r.out.find("Too many open files") == std::string::npos);
        CHECK(r.out.ends_with("status 0\n"));
    }
    CHECK(t("extract -r -l deep").out == deep + "/x.txt\n");
}

TEST_CASE("grep-style: -r with no DIR reads the current directory", "[cli][grep]") {
    const tree t;
    CHECK(t("extract -r -l").out == "note.txt\nsub/deep.txt\n");
    CHECK(t("extract -r -l .").out == "./note.txt\n./sub/deep.txt\n");
    CHECK(t("extract -r -l sub/").out == "sub/deep.txt\n");
    CHECK(t("extract -r < note.txt").out.starts_with("note.txt:http://a.example/1\n"));
    CHECK(t("report -r --no-timestamp -f json").out.find("\"references\": 4") != std::string::npos);
}

TEST_CASE("grep-style: an unreadable directory under -r is an error", "[cli][grep]") {
    const tree t;
    t.add("locked/x.txt", "<http://locked.example/>\n");
    REQUIRE(::chmod((t.dir.path / "locked").c_str(), 0) == 0);
    std::string as_user;
    if (::geteuid() == 0) {
        if (::access("/usr/bin/setpriv", X_OK) != 0) {
            WARN("root without setpriv: permissions mean nothing, not checked");
            return;
        }
        as_user = "setpriv --reuid=nobody --regid=nogroup --clear-groups ";
    }
    auto r = t.script(as_user + "$U extract -r . 2>&1; echo \"status $?\"");
    CHECK(r.out.find("urlsift extract: ./locked: Permission denied\n") != std::string::npos);
    CHECK(r.out.find("./note.txt:http://a.example/1\n") != std::string::npos);
    CHECK(r.out.ends_with("status 2\n"));
    r = t.script(as_user + "$U extract -s -r . 2>&1 >/dev/null; echo \"status $?\"");
    CHECK(r.out == "status 2\n");
    r = t.script(as_user + "$U report -r --no-timestamp . 2>&1 >/dev/null; echo \"status $?\"");
    CHECK(r.out.find("./locked: Permission denied") != std::string::npos);
    CHECK(r.out.ends_with("status 2\n"));
    ::chmod((t.dir.path / "locked").c_str(), 0755);
}

TEST_CASE("grep-style: --line-buffered writes each line as it is found", "[cli][grep]") {
    const tree t;
    // The input stays open for 10 s; the line must reach the file before.
    const auto watch = [&](const std::string& option) {
        return t.script("mkfifo p; { printf '<http://a.example/now>\\n'; sleep 10; } > p 2>/dev/null & w=$!; "
                        "$U extract " + option + " p > out.txt & u=$!; "
                        "i=0; while [ ! -s out.txt ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done; "
                        "cat out.txt; kill $u $w 2>/dev/null; rm -f p").out;
    };
    CHECK(watch("--line-buffered") == "http://a.example/now\n");
}

TEST_CASE("grep-style: --version on every command", "[cli][grep]") {
    const tree t;
    const auto top = t("--version");
    REQUIRE(top.out.starts_with("urlsift "));
    for (const char* command : {"extract", "rewrite", "resolve", "report"}) {
        const auto r = t(std::string(command) + " --version");
        CHECK(r.out == top.out);
        CHECK(r.status == 0);
        CHECK(t(std::string(command) + " -V").out == top.out);
    }
}

TEST_CASE("grep-style: a repeated option takes its last value", "[cli][grep]") {
    const tree t;
    CHECK(t("extract --format text --format jsonl note.txt").out.starts_with("{\"file\":\"note.txt\""));
    CHECK(t("extract -f jsonl -f text note.txt").out == note_urls);
    CHECK(t("extract -n -n -m 5 -m 1 note.txt").out == "1:http://a.example/1\n");
    CHECK(t("extract --color=always --color=never note.txt").out == note_urls);
    CHECK(t("resolve --base http://x/a --base http://y/b c").out == "http://y/c\n");
    CHECK(t("rewrite --style angle --style plain --base http://a/b/ note.txt").status == 0);
    // Options that collect values keep them all.
    CHECK(t("extract -r -l --include='*.js' --include='deep*'").out == "sub/deep.txt\n");
}

TEST_CASE("grep-style: -Z puts a NUL after file names, -0 ends records with one", "[cli][grep]") {
    const tree t;
    CHECK(t("extract -H -Z -m 1 note.txt").out == "note.txt\0http://a.example/1\n"s);
    CHECK(t("extract -H -0 -m 1 note.txt").out == "note.txt:http://a.example/1\0"s);
    CHECK(t("extract -H -Z -0 -m 1 note.txt").out == "note.txt\0http://a.example/1\0"s);
    CHECK(t("extract -c -H -Z note.txt").out == "note.txt\0" "3\n"s);
    CHECK(t("extract -l -Z note.txt none.txt").out == "note.txt\0"s);
    CHECK(t("extract -l -0 note.txt none.txt").out == "note.txt\0"s);
}

TEST_CASE("grep-style: rewrite -i skips a file whose NUL byte comes after the first block", "[cli][grep][rewrite]") {
    const tree t;
    // The first 256 KiB are text; text_source checks those alone.
    const std::string head = "see www.example.org/x\n" + std::string(300 * 1024, 'a') + "\n";
    const std::string binary = head + "\0 end\n"s;
    t.add("late.bin", binary);
    t.add("text.txt", head);
    auto r = t("rewrite -i late.bin text.txt", true);
    CHECK(r.out == "urlsift rewrite: late.bin: binary file skipped (use --binary text to rewrite it)\n");
    CHECK(r.status == 0);
    CHECK(read_file(t.dir.path / "late.bin") == binary);
    CHECK(read_file(t.dir.path / "text.txt").starts_with("see http://www.example.org/x\n"));
    r = t("rewrite --dry-run late.bin", true);
    CHECK(r.out.find("binary file skipped") != std::string::npos);
    CHECK(r.status == 1);
    CHECK(t("rewrite -i --binary text late.bin").status == 0);
    CHECK(read_file(t.dir.path / "late.bin").starts_with("see http://www.example.org/x\n"));
}

TEST_CASE("grep-style: rewrite and report choose files as extract does", "[cli][grep]") {
    const tree t;
    t.add(".gitignore", "ignored.txt\n");
    t.add("ignored.txt", "see www.example.net/\n");
    t.add("www.txt", "see www.example.org/\n");
    CHECK(t("rewrite -r --dry-run").out == "www.txt: 1 edit\n");
    CHECK(t("rewrite -r --dry-run --no-ignore").out == "ignored.txt: 1 edit\nwww.txt: 1 edit\n");
    CHECK(t("report -r --no-timestamp -f json --exclude='note*'").out.find("\"references\": 2") != std::string::npos);
}

TEST_CASE("grep-style: options and file names in any order, and -- before names that start with -",
          "[cli][grep]") {
    const tree t;
    t.add("-x.txt", "see <http://dash.example/>\n");
    t.add("--", "see <http://dashdash.example/>\n");
    // Options after names, values in every form, names kept in their order.
    CHECK(t("extract none.txt -f jsonl sub/deep.txt -H").out.starts_with("{\"file\":\"sub/deep.txt\""));
    CHECK(t("extract sub/deep.txt -m 1 note.txt -H").out ==
          "sub/deep.txt:http://deep.example/\nnote.txt:http://a.example/1\n");
    CHECK(t("extract -Hm1 sub/deep.txt note.txt").out == "sub/deep.txt:http://deep.example/\nnote.txt:http://a.example/1\n");
    CHECK(t("extract --max-c=1 note.txt").out == "http://a.example/1\n");  // an unambiguous prefix
    CHECK(t("extract --max-count -1 note.txt").out == note_urls);           // a value that starts with -
    // After --, every word is a file name.
    CHECK(t("extract -H -- -x.txt --").out == "-x.txt:http://dash.example/\n--:http://dashdash.example/\n");
    // Standard input among files.
    CHECK(t.script("echo 'http://stdin.example/' | $U extract -H note.txt - -m 1").out ==
          "note.txt:http://a.example/1\n(standard input):http://stdin.example/\n");
    // What cannot be told is still refused as before.
    const auto bad = t("extract --frobnicate note.txt", true);
    CHECK(bad.status == 2);
    CHECK_THAT(bad.out, Catch::Contains("unrecognised option '--frobnicate'"));
    // Many names: as many as xargs passes.
    std::string many;
    for (int i = 0; i < 3000; ++i) many += " none.txt";
    CHECK(t("extract -c" + many + " note.txt -H").out.ends_with("note.txt:3\n"));
}
