# bash completion for urlsift                                 -*- shell-script -*-
#
# Installed as share/bash-completion/completions/urlsift, where the
# bash-completion package loads it on first use; it needs nothing from that
# package, so `source` works too. The option lists follow `urlsift COMMAND
# --help`; tests/packaging/completion_sync.sh fails when they drift apart.

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
    case $option in
        --format | -f)
            case $command in
                resolve) COMPREPLY=($(compgen -W 'text jsonl' -- "$cur")) ;;
                report) COMPREPLY=($(compgen -W 'text json markdown html csv tsv' -- "$cur")) ;;
                *) COMPREPLY=($(compgen -W 'text jsonl csv tsv' -- "$cur")) ;;
            esac ;;
        --table) COMPREPLY=($(compgen -W 'scheme host domain wrapper form warning ip_host punycode_host lookalike_host gateway anchor_mismatch part_kind relative url duplicate files' -- "$cur")) ;;
        --output | -o | --base-root)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        --resolver) COMPREPLY=($(compgen -W 'rfc3986 rfc2396 browser' -- "$cur")) ;;
        --hyphen) COMPREPLY=($(compgen -W 'keep drop' -- "$cur")) ;;
        --binary) COMPREPLY=($(compgen -W 'skip text' -- "$cur")) ;;
        --style) COMPREPLY=($(compgen -W 'plain angle' -- "$cur")) ;;
        --abbrev-scheme) COMPREPLY=($(compgen -W 'http https' -- "$cur")) ;;
        --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")) ;;
        --input) COMPREPLY=($(compgen -W 'text markdown html code mail mbox auto' -- "$cur")) ;;
        --command) COMPREPLY=($(compgen -c -- "$cur")) ;;
        --abbrev)
            if [[ $cur == *,* ]]; then
                _urlsift_list "$cur" www ftp gopher news wais domain email ipv4
            else
                _urlsift_list "$cur" all none www ftp gopher news wais domain email ipv4
            fi ;;
        --only)
            if [[ $cur == *,* ]]; then
                _urlsift_list "$cur" relative abbreviated joined
            else
                _urlsift_list "$cur" all relative abbreviated joined
            fi ;;
        --encoding)
            # Any charset ICU knows is accepted; these are the ones the tool
            # suggests for a name it does not know.
            COMPREPLY=($(compgen -W 'utf-8 latin1 windows-1252 iso-8859-15 utf-16le utf-16be
                                     shift_jis euc-jp gb18030 koi8-r' -- "${cur,,}")) ;;
        # A URL, a number or a glob: nothing to offer.
        --base | -b | --max-url-length | --max-memory | --jobs | -j | --top | --exact-urls | --max-count | -m) COMPREPLY=() ;;
        --include | --exclude | --glob | -g) COMPREPLY=() ;;
        *) return 1 ;;
    esac
    return 0
}

_urlsift() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local command=${COMP_WORDS[1]} option=''
    COMPREPLY=()

    if ((COMP_CWORD == 1)); then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '-h --help -V --version' -- "$cur"))
        else
            COMPREPLY=($(compgen -W 'extract rewrite resolve report pick' -- "$cur"))
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
            extract)
                options='-h --help -V --version -f --format -n --line-number -H --with-filename
                         --no-filename -0 --null -Z --null-after-name -c --count
                         -l --files-with-matches -L --files-without-match -q --quiet
                         -m --max-count -s --no-messages --color --line-buffered
                         -u --unique --warnings --raw --relative --unwrap --binary --encoding
                         -z --search-zip
                         --base --resolver --normalize --hyphen --max-url-length --abbrev
                         --abbrev-scheme --literal-brackets --base-root --max-memory --input --headers' ;;
            rewrite)
                options='-h --help -V --version -i --in-place --follow-symlinks --dry-run --diff
                         --only --style --binary --encoding --input --base
                         --resolver --normalize --hyphen --max-url-length --abbrev
                         --abbrev-scheme --literal-brackets --base-root --max-memory' ;;
            resolve)
                options='-h --help -V --version -b --base --resolver --normalize --max-url-length
                         -f --format' ;;
            report)
                options='-h --help -V --version -f --format --table -o --output --partial --merge -j --jobs
                         --top --exact-urls --no-timestamp --progress --input --binary --encoding -z --search-zip --base
                         --resolver --normalize --hyphen --max-url-length --abbrev
                         --abbrev-scheme --literal-brackets --base-root --max-memory' ;;
            pick)
                options='-h --help -V --version --command --print --input --headers --base
                         --resolver --normalize --hyphen --max-url-length --abbrev
                         --abbrev-scheme --literal-brackets --base-root --max-memory' ;;
            *) return ;;
        esac
        # Which files to read: extract, rewrite and report share them.
        [[ $command == resolve || $command == pick ]] ||
            options+=' -r --recursive --include --exclude -g --glob --hidden --no-ignore'
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi

    case $command in
        extract | rewrite | report | pick)
            # Files and directories, with the usual quoting of their names.
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        *) ;; # resolve reads references: nothing to offer
    esac
}

complete -F _urlsift urlsift
