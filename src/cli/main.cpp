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
#include <new>
#include <string_view>

int main(int argc, char** argv) {
    // A closed pipe is reported as EPIPE by write(), handled as broken_pipe.
    std::signal(SIGPIPE, SIG_IGN);
    // A file-size limit reached while writing is reported as EFBIG, so an
    // in-place edit can fail cleanly and leave the original untouched.
    std::signal(SIGXFSZ, SIG_IGN);
    std::ios::sync_with_stdio(false);

    if (argc < 2) {
        urlsift::cli::print_overview(std::cerr);
        return 2;
    }
    const std::string_view command = argv[1];
    if (command == "-h" || command == "--help" || command == "help") {
        urlsift::cli::print_overview(std::cout);
        return 0;
    }
    if (command == "-V" || command == "--version") {
        urlsift::cli::print_version();
        return 0;
    }

    const urlsift::cli::args rest(argv + 2, argv + argc);
    urlsift::cli::exit_after_command();
    try {
        for (const urlsift::cli::command_spec* c : urlsift::cli::all_commands())
            if (command == c->name) return c->run(rest);
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
