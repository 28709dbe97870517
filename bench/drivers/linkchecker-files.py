#!/usr/bin/env python3
"""Runs Debian's linkchecker offline over the first files of a document
tree (bench/make-corpus's md/ or html/): each file a start URL at
recursion level 1, so that each is read for its links and every link is
checked but none followed; external URLs are not checked (no
--check-extern: only their syntax is), mailto: URLs are only read
(--ignore-url, so that no DNS lookup is made), one thread (-t 0), the
Markdown plugin on (linkcheckerrc beside this file). Local targets are
checked on disk, as linkchecker does.

  linkchecker-files.py TREE BYTES [--count-only] [--linkchecker PATH]

The sample is the tree's files in sorted order of their paths, until
BYTES. Prints `urls=N bytes=B files=F`: N is the lines of linkchecker's CSV
report, one for each distinct URL it met. --count-only prints the sample's
size without running linkchecker.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def sample(tree, limit):
    files, total = [], 0
    for d, dirs, names in os.walk(tree):
        dirs.sort()
        for name in sorted(names):
            if total >= limit:
                return files, total
            path = os.path.join(d, name)
            files.append(path)
            total += os.path.getsize(path)
    return files, total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree")
    ap.add_argument("bytes", type=int)
    ap.add_argument("--count-only", action="store_true")
    ap.add_argument("--linkchecker", default="linkchecker")
    args = ap.parse_args()
    files, total = sample(args.tree, args.bytes)
    if args.count_only:
        print(f"files={len(files)} bytes={total}")
        return 0
    cmd = [args.linkchecker, "-f", os.path.join(HERE, "linkcheckerrc"), "--no-status", "-o", "csv", "-v",
           "-r", "1", "-t", "0", "--ignore-url=^mailto:"] + files
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # linkchecker exits 1 when a link is broken: that is its result, not a failure.
    if r.returncode not in (0, 1):
        sys.stderr.write(r.stderr.decode("utf-8", "replace"))
        return 2
    rows = [line for line in r.stdout.splitlines() if line and not line.startswith(b"#")]
    print(f"urls={max(len(rows) - 1, 0)} bytes={total} files={len(files)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
