#!/usr/bin/env bash
# The completions for bash, zsh and fish agree with the tool they complete:
#   - they offer exactly the commands of `urlsift --help` and exactly the
#     options of `urlsift --help` and of each `urlsift COMMAND --help`;
#   - an option that takes a value in the help takes one in the completion,
#     and a flag does not: after a flag of a command that reads files, file
#     names are offered; after an option's value, only when its help names
#     a FILE or DIR;
#   - an option with fixed choices offers exactly the values the tool
#     accepts, as its own message for a wrong value names them (--encoding:
#     the charsets that message suggests).
# The completions are made at build time from the option tables
# (src/cli/gen/); the tool's own --help and messages are the other side, so
# that a table the parser reads differently, or a generator that drops or
# mangles an option, fails here.
# bash and fish are asked what a Tab would offer; zsh's specs are read from
# its file in zsh. Written to start few processes: forks are slow on a busy
# machine.
#
# Usage: completion_sync.sh URLSIFT COMPLETIONS_DIR (the generated urlsift.bash, _urlsift, urlsift.fish)
set -u
urlsift=$1 dir=$2
# The checks run in a scratch folder.
[[ $urlsift == /* ]] || urlsift=$PWD/$urlsift
[[ $dir == /* ]] || dir=$PWD/$dir
failed=0
fail() {
    echo "FAIL: $*" >&2
    failed=1
}
for shell in zsh fish; do
    command -v $shell >/dev/null || { echo "$shell is not installed (scripts/install-deps installs it)" >&2; exit 1; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# File completion shows up as this name; after an option that takes a value
# it must not.
touch "$scratch/operand-file"
cd "$scratch" || exit 1

# same_words WHAT EXPECTED GOT: two lists of words (separated by white space)
# hold the same words.
same_words() {
    local -A want=() have=()
    local w missing='' extra=''
    for w in $2; do want[$w]=1; done
    for w in $3; do have[$w]=1; done
    for w in "${!want[@]}"; do [[ -n ${have[$w]-} ]] || missing+=" $w"; done
    for w in "${!have[@]}"; do [[ -n ${want[$w]-} ]] || extra+=" $w"; done
    [[ -z $missing ]] || fail "$1 lacks:$missing"
    [[ -z $extra ]] || fail "$1 has what the tool does not:$extra"
}

has_word() { [[ " ${1//$'\n'/ } " == *" $2 "* ]]; }

# --- what the tool says ------------------------------------------------------

overview=$("$urlsift" --help)
commands=()
in_table=0
while IFS= read -r line; do
    if [[ $line == Commands: ]]; then in_table=1
    elif ((in_table)) && [[ $line =~ ^\ \ ([a-z][-a-z]*)\ \  ]]; then commands+=("${BASH_REMATCH[1]}")
    else in_table=0
    fi
done <<<"$overview"
((${#commands[@]})) || { echo "FAIL: no command table in urlsift --help" >&2; exit 1; }

# Prints "VALUE NAME..." for each option of a help's option table: VALUE is
# 0 for a flag, 1 for an option that takes a value, 2 for one whose value
# is a file (its text names a FILE or DIR). The table is
# Boost.Program_options': "  -f [ --format ] arg   text", the text at one
# column for the whole table (a long entry may leave a single space before
# it) and continued on lines indented to it.
help_options() {
    awk '
        /^Options:$/ { on = 1; next }
        /^[^ ]/ { on = 0 }
        !on { next }
        /^  -/ {
            entry[++n] = $0
            if (match($0, /[^ ]  +[^ ]/)) { at = RSTART + RLENGTH - 1; if (!column || at < column) column = at }
            next
        }
        /^   / {
            more[n] = more[n] " " $0
            at = match($0, /[^ ]/); if (!column || at < column) column = at
        }
        END {
            for (i = 1; i <= n; i++) {
                spec = column ? substr(entry[i], 3, column - 3) : substr(entry[i], 3)
                text = (column ? substr(entry[i], column) : "") more[i]
                k = split(spec, tok, " ")
                value = 0; names = ""
                for (j = 1; j <= k; j++) {
                    if (tok[j] ~ /^-/) names = names " " tok[j]
                    else if (tok[j] != "[" && tok[j] != "]" && tok[j] !~ /^\(/) value = 1
                }
                if (value && text ~ /(^|[^A-Za-z])(FILE|DIR)([^A-Za-z]|$)/) value = 2
                print value names
            }
        }'
}

# The values the tool accepts for OPTION of COMMAND, read from its message
# for a wrong one:
#   unknown --format 'x' (choose one of: text|jsonl|csv|tsv)
#   unknown --only 'x' (all, or a list of relative,abbreviated,joined)
#   unknown encoding 'x': use --encoding utf-8|latin1|..., or another ...
# Empty when the option takes any value.
cli_choices() {
    local message list='' w out=''
    message=$("$urlsift" "$1" "$2" __no_such_value__ </dev/null 2>&1 >/dev/null)
    if [[ $message =~ \'__no_such_value__\'\ \(([^$'\n']*)\) ]]; then
        list=${BASH_REMATCH[1]}
    elif [[ $message =~ \'__no_such_value__\':\ use\ $2\ ([^ ,]*) ]]; then
        list=${BASH_REMATCH[1]}
    fi
    for w in ${list//[,|:]/ }; do
        case $w in choose | one | of | or | a | list) ;; *) out+=" $w" ;; esac
    done
    printf '%s' "$out"
}

# options: command -> its option names; bash cannot key an array with '', so
# urlsift's own are under "urlsift".
declare -A takes_value=() choices=() options=()
for command in '' "${commands[@]}"; do
    if [[ -n $command ]]; then help=$("$urlsift" "$command" --help); else help=$overview; fi
    while read -r value names; do
        # One question to the tool an option: its short name has the same
        # values (the last name is the long one).
        values=''
        if ((value)) && [[ -n $command ]]; then values=$(cli_choices "$command" "${names##* }"); fi
        for option in $names; do
            options[${command:-urlsift}]+=" $option"
            takes_value["$command $option"]=$value
            choices["$command $option"]=$values
        done
    done < <(printf '%s\n' "$help" | help_options)
    [[ -n ${options[${command:-urlsift}]-} ]] || fail "no options in urlsift $command --help"
done

# --- bash: the completion function, called in this shell ---------------------

# shellcheck source=/dev/null
source "$dir/urlsift.bash"
bash_complete() { # WORD...: sets offered to what completing the last word offers
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _urlsift 2>/dev/null
    offered="${COMPREPLY[*]}"
}

# --- fish: every question in one fish ----------------------------------------

fish_questions=('urlsift ' 'urlsift -')
for command in "${commands[@]}"; do
    fish_questions+=("urlsift $command -")
    for option in ${options[$command]}; do fish_questions+=("urlsift $command $option "); done
done
declare -A fish=() # question -> the words offered
question=''
while IFS= read -r line; do
    if [[ $line == '### '* ]]; then
        question=${line#'### '}
        fish[$question]=''
    else
        fish[$question]+=" ${line%%$'\t'*}"
    fi
done < <(fish --no-config -c '
    source $argv[1]
    for question in $argv[2..-1]
        echo "### $question"
        complete -C $question
    end' "$dir/urlsift.fish" "${fish_questions[@]}" </dev/null 2>&1)

# --- zsh: the _arguments specs, printed by zsh --------------------------------

# The file, less the call that runs the completion, defines the functions.
zsh_definitions=$(sed '/^_urlsift "\$@"$/d' "$dir/_urlsift")
declare -A zsh_takes=() zsh_values=() zsh_options=()
# Reads the specs of COMMAND ('' for urlsift's own): "(-f --format)--format=
# [text]:message:action"; it takes a value when a message follows (one
# colon), a file with a _files action, and its values come from a "(a b c)"
# or "_values -s , NAME a b c" action.
zsh_read_specs() {
    local command=$1 spec name rest action takes
    zsh_options[${command:-urlsift}]=''
    while IFS= read -r spec; do
        [[ $spec == \(* ]] && spec=${spec#*\)}
        spec=${spec#\*}
        [[ $spec =~ ^(--?[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)[-+=]*(\[[^]]*\])?(.*)$ ]] || continue
        name=${BASH_REMATCH[1]} rest=${BASH_REMATCH[4]}
        takes=0 action=''
        if [[ $rest == :* && $rest != ::* ]]; then
            takes=1
            action=${rest#:*:}
        fi
        if [[ $action == \(*\) ]]; then
            action=${action#(}
            action=${action%)}
        elif [[ $action == '_values -s , '* ]]; then
            read -r _ _ _ _ action <<<"$action"
        elif [[ $action == _files* ]]; then
            takes=2 action=''
        else
            action=''
        fi
        zsh_options[${command:-urlsift}]+=" $name"
        zsh_takes["$command $name"]=$takes
        zsh_values["$command $name"]=$action
    done < <(zsh -f -c "$zsh_definitions"$'\n''_urlsift_options "$1" && print -rl -- $reply' zsh "$command")
}
zsh_commands=$(zsh -f -c "$zsh_definitions"$'\n''_urlsift_commands; print -rl -- ${reply%%:*}')

# --- the checks --------------------------------------------------------------

bash_complete urlsift ''
same_words "bash: commands" "${commands[*]}" "$offered"
same_words "fish: commands" "${commands[*]}" "${fish['urlsift ']-}"
same_words "zsh: commands" "${commands[*]}" "$zsh_commands"

bash_complete urlsift -
same_words "bash: urlsift's options" "${options[urlsift]}" "$offered"
same_words "fish: urlsift's options" "${options[urlsift]}" "${fish['urlsift -']-}"
zsh_read_specs ''
same_words "zsh: urlsift's options" "${options[urlsift]}" "${zsh_options[urlsift]}"

for command in "${commands[@]}"; do
    expected=${options[$command]}
    bash_complete urlsift "$command" -
    same_words "bash: options of $command" "$expected" "$offered"
    same_words "fish: options of $command" "$expected" "${fish["urlsift $command -"]-}"
    zsh_read_specs "$command"
    same_words "zsh: options of $command" "$expected" "${zsh_options[$command]}"

    # Whether the command's operands are file names: then a flag is
    # followed by one.
    bash_complete urlsift "$command" ''
    reads_files=0
    has_word "$offered" operand-file && reads_files=1

    for option in $expected; do
        key="$command $option"
        bash_complete urlsift "$command" "$option" ''
        fish_offers=${fish["urlsift $command $option "]-}
        if ((takes_value[$key] == 2)); then
            has_word "$offered" operand-file || fail "bash: $key takes a file, but no file names are offered for it"
            has_word "$fish_offers" operand-file || fail "fish: $key takes a file, but no file names are offered for it"
            [[ ${zsh_takes[$key]-} == 2 ]] || fail "zsh: $key takes a file, but its spec does not complete files"
        elif ((takes_value[$key])); then
            has_word "$offered" operand-file && fail "bash: $key takes a value, but file names are offered for it"
            has_word "$fish_offers" operand-file && fail "fish: $key takes a value, but file names are offered for it"
            [[ ${zsh_takes[$key]-} == 1 ]] || fail "zsh: $key takes a value, but its spec has none"
            if [[ -n ${choices[$key]} ]]; then
                same_words "bash: values of $key" "${choices[$key]}" "$offered"
                same_words "fish: values of $key" "${choices[$key]}" "$fish_offers"
                same_words "zsh: values of $key" "${choices[$key]}" "${zsh_values[$key]-}"
            fi
        else
            if ((reads_files)); then
                has_word "$offered" operand-file || fail "bash: $key is a flag, but no file names are offered after it"
                has_word "$fish_offers" operand-file || fail "fish: $key is a flag, but no file names are offered after it"
            fi
            [[ ${zsh_takes[$key]-} == 0 ]] || fail "zsh: $key is a flag, but its spec takes a value"
        fi
    done
done

((failed == 0)) || exit 1
echo "bash, zsh and fish completions match the help: ${#commands[@]} commands, ${#takes_value[@]} option names"
