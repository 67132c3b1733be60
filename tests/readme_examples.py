#!/usr/bin/env python3
"""The documentation's examples are tests.

Every fenced block of README.md and of docs/*.md that holds a line starting
with `$ ` is run:
each `$ ` line is a shell command (bash, with the built occcalc first on the
PATH, no colour, a UTF-8 locale, in a scratch directory that sees the
repository's tests/, examples/, schema/ and data/), and the lines after it, up
to the next `$ ` line, are what it prints, stdout and stderr together. A line
that is `...` alone stands for any number of lines (none included); `...`
inside a line stands for any text there. Commands of one block share a shell,
so `echo $?` gives the exit code of the command before it.

usage: readme_examples.py OCCCALC REPO_ROOT [--show] [--update]
  --show prints what each command printed; --update writes what a differing
  command printed into its file where its expected lines have no `...`.
"""
import os
import re
import subprocess
import sys
import tempfile

OCCCALC, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SHOW = "--show" in sys.argv[3:]
UPDATE = "--update" in sys.argv[3:]
MARK = "\x1e"  # ends each command's output


def blocks(text):
    """(line number, [(line number, line)]) of every fenced block that has a `$ ` line."""
    out, inside, start, lines = [], False, 0, []
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            if inside and any(l.startswith("$ ") for _, l in lines):
                out.append((start, lines))
            inside, start, lines = not inside, number, []
        elif inside:
            lines.append((number, line))
    return out


def commands(lines):
    """[(command, [expected lines], line number of the first expected line)] of one block."""
    out = []
    for number, line in lines:
        if line.startswith("$ "):
            out.append((line[2:], [], number + 1))
        elif out:
            out[-1][1].append(line)
    for _, expected, _ in out:  # trailing blank lines separate examples
        while expected and expected[-1] == "":
            expected.pop()
    return out


def line_pattern(line):
    if "..." not in line:
        return None
    return re.compile("^" + ".*".join(re.escape(part) for part in line.split("...")) + "$")


def matches(expected, actual):
    """Whether `actual` lines fit `expected` with its `...` elisions."""
    memo = {}

    def fit(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(expected):
            result = j == len(actual)
        elif expected[i].strip() == "...":
            result = any(fit(i + 1, k) for k in range(j, len(actual) + 1))
        elif j == len(actual):
            result = False
        else:
            pattern = line_pattern(expected[i])
            same = pattern.match(actual[j]) if pattern else expected[i] == actual[j]
            result = bool(same) and fit(i + 1, j + 1)
        memo[(i, j)] = result
        return result

    return fit(0, 0)


def documents():
    """README.md, then docs/*.md: (path relative to the root, text)."""
    paths = ["README.md"] + sorted(
        os.path.join("docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))
    out = []
    for path in paths:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            out.append((path, f.read()))
    return out


def main():
    failures, ran, block_count = [], 0, 0
    docs = documents()
    with tempfile.TemporaryDirectory() as scratch:
        bindir = os.path.join(scratch, "bin")
        os.mkdir(bindir)
        os.symlink(OCCCALC, os.path.join(bindir, "occcalc"))
        work = os.path.join(scratch, "work")
        os.mkdir(work)
        for name in ["tests", "examples", "schema", "data"]:
            os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
        env = {"PATH": bindir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"), "NO_COLOR": "1",
               "LC_ALL": "C.UTF-8", "HOME": scratch, "TMPDIR": scratch}
        for path, text in docs:
            found = blocks(text)
            block_count += len(found)
            for start, lines in found:
                cmds = commands(lines)
                script = "".join(f"{{ {c}\n}} 2>&1; __rc=$?; printf '{MARK}'; (exit $__rc)\n" for c, _, _ in cmds)
                p = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], capture_output=True, text=True,
                                   cwd=work, env=env)
                outputs = p.stdout.split(MARK)[: len(cmds)]
                for (command, expected, first), output in zip(cmds, outputs + [""] * (len(cmds) - len(outputs))):
                    ran += 1
                    actual = output.split("\n")
                    if actual and actual[-1] == "":
                        actual.pop()
                    if SHOW:
                        print(f"$ {command}\n" + "\n".join(actual))
                    if not matches(expected, actual):
                        failures.append((path, start, command, expected, actual, first))
    if UPDATE:
        for path, text in docs:
            lines = text.split("\n")
            # From the end, so earlier line numbers stay true.
            mine = [f for f in failures if f[0] == path]
            for _, start, command, expected, actual, first in sorted(mine, key=lambda f: -f[5]):
                if any("..." in l for l in expected):
                    print(f"{path} line {first}: not updated (it elides with ...): $ {command}")
                    continue
                lines[first - 1 : first - 1 + len(expected)] = actual
            if mine:
                with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
                    f.write("\n".join(lines))
    for path, start, command, expected, actual, _ in failures:
        print(f"{path} block at line {start}: $ {command}")
        print("  expected:\n" + "\n".join("    | " + l for l in expected))
        print("  got:\n" + "\n".join("    | " + l for l in actual))
    problems = front_door()
    for problem in problems:
        print("FAIL", problem)
    print(f"{ran} commands in {block_count} blocks of {len(docs)} documents; {len(failures)} differ")
    return 1 if failures or problems or ran == 0 else 0


def front_door():
    """What the README promises before any example: the first command builds
    the binary alone, the second is what .ci/run runs, and a binary to
    download is promised only once a release's checksum is published."""
    import json
    problems = []
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    shell = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    presets = json.load(open(os.path.join(ROOT, "CMakePresets.json")))
    cli = next((p for p in presets["configurePresets"] if p["name"] == "cli"), None)
    if len(shell) < 2 or not shell[0].startswith("scripts/install-deps && cmake --workflow --preset cli &&"):
        problems.append("README: the first command is not install-deps and the cli workflow")
    if cli is None or cli["cacheVariables"].get("OCCCALC_BUILD_TESTS") != "OFF":
        problems.append("CMakePresets.json: the cli preset builds tests")
    ci = open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8").read()
    if len(shell) >= 2 and shell[1] not in ci:
        problems.append(f"README's test command ({shell[1]}) is not what .ci/run runs")
    # The first command's time is bench/run's measurement (bench/run --write
    # puts it in both): the README states what was measured. Its goal (90 s on
    # 2 cores) is docs/performance.md's and bench/run's to report, not a test's
    # to time: a slower machine on the day of the run must not fail the tests.
    stated = re.search(r"\((\d+) s on (\d+) cores from a clean clone", readme)
    performance = open(os.path.join(ROOT, "docs", "performance.md"), encoding="utf-8").read()
    measured = re.search(r"^first command: (\d+) s on (\d+) cores", performance, re.M)
    if not stated or not measured or stated.groups() != measured.groups():
        problems.append(f"README states the first command's time as {stated and stated.group(0)!r}; "
                        f"docs/performance.md measured {measured and measured.group(0)!r}")
    if not os.path.isfile(os.path.join(ROOT, "docs", "occcalc.1")) or "man docs/occcalc.1" not in readme:
        problems.append("README's quick start does not point to the manual (man docs/occcalc.1)")
    sums = [l for l in open(os.path.join(ROOT, ".github", "release-checksums.txt")) if l.strip() and l[0] != "#"]
    if not sums and "no release has been published" not in readme:
        problems.append("README offers a release download, but .github/release-checksums.txt lists none")
    return problems


sys.exit(main())
