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
# The layout is measured at a desktop's width (1400 px) and a phone's
# (390 px): the page must not be wider than the window (no sideways
# scrolling), and on the desktop it must use the window's width. The
# report runs no script, and its policy is left as it is: a page of the
# test's own, allowed to read files (--allow-file-access-from-files),
# holds the report in a frame of each width, measures it and writes what
# it found into its own DOM.
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

# measure WIDTH: the report in a frame WIDTH pixels wide; prints
# "scroll=S client=C body=B" (the page's scrollWidth and clientWidth and
# the width of its body, in CSS pixels).
measure() {
    cat >"$work/measure-$1.html" <<EOF
<!DOCTYPE html>
<html><head><meta charset="utf-8"><script>
function measure(frame) {
  var d = frame.contentDocument, out = document.getElementById("result");
  if (!d) { out.textContent = "unmeasured"; return; }
  var root = d.documentElement;
  out.textContent = "scroll=" + root.scrollWidth + " client=" + root.clientWidth +
    " body=" + Math.round(d.body.getBoundingClientRect().width);
}
</script></head>
<body style="margin:0">
<iframe src="report.html" width="$1" height="900" style="border:0;display:block" onload="measure(this)"></iframe>
<pre id="result">unmeasured</pre>
</body></html>
EOF
    timeout 120 "$chromium" --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$profile" \
        --allow-file-access-from-files --window-size=1600,1000 --virtual-time-budget=5000 \
        --dump-dom "file://$work/measure-$1.html" 2>"$work/measure-$1.log" |
        sed -n 's|.*<pre id="result">\([^<]*\)</pre>.*|\1|p'
}
for width in 1400 390; do
    found=$(measure "$width")
    if [[ ! $found =~ ^scroll=([0-9]+)\ client=([0-9]+)\ body=([0-9]+)$ ]]; then
        fail "could not measure the page at $width px (got \"$found\"); see $work/measure-$width.log"
        continue
    fi
    scroll=${BASH_REMATCH[1]} client=${BASH_REMATCH[2]} body=${BASH_REMATCH[3]}
    ((scroll <= client)) || fail "at $width px the page is $scroll px wide and scrolls sideways ($found)"
    ((width < 1000 || body * 10 >= width * 8)) || fail "at $width px the page uses only $body px of the width ($found)"
done

((failed == 0)) || exit 1
echo "headless Chromium shows the html report's charts and tables, with nothing on its console," \
    "as wide as a desktop's window and no wider than a phone's"
