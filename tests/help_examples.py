#!/usr/bin/env python3
"""Every example occcalc shows runs as shown: the examples of `occcalc --help`
and of each command's help, and the man page's EXAMPLES, each run by the shell
in a scratch directory that holds stand-ins for the paths they name (a library,
a build directory, an executable, a saved baseline, a policy) and a stand-in
nvcc that prints a real ptxas log. Each must exit 0, or 1 where it is a gate
(check, diff --fail-on-regression) that may fail, never 2.

  tests/help_examples.py OCCCALC SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

COMMANDS = ["list", "batch", "inspect", "check", "diff", "suggest", "sweep"]


def help_examples(occcalc):
    """(where, command line) of each example line in the helps."""
    found = []
    for command in [None] + COMMANDS:
        args = [occcalc, "--help"] if command is None else [occcalc, "help", command]
        text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if not re.match(r"^Examples?:", line):
                continue
            for example in lines[i + 1:]:
                if not example.startswith("  "):
                    break
                found.append((f"occcalc {'help ' + command if command else '--help'}", example.strip()))
    return found


def manual_examples(source):
    """(where, command line) of each line of the man page's EXAMPLES."""
    text = open(os.path.join(source, "docs", "occcalc.1")).read()
    section = text.split(".SH EXAMPLES", 1)[1].split(".SH", 1)[0]
    out = []
    for line in section.splitlines():
        line = line.replace("\\-", "-")
        if line.startswith("occcalc ") or "| occcalc" in line:
            out.append(("man occcalc", line))
    return out


def stage(scratch, source, occcalc):
    """The stand-ins the examples name."""
    fixtures = os.path.join(source, "tests", "fixtures", "inspect")
    build = os.path.join(scratch, "build")
    os.makedirs(build)
    shutil.copy(os.path.join(fixtures, "libkernels.a"), build)
    shutil.copy(os.path.join(fixtures, "app"), build)
    shutil.copy(os.path.join(fixtures, "kernels.sm_90.cubin"), build)
    shutil.copy(os.path.join(source, "examples", "occupancy-policy.json"), scratch)
    with open(os.path.join(scratch, "baseline.json"), "w") as f:
        subprocess.run([occcalc, "inspect", os.path.join(build, "app"), "--json"], stdout=f, check=True)
    with open(os.path.join(scratch, "k.cu"), "w") as f:
        f.write("__global__ void k() {}\n")
    # nvcc -Xptxas -v prints ptxas's report on stderr: the stand-in prints a
    # real one (tests/fixtures/inspect/kernels.sm_90.log).
    bin_dir = os.path.join(scratch, "bin")
    os.makedirs(bin_dir)
    nvcc = os.path.join(bin_dir, "nvcc")
    with open(nvcc, "w") as f:
        f.write(f"#!/bin/sh\ncat '{os.path.join(fixtures, 'kernels.sm_90.log')}' >&2\n")
    os.chmod(nvcc, 0o755)
    # `occcalc` in the examples is the one under test.
    os.symlink(os.path.abspath(occcalc), os.path.join(bin_dir, "occcalc"))
    return bin_dir


def main(argv):
    occcalc, source = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    examples = help_examples(occcalc) + manual_examples(source)
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        bin_dir = stage(scratch, source, occcalc)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), COLUMNS="80")
        for where, line in examples:
            gate = re.search(r"\bocccalc (check|diff)\b", line) is not None
            p = subprocess.run(["sh", "-c", line], cwd=scratch, env=env, capture_output=True, text=True, timeout=60)
            allowed = (0, 1) if gate else (0,)
            if p.returncode not in allowed or (p.returncode == 0 and not p.stdout and "--svg" not in line):
                failures.append(f"{where}: {line}\n  exit {p.returncode}: {p.stderr.strip()[:300]}")
    for f in failures:
        print("FAIL", f)
    print(f"{len(examples)} examples run; {len(failures)} failures")
    return 1 if failures or not examples else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
