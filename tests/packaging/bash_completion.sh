#!/usr/bin/env bash
# Loads the bash completion in a non-interactive bash, as bash-completion
# would, and asks it what a user's Tab would get: commands, options, the
# values of options with fixed choices, file names.
#
# Usage: bash_completion.sh COMPLETION_FILE
set -u
file=$1
failed=0

# shellcheck source=/dev/null
source "$file" || { echo "FAIL: cannot source $file" >&2; exit 1; }
[[ $(complete -p urlsift 2>/dev/null) == *"-F _urlsift"* ]] || { echo "FAIL: $file does not register a completion for urlsift" >&2; exit 1; }

# "offers WORD... : EXPECTED...": completing the last WORD offers each
# EXPECTED. Words are as bash splits them (it makes "--a=b" three words).
offers() {
    local -a words=()
    while [[ $1 != : ]]; do words+=("$1"); shift; done
    shift
    COMP_WORDS=("${words[@]}")
    COMP_CWORD=$((${#words[@]} - 1))
    COMP_LINE="${words[*]}"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _urlsift 2>/dev/null
    local want got found
    for want in "$@"; do
        found=0
        for got in "${COMPREPLY[@]}"; do [[ $got == "$want" ]] && found=1; done
        if ((!found)); then
            echo "FAIL: completing '${words[*]}' does not offer '$want' (offers: ${COMPREPLY[*]:-nothing})" >&2
            failed=1
        fi
    done
}

# "offers_nothing WORD...": completing the last WORD offers nothing.
offers_nothing() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _urlsift 2>/dev/null
    if ((${#COMPREPLY[@]})); then
        echo "FAIL: completing '$*' offers ${COMPREPLY[*]}, expected nothing" >&2
        failed=1
    fi
}

offers urlsift ex : extract
offers urlsift '' : extract rewrite resolve
offers urlsift --ver : --version
offers urlsift extract --form : --format
offers urlsift rewrite --in : --in-place
offers urlsift resolve -- : --base --resolver --normalize --max-url-length --format --help
offers urlsift extract --format '' : text jsonl csv tsv
offers urlsift extract -f j : jsonl
offers urlsift extract --format = j : jsonl
offers urlsift resolve --resolver r : rfc3986 rfc2396
offers urlsift rewrite --style '' : plain angle
offers urlsift extract --hyphen '' : keep drop
offers urlsift rewrite --binary '' : skip text
offers urlsift extract --abbrev www,f : www,ftp
offers urlsift rewrite --only relative, : relative,abbreviated relative,joined

# File names for the commands that read files, and none where a value goes.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
touch "$scratch/notes one.txt" "$scratch/notes-two.txt"
cd "$scratch" || exit 1
offers urlsift extract no : "notes one.txt" notes-two.txt
offers urlsift rewrite -r '' : "notes one.txt" notes-two.txt
offers urlsift extract -- '' : "notes one.txt"
offers_nothing urlsift extract --base ''
offers_nothing urlsift resolve ''
offers_nothing urlsift rewrite --max-url-length ''

((failed == 0)) || exit 1
echo "bash completion offers what was asked"
