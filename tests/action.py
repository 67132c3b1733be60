#!/usr/bin/env python3
"""action.yml is a composite action whose steps work.

Parses action.yml (YAML), checks its inputs and that every step runs bash,
then runs its check step as the runner would (the inputs as environment
variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, the built occcalc
first on PATH) on the committed fixtures: a passing policy gives exit code 0
and annotations, a failing one exit code 1 in the step's output and an
`::error` line. The install step's checksum lookup is run on a sample
release-checksums file. Exits 77 without PyYAML.

usage: action.py OCCCALC REPO_ROOT
"""
import os
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("PyYAML (python3-yaml) is missing: skipped")
    sys.exit(77)

OCCCALC, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def run_step(script, env, scratch):
    output = os.path.join(scratch, "output")
    summary = os.path.join(scratch, "summary")
    open(output, "w").close()
    full = dict(os.environ, PATH=os.path.dirname(OCCCALC) + os.pathsep + os.environ["PATH"], GITHUB_OUTPUT=output,
                GITHUB_STEP_SUMMARY=summary, NO_COLOR="1", **env)
    p = subprocess.run(["bash", "-e", "-c", script], capture_output=True, text=True, cwd=ROOT, env=full)
    with open(output) as f:
        outputs = dict(line.strip().split("=", 1) for line in f if "=" in line)
    return p, outputs


def main():
    with open(os.path.join(ROOT, "action.yml")) as f:
        action = yaml.safe_load(f)
    problems = []
    if action["runs"]["using"] != "composite":
        problems.append("not a composite action")
    for name in ["inputs", "policy", "format", "baseline", "version"]:
        if name not in action["inputs"]:
            problems.append(f"no input {name}")
    if action["inputs"]["format"].get("default") != "github":
        problems.append("the format is not github by default")
    steps = {s.get("id", s["name"]): s for s in action["runs"]["steps"]}
    for s in action["runs"]["steps"]:
        if s.get("shell") != "bash":
            problems.append(f"step {s['name']}: shell {s.get('shell')}")
    check = steps["check"]["run"]
    fx = "tests/fixtures/inspect"
    with tempfile.TemporaryDirectory() as scratch:
        env = {"INPUTS": f"{fx}/app\n{fx}/libkernels.a", "POLICY": "examples/occupancy-policy.json",
               "FORMAT": "github", "BASELINE": "", "ARGS": ""}
        p, out = run_step(check, env, scratch)
        if p.returncode != 0 or out.get("exit-code") != "0" or "::warning" not in p.stdout:
            problems.append(f"passing policy: exit {p.returncode}, outputs {out}: {p.stdout[-300:]}{p.stderr}")
        env.update(POLICY="tests/golden/strict-policy.json", INPUTS=f"{fx}/kernels.sm_90.cubin", ARGS="--kernel spill")
        p, out = run_step(check, env, scratch)
        if p.returncode != 1 or out.get("exit-code") != "1" or "::error file=" not in p.stdout:
            problems.append(f"failing policy: exit {p.returncode}, outputs {out}: {p.stdout[-300:]}{p.stderr}")
    # The install step's checksum lookup, on a sample file.
    install = steps["Install occcalc"]["run"]
    lookup = next(line for line in install.split("\n") if "release-checksums.txt" in line).strip()
    with tempfile.TemporaryDirectory() as fake:
        os.makedirs(os.path.join(fake, ".github"))
        with open(os.path.join(fake, ".github", "release-checksums.txt"), "w") as f:
            f.write("# comment\nabc123 occcalc-linux-x86_64 0.1.0\ndef456 occcalc-linux-aarch64 0.1.0\n")
        script = f'version=0.1.0; asset=occcalc-linux-aarch64; ACTION_PATH={fake}\n{lookup}\necho "$sum"'
        sum_found = subprocess.run(["bash", "-c", script], capture_output=True, text=True).stdout.strip()
        if sum_found != "def456":
            problems.append(f"the checksum lookup found {sum_found!r}, not def456")
    for p in problems:
        print(p)
    print(f"action.yml: {len(action['runs']['steps'])} steps; {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
