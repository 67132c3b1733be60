#!/usr/bin/env python3
"""`cpack -G DEB` makes a package a user can install.

Builds the package from BUILD_DIR into a scratch directory, lists it with
dpkg-deb and checks the binary, the man page, the three completions, the
copyright, the tables, the schemas and the CMake package are in it, its
name is occcalc_<version>_<arch>.deb, and its Depends names libc (and, for a
dynamically linked build, the libraries it links). Then runs the packaged
binary on the README's first example. Where the Python module is built, a
second package, python3-occcalc, holds it (and the first does not): it
depends on python3, and Debian's python3 imports it from the package's tree
and answers the same example. Exits 77 (skipped) without cpack or dpkg-deb.

usage: package_deb.py BUILD_DIR VERSION
"""
import os
import shutil
import subprocess
import sys
import tempfile

BUILD, VERSION = sys.argv[1], sys.argv[2]
EXPECTED = [
    "./usr/bin/occcalc",
    "./usr/share/man/man1/occcalc.1.gz",
    "./usr/share/bash-completion/completions/occcalc",
    "./usr/share/zsh/vendor-completions/_occcalc",
    "./usr/share/fish/vendor_completions.d/occcalc.fish",
    "./usr/share/doc/occcalc/copyright",
    "./usr/share/occcalc/nvidia-architectures.json",
    "./usr/share/occcalc/result.schema.json",
    "./usr/share/cmake/occcalc/occcalc-config.cmake",
    "./usr/include/occcalc/nvidia/occupancy.hpp",
]
# Where the default preset builds the Python module, it is a package of its own.
PYTHON_PACKAGE = "./usr/lib/python3/dist-packages/occcalc/__init__.py"


def main():
    if not shutil.which("cpack") or not shutil.which("dpkg-deb"):
        print("cpack or dpkg-deb is missing: skipped")
        return 77
    problems = []
    with tempfile.TemporaryDirectory() as out:
        p = subprocess.run(["cpack", "-G", "DEB", "-B", out], cwd=BUILD, capture_output=True, text=True)
        if p.returncode != 0:
            print(p.stdout + p.stderr)
            return 1
        debs = sorted(f for f in os.listdir(out) if f.endswith(".deb"))
        arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
        python = os.path.isdir(os.path.join(BUILD, "python", "occcalc"))
        expected = [f"occcalc_{VERSION}_{arch}.deb"] + ([f"python3-occcalc_{VERSION}_{arch}.deb"] if python else [])
        if debs != expected:
            problems.append(f"packages made: {debs}, expected {expected}")
        if f"occcalc_{VERSION}_{arch}.deb" not in debs:
            print("\n".join(problems))
            return 1
        deb = os.path.join(out, f"occcalc_{VERSION}_{arch}.deb")
        listing = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
        paths = {line.split()[-1] for line in listing.splitlines() if line.strip()}
        for path in EXPECTED:
            if path not in paths:
                problems.append(f"not in the package: {path}")
        depends = subprocess.run(["dpkg-deb", "-f", deb, "Depends"], capture_output=True, text=True).stdout.strip()
        if "libc6" not in depends:
            problems.append(f"Depends names no libc6: {depends!r}")
        description = subprocess.run(["dpkg-deb", "-f", deb, "Description"], capture_output=True,
                                     text=True).stdout
        if ";" in description or "names every limiting resource" not in description:
            problems.append(f"Description is not the one sentence written: {description!r}")
        root = os.path.join(out, "root")
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
        run = subprocess.run([os.path.join(root, "usr/bin/occcalc"), "--cc", "7.0", "--threads", "128", "--regs", "37"],
                             capture_output=True, text=True)
        if run.returncode != 0 or "Theoretical occupancy       75.0%  limited by registers" not in run.stdout:
            problems.append(f"the packaged occcalc: exit {run.returncode}: {run.stdout[-200:]}{run.stderr}")
        if any("python3/dist-packages" in p for p in paths):
            problems.append("the occcalc package holds the Python module; python3-occcalc should")
        python_deb = os.path.join(out, f"python3-occcalc_{VERSION}_{arch}.deb")
        if python and os.path.exists(python_deb):
            # python3-occcalc imports from its own tree with Debian's python3
            # and answers the README's first example.
            python_paths = {line.split()[-1] for line in subprocess.run(
                ["dpkg-deb", "-c", python_deb], capture_output=True, text=True, check=True).stdout.splitlines()}
            python_depends = subprocess.run(["dpkg-deb", "-f", python_deb, "Depends"], capture_output=True,
                                            text=True).stdout
            if "python3" not in python_depends:
                problems.append(f"python3-occcalc's Depends names no python3: {python_depends!r}")
            if PYTHON_PACKAGE not in python_paths:
                problems.append(f"not in python3-occcalc: {PYTHON_PACKAGE}")
            else:
                subprocess.run(["dpkg-deb", "-x", python_deb, root], check=True)
                site = os.path.join(root, "usr/lib/python3/dist-packages")
                code = "import occcalc; print(occcalc.occupancy(cc='7.0', threads=128, regs=37).blocks_per_sm)"
                imported = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True,
                                          env=dict(os.environ, PYTHONPATH=site))
                if imported.stdout.strip() != "12":
                    problems.append(f"the packaged Python module: {imported.stdout}{imported.stderr[-300:]}")
        for p in problems:
            print(p)
        print(f"{', '.join(debs)}; occcalc: {len(paths)} entries, Depends: {depends}; {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
