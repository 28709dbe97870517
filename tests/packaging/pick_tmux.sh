#!/usr/bin/env bash
# urlsift pick on a real terminal: tmux runs it in a detached session with a
# message piped in (so that its keys come from the terminal, as under
# mutt's <pipe-message>), and the test types into the pane and reads it:
#   - the list shows the URLs, with control characters in a context shown
#     escaped; typing after / filters it; Enter runs --command with the URL
#     as one argument, its standard input the terminal;
#   - j moves, y copies with OSC 52 (tmux keeps it as a paste buffer), q
#     quits with the terminal as it was (main screen, cursor, tty modes);
#   - --print prints the URL chosen; SIGTERM restores the terminal too;
#   - the tmux binding docs/guide.md gives parses, and picks from the pane;
#   - the screen README.md shows for samples/mail-thread.txt is the one
#     pick shows.
# Every wait polls with a time limit; the whole test takes a few seconds.
#
# Usage: pick_tmux.sh URLSIFT SOURCE_DIR
set -u
urlsift=$1 source_dir=$2
guide=$source_dir/docs/guide.md readme=$source_dir/README.md
[[ $urlsift == /* ]] || urlsift=$PWD/$urlsift
command -v tmux >/dev/null || { echo "tmux is not installed (scripts/install-deps installs it)" >&2; exit 1; }
failed=0
fail() {
    echo "FAIL: $*" >&2
    failed=1
}

scratch=$(mktemp -d)
sock=$scratch/tmux.sock
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null; rm -rf "$scratch"' EXIT

# shellcheck source=tmux_wait.sh
source "$(dirname "$0")/tmux_wait.sh"
pane() { t capture-pane -p -t "${target:-pick}"; }
pane_flag() { t display-message -p -t "${target:-pick}" "#{$1}"; }

# A message as a mail reader pipes it: quoted-printable, with a URL broken
# by a soft line break and a line with an escape sequence in it.
printf '%s\r\n' \
    'From: Jim <jim@example.org>' \
    'Subject: links' \
    'Content-Type: text/plain; charset=utf-8' \
    'Content-Transfer-Encoding: quoted-printable' \
    '' \
    'The draft is at https://www.example.org/drafts/url-in-text-=' \
    'appendix-e.html for review.' \
    'File bugs at http://bugs.example.net/1234 please.' \
    'Old notes: www.w3.org/Addressing/ =1B[31mred=1B[0m' \
    > "$scratch/msg.eml"
first=https://www.example.org/drafts/url-in-text-appendix-e.html
second=http://bugs.example.net/1234
third=http://www.w3.org/Addressing/

# The command --command runs: writes its arguments one a line, and whether
# its standard input is a terminal.
cat > "$scratch/opener" <<'SH'
#!/bin/sh
{ for a in "$@"; do printf '%s\n' "$a"; done; [ -t 0 ] && echo stdin-is-a-tty; } > "$0.args.tmp"
mv "$0.args.tmp" "$0.args"
SH
chmod +x "$scratch/opener"

# What the pane runs, one pick after another; each writes its status, and
# the next waits for the test's go-ahead.
cat > "$scratch/session" <<SH
cd '$scratch' || exit 1
export LANG=C.UTF-8 LC_ALL=C.UTF-8
echo SHELL-BEFORE-PICK
stty -g > stty.before
cat msg.eml | '$urlsift' pick --command "'$scratch/opener' --new-tab"; echo "\$?" > status.open
until [ -e go.quit ]; do sleep 0.02; done
cat msg.eml | '$urlsift' pick; echo "\$?" > status.quit
stty -g > stty.quit
until [ -e go.print ]; do sleep 0.02; done
url=\$(cat msg.eml | '$urlsift' pick --print); echo "\$? \$url" > status.print
until [ -e go.term ]; do sleep 0.02; done
cat msg.eml | sh -c 'echo \$\$ > pick.pid; exec "\$0" pick' '$urlsift'; echo "\$?" > status.term
stty -g > stty.term
echo 'Last words: see https://recipe.example.org/from-the-pane for more.'
exec sleep 600
SH

cat > "$scratch/tmux.conf" <<'CONF'
set -g set-clipboard on
set -g remain-on-exit on
CONF
export HOME=$scratch
t -f "$scratch/tmux.conf" new-session -d -s pick -x 100 -y 24 "sh '$scratch/session'" ||
    { echo "FAIL: tmux cannot start a session" >&2; exit 1; }

# --- the list, the filter, Enter ---------------------------------------------
if wait_for "the list" shows "$third"; then
    shows "$first" || fail "the list lacks $first"
    shows "$second" || fail "the list lacks $second"
    shows 'Old notes: www.w3.org/Addressing/ \x1b[31mred\x1b[0m' || fail "the escape sequence in a context is not shown escaped"
    shows 'The draft is at https://www.example.org' || fail "no context line under the first URL"
    t send-keys -t pick / b u g s
    wait_for "the filter to leave one URL" hides "$first" && {
        shows "$second" || fail "the filter 'bugs' hides $second"
        hides "$third" || fail "the filter 'bugs' shows $third"
        shows "/bugs" || fail "the filter is not shown as typed"
    }
    t send-keys -t pick Enter
    if wait_for "the command to run" exists "$scratch/opener.args"; then
        expected=$(printf '%s\n' --new-tab "$second" stdin-is-a-tty)
        [[ $(cat "$scratch/opener.args") == "$expected" ]] ||
            fail "the command got $(tr '\n' ' ' < "$scratch/opener.args"), expected $(echo $expected)"
    fi
    wait_for "pick to end" exists "$scratch/status.open" &&
        { [[ $(cat "$scratch/status.open") == 0 ]] || fail "exit status $(cat "$scratch/status.open") after opening, expected 0"; }
fi

# --- j, y, q -----------------------------------------------------------------
touch "$scratch/go.quit"
if wait_for "the second list" shows "$first"; then
    t send-keys -t pick j y
    wait_for "the copy (OSC 52)" shows "copied" &&
        { [[ $(t show-buffer 2>/dev/null) == "$second" ]] || fail "y copied '$(t show-buffer 2>&1)', expected $second"; }
    t send-keys -t pick q
    if wait_for "q to quit" exists "$scratch/status.quit"; then
        [[ $(cat "$scratch/status.quit") == 0 ]] || fail "exit status $(cat "$scratch/status.quit") after q, expected 0"
        shows SHELL-BEFORE-PICK || fail "the shell's screen is not back after q"
        hides "$second" || fail "the list is still on the screen after q"
        [[ $(pane_flag alternate_on) == 0 ]] || fail "the terminal is left on the alternate screen"
        [[ $(pane_flag cursor_flag) == 1 ]] || fail "the cursor is left hidden"
        [[ $(pane_flag keypad_cursor_flag) == 0 ]] || fail "the keypad is left in application mode"
        cmp -s "$scratch/stty.before" "$scratch/stty.quit" || fail "the tty modes differ after q"
    fi
fi

# --- --print -----------------------------------------------------------------
touch "$scratch/go.print"
if wait_for "the third list" shows "$first"; then
    t send-keys -t pick End Enter
    wait_for "--print to end" exists "$scratch/status.print" &&
        { [[ $(cat "$scratch/status.print") == "0 $third" ]] || fail "--print gave '$(cat "$scratch/status.print")', expected '0 $third'"; }
fi

# --- SIGTERM -----------------------------------------------------------------
touch "$scratch/go.term"
if wait_for "the fourth list" shows "$first" && wait_for "its pid" exists "$scratch/pick.pid"; then
    kill -TERM "$(cat "$scratch/pick.pid")"
    if wait_for "SIGTERM to end pick" exists "$scratch/status.term"; then
        [[ $(cat "$scratch/status.term") == 143 ]] || fail "exit status $(cat "$scratch/status.term") on SIGTERM, expected 143"
        [[ $(pane_flag alternate_on) == 0 ]] || fail "the terminal is left on the alternate screen after SIGTERM"
        cmp -s "$scratch/stty.before" "$scratch/stty.term" || fail "the tty modes differ after SIGTERM"
    fi
fi

# --- the guide's tmux binding ----------------------------------------------
binding=$(grep -m1 '^bind-key u ' "$guide")
if [[ -z $binding ]]; then
    fail "docs/guide.md has no 'bind-key u' line"
elif wait_for "the pane's last words" shows "recipe.example.org"; then
    printf '%s\n' "$binding" > "$scratch/binding.conf"
    t source-file "$scratch/binding.conf" || fail "tmux cannot read the guide's binding: $binding"
    t list-keys -T prefix u | grep -q capture-pane || fail "the guide's binding is not bound to prefix u"
    # Its commands, as pressing the key runs them, on the pane; pick finds
    # the opener by $BROWSER, and itself on PATH (which a window made from
    # a client that is not attached takes from the client).
    t set-environment -g BROWSER "$scratch/opener"
    rm -f "$scratch/opener.args"
    # The key runs what bind-key was given: its \; separate commands then.
    commands=${binding#bind-key u }
    printf '%s\n' "${commands//\\;/;}" > "$scratch/run-binding.conf"
    PATH=$(dirname "$urlsift"):$PATH t source-file "$scratch/run-binding.conf" || fail "tmux cannot run the guide's binding"
    target=pick:1
    if wait_for "pick in the new window" shows "https://recipe.example.org/from-the-pane"; then
        t send-keys -t pick:1 G Enter
        wait_for "the binding's pick to open" exists "$scratch/opener.args" &&
            { grep -qx https://recipe.example.org/from-the-pane "$scratch/opener.args" ||
                fail "the binding's pick opened $(cat "$scratch/opener.args")"; }
        # What the binding made it cleans up once pick has ended.
        no_buffers_left() { ! t list-buffers -F '#{buffer_name}' | grep -qx urlsift; }
        wait_for "the binding's paste buffer to go" no_buffers_left
    fi
fi

# --- README's screen ---------------------------------------------------------
# The ```text block after the line that names the command, in a terminal of
# the size README gives.
screen=$(awk '/`urlsift pick samples\/mail-thread.txt`/ { named = 1 }
              named && /^```text$/ { inside = 1; next }
              inside && /^```$/ { exit }
              inside { print }' "$readme")
size=$(grep -o 'of [0-9]* columns and [0-9]* lines' "$readme" | head -1)
columns=$(awk '{ print $2 }' <<< "$size") lines=$(awk '{ print $5 }' <<< "$size")
if [[ -z $screen || -z $columns || -z $lines ]]; then
    fail "README.md shows no screen of 'urlsift pick samples/mail-thread.txt' in a terminal of a given size"
else
    t new-session -d -s tour -x "$columns" -y "$lines" \
        "cd '$source_dir' && LANG=C.UTF-8 LC_ALL=C.UTF-8 '$urlsift' pick samples/mail-thread.txt; exec sleep 600"
    target=tour
    last=$(tail -n 1 <<< "$screen")
    if wait_for "README's screen" shows "${last##* }"; then
        [[ $(pane) == "$screen" ]] ||
            fail "the screen of pick on samples/mail-thread.txt differs from README.md's:
$(diff <(printf '%s\n' "$screen") <(pane))"
    fi
    t send-keys -t tour q
fi

((failed == 0)) || exit 1
echo "urlsift pick in tmux: list, filter, open, copy, quit, --print, SIGTERM, the guide's binding and README's screen work"
