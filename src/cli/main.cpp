// urlsift: find, resolve and rewrite URLs in plain text.

#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/exit_after.hpp"
#include "cli/options.hpp"

#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <malloc.h>
#include <new>
#include <string_view>

namespace {

constexpr std::string_view overview = R"(Usage: urlsift COMMAND [OPTIONS] [ARGS...]
       urlsift --help | --version

Find the URLs in plain text (mail, news, documents, logs), resolve them
against a base URL, and rewrite text so every link is absolute.

Commands:
  extract   list the URLs found in files or standard input
  rewrite   copy text through with its references made absolute
  resolve   resolve references against a base URL
  report    count the references in many files: hosts, domains, duplicates
  pick      choose a URL on a full-screen list and open, copy or print it

Options:
  -h [ --help ]     show this help and exit
  -V [ --version ]  show the version and exit

Run 'urlsift COMMAND --help' for the options of a command.

Examples:
  urlsift extract mail.txt                   one URL a line
  urlsift extract -n -H --format tsv *.txt   file, line, column, URL
  urlsift resolve --base http://a/b/c/d ../g
  urlsift rewrite --base https://example.org/docs/ notes.txt
  urlsift report -r -j 4 corpus/             totals, top hosts and domains, duplicates
  urlsift pick msg.eml                       choose a link of a message and open it

Exit status: 0 if something was found or done, 1 if nothing was found,
2 on error (an unreadable file is reported and the others still processed).
)";

}  // namespace

int main(int argc, char** argv) {
    // A closed pipe is reported as EPIPE by write(), handled as broken_pipe.
    std::signal(SIGPIPE, SIG_IGN);
    // A file-size limit reached while writing is reported as EFBIG, so an
    // in-place edit can fail cleanly and leave the original untouched.
    std::signal(SIGXFSZ, SIG_IGN);
    std::ios::sync_with_stdio(false);
    // No fast bins in glibc's malloc: small blocks freed there stay unmerged
    // until a large allocation merges them all at once. A walk over tens of
    // thousands of files frees as many path names, and that merge then came
    // in the middle of the report. The per-thread cache still serves small
    // blocks.
    ::mallopt(M_MXFAST, 0);

    if (argc < 2) {
        std::cerr << overview;
        return 2;
    }
    const std::string_view command = argv[1];
    if (command == "-h" || command == "--help" || command == "help") {
        std::cout << overview;
        return 0;
    }
    if (command == "-V" || command == "--version") {
        urlsift::cli::print_version();
        return 0;
    }

    const urlsift::cli::args rest(argv + 2, argv + argc);
    urlsift::cli::exit_after_command();
    try {
        if (command == "extract") return urlsift::cli::cmd_extract(rest);
        if (command == "rewrite") return urlsift::cli::cmd_rewrite(rest);
        if (command == "resolve") return urlsift::cli::cmd_resolve(rest);
        if (command == "report") return urlsift::cli::cmd_report(rest);
        if (command == "pick") return urlsift::cli::cmd_pick(rest);
        std::cerr << "urlsift: unknown command '" << urlsift::cli::visible(command)
                  << "'\nCommands are extract, rewrite, resolve, report and pick; run 'urlsift --help' for more.\n";
        return 2;
    } catch (const urlsift::cli::usage_error& e) {
        // Messages quote what was typed: shown escaped, like file names.
        std::cerr << "urlsift " << e.command << ": " << urlsift::cli::visible(e.what()) << "\nRun 'urlsift " << e.command
                  << " --help' for the options.\n";
        return 2;
    } catch (const urlsift::cli::broken_pipe&) {
        // Like grep piped into head: the reader has what it wanted.
        return 0;
    } catch (const std::bad_alloc&) {
        std::cerr << "urlsift: out of memory\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "urlsift: " << urlsift::cli::visible(e.what()) << '\n';
        return 2;
    }
}
