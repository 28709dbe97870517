#!/bin/sh
# The manual pages the build made (urlsift-gen-docs, from the option tables
# and help texts) render with man(1) as a reader sees them,
# without a warning from man or groff; each has the sections a reader looks
# for and a NAME line apropos can index, and documents every option its
# command's --help lists. Every command urlsift --help lists has a page.
#
# Usage: man_pages.sh URLSIFT MAN_DIR
set -u
urlsift=$1 dir=$2
failed=0
fail() {
    echo "FAIL: $*" >&2
    failed=1
}
command -v man >/dev/null || { echo "man is not installed (scripts/install-deps installs man-db)" >&2; exit 1; }

commands=$("$urlsift" --help | awk '/^Commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1; next } { on = 0 }')
[ -n "$commands" ] || { echo "FAIL: no command table in urlsift --help" >&2; exit 1; }

# man formats for a terminal of this width, as a reader's would.
export MANWIDTH=80 MANPAGER=cat PAGER=cat LC_ALL=C.UTF-8
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

pages=0
for command in "" $commands; do
    name=urlsift${command:+-$command}
    page=$dir/$name.1
    if [ ! -s "$page" ]; then
        fail "$page is missing or empty"
        continue
    fi
    pages=$((pages + 1))

    # --warnings=w: groff -ww, every kind of warning.
    man --warnings=w -l "$page" > "$scratch/text" 2> "$scratch/warnings"
    [ -s "$scratch/warnings" ] && fail "$name.1: man -l warns:
$(cat "$scratch/warnings")"
    if [ -n "$command" ]; then "$urlsift" "$command" --help; else "$urlsift" --help; fi > "$scratch/help"

    # apropos and whatis read the NAME line.
    if command -v lexgrog >/dev/null; then
        lexgrog "$page" > "$scratch/whatis" 2>&1
        grep -q "\"$name - [a-z]" "$scratch/whatis" || fail "$name.1: lexgrog cannot read its NAME line: $(cat "$scratch/whatis")"
    fi

    # The sections a reader looks for (EXAMPLES when the help has
    # examples), each option of the help in OPTIONS, and every other page
    # in SEE ALSO. One awk reads the help, then the rendered page.
    others=
    for other in "" $commands; do
        [ "$other" = "$command" ] || others="$others urlsift${other:+-$other}"
    done
    problems=$(awk -v others="$others" '
        FNR == NR {
            if ($0 == "Options:") in_options = 1
            else if ($0 ~ /^[^ ]/) in_options = 0
            if (in_options && match($0, /^  (-[A-Za-z0-9] \[ )?--[a-z][-a-z0-9]*/)) {
                option = substr($0, RSTART, RLENGTH)
                sub(/.* /, "", option)
                options[option] = 1
            }
            if ($0 == "Examples:") sections["EXAMPLES"] = 1
            next
        }
        /^[A-Z]/ { section = $0; seen[section] = 1; next }
        section == "OPTIONS" {
            n = split($0, words, /[ ,]+/)
            for (i = 1; i <= n; i++) documented[words[i]] = 1
        }
        section == "SEE ALSO" {
            n = split($0, words, /[ ,]+/)
            for (i = 1; i <= n; i++) pointed[words[i]] = 1
        }
        END {
            split("NAME SYNOPSIS DESCRIPTION OPTIONS", required, " ")
            for (i in required) sections[required[i]] = 1
            sections["EXIT STATUS"] = 1
            sections["SEE ALSO"] = 1
            for (s in sections) if (!(s in seen)) print "has no " s " section"
            for (o in options) if (!(o in documented)) print "does not document " o
            n = split(others, pages, " ")
            for (i = 1; i <= n; i++) if (!((pages[i] "(1)") in pointed)) print "does not point to " pages[i] "(1)"
        }' "$scratch/help" "$scratch/text")
    [ -z "$problems" ] || fail "$(printf '%s\n' "$problems" | sed "s/^/$name.1 /")"
done

[ "$failed" -eq 0 ] || exit 1
echo "$pages manual pages render without warnings"
