#!/usr/bin/env python3
"""The examples in the Markdown docs, run as tests: the docs are the source.

Two kinds of fenced block are examples:

  ```console     a shell session. A line that starts with "$ " is a command
                 (it goes on over the next lines while a quote is open, or
                 after a line that ends in " \\"); the lines after it, up to
                 the next command, are what it prints (standard output and
                 standard error, as a terminal shows them). The commands of
                 one block run in turn, with bash, in a scratch directory of
                 their own that holds a copy of the repository's samples/,
                 with the urlsift under test first on PATH, standard input
                 empty, LC_ALL=C.UTF-8 and TZ=UTC.

  ```cpp         a C++ program (one with "int main"), built against the
  ```output      installed library and run; the ```output block right after
                 it, when there is one, is what it prints. A ```cmake block
                 that calls find_package(urlsift) is the project file it is
                 built with; the docs' pkg-config command line builds the
                 first program too.

Any other block that holds a "$ " line is an error: a session that shows
output is marked ```console, so that it is checked.

Usage:
  doc_examples.py console URLSIFT SAMPLES_DIR FILE.md...
      run every console block; exit 1 if any output differs.
  doc_examples.py console-update URLSIFT SAMPLES_DIR FILE.md...
      the same, but write what each command printed into the docs in place
      of what they say (then read the difference with git diff).
  doc_examples.py cpp OUT_DIR FILE.md...
      write each C++ program to OUT_DIR/NAME/main.cpp, with the project
      file as OUT_DIR/NAME/CMakeLists.txt and its output as
      OUT_DIR/NAME/expected.txt, and the docs' pkg-config command line (a
      ```sh line with "pkg-config --cflags --libs urlsift") as
      OUT_DIR/pkg-config.sh; print the project's executable target, then
      the NAMEs, one a line.
"""
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^( *)(`{3,}|~{3,})\s*([^`\s]*)")


def blocks(path):
    """Yields (info, first line number of the body, body lines, indent) per
    fence; line numbers count from 1."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3)
        body, start = [], i + 2
        i += 1
        while i < len(lines) and not re.match(r"^ *" + re.escape(fence[0]) + "{%d,}\\s*$" % len(fence), lines[i]):
            line = lines[i]
            body.append(line[indent:] if line[:indent].strip() == "" else line)
            i += 1
        i += 1
        yield info, start, body, indent


def unclosed(command):
    """Whether a quote is still open at the end of the command."""
    try:
        shlex.split(command)
        return False
    except ValueError:
        return True


def sessions(body, start):
    """Splits a console block into (line number, command, expected output)."""
    out, i = [], 0
    while i < len(body):
        if not body[i].startswith("$ "):
            if body[i].strip():
                raise ValueError(f"line {start + i}: output before the first command")
            i += 1
            continue
        line_no, command = start + i, body[i][2:]
        while i + 1 < len(body) and (command.endswith("\\") or unclosed(command)):
            i += 1
            command = (command[:-1] if command.endswith("\\") else command) + "\n" + body[i]
        i += 1
        expected, first = [], i
        while i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        while expected and expected[-1] == "":
            expected.pop()
        out.append((line_no, command, expected, (start + first, start + first + len(expected))))
    return out


def check_console(urlsift, samples, docs, update=False):
    urlsift = os.path.abspath(urlsift)
    failures = commands = 0
    for doc in docs:
        edits = []
        for info, start, body, indent in blocks(doc):
            if info != "console":
                stray = [n for n, l in enumerate(body) if l.startswith("$ ")]
                if stray and info not in ("cpp", "output"):
                    print(f"{doc}:{start + stray[0]}: a shell session in a ```{info or ''} block: "
                          "mark it ```console so that its output is checked")
                    failures += 1
                continue
            try:
                steps = sessions(body, start)
            except ValueError as e:
                print(f"{doc}: {e}")
                failures += 1
                continue
            with tempfile.TemporaryDirectory(prefix="urlsift-doc-") as scratch:
                work = os.path.join(scratch, "work")
                shutil.copytree(samples, os.path.join(work, "samples"))
                bindir = os.path.join(scratch, "bin")
                os.mkdir(bindir)
                os.symlink(urlsift, os.path.join(bindir, "urlsift"))
                env = {
                    "PATH": bindir + ":/usr/local/bin:/usr/bin:/bin",
                    "HOME": work,
                    "LC_ALL": "C.UTF-8",
                    "LANG": "C.UTF-8",
                    "TZ": "UTC",
                    "TERM": "dumb",
                }
                for keep in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
                    if keep in os.environ:
                        env[keep] = os.environ[keep]
                for line_no, command, expected, where in steps:
                    commands += 1
                    run = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, timeout=60)
                    got = run.stdout.decode("utf-8", "backslashreplace").split("\n")
                    while got and got[-1] == "":
                        got.pop()
                    if got != expected and update:
                        edits.append((where, [" " * indent + l if l else l for l in got]))
                    elif got != expected:
                        failures += 1
                        print(f"{doc}:{line_no}: the output of '{command}' differs from the doc "
                              f"(exit status {run.returncode}):")
                        sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
                            expected, got, "in the doc", "printed", lineterm=""))
        if edits:
            with open(doc, encoding="utf-8") as f:
                lines = f.read().split("\n")
            for (first, end), new in reversed(edits):
                lines[first - 1:end - 1] = new
            with open(doc, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
            print(f"{doc}: the output of {len(edits)} commands written as printed")
    print(f"{commands} commands of {len(docs)} files checked, {failures} failed")
    return 1 if failures else 0


def extract_cpp(out_dir, docs):
    os.makedirs(out_dir, exist_ok=True)
    project, target, pkg_config, programs = None, None, None, []
    for doc in docs:
        stem = os.path.splitext(os.path.basename(doc))[0].lower()
        found = list(blocks(doc))
        for n, (info, start, body, _) in enumerate(found):
            text = "\n".join(body) + "\n"
            executable = re.search(r"add_executable\(\s*([^\s)]+)", text)
            if info == "cmake" and "find_package(urlsift" in text and executable:
                project, target = text, executable.group(1)
            if info == "sh" and pkg_config is None:
                pkg_config = next((l for l in body if "pkg-config --cflags --libs urlsift" in l), None)
            if info == "cpp" and re.search(r"\bint main\s*\(", text):
                expected = None
                if n + 1 < len(found) and found[n + 1][0] == "output":
                    expected = "\n".join(found[n + 1][2]).rstrip("\n") + "\n"
                programs.append((f"{stem}_{start}", text, expected))
    if project is None:
        print("no ```cmake block with find_package(urlsift) and add_executable", file=sys.stderr)
        return 1
    for name, text, expected in programs:
        d = os.path.join(out_dir, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "main.cpp"), "w") as f:
            f.write(text)
        with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
            f.write(project)
        if expected is not None:
            with open(os.path.join(d, "expected.txt"), "w") as f:
                f.write(expected)
    if pkg_config is not None:
        with open(os.path.join(out_dir, "pkg-config.sh"), "w") as f:
            f.write(pkg_config.split("#")[0].strip() + "\n")
    # What the caller builds: the target's name, then each program's directory.
    print(target)
    for name, _, _ in programs:
        print(name)
    return 0 if programs else 1


def main(argv):
    if len(argv) >= 4 and argv[1] == "console":
        return check_console(argv[2], argv[3], argv[4:])
    if len(argv) >= 4 and argv[1] == "console-update":
        return check_console(argv[2], argv[3], argv[4:], update=True)
    if len(argv) >= 3 and argv[1] == "cpp":
        return extract_cpp(argv[2], argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
