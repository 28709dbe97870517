#!/usr/bin/env bash
# urlsift pick from the newsreaders, as a reader runs it: articles posted to
# a news server on localhost, read in slrn and in tin under tmux, piped to
# pick, and a link chosen with pick's keys.
#   - the server is sn (Debian's small NNTP server for leaf sites): a local
#     group in a scratch spool ($SNROOT), one snntpd a connection as inetd
#     would run it, here from socat on 127.0.0.1 and a port the kernel
#     picks. (leafnode 1.x has no local groups: it queues a POSTed article
#     for its upstream server and serves it only once fetchnews brings it
#     back. inn2's package does not configure on a host without a fully
#     qualified name.)
#   - three articles are POSTed over NNTP: a URL broken across lines in
#     <...> (Appendix E), one after URL:, one in <...>, plain ones, a reply
#     that quotes a broken one, and a <URL:...> broken across lines;
#   - slrn runs the guide's recipe, read from docs/guide.md: Ctrl-B in
#     article mode, bound by the macro file that .slrnrc loads with the
#     `interpret` line the guide gives, and `|` with `urlsift pick` typed at
#     its prompt; tin pipes the article with `|`;
#   - pick opens the URL chosen with $BROWSER, a script that writes it to a
#     file: it must be the URL joined across the line break, absolute.
# Every wait polls the pane with a time limit; the test takes some seconds.
#
# Usage: newsreaders_tmux.sh URLSIFT GUIDE
# Exit status 77 (skipped) when the news server cannot be started.
set -u
urlsift=$1
guide=$2
[[ $urlsift == /* ]] || urlsift=$PWD/$urlsift
PATH=$PATH:/usr/sbin
for program in tmux socat snntpd snnewgroup snprimedb slrn tin; do
    command -v "$program" >/dev/null ||
        { echo "$program is not installed (scripts/install-deps installs it)" >&2; exit 1; }
done
failed=0
fail() {
    echo "FAIL: $*" >&2
    failed=1
}
skip() {
    echo "SKIP: $*" >&2
    exit 77
}

scratch=$(mktemp -d)
# A server of the test's own, its socket in the scratch directory (a -L
# name would leave its socket in tmux's directory).
t() { tmux -S "$scratch/tmux.sock" "$@"; }
target=
server_pid=
# The readers first, then the server once their connections have closed
# (for 2 s at most): socat and the snntpd it forked, one process group.
cleanup() {
    local i
    t kill-server 2>/dev/null
    if [[ -n $server_pid ]]; then
        for ((i = 0; i < 40; i++)); do
            [[ -z $(ps -o pid= --ppid "$server_pid") ]] && break
            sleep 0.05
        done
        kill -TERM -- "-$server_pid" 2>/dev/null
        wait "$server_pid" 2>/dev/null
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT

# shellcheck source=tmux_wait.sh
source "$(dirname "$0")/tmux_wait.sh"
pane() { t capture-pane -p -t "$target"; }

# --- the server --------------------------------------------------------------
export SNROOT=$scratch/spool
mkdir "$SNROOT"
snnewgroup local.urlsift > "$scratch/newgroup.log" 2>&1 ||
    skip "sn cannot make a group in a scratch spool: $(cat "$scratch/newgroup.log")"
snprimedb -i < /dev/null > "$scratch/primedb.log" 2>&1 ||
    skip "sn cannot make its message-ID database: $(cat "$scratch/primedb.log")"
# Its own session, so that the process group holds socat and its children.
: > "$scratch/server.log"
setsid socat -d -d TCP-LISTEN:0,bind=127.0.0.1,reuseaddr,fork "EXEC:$(command -v snntpd)" 2> "$scratch/server.log" &
server_pid=$!
port=
for ((i = 0; i < 200; i++)); do
    port=$(sed -n 's/.*listening on AF=2 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$scratch/server.log")
    [[ -n $port ]] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.05
done
[[ -n $port ]] || skip "the news server does not listen on 127.0.0.1: $(cat "$scratch/server.log")"

# post FILE: POSTs the article in FILE (lines end in LF) over NNTP.
post() {
    local fd line
    exec {fd}<> "/dev/tcp/127.0.0.1/$port" || return 1
    IFS= read -r -t 10 line <&"$fd"
    if [[ $line != 20[01]* ]]; then
        echo "the server greets with: $line" >&2
    else
        printf 'POST\r\n' >&"$fd"
        IFS= read -r -t 10 line <&"$fd"
        if [[ $line != 340* ]]; then
            echo "POST is answered: $line" >&2
        else
            # A line that starts with '.' gets another (RFC 3977, 3.1.1).
            sed -e 's/^\./../' -e 's/$/\r/' "$1" >&"$fd"
            printf '.\r\n' >&"$fd"
            IFS= read -r -t 10 line <&"$fd"
            [[ $line == 240* ]] || echo "the article is answered: $line" >&2
        fi
    fi
    printf 'QUIT\r\n' >&"$fd" 2>/dev/null
    exec {fd}>&-
    [[ $line == 240* ]]
}

# --- the articles ------------------------------------------------------------
printf '%s\n' \
    'Path: news.example.org!not-for-mail' \
    'From: Jim Writer <jim@example.org>' \
    'Newsgroups: local.urlsift' \
    'Subject: Where the drafts on URLs in text live' \
    'Message-ID: <drafts.19970101@example.org>' \
    'Date: Sun, 29 Nov 2026 06:00:00 +0000' \
    'Organization: Example Org' \
    '' \
    'The long one, broken where my editor ended the line:' \
    '<http://www.example.org/very/long/path/' \
    '  that/continues.html>' \
    '' \
    'The archive is at URL:ftp://ftp.example.net/pub/drafts/archive.tar.gz' \
    'and the mailing list page at <https://lists.example.com/listinfo/uri>.' \
    'Minutes: http://meetings.example.org/1997/minutes.txt' \
    '' \
    '-- ' \
    'Jim Writer, http://jim.example.org/' \
    > "$scratch/drafts.art"
printf '%s\n' \
    'Path: news.example.net!not-for-mail' \
    'From: Ann Reader <ann@example.net>' \
    'Newsgroups: local.urlsift' \
    'Subject: Re: Where the drafts on URLs in text live' \
    'Message-ID: <reply.19970102@example.net>' \
    'References: <drafts.19970101@example.org>' \
    'Date: Sun, 29 Nov 2026 06:10:00 +0000' \
    '' \
    'Jim Writer <jim@example.org> wrote:' \
    '> The long one, broken where my editor ended the line:' \
    '> <http://www.example.org/quoted/long/path/' \
    '>   that/continues/in-the-reply.html>' \
    '' \
    'Thanks, that one works for me.' \
    '' \
    '-- ' \
    'Ann' \
    > "$scratch/reply.art"
printf '%s\n' \
    'Path: news.example.com!not-for-mail' \
    'From: Bob Mirror <bob@example.com>' \
    'Newsgroups: local.urlsift' \
    'Subject: Mirrors of the drafts' \
    'Message-ID: <mirrors.19970103@example.com>' \
    'Date: Sun, 29 Nov 2026 06:20:00 +0000' \
    '' \
    'The mirrors are listed at <URL:http://mirrors.example.com/uri/' \
    '    drafts/index.html>, updated nightly.' \
    '' \
    '-- ' \
    'Bob' \
    > "$scratch/mirrors.art"
broken=http://www.example.org/very/long/path/that/continues.html
after_url=ftp://ftp.example.net/pub/drafts/archive.tar.gz
quoted=http://www.example.org/quoted/long/path/that/continues/in-the-reply.html
url_in_brackets=http://mirrors.example.com/uri/drafts/index.html
for article in drafts reply mirrors; do
    post "$scratch/$article.art" || { echo "FAIL: the server does not take the article $article" >&2; exit 1; }
done

# $BROWSER for pick: writes the URL it is given.
cat > "$scratch/opener" <<'SH'
#!/bin/sh
printf '%s\n' "$@" > "$0.url.tmp"
mv "$0.url.tmp" "$0.url"
SH
chmod +x "$scratch/opener"
# opened WHAT URL: waits for pick to open a URL, and checks it is URL.
opened() {
    wait_for "pick to open $1" exists "$scratch/opener.url" || return 1
    [[ $(cat "$scratch/opener.url") == "$2" ]] ||
        fail "pick opened '$(cat "$scratch/opener.url")' for $1, expected '$2'"
    rm -f "$scratch/opener.url"
}
pick_footer='Enter open  y copy'

cat > "$scratch/tmux.conf" <<'CONF'
set -g remain-on-exit on
CONF
# reader NAME COMMAND...: runs COMMAND in a tmux window of its own, with
# pick on PATH and the opener as $BROWSER, in a home of its own and from
# there. (At slrn's | prompt Space completes a file name: run from where a
# file's name starts with "urlsift", as in a build directory, `urlsift
# pick` typed there becomes that file's path and "pick".)
reader() {
    local name=$1
    shift
    mkdir -p "$scratch/$name"
    local env=(env "HOME=$scratch/$name" LANG=C.UTF-8 LC_ALL=C.UTF-8
        "PATH=$(dirname "$urlsift"):$PATH" "BROWSER=$scratch/opener")
    if t has-session 2>/dev/null; then
        t new-window -d -n "$name" -c "$scratch/$name" "${env[@]}" "$@"
    else
        t -f "$scratch/tmux.conf" new-session -d -s news -n "$name" -c "$scratch/$name" -x 100 -y 30 "${env[@]}" "$@"
    fi || { echo "FAIL: tmux cannot start $name" >&2; exit 1; }
    target=news:$name
}

# --- slrn --------------------------------------------------------------------
# slrn stops where the host has no fully qualified name, unless told one
# for the addresses it would post from.
# The macro file is the guide's block that starts `% ~/.slrn/pick.sl`,
# and the `interpret` line its first line names goes into .slrnrc.
mkdir -p "$scratch/slrn/.slrn"
awk '/^```/ { if (inside) exit; next } /^% ~\/\.slrn\/pick\.sl/ { inside = 1 } inside' "$guide" \
    > "$scratch/slrn/.slrn/pick.sl"
interpret=$(sed -n '1s/.*loaded by the line: //p' "$scratch/slrn/.slrn/pick.sl")
grep -q pipe_article "$scratch/slrn/.slrn/pick.sl" && [ -n "$interpret" ] ||
    { echo "FAIL: no slrn macro file in $guide" >&2; exit 1; }
printf '%s\n' 'set hostname "reader.example.org"' "$interpret" > "$scratch/slrn/.slrnrc"
reader slrn slrn --nntp -h 127.0.0.1 -p "$port" -f "$scratch/slrn/.jnewsrc" --create
# slrn lists the newest thread first: the mirrors, then the drafts and the
# reply; n goes on to the next unread article.
if wait_for "slrn's group list" shows local.urlsift; then
    t send-keys -t "$target" Space
    wait_for "slrn's article list" shows "Where the drafts" && t send-keys -t "$target" Space
    # The <URL:...> broken across lines, piped with | and the command typed
    # at slrn's prompt, as README says first.
    if wait_for "slrn to show the mirrors" shows "    drafts/index.html>"; then
        t send-keys -t "$target" '|'
        wait_for "slrn's pipe prompt" shows "Pipe to command" &&
            t send-keys -t "$target" 'urlsift pick' Enter
        if wait_for "pick's list from slrn's |" shows "$pick_footer"; then
            t send-keys -t "$target" Enter
            opened "the URL: in <...> broken across lines" "$url_in_brackets"
        fi
        wait_for "slrn's article again" hides "$pick_footer"
    fi
    # The macro, on the article with the URL broken in <...>.
    t send-keys -t "$target" n
    if wait_for "slrn to show the drafts" shows "  that/continues.html>"; then
        t send-keys -t "$target" C-b
        if wait_for "pick's list from slrn's macro" shows "$pick_footer"; then
            shows "$after_url" || fail "pick's list from slrn lacks $after_url"
            t send-keys -t "$target" Enter
            opened "the first URL of the drafts" "$broken"
        fi
        wait_for "slrn's article again" hides "$pick_footer"
    fi
    # The reply, with the broken URL quoted.
    t send-keys -t "$target" n
    if wait_for "slrn to show the reply" shows ">   that/continues/in-the-reply.html>"; then
        t send-keys -t "$target" C-b
        if wait_for "pick's list of the reply" shows "$pick_footer"; then
            t send-keys -t "$target" / q u o t e d
            wait_for "the filter to leave the quoted URL" hides "mailto:jim@example.org" &&
                t send-keys -t "$target" Enter
            opened "the quoted URL" "$quoted"
        fi
    fi
fi

# --- tin ---------------------------------------------------------------------
printf 'local.urlsift:\n' > "$scratch/tin.newsrc"
reader tin tin -r -g 127.0.0.1 -p "$port" -f "$scratch/tin.newsrc"
# A new user is welcomed first.
wait_for "tin's welcome" shows "Press <RETURN> to continue" && t send-keys -t "$target" Enter
if wait_for "tin's group list" shows local.urlsift; then
    t send-keys -t "$target" Enter
    wait_for "tin's thread list" shows "Where the drafts" && t send-keys -t "$target" Enter
    # tin_pipe WHAT: pipes the article shown to urlsift pick.
    tin_pipe() {
        t send-keys -t "$target" '|'
        wait_for "tin's pipe menu" shows "Pipe a=article" && t send-keys -t "$target" a
        wait_for "tin's pipe prompt" shows "Pipe to command" && t send-keys -t "$target" 'urlsift pick' Enter
        wait_for "pick's list from tin, $1" shows "$pick_footer"
    }
    if wait_for "tin to show the first article" shows "  that/continues.html>"; then
        if tin_pipe "the first article"; then
            shows "$broken" || fail "pick's list from tin lacks $broken"
            t send-keys -t "$target" / a r c h i v e
            wait_for "the filter to leave the URL: one" hides "$broken" && t send-keys -t "$target" Enter
            opened "the URL after URL:" "$after_url"
        fi
        wait_for "tin after the pipe" shows "Press <RETURN> to continue" && t send-keys -t "$target" Enter
        wait_for "tin's first article again" shows "  that/continues.html>" && t send-keys -t "$target" n
        if wait_for "tin to show the reply" shows ">   that/continues/in-the-reply.html>"; then
            if tin_pipe "the reply"; then
                t send-keys -t "$target" j Enter
                opened "the quoted URL" "$quoted"
            fi
        fi
    fi
fi

((failed == 0)) || exit 1
echo "urlsift pick from slrn and tin, on articles from a local news server: the URLs opened are joined and absolute"
