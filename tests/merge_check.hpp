#pragma once
// The property `report --merge` keeps against a changed partial report,
// shared by the suite's corruption test and the merge fuzz target: a merge
// with a changed partial is refused, naming it, or gives exactly the merge
// of the partial as written; never another report without a word.

#include "cli/commands.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::test {

/// What one `urlsift report` run in this process gave.
struct report_run {
    int status = -1;
    std::string out;  ///< the report written to -o, empty when none was
    std::string said; ///< what it said on standard error
};

/// Runs `urlsift report ARGS -o OUT` in this process.
inline report_run report_in_process(std::vector<std::string> args, const std::filesystem::path& out) {
    args.push_back("-o");
    args.push_back(out.string());
    std::ostringstream err;
    std::streambuf* const old = std::cerr.rdbuf(err.rdbuf());
    report_run r;
    try {
        r.status = urlsift::cli::cmd_report(args);
    } catch (...) {
        std::cerr.rdbuf(old);
        throw;
    }
    std::cerr.rdbuf(old);
    r.said = err.str();
    std::error_code gone;
    if (std::filesystem::exists(out)) {
        std::ifstream in(out, std::ios::binary);
        r.out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::filesystem::remove(out, gone);
    return r;
}

/// How a merge with a changed partial came out.
enum class merge_verdict {
    refused, ///< exit status 2, no report, and a message naming the changed partial
    same,    ///< the report the merge of the partial as written gives
    silent,  ///< anything else: a changed report, or a refusal that does not say which input
};

/// `got`, a merge in which the partial named `changed` (as the message
/// names it: its path) was changed, against `expected`, the same merge
/// with that partial as written.
inline merge_verdict judge_merge(const report_run& got, const report_run& expected, std::string_view changed) {
    if (got.status == 2)
        return got.out.empty() && got.said.find(std::string(changed) + ": ") != std::string::npos
                   ? merge_verdict::refused
                   : merge_verdict::silent;
    return got.status == expected.status && got.out == expected.out ? merge_verdict::same : merge_verdict::silent;
}

}  // namespace urlsift::test
