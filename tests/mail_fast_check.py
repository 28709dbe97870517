#!/usr/bin/env python3
"""read_mail's reader of simple messages against GMime alone, on corpora.

Each message of a corpus is read twice by `urlsift extract`, once as it
is (simple messages read without GMime) and once with URLSIFT_MAIL_FAST=0
(every message read by GMime), and the outputs must be the same byte for
byte: as JSON Lines with the header URLs (every field of every reference,
its input line and the message's notes), and as text with -n (the line
of each URL in the input). The messages are read one by one (--input
mail, all files in one run) and then joined into one mailbox (--input
mbox: each after a `From ` line, mboxrd-escaped), where messages read
both ways follow one another.

    mail_fast_check.py URLSIFT [DIR|FILE ...]

The messages of a DIR are its msg_*.txt, *.raw, *.eml and *.mbox files; a
FILE is read as it is. Exit status: 0 when the outputs agree, 1 when they
differ (the first difference is printed), 77 (skipped) when no message is
found.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
GLOBS = ["msg_*.txt", "*.raw", "*.eml", "*.mbox"]


def corpus_files(paths):
    found = set()
    for p in paths:
        if os.path.isdir(p):
            for pattern in GLOBS:
                found.update(glob.glob(os.path.join(p, pattern)))
        elif os.path.isfile(p):
            found.add(p)
    return sorted(found)


def run(urlsift, args, fast):
    env = dict(os.environ)
    env["URLSIFT_MAIL_FAST"] = "1" if fast else "0"
    r = subprocess.run([urlsift] + args, capture_output=True, env=env)
    return r.returncode, r.stdout, r.stderr


def compare(urlsift, what, args):
    """Whether both readings of `args` agree; prints the first difference."""
    slow, fast = run(urlsift, args, False), run(urlsift, args, True)
    if slow == fast:
        return True
    print(f"{what}: the reader of simple messages differs from GMime's (exit {fast[0]} vs {slow[0]})")
    a, b = slow[1].splitlines(), fast[1].splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print(f"  line {i + 1}\n  GMime:  {x[:400]!r}\n  simple: {y[:400]!r}")
            break
    else:
        print(f"  {len(a)} lines vs {len(b)}; stderr:\n  {slow[2][:400]!r}\n  {fast[2][:400]!r}")
    return False


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    urlsift = sys.argv[1]
    files = corpus_files(sys.argv[2:])
    if not files:
        print("mail_fast_check: no messages found: skipped")
        return SKIP
    messages = [f for f in files if not f.endswith(".mbox")]
    boxes = [f for f in files if f.endswith(".mbox")]
    ok = True
    # One run per way and format over all the files: -H names each file.
    for form in (["-f", "jsonl", "--headers"], ["-n", "-H", "--headers"]):
        if messages:
            ok &= compare(urlsift, "messages " + " ".join(form), ["extract", "--input", "mail"] + form + messages)
        if boxes:
            ok &= compare(urlsift, "mailboxes " + " ".join(form), ["extract", "--input", "mbox"] + form + boxes)
    # All the messages in one mailbox, in their order.
    escape = re.compile(rb"^(>*From )", re.M)
    with tempfile.TemporaryDirectory() as tmp:
        box = os.path.join(tmp, "all.mbox")
        with open(box, "wb") as out:
            for f in messages:
                with open(f, "rb") as m:
                    data = m.read()
                if data.startswith(b"From "):
                    data = data[data.find(b"\n") + 1:]
                if not data.endswith(b"\n"):
                    data += b"\n"
                out.write(b"From sender@example.org Mon Nov 23 10:00:00 2026\n" + escape.sub(rb">\1", data) + b"\n")
        if messages:
            for form in (["-f", "jsonl", "--headers"], ["-n", "--headers"]):
                ok &= compare(urlsift, "one mailbox " + " ".join(form), ["extract", "--input", "mbox"] + form + [box])
    print(f"mail_fast_check: {len(messages)} messages, {len(boxes)} mailboxes: "
          + ("the same both ways" if ok else "DIFFERENT"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
