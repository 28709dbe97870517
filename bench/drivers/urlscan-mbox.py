#!/usr/bin/env python3
"""Runs `urlscan -n` once per message over the first N messages of a Unix
mailbox (mboxrd, as bench/make-corpus writes it), each message fed on stdin
to its own process, and prints the URLs it lists (its empty lines dropped).

  urlscan-mbox.py MBOX N [--count-only] [--urlscan PATH]

A message starts at a line beginning with "From " (the From_ line, not part
of the message); the mboxrd escaping is undone (">From " -> "From ",
">>From " -> ">From "), and the blank line that ends each message in the
mailbox is dropped. --count-only prints `messages=M bytes=B`, the sample's
size in mailbox bytes (From_ lines and separators included, as urlsift
reads them), without running urlscan. After a run the same line goes to
stderr.
"""

import argparse
import re
import subprocess
import sys

UNESCAPE = re.compile(rb"^>(>*From )")


def messages(path, limit):
    """(message bytes as urlscan gets them, mailbox bytes) for the first `limit` messages."""
    cur, raw = None, 0
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b"From "):
                if cur is not None:
                    yield finish(cur), raw
                    n += 1
                    if n >= limit:
                        return
                cur, raw = [], len(line)
                continue
            if cur is None:
                continue  # before the first From_ line
            raw += len(line)
            cur.append(UNESCAPE.sub(rb"\1", line))
        if cur is not None and n < limit:
            yield finish(cur), raw


def finish(lines):
    if lines and lines[-1] in (b"\n", b"\r\n"):
        lines = lines[:-1]  # the blank line between messages
    return b"".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mbox")
    ap.add_argument("n", type=int)
    ap.add_argument("--count-only", action="store_true")
    ap.add_argument("--urlscan", default="urlscan")
    args = ap.parse_args()
    count = total = 0
    out = sys.stdout.buffer
    for msg, raw in messages(args.mbox, args.n):
        count += 1
        total += raw
        if args.count_only:
            continue
        r = subprocess.run([args.urlscan, "-n"], input=msg, stdout=subprocess.PIPE)
        if r.returncode != 0:
            sys.exit(f"urlscan-mbox: urlscan exited {r.returncode} on message {count}")
        for line in r.stdout.splitlines():
            if line.strip():
                out.write(line + b"\n")
    out.flush()
    print(f"messages={count} bytes={total}", file=sys.stdout if args.count_only else sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
