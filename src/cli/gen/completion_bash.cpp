// The bash completion: a function that bash-completion loads on first use
// (it needs nothing from that package, so `source` works too).

#include "cli/gen/completions.hpp"

namespace urlsift::cli::gen {

namespace {

std::string joined(std::span<const std::string_view> words, std::string_view separator = " ") {
    std::string out;
    for (const std::string_view w : words) {
        if (!out.empty()) out.append(separator);
        out.append(w);
    }
    return out;
}

std::string names_of(const option_spec& o) {
    std::string out;
    if (o.short_name != 0) out.append("-").append(1, o.short_name).append(" ");
    return out.append("--").append(o.name);
}

/// The case arm that completes the value of `o`, or "" for a switch.
std::string value_arm(std::string_view command, const option_spec& o) {
    std::string action;
    switch (o.value) {
    case value_kind::none: return {};
    case value_kind::choice:
    case value_kind::text:
        if (o.choices.empty()) action = "COMPREPLY=()";
        else action = "COMPREPLY=($(compgen -W '" + joined(o.choices) + "' -- \"$cur\"))";
        break;
    case value_kind::choice_list: {
        const std::string kinds = joined(o.choices);
        std::string alone = joined(o.alone);
        action = "if [[ $cur == *,* ]]; then _urlsift_list \"$cur\" " + kinds + "; else _urlsift_list \"$cur\" ";
        action.append(alone).append(" ").append(kinds).append("; fi");
        break;
    }
    // A directory's name is completed as a file's, a step at a time.
    case value_kind::file:
    case value_kind::directory:
        action = "compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")";
        break;
    case value_kind::command: action = "COMPREPLY=($(compgen -c -- \"$cur\"))"; break;
    case value_kind::number:
    case value_kind::size:
    case value_kind::url:
    case value_kind::glob: action = "COMPREPLY=()"; break;  // nothing to offer
    }
    std::string pattern = "'" + std::string(command) + " --" + std::string(o.name) + "'";
    if (o.short_name != 0) pattern.append(" | '").append(command).append(" -").append(1, o.short_name).append("'");
    return "        " + pattern + ") " + action + " ;;\n";
}

}  // namespace

std::string bash_completion(const std::vector<documented_command>& all) {
    std::string out = R"(# bash completion for urlsift                                 -*- shell-script -*-
#
# Made by urlsift-gen-docs from the option tables in src/cli/; edit those,
# not this file. Installed as share/bash-completion/completions/urlsift,
# where the bash-completion package loads it on first use; it needs nothing
# from that package, so `source` works too.

# Completes a comma-separated list: the words before the last comma stay,
# the last is completed from the choices not yet in the list.
_urlsift_list() {
    local cur=$1 done_part='' choice
    shift
    [[ $cur == *,* ]] && done_part=${cur%,*},
    local -a left=()
    for choice in "$@"; do
        [[ ,$done_part == *,"$choice",* ]] || left+=("$done_part$choice")
    done
    COMPREPLY=($(compgen -W "${left[*]}" -- "$cur"))
    # One more kind may follow: do not end the word yet.
    compopt -o nospace 2>/dev/null
}

# Completes the value of OPTION for COMMAND. Returns 1 when OPTION takes no
# value, so that the caller completes a new word instead.
_urlsift_value() {
    local command=$1 option=$2 cur=$3
    case "$command $option" in
)";
    std::string commands, top_options, option_lists, file_commands;
    for (const documented_command& d : all) {
        std::string names;
        for (const option_spec* o : d.options) names.append(names.empty() ? "" : " ").append(names_of(*o));
        if (d.command == nullptr) {
            top_options = names;
            continue;
        }
        const std::string_view name = d.command->name;
        commands.append(commands.empty() ? "" : " ").append(name);
        for (const option_spec* o : d.options) out.append(value_arm(name, *o));
        option_lists.append("            ").append(name).append(") options='").append(names).append("' ;;\n");
        if (d.command->operands == operand_kind::files)
            file_commands.append(file_commands.empty() ? "" : " | ").append(name);
    }
    out.append(R"(        *) return 1 ;;
    esac
    return 0
}

_urlsift() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local command=${COMP_WORDS[1]} option=''
    COMPREPLY=()

    if ((COMP_CWORD == 1)); then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W ')").append(top_options).append(R"(' -- "$cur"))
        else
            COMPREPLY=($(compgen -W ')").append(commands).append(R"(' -- "$cur"))
        fi
        return
    fi

    # bash splits "--format=js" into "--format" "=" "js".
    local attached=0
    if [[ $cur == = ]]; then
        option=$prev cur='' attached=1
    elif [[ $prev == = ]] && ((COMP_CWORD >= 3)); then
        option=${COMP_WORDS[COMP_CWORD-2]} attached=1
    elif [[ $prev == -* ]]; then
        option=$prev
    fi

    # No option after "--": what follows is operands.
    local i operands=0
    for ((i = 2; i < COMP_CWORD; i++)); do
        [[ ${COMP_WORDS[i]} == -- ]] && operands=1
    done

    if ((!operands)) && [[ -n $option ]]; then
        _urlsift_value "$command" "$option" "$cur" && return
        # --in-place=SUFFIX: a suffix, not a file.
        ((attached)) && return
    fi

    if ((!operands)) && [[ $cur == -* ]]; then
        local options
        case $command in
)");
    out.append(option_lists);
    out.append(R"(            *) return ;;
        esac
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi

    case $command in
        )").append(file_commands).append(R"()
            # Files and directories, with the usual quoting of their names.
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        *) ;; # the operands are not files: nothing to offer
    esac
}

complete -F _urlsift urlsift
)");
    return out;
}

}  // namespace urlsift::cli::gen
