#!/usr/bin/env python3
"""urlsift's mail reading against an independent decoder.

For each message of a corpus, Python's `email` package (policy=default)
decodes the body: text parts through get_content() (format=flowed joined
here, RFC 3676), HTML parts' href/src values through html.parser. urlsift's
own scanner then reads each decoded text part as plain text
(`urlsift extract -f jsonl -`), so the scanner is the same on both sides and
a difference is a difference in decoding. That is compared, part by part,
with what `urlsift extract --input mail -f jsonl --headers` lists for the
body of the raw message (records whose "header" is null).

What urlsift does on top of decoding is done here too: parts that are not
text are skipped, a text/plain part's alternatives give only HTML links
that part lacks (other plain alternatives are copies, not read), the
nearest Content-Base or Content-Location (or <base href>) resolves relative
references, and a relative reference without a base is left out.

    mail_corpus_check.py URLSIFT [--glob PATTERN] [DIR|FILE ...]
    mail_corpus_check.py URLSIFT --crafted

DIR defaults to Python's own test messages (msg_*.txt of Debian's
libpython3.11-testsuite). The messages of a DIR are its msg_*.txt, *.raw,
*.eml and *.mbox files (--glob to choose); a FILE is read as it is. A
*.mbox file is a mailbox (`--input mbox`; mboxrd's `>From ` escapes lose
one `>` on both sides). --crafted checks the messages this script holds
instead: the cases the corpora lack.

Every difference is printed with its category. Exit status: 0 when each is
listed in KNOWN with its reason, 1 on any other, 77 (skipped) when the
corpus is not installed.
"""

import argparse
import base64
import email
import email.policy
import glob
import html.parser
import json
import mailbox
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse
from collections import Counter

DEFAULT_DIRS = ["/usr/lib/python3.11/test/test_email/data"]
DEFAULT_GLOBS = ["msg_*.txt", "*.raw", "*.eml", "*.mbox"]
SKIP = 77

# Differences known and explained: (file name, part path, url or "*") ->
# (category, reason). A difference not listed here fails the check.
KNOWN = {}


def known(names, category, reason, part="*", url="*"):
    for name in names:
        KNOWN[(name, part, url)] = (category, reason)


# --- Python's test messages (Debian: libpython3.11-testsuite) ----------------
known(["msg_19.txt"], "not a message",
      "a digest's body without any header: urlsift --input mail refuses it (exit 2), "
      "Python reads it as a message with no headers")
known(["msg_25.txt"], "multipart without parts",
      "a multipart/report whose boundary parameter is cut short: neither GMime nor Python finds a part; "
      "urlsift reads what it holds as plain text, with a note, so that nothing in it is hidden; "
      "this check's Python side reads no text from a multipart")
known(["msg_43.txt"], "returned headers",
      "a bounce's text/rfc822-headers part (RFC 6522) is a header block, read as a message's own headers are "
      "(only URL headers such as List-*); this check's Python side scans its From: and To: lines as prose",
      part="3")

# --- enmime's test messages (Debian: golang-github-jhillyerd-enmime-dev) -----
known(["erroneous.raw"], "not a message",
      "one line of text, no header: urlsift --input mail refuses it (exit 2); Python finds no URL either")
known(["bad-header-start.raw"], "not a message",
      "the first line starts with a blank (a continuation of nothing): urlsift refuses it (exit 2); "
      "neither side finds a URL")

# --- the crafted messages (--crafted) -----------------------------------------

# Messages written for this check: the cases the corpora above lack
# (bases, alternatives, flowed text, charsets, malformed headers and
# encodings). Each is a complete message; `--crafted` runs them.
_H = "From: a@example.org\nTo: b@example.org\nSubject: crafted\nMIME-Version: 1.0\n"


def _leaf(ctype, body, cte=None):
    return (_H + f"Content-Type: {ctype}\n" + (f"Content-Transfer-Encoding: {cte}\n" if cte else "") + "\n").encode() + body


CRAFTED = {
    "bases.eml": (_H + """Content-Base: "http://www.example.org/docs/
 guide/"
Content-Type: multipart/mixed; boundary=XX

--XX
Content-Type: text/plain

See <URL:intro.html> and <../faq.html#q1>.
--XX
Content-Type: text/html
Content-Location: html/index.html

<p><a href="a.html">a</a> <img src="/img/x.png"> <a href="#top">t</a> <a href="mailto:x@example.org">m</a></p>
--XX
Content-Type: text/html

<base href="http://other.example.net/base/"><a href=" rel/page ">r</a><a href="javascript:void(0)">j</a>
--XX--
""").encode(),
    "alternative-related.eml": (_H + """Content-Type: multipart/alternative; boundary=A1

--A1
Content-Type: text/plain

Visit https://example.org/page and http://example.org.
--A1
Content-Type: multipart/related; boundary=R1

--R1
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: quoted-printable

<a href=3D"https://example.org/page">p</a><a href=3D"http://example.org">h</a><img src=3D"cid:img1@exa=
mple.org"><a href=3D"https://example.org/other?a=3D1&amp;b=3D2">o</a>
--R1
Content-Type: image/png
Content-ID: <img1@example.org>
Content-Transfer-Encoding: base64

iVBORw0KGgo=
--R1--
--A1
Content-Type: text/enriched

<bold>https://enriched.example.org/</bold>
--A1--
""").encode(),
    "forwarded.eml": (_H + """Content-Type: multipart/mixed; boundary=YY

--YY
Content-Type: text/plain

Forwarded below.
--YY
Content-Type: message/rfc822

From: c@example.org
Subject: inner
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary=ZZ

--ZZ
Content-Type: text/plain

Inner http://inner.example.org/x
--ZZ
Content-Type: text/html

<a href="http://inner.example.org/x">same</a><a href="http://inner.example.org/y">new</a>
--ZZ--

--YY
Content-Type: text/x-diff; name=fix.patch
Content-Disposition: attachment; filename=fix.patch

+ see https://patch.example.org/a
--YY
Content-Type: application/octet-stream
Content-Disposition: attachment; filename=bin

https://binary.example.org/no
--YY--
""").encode(),
    "flowed.eml": _leaf("text/plain; charset=utf-8; format=flowed", b"""> quoted with a url http://q.example.org/a 
> continues here
>> deeper https://deep.example.org/path 
>> more
 >From stuffed http://stuffed.example.org/
-- 
sig http://sig.example.org/
"""),
    "flowed-delsp.eml": _leaf("text/plain; charset=utf-8; format=flowed; delsp=yes",
                              b"The design doc: https://docs.example.org/design?version=3&comments= \nopen#slow-path\n"),
    "qp-soft-break.eml": _leaf("text/plain; charset=utf-8",
                               b"See http://example.org/a=3db and http://example.org/pad=  \nded/path here\n", "quoted-printable"),
    "crlf.eml": _leaf("text/plain; charset=utf-8",
                      b"A <http://crlf.example.org/a/\n b/c> and http://x.example.org/=\nsplit=3Dyes\n",
                      "quoted-printable").replace(b"\n", b"\r\n"),
    "latin1.eml": _leaf("text/plain; charset=iso-8859-1", b"Voil\xe0: http://example.org/caf\xe9 et \xab http://example.org/g \xbb.\n", "8bit"),
    "cp1252-quotes.eml": _leaf("text/plain; charset=windows-1252",
                               b"Link: =93http://example.org/smart=94 and =84http://example.org/low=93.\n", "quoted-printable"),
    "gb2312-base64.eml": _leaf("text/plain; charset=gb2312",
                               base64.encodebytes("\u89c1 http://example.org/gb/path \u4eca\u5929\n".encode("gb2312")), "base64"),
    "utf16-base64.eml": _leaf("text/plain; charset=utf-16",
                              base64.encodebytes("See http://example.org/utf16/path today\n".encode("utf-16")), "base64"),
    "digest.eml": (_H + """Content-Type: multipart/digest; boundary=DG

--DG

From: x@example.org
Subject: d1

digest one http://example.org/d1
--DG

From: y@example.org
Subject: d2

digest two http://example.org/d2
--DG--
""").encode(),
    "no-closing-boundary.eml": (_H + """Content-Type: multipart/mixed; boundary=NC

preamble http://example.org/preamble
--NC
Content-Type: text/plain

first http://example.org/first
--NC
Content-Type: text/plain

second http://example.org/second
""").encode(),
    "ascii-8bit.eml": _leaf("text/plain; charset=us-ascii", b"See http://example.org/caf\xc3\xa9/menu today\n", "8bit"),
    "utf8-invalid.eml": _leaf("text/plain; charset=utf-8", b"See http://example.org/caf\xe9/menu today\n", "8bit"),
    "ascii-qp-utf8.eml": _leaf("text/plain; charset=us-ascii", b"See http://example.org/caf=C3=A9/menu today\n",
                               "quoted-printable"),
    "ct-no-subtype.eml": _leaf("text", b"See http://example.org/nosubtype\n"),
    "ct-invalid.eml": _leaf("garbage", b"See http://example.org/garbage-ct\n"),
    "b64-unpadded.eml": _leaf("text/plain; charset=utf-8",
                              base64.b64encode(b"See http://example.org/nopad/xy").rstrip(b"=") + b"\n", "base64"),
}


def lookup_known(name, part, url):
    for key in ((name, part, url), (name, part, "*"), (name, "*", url), (name, "*", "*")):
        if key in KNOWN:
            return KNOWN[key]
    return None


# --- the independent side ----------------------------------------------------

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def has_scheme(value):
    return SCHEME.match(value) is not None


class LinkParser(html.parser.HTMLParser):
    """href and src values, and the first <base href>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []
        self.base = None

    def handle_starttag(self, tag, attrs):
        values = dict()
        for name, value in attrs:
            # HTML: the first of two attributes of one name counts.
            values.setdefault(name, value)
        if tag == "base":
            if values.get("href") is not None and self.base is None:
                self.base = values["href"]
            return
        for name in ("href", "src"):
            value = values.get(name)
            if value is None:
                continue
            stripped = value.strip(" \t\n\r\f")
            low = stripped.lower()
            # Links to the document itself, to parts of the mail (RFC 2392)
            # or with no resource: none.
            if not stripped or stripped.startswith("#") or low.startswith(("javascript:", "data:", "cid:", "mid:")):
                continue
            # HTML strips ASCII whitespace around a URL attribute's value.
            self.links.append(stripped)

    handle_startendtag = handle_starttag


def unflow(text, delsp):
    """RFC 3676 section 4.2: joins the lines of a flowed paragraph."""
    out = []
    current = None  # (depth, pieces)
    for raw in text.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]
        soft = content.endswith(" ") and content != "-- "
        if current is not None and current[0] != depth:
            out.append(current[1])
            current = None
        piece = content[:-1] if soft and delsp else content
        if current is None:
            current = (depth, (">" * depth + (" " if depth else "")) + piece)
        else:
            current = (depth, current[1] + piece)
        if not soft:
            out.append(current[1])
            current = None
    if current is not None:
        out.append(current[1])
    return "\n".join(out)


def header_base(entity, enclosing):
    """Content-Base, else Content-Location, made absolute against `enclosing`."""
    for name in ("Content-Base", "Content-Location"):
        value = entity.get(name)
        if value is None:
            continue
        value = re.sub(r"\s+", "", str(value)).strip('"')
        if not value:
            continue
        if has_scheme(value):
            return value
        if enclosing:
            return urllib.parse.urljoin(enclosing, value)
    return None


class Scanner:
    """urlsift's scanner on text, run once for many texts: urls() hands out
    a list that run() fills with the URLs urlsift lists in the text."""

    def __init__(self, urlsift, workdir):
        self.urlsift = urlsift
        self.workdir = workdir
        self.pending = []  # (text, base, the list to fill)

    def urls(self, text, base):
        found = []
        self.pending.append((text, base, found))
        return found

    def run(self):
        by_base = {}
        for i, (text, base, found) in enumerate(self.pending):
            path = os.path.join(self.workdir, f"part{i}.txt")
            with open(path, "wb") as f:
                f.write(text.encode("utf-8", "surrogateescape"))
            by_base.setdefault(base, {})[path] = found
        for base, files in by_base.items():
            args = [self.urlsift, "extract", "-f", "jsonl"] + (["--base", base] if base else []) + ["--"] + list(files)
            for r in run_jsonl(args)[0]:
                files[r["file"]].append(r["url"])
        self.pending = []


def child_path(parent, index):
    return (parent + "." if parent else "") + str(index + 1)


class Decoder:
    """Walks a message as urlsift numbers its parts (IMAP: 1, 2.1, ...)."""

    def __init__(self, scanner, mbox):
        self.scanner = scanner
        self.mbox = mbox
        self.parts = {}  # path -> list of (kind, url), once finish() has run
        self.plain = {}  # path -> the urls of the text part, for its HTML alternative
        # In the order of the message: ("text", path, urls) and
        # ("html", path, alternative_of, [(value, url)]); the urls of text
        # parts are there once the scanner has run.
        self.found = []
        self.notes = []  # what Python could not decode, and what was done instead

    def message(self, msg, path, base):
        if msg.is_multipart():
            self.entity(msg, path, base, alternative_of="")
        else:
            self.entity(msg, child_path(path, 0), base, alternative_of="")

    def entity(self, obj, path, base, alternative_of):
        own = header_base(obj, base)
        inner = own or base
        ctype = obj.get_content_type()
        if obj.is_multipart() and obj.get_content_maintype() == "message":
            for sub in obj.get_payload():
                self.message(sub, path, inner)
            return
        if obj.is_multipart():
            children = obj.get_payload()
            plain = -1
            if not alternative_of and ctype == "multipart/alternative":
                for i, child in enumerate(children):
                    if child.get_content_type() == "text/plain":
                        plain = i
                        break
            if plain >= 0:
                plain_path = child_path(path, plain)
                self.entity(children[plain], plain_path, inner, alternative_of)
                for i, child in enumerate(children):
                    if i != plain:
                        self.entity(child, child_path(path, i), inner, plain_path)
                return
            for i, child in enumerate(children):
                self.entity(child, child_path(path, i), inner, alternative_of)
            return
        if obj.get_content_maintype() != "text":
            return  # not text: an image, an archive, a PDF
        html_part = ctype == "text/html"
        if not html_part and alternative_of:
            return  # a copy of the plain alternative
        try:
            text = obj.get_content()
        except (LookupError, ValueError, AssertionError) as e:
            text = (obj.get_payload(decode=True) or b"").decode("utf-8", "replace")
            self.notes.append(f"part {path}: get_content failed ({e!r}); payload decoded as UTF-8")
        if not isinstance(text, str):
            text = text.decode("utf-8", "replace")
        if self.mbox:
            text = re.sub(r"(?m)^>(>*From )", r"\1", text)
        if html_part:
            parser = LinkParser()
            parser.feed(text)
            parser.close()
            part_base = inner
            if parser.base is not None:
                b = parser.base.strip()
                if has_scheme(b):
                    part_base = b
                elif inner:
                    part_base = urllib.parse.urljoin(inner, b)
            links = []
            for value in parser.links:
                # The URL standard: C0 controls and spaces around the value
                # are not part of it, tabs and line breaks inside are removed.
                cleaned = "".join(c for c in value.strip("".join(map(chr, range(33)))) if c not in "\t\n\r")
                if has_scheme(cleaned):
                    links.append((value, cleaned))
                elif part_base:
                    links.append((value, urllib.parse.urljoin(part_base, cleaned)))
                # else relative with no base: not listed
            self.found.append(("html", path, alternative_of, links))
        else:
            params = {k.lower(): str(v).lower() for k, v in obj.get_params() or []}
            if params.get("format") == "flowed":
                text = unflow(text, params.get("delsp") == "yes")
            urls = self.scanner.urls(text, inner)
            self.plain[path] = urls
            self.found.append(("text", path, urls))

    def finish(self):
        """parts, from what was found, after the scanner has run."""
        for entry in self.found:
            if entry[0] == "text":
                _, path, urls = entry
                self.parts.setdefault(path, []).extend(("text", u) for u in urls)
                continue
            _, path, alternative_of, links = entry
            seen = set(self.plain.get(alternative_of, [])) if alternative_of else set()
            # The plain alternative has the link already.
            self.parts.setdefault(path, []).extend(
                ("html", value) for value, url in links if url not in seen and url + "/" not in seen)


def python_side(path, scanner):
    """The decoders of the messages of `path`, to finish() once the scanner
    has run."""
    if path.endswith(".mbox"):
        box = mailbox.mbox(path, factory=lambda f: email.message_from_binary_file(f, policy=email.policy.default),
                           create=False)
        messages = list(box)
    else:
        with open(path, "rb") as f:
            messages = [email.message_from_binary_file(f, policy=email.policy.default)]
    decoders = []
    for msg in messages:
        d = Decoder(scanner, path.endswith(".mbox"))
        d.message(msg, "", None)
        decoders.append(d)
    return decoders


def python_parts(decoders):
    """{(message number, part path): [(kind, url)]} and notes."""
    parts, notes = {}, []
    for number, d in enumerate(decoders, 1):
        d.finish()
        for part, found in d.parts.items():
            parts[(number, part)] = found
        notes += [f"message {number}: {n}" for n in d.notes]
    return parts, notes


def run_jsonl(args):
    """The records urlsift writes, and its complaints by file name."""
    run = subprocess.run(args, capture_output=True, check=False)
    records = [json.loads(line) for line in run.stdout.decode("utf-8", "replace").splitlines() if line]
    errors = {}
    for line in run.stderr.decode("utf-8", "replace").splitlines():
        m = re.match(r"urlsift extract: (.*?): (.*)$", line)
        # A note says how something was read, not that it failed.
        if m and not m.group(2).startswith("note: "):
            errors[m.group(1)] = line
    if run.returncode not in (0, 1) and not errors:
        raise SystemExit(f"mail_corpus_check: {' '.join(args[:4])} ... exited {run.returncode}: {run.stderr!r}")
    return records, errors


def urlsift_side(urlsift, files):
    """{file: {(message number, part path): [(kind, url)]}} of urlsift's body
    references, and its complaints by file name."""
    parts = {f: {} for f in files}
    errors = {}
    for kind in ("mail", "mbox"):
        chosen = [f for f in files if f.endswith(".mbox") == (kind == "mbox")]
        if not chosen:
            continue
        records, complaints = run_jsonl([urlsift, "extract", "--input", kind, "-f", "jsonl", "--headers", "--"] + chosen)
        errors.update(complaints)
        for r in records:
            if r.get("header") is not None:
                continue
            html_link = r.get("content_type") == "text/html"
            # An HTML link is compared as the attribute holds it; text by URL.
            parts[r["file"]].setdefault((r["message"], r["part"]), []).append(
                ("html", r["raw"]) if html_link else ("text", r["url"]))
    return parts, errors


def compare(ours, theirs):
    """(path, kind, url, side) for each URL one side lists more often."""
    out = []
    for key in sorted(set(ours) | set(theirs)):
        path = key[1] if key[0] == 1 else f"{key[1]} of message {key[0]}"
        a = Counter(ours.get(key, []))
        b = Counter(theirs.get(key, []))
        for (kind, url), n in sorted((a - b).items()):
            out += [(path, kind, url, "only urlsift")] * n
        for (kind, url), n in sorted((b - a).items()):
            out += [(path, kind, url, "only python")] * n
    return out


def corpus_files(dirs, patterns):
    files = []
    for d in dirs:
        if os.path.isfile(d):
            files.append(d)
            continue
        found = set()
        for pattern in patterns:
            found.update(glob.glob(os.path.join(d, pattern)))
        files += sorted(found)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("urlsift", help="the urlsift binary")
    ap.add_argument("dirs", nargs="*", metavar="DIR", help="corpus directories or files (default: Python's test messages)")
    ap.add_argument("--glob", action="append", help="file name pattern of the messages (repeatable)")
    ap.add_argument("--crafted", action="store_true", help="check the messages written into this script instead")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every message, not only those that differ")
    args = ap.parse_args()

    if args.crafted:
        with tempfile.TemporaryDirectory(prefix="mail_corpus_check.") as tmp:
            for name, raw in CRAFTED.items():
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(raw)
            return check(args, [tmp])
    return check(args, args.dirs or DEFAULT_DIRS)


def check(args, dirs):
    missing = [d for d in dirs if not os.path.exists(d)]
    if missing:
        print(f"mail_corpus_check: corpus not found: {', '.join(missing)} (Debian: libpython3.11-testsuite); skipped")
        return SKIP
    files = corpus_files(dirs, args.glob or DEFAULT_GLOBS)
    if not files:
        print(f"mail_corpus_check: no messages in {', '.join(dirs)}; skipped")
        return SKIP

    with tempfile.TemporaryDirectory(prefix="mail_corpus_check.") as tmp:
        scanner = Scanner(args.urlsift, tmp)
        decoded = {path: python_side(path, scanner) for path in files}
        scanner.run()
    ours_by_file, errors = urlsift_side(args.urlsift, files)
    urls_urlsift = urls_python = messages = 0
    by_category = Counter()
    unexplained = 0
    for path in files:
        name = os.path.basename(path)
        theirs, notes = python_parts(decoded[path])
        messages += len(decoded[path])
        ours = ours_by_file[path]
        n_ours = sum(map(len, ours.values()))
        n_theirs = sum(map(len, theirs.values()))
        urls_urlsift += n_ours
        urls_python += n_theirs
        diffs = compare(ours, theirs)
        if path in errors:
            diffs.append(("-", "-", errors[path], "error"))
        if diffs or args.verbose:
            print(f"{name}: urlsift {n_ours} URLs, python {n_theirs}")
            for note in notes:
                print(f"  note: {note}")
        reasons = []
        for part, kind, url, side in diffs:
            k = lookup_known(name, part, url)
            if k is None:
                category, reason = "UNEXPLAINED", "not in the list of known differences"
                unexplained += 1
            else:
                category, reason = k
            by_category[category] += 1
            print(f"  part {part} {kind} {side}: {url}  [{category}]")
            if (category, reason) not in reasons:
                reasons.append((category, reason))
        for category, reason in reasons:
            print(f"    [{category}] {reason}")

    print()
    print(f"mail_corpus_check: {len(files)} files, {messages} messages, urlsift {urls_urlsift} body URLs, "
          f"python+scanner {urls_python}; {sum(by_category.values())} differences")
    for category, n in sorted(by_category.items()):
        print(f"  {n:4d}  {category}")
    if unexplained:
        print(f"mail_corpus_check: {unexplained} unexplained differences")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
