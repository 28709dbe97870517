#include "cli/gen/documented.hpp"

#include "cli/options.hpp"

#include <sstream>

namespace urlsift::cli::gen {

std::vector<documented_command> documented_commands() {
    std::vector<documented_command> all;
    {
        documented_command top;
        static standard_settings unused;
        option_set set;
        set.add(standard_options, unused);
        top.options = set.specs();
        std::ostringstream help;
        print_overview(help);
        top.help = help.str();
        all.push_back(std::move(top));
    }
    for (const command_spec* c : all_commands()) {
        documented_command d;
        d.command = c;
        option_set set;
        c->list_options(set);
        d.options = set.specs();
        std::ostringstream help;
        print_help(help, *c, set);
        d.help = help.str();
        all.push_back(std::move(d));
    }
    return all;
}

}  // namespace urlsift::cli::gen
