#!/usr/bin/env python3
"""The man page, docs/occcalc.1, says what the help says, and renders.

Every long flag that `occcalc --help` or `occcalc help COMMAND` shows must
appear in the man page (as roff writes it, `\\-\\-flag`), every command must
have its entry, and `man -l` (else groff) must render it without a warning.
Exits 77 (skipped) when neither man nor groff is installed.

usage: manual.py OCCCALC REPO_ROOT
"""
import os
import re
import shutil
import subprocess
import sys

OCCCALC, ROOT = sys.argv[1], sys.argv[2]
PAGE = os.path.join(ROOT, "docs", "occcalc.1")
COMMANDS = ["list", "batch", "inspect", "check", "diff", "suggest", "limits", "sweep"]


def help_text(args):
    return subprocess.run([OCCCALC, *args, "--help"], capture_output=True, text=True, check=True).stdout


def main():
    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    problems = []
    for args in [[]] + [[c] for c in COMMANDS]:
        for flag in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", help_text(args)))):
            if flag.replace("-", "\\-") not in page:
                problems.append(f"occcalc {' '.join(args)} --help shows {flag}; the man page does not")
    for command in COMMANDS:
        if not re.search(rf"^\.(TP\n\.)?(B|BI|BR) \"?{command}\b", page, re.M) and f".BR {command} " not in page \
                and f".BI {command} " not in page and f".B {command}\n" not in page:
            problems.append(f"the man page has no entry for {command}")
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MANROFFSEQ="")
    if shutil.which("man"):
        render = subprocess.run(["man", "--warnings", "-l", PAGE], capture_output=True, text=True, env=env)
    elif shutil.which("groff"):
        render = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", PAGE], capture_output=True, text=True)
    else:
        print("neither man nor groff is installed: skipped")
        return 77
    if render.returncode != 0 or render.stderr.strip():
        problems.append(f"rendering: exit {render.returncode}: {render.stderr.strip()}")
    elif shutil.which("man") and "EXIT STATUS" not in render.stdout:
        problems.append("rendering: no EXIT STATUS section in the output")
    elif shutil.which("man"):
        # A flag set in bold with its punctuation as a separate word
        # (`.B \-\-csv ,`) renders a space before the comma: .BR joins them.
        for line in render.stdout.splitlines():
            if re.search(r"--[a-z][a-z0-9-]* [,.;)]", line):
                problems.append(f"rendering: punctuation set apart from a flag: {line.strip()}")
    for p in problems:
        print(p)
    print(f"man page checked against {1 + len(COMMANDS)} help texts; {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
