#!/usr/bin/env python3
"""Scores `urlsift extract --input mail` on messages judged by hand.

tests/data/mail-judged/messages.jsonl names 400 messages of other mail
software's test corpora (scripts/mail-judged-sample drew them) and, for
each, the links a careful reader wants from its body (docs/realtext.md,
"Mail from other projects"). Mail addresses are not judged: the score is
that of the other links, as sets per message. Headers are not judged
either: the records scored are those of the body (`"header": null`).

    mail_judged_check.py URLSIFT [ROOT]

ROOT (default $URLSIFT_MAIL_CORPORA, else ../mailcorpus beside the
repository) holds the corpora as mail-judged-sample reads them. Prints every
false positive and false negative and the table by corpus. Exit status: 0
when the pooled precision and recall reach the floors below, 1 when not or
when a message differs from the one judged (its sha256), 77 (skipped) when
the corpora are not there.
"""

import hashlib
import json
import os
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
JUDGED = os.path.join(HERE, "data", "mail-judged", "messages.jsonl")
# Reached by the scanner; raise them when it gets better, never lower them.
FLOOR_PRECISION = 0.98
FLOOR_RECALL = 0.98
SKIP = 77


def found_links(urlsift, path):
    out = subprocess.run([urlsift, "extract", "--input", "mail", "-f", "jsonl", path],
                         capture_output=True, check=False)
    if out.returncode not in (0, 1):
        raise RuntimeError(f"{path}: exit {out.returncode}: {out.stderr.decode(errors='replace')}")
    links = set()
    for line in out.stdout.decode().splitlines():
        record = json.loads(line)
        if record["header"] is None and not record["url"].startswith("mailto:"):
            links.add(record["url"])
    return links


def ratio(a, b):
    return a / b if b else 1.0


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    urlsift = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) == 3 else os.environ.get(
        "URLSIFT_MAIL_CORPORA", os.path.join(os.path.dirname(os.path.dirname(HERE)), "mailcorpus"))
    if not os.path.isdir(root):
        print(f"mail_judged_check: no corpora in {root} (scripts/mail-judged-sample says which); skipped")
        return SKIP
    counts = defaultdict(lambda: [0, 0, 0])  # corpus -> tp, fp, fn
    status = 0
    with open(JUDGED) as f:
        judged = [json.loads(line) for line in f]
    for message in judged:
        corpus = message["corpus"].split("@")[0]
        path = os.path.join(root, corpus.replace("/", "+"), message["path"])
        try:
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        except OSError as error:
            print(f"message {message['id']}: {error}")
            status = 1
            continue
        if digest != message["sha256"]:
            print(f"message {message['id']}: {path} is not the message judged (sha256 differs)")
            status = 1
            continue
        found = found_links(urlsift, path)
        expected = set(message["expect"])
        for url in sorted(found - expected):
            print(f"FP message {message['id']} ({corpus}/{message['path']}): {url}")
        for url in sorted(expected - found):
            print(f"FN message {message['id']} ({corpus}/{message['path']}): {url}")
        row = counts[corpus]
        row[0] += len(found & expected)
        row[1] += len(found - expected)
        row[2] += len(expected - found)
    total = [sum(row[i] for row in counts.values()) for i in range(3)]
    print(f"\n{'corpus':32} {'TP':>5} {'FP':>4} {'FN':>4} {'P':>6} {'R':>6}")
    for corpus, (tp, fp, fn) in sorted(counts.items()) + [("pooled", total)]:
        print(f"{corpus:32} {tp:5} {fp:4} {fn:4} {ratio(tp, tp + fp):6.3f} {ratio(tp, tp + fn):6.3f}")
    precision, recall = ratio(total[0], total[0] + total[1]), ratio(total[0], total[0] + total[2])
    if precision < FLOOR_PRECISION or recall < FLOOR_RECALL:
        print(f"below the floors (precision {FLOOR_PRECISION}, recall {FLOOR_RECALL})")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
