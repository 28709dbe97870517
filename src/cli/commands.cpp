// The command table and `urlsift --help`, made from it.

#include "cli/commands.hpp"

#include "cli/options.hpp"

#include <algorithm>
#include <ostream>

namespace urlsift::cli {

namespace {

constexpr const command_spec* commands[] = {&extract_command, &rewrite_command, &resolve_command, &report_command,
                                            &pick_command};

constexpr std::string_view overview_usage = R"(Usage: urlsift COMMAND [OPTIONS] [ARGS...]
       urlsift --help | --version

Find the URLs in plain text (mail, news, documents, logs), resolve them
against a base URL, and rewrite text so every link is absolute.
)";

constexpr std::string_view overview_epilog = R"(
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

std::span<const command_spec* const> all_commands() noexcept { return commands; }

void print_overview(std::ostream& out) {
    out << overview_usage << "\nCommands:\n";
    std::size_t width = 0;
    for (const command_spec* c : commands) width = std::max(width, c->name.size());
    for (const command_spec* c : commands)
        out << "  " << c->name << std::string(width + 3 - c->name.size(), ' ') << c->summary << '\n';
    standard_settings unused;
    option_set set;
    set.add(standard_options, unused);
    out << '\n' << set.description() << overview_epilog;
}

}  // namespace urlsift::cli
