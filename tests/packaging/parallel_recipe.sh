#!/usr/bin/env bash
# The GNU parallel recipes in contrib/parallel give the report one run gives.
#
# Over files (report-files): on 2 job slots, with the names spread over the
# slots and with more jobs than slots, over samples/ and tests/data/, the
# merged report must equal `urlsift report` over the same list, byte for
# byte, as json and as text.
#
# Over one file (report-pipepart): the files above joined into one, cut into
# chunks after blank lines; the counts must be those of one run over the
# file. Only the counts: the chunks are inputs named "-" with their own line
# numbers, which contrib/parallel/report-pipepart documents.
#
# Usage: parallel_recipe.sh URLSIFT SOURCE_DIR
set -u
urlsift=$1
source_dir=$2
failed=0
fail() {
  echo "FAIL: $*" >&2
  failed=1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/urlsift-parallel-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$source_dir" || exit 1
export URLSIFT=$urlsift
recipe=$source_dir/contrib/parallel

# --- report-files ------------------------------------------------------------
contrib/list-inputs samples tests/data >"$work/list" || { fail "list-inputs"; exit 1; }
mapfile -t files <"$work/list"
[ ${#files[@]} -ge 10 ] || fail "expected a tree of at least 10 files, got ${#files[@]}"

for format in json text; do
  "$urlsift" report --no-timestamp -f "$format" --top 0 -- "${files[@]}" >"$work/one.$format"
  one_status=$?
  [ $one_status -eq 0 ] || fail "urlsift report over the list exited $one_status"
  # Each format once with more jobs than slots; json also with one a slot.
  splits=("-n 4")
  [ $format = json ] && splits+=("")
  for split in "${splits[@]}"; do
    # shellcheck disable=SC2086 # $split is options or nothing
    "$recipe/report-files" -j 2 $split -f "$format" --top 0 --no-timestamp -w "$work/files" \
      -o "$work/recipe.$format" samples tests/data
    status=$?
    [ $status -eq $one_status ] || fail "report-files -j 2 $split -f $format exited $status, one run $one_status"
    jobs=$(grep -c . "$work/files/partlist")
    if [ -z "$split" ]; then
      [ "$jobs" -eq 2 ] || fail "report-files -j 2 ran $jobs jobs, not one a slot"
    else
      [ "$jobs" -gt 2 ] || fail "report-files -j 2 -n 4 ran $jobs jobs, not more than the slots"
    fi
    cmp -s "$work/one.$format" "$work/recipe.$format" ||
      fail "report-files -j 2 $split -f $format differs from one run: $(diff "$work/one.$format" "$work/recipe.$format" | head -5)"
  done
done

# The list may be given, and reading options reach every job.
"$urlsift" report --no-timestamp --base https://example.org/docs/ -- "${files[@]}" >"$work/one-base.txt"
"$recipe/report-files" -j 2 --no-timestamp -l "$work/list" -- --base https://example.org/docs/ >"$work/recipe-base.txt"
cmp -s "$work/one-base.txt" "$work/recipe-base.txt" || fail "report-files -l LIST -- --base differs from one run"
cmp -s "$work/one-base.txt" "$work/one.text" && fail "--base made no difference: the test proves nothing"

# An unreadable file is counted, reported on stderr, and the status is 2, as
# in one run.
printf '%s\n' "${files[0]}" "$work/no-such-file" "${files[1]}" >"$work/list-missing"
"$urlsift" report --no-timestamp -f json -- "${files[0]}" "$work/no-such-file" "${files[1]}" \
  >"$work/one-missing.json" 2>/dev/null
"$recipe/report-files" -j 2 -n 1 -f json --no-timestamp -l "$work/list-missing" \
  >"$work/recipe-missing.json" 2>"$work/missing.err"
status=$?
[ $status -eq 2 ] || fail "report-files over an unreadable file exited $status, not 2"
grep -q "no-such-file" "$work/missing.err" || fail "report-files did not say which file it could not read"
cmp -s "$work/one-missing.json" "$work/recipe-missing.json" || fail "report-files over an unreadable file differs from one run"

# A job that fails (here: an option urlsift does not know) leaves no report.
"$recipe/report-files" -j 2 -w "$work/bad" -o "$work/bad.txt" samples -- --no-such-option 2>/dev/null
status=$?
[ $status -eq 2 ] || fail "report-files with a failing job exited $status, not 2"
[ -e "$work/bad.txt" ] && fail "report-files wrote a report although a job failed"

# --- report-pipepart ---------------------------------------------------------
# One file of paragraphs: each input, then a blank line.
for f in "${files[@]}"; do
  cat -- "$f"
  printf '\n\n'
done >"$work/big.txt"
# The counts, without what depends on the cut: the inputs and where a key
# was first seen.
counts() {
  sed -E -e '/^  "files": \[$/,/^  \],?$/d' -e '/^  "failed_files": \[$/,/^  \],?$/d' -e '/^  "failed_files": \[\],?$/d' \
    -e 's/"files[a-z_]*": [0-9]+, //g' -e 's/, "first": \{[^}]*\}//' "$1"
}
"$urlsift" report --no-timestamp -f json --top 0 -- "$work/big.txt" >"$work/one-big.json"
"$recipe/report-pipepart" -j 2 --block 4k -f json --top 0 --no-timestamp -w "$work/pipepart" \
  -o "$work/recipe-big.json" "$work/big.txt"
status=$?
[ $status -eq 0 ] || fail "report-pipepart exited $status"
chunks=$(grep -c . "$work/pipepart/partlist")
[ "$chunks" -gt 2 ] || fail "report-pipepart made $chunks chunks of a $(wc -c <"$work/big.txt")-byte file at --block 4k"
grep -q '"references": [1-9]' "$work/one-big.json" || fail "no reference in the joined file: the test proves nothing"
counts "$work/one-big.json" >"$work/one-big.counts"
counts "$work/recipe-big.json" >"$work/recipe-big.counts"
cmp -s "$work/one-big.counts" "$work/recipe-big.counts" ||
  fail "report-pipepart's counts differ from one run: $(diff "$work/one-big.counts" "$work/recipe-big.counts" | head -5)"

[ $failed -eq 0 ] && echo "parallel recipes: reports equal to one run"
exit $failed
