#!/usr/bin/env python3
"""The shell completions know every flag the help shows, and bash's works.

- Each of completions/occcalc.bash, _occcalc (zsh) and occcalc.fish names
  every long flag of `occcalc --help` and `occcalc help COMMAND`.
- bash: the script is sourced and its function run as bash would run it:
  `occcalc ins<TAB>` gives inspect, `--cc sm_9<TAB>` the sm_9x ids the
  built occcalc lists, `--gpu h100<TAB>` the H100 ids, `--gfx gfx90<TAB>`
  the gfx90x targets, `inspect --wi<TAB>` --wide, `--format <TAB>` each
  command's formats as its help lists them, and the values of --vary,
  --model, --cache, --color and list's WHAT the ones occcalc's refusals list
  (zsh's and fish's lists of those values too).
- zsh and fish: each parses (`zsh -n`, `fish --no-execute`) where installed.

usage: completions.py OCCCALC REPO_ROOT
"""
import os
import re
import shutil
import subprocess
import sys

OCCCALC, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
DIR = os.path.join(ROOT, "completions")
COMMANDS = ["list", "batch", "inspect", "check", "diff", "suggest", "limits", "sweep"]


def flags():
    found = set()
    for args in [[]] + [[c] for c in COMMANDS]:
        text = subprocess.run([OCCCALC, *args, "--help"], capture_output=True, text=True, check=True).stdout
        found |= set(re.findall(r"(?<![\w-])--([a-z][a-z0-9-]*)", text))
    return found


def formats(command):
    """The formats `occcalc [COMMAND] --help` lists for --format."""
    args = [command] if command else []
    text = " ".join(subprocess.run([OCCCALC, *args, "--help"], capture_output=True, text=True, check=True).stdout.split())
    listed = re.search(r"Output format: ((?:[a-z]+(?: \(default\))?(?:, | or )?)+)", text).group(1)
    return sorted(re.findall(r"[a-z]+", listed.replace("(default)", "").replace(" or ", " ")))


# Closed lists of values: a command line that refuses a value, and so names
# every value it takes.
REFUSALS = {
    "--vary": [["sweep", "--vary", "x", "--cc", "8.0", "--threads", "128", "--regs", "32"],
               ["sweep", "--vary", "x", "--gfx", "gfx90a", "--threads", "128", "--vgprs", "32"]],
    "--model": [["--gfx", "gfx90a", "--threads", "128", "--vgprs", "32", "--model", "x"]],
    "--cache": [["--cc", "3.5", "--threads", "128", "--regs", "32", "--cache", "x"]],
    "--color": [["--cc", "8.0", "--threads", "128", "--regs", "32", "--color", "x"]],
    "list": [["list", "x"]],
}


def listed_values(name, text, flag):
    """Every list of values the zsh or fish script offers for `flag` (list's
    WHAT: its positional), each as a set."""
    if name == "_occcalc":
        pattern = r"'1:what:\(([^)]*)\)'" if flag == "list" else rf"'{re.escape(flag)}\[[^]]*\]:[A-Z]+:\(([^)]*)\)'"
    elif flag == "list":
        pattern = r'__fish_seen_subcommand_from list" -a "([^"]*)"'
    else:
        pattern = rf'-l {re.escape(flag[2:])} -x -a "([^"]*)"'
    return [set(found.split()) for found in re.findall(pattern, text)]


def refused_values(args):
    """The values a refusal of `args` names: `... is not one of a, b or c`."""
    err = subprocess.run([OCCCALC, *args], capture_output=True, text=True).stderr
    listed = re.search(r"(?:is not one of|expected) (.*)$", err.strip()).group(1)
    listed = re.sub(r"\(.*?\)", "", listed).replace(" or ", ", ")
    return {v.strip() for v in listed.split(",") if re.fullmatch(r"[a-z0-9-]+", v.strip())}


def complete(words):
    """COMPREPLY for the command line `words` (the last one being completed)."""
    script = (f"source {DIR}/occcalc.bash\n"
              f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
              "_occcalc; printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    p = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], capture_output=True, text=True)
    return [line for line in p.stdout.split("\n") if line], p.stderr


def main():
    problems = []
    wanted = flags()
    for name in ["occcalc.bash", "_occcalc", "occcalc.fish"]:
        with open(os.path.join(DIR, name), encoding="utf-8") as f:
            text = f.read()
        for flag in sorted(wanted - {"help", "version"} if name == "occcalc.fish" else wanted):
            spelled = rf"(?<![\w-]){re.escape(flag)}" if name == "occcalc.fish" else rf"--{re.escape(flag)}"
            if not re.search(spelled + r"(?![\w-])", text):
                problems.append(f"{name}: no --{flag}")
    cases = [
        (["occcalc", "ins"], lambda r: r == ["inspect"]),
        (["occcalc", "--cc", "sm_9"], lambda r: "sm_90" in r and all(x.startswith("sm_9") for x in r)),
        (["occcalc", "--gpu", "h100"], lambda r: r and all(x.startswith("h100") for x in r)),
        (["occcalc", "--gfx", "gfx90"], lambda r: "gfx90a" in r),
        (["occcalc", "inspect", "--wi"], lambda r: r == ["--wide"]),
        (["occcalc", "help", "sw"], lambda r: r == ["sweep"]),
        (["occcalc", "sweep", "--vary", "v"], lambda r: r == ["vgprs"]),
    ]
    for command in [""] + COMMANDS:
        words = [OCCCALC] + ([command] if command else []) + ["--format", ""]
        reply, err = complete(words)
        if sorted(reply) != formats(command) or err:
            problems.append(f"bash: {' '.join(words[1:])}<TAB> gave {reply}, not {formats(command)} {err}")
    for flag, lines in REFUSALS.items():
        wanted_values = set().union(*(refused_values(args) for args in lines))
        words = [OCCCALC] + ([flag, ""] if flag.startswith("--") else [flag, ""])
        reply, err = complete(words)
        if set(reply) != wanted_values or err:
            problems.append(f"bash: {flag} <TAB> gave {sorted(reply)}, not {sorted(wanted_values)} {err}")
        for name in ["_occcalc", "occcalc.fish"]:
            with open(os.path.join(DIR, name), encoding="utf-8") as f:
                lists = listed_values(name, f.read(), flag)
            if not lists or any(values != wanted_values for values in lists):
                problems.append(f"{name}: {flag} offers {[sorted(v) for v in lists]}, not {sorted(wanted_values)}")
    for words, ok in cases:
        words = [OCCCALC] + words[1:]
        reply, err = complete(words)
        if not ok(reply) or err:
            problems.append(f"bash: {' '.join(words[1:])}<TAB> gave {reply} {err}")
    if shutil.which("zsh"):
        p = subprocess.run(["zsh", "-n", os.path.join(DIR, "_occcalc")], capture_output=True, text=True)
        if p.returncode != 0:
            problems.append(f"zsh -n: {p.stderr}")
    if shutil.which("fish"):
        p = subprocess.run(["fish", "--no-execute", os.path.join(DIR, "occcalc.fish")], capture_output=True, text=True)
        if p.returncode != 0:
            problems.append(f"fish --no-execute: {p.stderr}")
    for p in problems:
        print(p)
    print(f"{len(wanted)} flags in 3 completion scripts, {len(cases)} bash completions; {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
