// The zsh completion: an _arguments spec for each option.

#include "cli/gen/completions.hpp"

#include <cctype>

namespace urlsift::cli::gen {

namespace {

/// `s` inside single quotes.
std::string quoted(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (c == '\'') out.append("'\\''");
        else out.push_back(c);
    }
    return out;
}

/// A description in [...]: brackets would end it.
std::string described(const option_spec& o) {
    std::string out;
    for (char c : brief_help(o)) {
        if (c == '[') c = '(';
        if (c == ']') c = ')';
        out.push_back(c);
    }
    return "[" + quoted(out) + "]";
}

std::string joined(std::span<const std::string_view> words) {
    std::string out;
    for (const std::string_view w : words) out.append(out.empty() ? "" : " ").append(w);
    return out;
}

/// ":message:action" for the value of `o`.
std::string value_part(const option_spec& o) {
    if (o.value == value_kind::none) return o.optional_value ? "::" + quoted(std::string(value_name(o))) + ": " : "";
    // What zsh shows above the values: the placeholder (file, num), or for
    // a word the option's name.
    const bool word = o.value_name.empty() &&
                      (o.value == value_kind::choice || o.value == value_kind::choice_list || o.value == value_kind::text);
    std::string message(word ? o.name : value_name(o));
    for (char& c : message) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string action = " ";
    switch (o.value) {
    case value_kind::choice:
    case value_kind::text:
        if (!o.choices.empty()) action = "(" + joined(o.choices) + ")";
        break;
    case value_kind::choice_list:
        action = "_values -s , " + message + " " + joined(o.alone) + " " + joined(o.choices);
        break;
    case value_kind::file: action = "_files"; break;
    case value_kind::directory: action = "_files -/"; break;
    case value_kind::url: action = "_urls"; break;
    case value_kind::command: action = "_command_names -e"; break;
    default: break;
    }
    return ":" + message + ":" + quoted(action);
}

/// "-f --format": the names of `o`.
std::string both_names(const option_spec& o) {
    std::string out;
    if (o.short_name != 0) out.append("-").append(1, o.short_name).append(" ");
    return out.append("--").append(o.name);
}

/// The _arguments spec of `o`, one of `all`:
/// '(-f --format)'{-f+,--format=}'[...]:format:(a b)'.
std::string spec(const option_spec& o, const std::vector<const option_spec*>& all) {
    const bool help_or_version = o.name == "help" || o.name == "version";
    const std::string long_name = "--" + std::string(o.name);
    // What may not follow it: itself (but a repeatable option), and the
    // options it excludes.
    std::string excluded;
    if (!o.repeatable && (o.short_name != 0 || !o.excludes.empty())) excluded = both_names(o);
    for (const std::string_view name : o.excludes)
        for (const option_spec* other : all)
            if (other->name == name) excluded.append(" ").append(both_names(*other));
    std::string exclusion;
    if (help_or_version) exclusion = "'(- *)'";
    else if (o.repeatable) exclusion = "'*'";
    else if (!excluded.empty()) exclusion = "'(" + excluded + ")'";
    const char* short_mark = o.value != value_kind::none ? "+" : o.optional_value ? "-" : "";
    const char* long_mark = o.value != value_kind::none ? "=" : o.optional_value ? "=-" : "";
    const std::string rest = described(o) + value_part(o) + "'";
    if (o.short_name == 0) {
        // '*--include=[...]:glob: ', with the mark inside the quotes.
        if (!exclusion.empty()) exclusion = exclusion.substr(1, exclusion.size() - 2);
        return "'" + exclusion + long_name + long_mark + rest;
    }
    return exclusion + "{-" + std::string(1, o.short_name) + short_mark + "," + long_name + long_mark + "}'" + rest;
}

}  // namespace

std::string zsh_completion(const std::vector<documented_command>& all) {
    std::string out = R"(#compdef urlsift
# zsh completion for urlsift, installed as share/zsh/site-functions/_urlsift.
# Made by urlsift-gen-docs from the option tables in src/cli/; edit those,
# not this file.

# Sets reply to the commands, as name:description.
_urlsift_commands() {
  reply=(
)";
    for (const documented_command& d : all)
        if (d.command != nullptr)
            out.append("    '").append(quoted(std::string(d.command->name) + ":" + std::string(d.command->summary))).append("'\n");
    out.append(R"(  )
}

# Sets reply to the _arguments specs of a command's options, or of urlsift's
# own options for ''. Returns 1 for a command it does not know.
_urlsift_options() {
  case $1 in
)");
    for (const documented_command& d : all) {
        out.append("    ").append(d.command == nullptr ? "''" : std::string(d.command->name)).append(")\n      reply=(\n");
        for (const option_spec* o : d.options) out.append("        ").append(spec(*o, d.options)).append("\n");
        if (d.command != nullptr)
            out.append(d.command->operands == operand_kind::files ? "        '*:file:_files'\n"
                                                                  : "        '*:reference: '\n");
        out.append("      ) ;;\n");
    }
    out.append(R"(    *) return 1 ;;
  esac
}

_urlsift() {
  local curcontext=$curcontext state line ret=1
  local -a reply
  _urlsift_options ''
  _arguments -C $reply '1:command:->command' '*::argument:->argument' && ret=0
  case $state in
    command)
      _urlsift_commands
      _describe -t commands 'urlsift command' reply && ret=0 ;;
    argument)
      curcontext=${curcontext%:*:*}:urlsift-$words[1]:
      if _urlsift_options $words[1]; then
        _arguments -s -S $reply && ret=0
      else
        _message "unknown command: $words[1]"
      fi ;;
  esac
  return ret
}

_urlsift "$@"
)");
    return out;
}

}  // namespace urlsift::cli::gen
