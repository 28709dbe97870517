#!/usr/bin/env bash
# The html report as a browser sees it. Headless Chromium loads a report of
# the samples; the DOM it dumps must hold the three SVG charts and the
# tables, and the page's console must stay silent: no uncaught script
# error, no Content-Security-Policy violation, no message at all.
#
# Chromium writes the page's console to its log (--enable-logging=stderr)
# as lines with "CONSOLE". So that a Chromium that stops doing so cannot
# let a broken page pass, a copy of the report with a script added is
# loaded first, and its blocked script must show up there.
#
# Usage: report_html_chromium.sh URLSIFT CHROMIUM SAMPLES_DIR WORK_DIR
# WORK_DIR (in the build tree) receives the pages, what Chromium dumped
# and logged, and a screenshot of each.
set -u
urlsift=$1 chromium=$2 samples=$3 work=$4
failed=0
fail() {
    echo "FAIL: $*" >&2
    failed=1
}

rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

# load NAME: loads $work/NAME.html, leaving the DOM in NAME.dom, a
# screenshot in NAME.png and Chromium's log in NAME.log.
load() {
    timeout 120 "$chromium" --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$profile" \
        --enable-logging=stderr --v=0 --window-size=1024,3000 --screenshot="$work/$1.png" \
        --dump-dom "file://$work/$1.html" >"$work/$1.dom" 2>"$work/$1.log" ||
        fail "chromium failed on $1.html (status $?): $(tail -n 5 "$work/$1.log")"
}
# console NAME: what the page of NAME wrote to the console.
console() { grep -E ':CONSOLE[:(]' "$work/$1.log"; }

(cd "$samples" && "$urlsift" report -f html ./*.txt) >"$work/report.html" ||
    fail "urlsift report -f html failed on the samples"

# The canary: the report with a script, which its policy must block.
sed 's|</body>|<script>document.title = "ran"</script></body>|' "$work/report.html" >"$work/canary.html"
load canary
console canary | grep -q 'Content Security Policy' ||
    fail "a script added to the page was not reported as blocked by its Content-Security-Policy: the policy" \
        "lets scripts run, or this Chromium does not log the console as the test expects. Its log: $work/canary.log"

load report
if messages=$(console report); then
    fail "the page wrote to the console (a script error or a Content-Security-Policy violation):
$messages"
fi
grep -qE 'Uncaught|Content Security Policy' "$work/report.log" &&
    fail "Chromium's log names an uncaught error or a Content-Security-Policy violation"

dom=$work/report.dom
[[ -s $dom ]] || fail "chromium dumped no DOM"
for chart in 'Top hosts' 'Schemes' 'References per file'; do
    grep -q "<svg class=\"chart\"[^>]*aria-label=\"$chart\"" "$dom" || fail "no SVG chart \"$chart\" in the DOM"
done
[[ $(grep -o '<rect ' "$dom" | wc -l) -gt 3 ]] || fail "the charts have no bars"
[[ $(grep -o '<table>' "$dom" | wc -l) -ge 5 ]] || fail "fewer than 5 tables in the DOM"
grep -q '<th class="n" scope="col">count</th>' "$dom" || fail "no table with a count column in the DOM"
grep -qi '<script' "$dom" && fail "the DOM holds a script"
[[ -s $work/report.png ]] || fail "no screenshot"

((failed == 0)) || exit 1
echo "headless Chromium shows the html report's charts and tables, with nothing on its console"
