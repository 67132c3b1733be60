#!/usr/bin/env python3
"""`pip install .` works offline from the source tree, as the README says:
in a venv made with --system-site-packages, with --no-build-isolation and no
index. setup.py builds the extension with CMake; here it reuses the tests'
build directory (OCCCALC_CMAKE_BUILD_DIR), where the module is already
built, so the check costs seconds. The installed package must import from
the venv and answer the README's first example. Exits 77 (skipped) without
Debian's python3 venv module or pip.

usage: python_pip.py SOURCE_DIR BUILD_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE, BUILD = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def main():
    with tempfile.TemporaryDirectory() as scratch:
        venv = os.path.join(scratch, "venv")
        made = subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv], capture_output=True,
                              text=True)
        if made.returncode != 0 or not os.path.exists(os.path.join(venv, "bin", "pip")):
            print("no venv with pip (apt-get install python3-venv python3-pip): skipped")
            return 77
        # A copy of the tree without build directories, as a clone is.
        tree = os.path.join(scratch, "occcalc")
        shutil.copytree(SOURCE, tree, ignore=shutil.ignore_patterns("build*", ".git", "*.egg-info", "venv"))
        env = dict(os.environ, OCCCALC_CMAKE_BUILD_DIR=BUILD, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        pip = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--no-build-isolation", "--no-index", tree],
                             capture_output=True, text=True, env=env, cwd=scratch)
        if pip.returncode != 0:
            print(f"FAIL pip install: exit {pip.returncode}\n{pip.stdout[-2000:]}{pip.stderr[-2000:]}")
            return 1
        code = ("import occcalc, os; r = occcalc.occupancy(cc='7.0', threads=128, regs=37); "
                "print(r.blocks_per_sm, occcalc.__version__, os.path.dirname(occcalc.__file__))")
        run = subprocess.run([os.path.join(venv, "bin", "python"), "-c", code], capture_output=True, text=True,
                             cwd=scratch)
        words = run.stdout.split()
        if run.returncode != 0 or words[:1] != ["12"] or not words[2].startswith(venv):
            print(f"FAIL the installed module: {run.stdout}{run.stderr[-1000:]}")
            return 1
        print(f"pip install . into a venv: occcalc {words[1]} imports from {words[2]} and answers 12 blocks")
    # An interpreter without the wheel package (a pyenv python first on PATH): setup.py names the problem where
    # pip would only say "invalid command 'bdist_wheel'".
    hidden = ("import importlib.util as u, sys; real = u.find_spec; "
              "u.find_spec = lambda n, *a: None if n == 'wheel' else real(n, *a); "
              "sys.argv = ['setup.py', 'dist_info']; "
              "exec(compile(open('setup.py').read(), 'setup.py', 'exec'), {'__file__': 'setup.py', '__name__': '__main__'})")
    told = subprocess.run(["/usr/bin/python3", "-c", hidden], capture_output=True, text=True, cwd=SOURCE)
    if told.returncode == 0 or "has no 'wheel' package" not in told.stderr or "/usr/bin/python3 -m venv" not in told.stderr:
        print(f"FAIL without wheel: exit {told.returncode}: {told.stderr[-500:]}")
        return 1
    print("without the wheel package: setup.py names the interpreter and what to do")
    return 0


if __name__ == "__main__":
    sys.exit(main())
