#pragma once
// Running the built urlsift binary from tests, with input, output, error
// output and exit status captured.

#include "file_util.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/wait.h>

namespace urlsift::test {

struct cli_result {
    int status = -1; ///< exit status, or 128+signal
    std::string out;
    std::string err;
};

/// Runs `sh -c "PREFIX urlsift ARGS"` with `input` on standard input. `args`
/// is shell text: quote what needs quoting. `prefix` can set limits or
/// users (`ulimit -f 1;`).
inline cli_result run_cli(std::string_view args, std::string_view input = {}, std::string_view prefix = {}) {
    const scratch_dir dir;
    const auto in = dir.path / "stdin", out = dir.path / "stdout", err = dir.path / "stderr";
    write_file(in, input);
    const std::string command = std::string(prefix) + " '" URLSIFT_CLI_PATH "' " + std::string(args) + " <'" +
                                in.string() + "' >'" + out.string() + "' 2>'" + err.string() + "'";
    const int raw = std::system(command.c_str());
    cli_result r;
    if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
    else if (WIFSIGNALED(raw)) r.status = 128 + WTERMSIG(raw);
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
}

/// Runs `command` with /bin/sh and returns its exit status and standard
/// output (standard error is wherever the command sends it).
inline cli_result run_shell(const std::string& command) {
    cli_result r;
    FILE* p = ::popen(command.c_str(), "r");
    if (p == nullptr) return r;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    const int raw = ::pclose(p);
    if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
    else if (WIFSIGNALED(raw)) r.status = 128 + WTERMSIG(raw);
    return r;
}

/// Quotes `s` for the shell.
inline std::string shell_quote(std::string_view s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') q += "'\\''";
        else q += c;
    }
    return q + "'";
}

/// `text` with its first `from` replaced by `to`; `from` must be in it.
inline std::string replace_first(std::string text, std::string_view from, std::string_view to) {
    const std::size_t at = text.find(from);
    if (at == std::string::npos) throw std::logic_error("replace_first: not in the text: " + std::string(from));
    return text.replace(at, from.size(), to);
}

}  // namespace urlsift::test
