// The fish completion: a `complete` line for each option of each command.

#include "cli/gen/completions.hpp"

namespace urlsift::cli::gen {

namespace {

/// `s` inside single quotes, as fish reads them.
std::string quoted(std::string_view s) {
    std::string out = "'";
    for (const char c : s) {
        if (c == '\'' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out + "'";
}

std::string joined(std::span<const std::string_view> words) {
    std::string out;
    for (const std::string_view w : words) out.append(out.empty() ? "" : " ").append(w);
    return out;
}

/// What follows the names of `o`: whether it takes a value, and which.
std::string value_part(const option_spec& o) {
    switch (o.value) {
    case value_kind::none: return {};
    case value_kind::choice:
    case value_kind::text: return o.choices.empty() ? " -x" : " -x -a " + quoted(joined(o.choices));
    case value_kind::choice_list:
        return " -x -a \"(__urlsift_list " + quoted(joined(o.alone)) + " " + joined(o.choices) + ")\"";
    case value_kind::file: return " -r -F";
    case value_kind::directory: return " -r -a '(__fish_complete_directories)'";
    case value_kind::command: return " -x -a '(__fish_complete_command)'";
    default: return " -x";
    }
}

std::string line(std::string_view condition, const option_spec& o) {
    std::string out = "complete -c urlsift -n " + std::string(condition);
    if (o.short_name != 0) out.append(" -s ").append(1, o.short_name);
    out.append(" -l ").append(o.name).append(value_part(o)).append(" -d ").append(quoted(brief_help(o)));
    return out + "\n";
}

}  // namespace

std::string fish_completion(const std::vector<documented_command>& all) {
    std::string out = R"(# fish completion for urlsift, installed as
# share/fish/vendor_completions.d/urlsift.fish. Made by urlsift-gen-docs
# from the option tables in src/cli/; edit those, not this file.

function __urlsift_no_command --description 'urlsift has no command yet'
    set -l words (commandline -opc)
    test (count $words) -eq 1
end

function __urlsift_command --description 'the command is one of the arguments'
    set -l words (commandline -opc)
    test (count $words) -ge 2; and contains -- $words[2] $argv
end

# Completes a comma-separated list. The first argument holds the choices
# that stand alone ("all none"); the rest can be combined: the ones before
# the last comma stay, and the last is completed from those not yet named.
function __urlsift_list
    set -l alone (string split ' ' -- $argv[1])
    set -l token (commandline -ct | string replace -r -- '^--[^=]*=' '')
    set -l named (string match -r -- '^.*,' "$token")
    if test -z "$named"
        printf '%s\n' $alone
    end
    set -l given (string split , -- "$named")
    for choice in $argv[2..-1]
        contains -- $choice $given; or echo "$named$choice"
    end
end

# No file names unless a command reads files.
complete -c urlsift -f
)";
    for (const documented_command& d : all) {
        if (d.command == nullptr) {
            out.append("\n# urlsift itself\n");
            for (const option_spec* o : d.options) out.append(line("__urlsift_no_command", *o));
            for (const documented_command& c : all)
                if (c.command != nullptr)
                    out.append("complete -c urlsift -n __urlsift_no_command -a ")
                        .append(c.command->name)
                        .append(" -d ")
                        .append(quoted(c.command->summary))
                        .append("\n");
            continue;
        }
        const std::string condition = quoted("__urlsift_command " + std::string(d.command->name));
        out.append("\n# ").append(d.command->name).append("\n");
        if (d.command->operands == operand_kind::files) out.append("complete -c urlsift -n ").append(condition).append(" -F\n");
        for (const option_spec* o : d.options) out.append(line(condition, *o));
    }
    return out;
}

}  // namespace urlsift::cli::gen
