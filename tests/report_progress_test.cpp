// `report`'s progress line and Ctrl-C: the line's wording, --progress into
// a file, and an interrupted run that still writes the report so far,
// marked, and that --merge will not take.

#include "cli_util.hpp"

#include "cli/progress_line.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace urlsift::test;
using urlsift::cli::progress_line;

TEST_CASE("The progress line says files, megabytes, rate and time left", "[report][progress]") {
    using namespace std::chrono_literals;
    CHECK(progress_line::describe(0, 40, 0, 0s) == "0/40 files, 0.0 MB, 0.0 MB/s");
    CHECK(progress_line::describe(10, 40, 25'000'000, 5s) == "10/40 files, 25.0 MB, 5.0 MB/s, about 0:15 left");
    CHECK(progress_line::describe(1, 1000, 1'000'000, 10s) == "1/1000 files, 1.0 MB, 0.1 MB/s, about 2:46:30 left");
    CHECK(progress_line::describe(40, 40, 100'000'000, 20s) == "40/40 files, 100.0 MB, 5.0 MB/s");
    // While a walk still lists files, the count is of those listed so far,
    // and no time left can be told.
    CHECK(progress_line::describe(10, 40, 25'000'000, 5s, true) == "10/40+ files, 25.0 MB, 5.0 MB/s");
}

TEST_CASE("report --progress writes progress lines to a stderr that is not a terminal", "[report][progress][cli]") {
    const scratch_dir dir;
    write_file(dir.path / "a.txt", "See https://example.org/a\n");
    write_file(dir.path / "b.txt", "See https://example.org/b\n");
    const auto r = run_cli("report --progress --no-timestamp -f json " + shell_quote((dir.path / "a.txt").string()) +
                           " " + shell_quote((dir.path / "b.txt").string()));
    CHECK(r.status == 0);
    CHECK(r.err == "urlsift report: 2/2 files, 0.0 MB, 0.0 MB/s\n");
    CHECK_THAT(r.out, Catch::Contains("\"interrupted\": false"));
}

TEST_CASE("Ctrl-C ends a report run with the report so far, marked interrupted", "[report][progress][cli]") {
    // On one thread, the read waiting on the FIFO is the main thread's. On
    // two, with one FIFO, it is whichever thread took it; with two, each
    // thread waits on one, and the main thread, its own read interrupted,
    // wakes the other's.
    const auto [jobs, fifos] = GENERATE(std::pair{"1", 1}, std::pair{"2", 1}, std::pair{"2", 2});
    CAPTURE(jobs, fifos);
    const scratch_dir dir;
    const auto out = dir.path / "out.json", err = dir.path / "err";
    std::vector<std::string> feeds;
    for (int i = 0; i < fifos; ++i) {
        feeds.push_back((dir.path / ("feed" + std::to_string(i))).string());
        REQUIRE(::mkfifo(feeds.back().c_str(), 0600) == 0);
    }
    write_file(dir.path / "first.txt", "Read https://example.org/first today.\n");
    const std::string first = (dir.path / "first.txt").string();
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The report reads first.txt, then waits on each FIFO, which gets
        // one line and is held open.
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(o, 1);
        ::dup2(e, 2);
        std::vector<const char*> argv = {"urlsift", "report", "--no-timestamp", "--partial", "-j", jobs, first.c_str()};
        for (const auto& f : feeds) argv.push_back(f.c_str());
        argv.push_back(nullptr);
        ::execv(URLSIFT_CLI_PATH, const_cast<char* const*>(argv.data()));
        ::_exit(127);
    }
    // Waits (at most 10 s) for the report to open each FIFO for reading.
    std::vector<int> writers;
    for (const auto& f : feeds) {
        int writer = -1;
        for (int i = 0; i < 200 && writer < 0; ++i) {
            writer = ::open(f.c_str(), O_WRONLY | O_NONBLOCK);
            if (writer < 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        if (writer < 0) {
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
            FAIL("report never opened " << f << ": " << read_file(err));
        }
        writers.push_back(writer);
    }
    const std::string line = "And https://example.org/second here.\n";
    for (const int writer : writers)
        REQUIRE(::write(writer, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(child, SIGINT);
    int status = 0;
    // The reads waiting on the FIFOs end at the signal: no writer has to close them.
    for (int i = 0; i < 100 && ::waitpid(child, &status, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (const int writer : writers) ::close(writer);
    if (::waitpid(child, &status, WNOHANG) == 0) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        FAIL("report did not end at Ctrl-C");
    }
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    const std::string json = read_file(out);
    CHECK_THAT(json, Catch::Contains("\"interrupted\": true"));
    CHECK_THAT(json, Catch::Contains("https://example.org/first"));
    CHECK_THAT(json, Catch::Contains("interrupted before its end"));
    const std::string inputs = std::to_string(fifos + 1);
    CHECK_THAT(read_file(err), Catch::Contains("interrupted: the report covers the " + inputs + " of " + inputs + " inputs"));

    // Such a report is not merged as if it were complete.
    const auto merged = run_cli("report --merge " + shell_quote(out.string()));
    CHECK(merged.status == 2);
    CHECK_THAT(merged.err, Catch::Contains("was interrupted"));
}
