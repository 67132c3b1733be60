#!/usr/bin/env python3
"""Every text view fits an 80-column terminal, the answers and the
architectures 40 and 60 columns too.

Runs each view under a pseudo-terminal 80 columns wide (as a person sees it:
coloured, UTF-8) and piped with COLUMNS unset (80 by default), and fails on
any line wider than 80 columns once the colour codes are taken out
(diagnostics on stderr are one line each by contract, and exempt). Under the
terminal the views must be coloured; piped, never.

usage: terminal_width.py OCCCALC REPO_ROOT
"""
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios

OCCCALC, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
COLUMNS = 80
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
FX = "tests/fixtures/inspect"
AMD = "tests/fixtures/amd"

VIEWS = [
    ["--cc", "7.0", "--threads", "128", "--regs", "37"],
    ["--cc", "8.6", "--threads", "128", "--regs", "32", "--dyn-smem", "100K"],
    ["--gpu", "H100 SXM5 80GB", "--threads", "256", "--regs", "64", "--smem", "2K", "--dyn-smem", "48K",
     "--barriers", "3", "--grid", "1000"],
    ["--cc", "1.0", "--threads", "256", "--regs", "10"],
    ["--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--sgprs", "32", "--lds", "16K"],
    ["--gpu", "Radeon HD 7770", "--threads", "256", "--vgprs", "11", "--sgprs", "20", "--lds", "4K", "--model", "rcp"],
    ["--gpu", "Radeon RX 7900 XTX", "--threads", "256", "--vgprs", "96", "--wgp-mode", "--grid", "500"],
    ["suggest", "--gpu", "A100-SXM4-80GB", "--regs", "37", "--threads", "128", "--blocks", "2"],
    ["suggest", "--gpu", "Instinct MI210", "--vgprs", "128", "--sgprs", "32", "--lds", "24K"],
    ["sweep", "--vary", "regs", "--cc", "7.0", "--threads", "128", "--regs", "37"],
    ["sweep", "--vary", "threads", "--cc", "8.0", "--threads", "2000", "--regs", "40", "--to", "512"],
    ["sweep", "--vary", "smem", "--cc", "9.0", "--threads", "256", "--regs", "32"],
    ["sweep", "--vary", "lds", "--gfx", "gfx90a", "--threads", "256", "--vgprs", "64"],
    ["list"],
    ["list", "archs"],
    ["inspect", f"{FX}/kernels.sm_90.cubin", f"{FX}/multiarch.fatbin", f"{FX}/app", f"{FX}/libkernels.a"],
    ["inspect", f"{FX}/app_rdc.log", f"{FX}/lto.fatbin", f"{FX}/ptx_only.fatbin"],
    ["inspect", f"{AMD}/kernels.gfx90a.o", f"{AMD}/app_compressed.o", f"{AMD}/kernels.hipfb"],
    ["inspect", "tests/fixtures/triton/cache"],
    ["check", "--policy", "tests/golden/strict-policy.json", f"{FX}/kernels.sm_90.log", f"{FX}/kernels.sm_90.cubin"],
    ["check", "--policy", "examples/occupancy-policy.json", f"{FX}/app"],
    ["diff", f"{FX}/diff_old.sm_80.cubin", f"{FX}/diff_new.sm_80.cubin"],
]
# Help and usage: fitted, never coloured.
HELP = [[], ["--help"]] + [["help", c] for c in ("list", "batch", "inspect", "check", "diff", "suggest", "sweep")]


def under_terminal(args):
    """What `args` prints to an 80-column pseudo-terminal, stdout and stderr together."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
        os.execve(OCCCALC, [OCCCALC] + args, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
    chunks = []
    while True:
        ready, _, _ = select.select([fd], [], [], 30)
        if not ready:
            os.kill(pid, 9)
            raise RuntimeError(f"occcalc {' '.join(args)}: no output for 30 s")
        try:
            data = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def piped(args, columns=None):
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    if columns:
        env["COLUMNS"] = str(columns)
    p = subprocess.run([OCCCALC] + args, capture_output=True, text=True, cwd=ROOT, env=env)
    return p.stdout + p.stderr


KERNEL_ROW = re.compile(r"^  (sm_|gfx)\w+ ")


def too_wide(text, columns=COLUMNS, names_whole=False):
    """Lines past the width. Diagnostics (`occcalc: error: ...`, notes) are
    exempt: each is one line by contract, for logs and grep; so are, piped,
    the rows of inspect's table, whose kernel names stay whole."""
    return [line for line in ANSI.sub("", text).split("\n")
            if len(line) > columns and not line.startswith("occcalc: ")
            and not (names_whole and KERNEL_ROW.match(line))]


def main():
    failures = []
    for args in VIEWS + HELP:
        shown = under_terminal(args)
        # The PTY was sized after the fork: a view that starts before the
        # resize reads a 0x0 terminal and falls back to COLUMNS or 80.
        names_whole = args[:1] == ["inspect"]
        # The answers and the architectures fit 40 and 60 columns too.
        narrow = args[:1] not in (["inspect"], ["check"], ["diff"], ["list"]) and args not in HELP
        views = [("terminal", shown, COLUMNS), ("piped", piped(args), COLUMNS)]
        if narrow or args == ["list", "archs"]:
            views += [(f"piped at {n} columns", piped(args, n), n) for n in (60, 40)]
        for how, text, columns in views:
            for line in too_wide(text, columns, names_whole and how != "terminal"):
                failures.append(f"{how}: occcalc {' '.join(args)}: {len(ANSI.sub('', line))} columns: {line}")
        if "\x1b[" not in shown and args not in HELP:
            failures.append(f"terminal: occcalc {' '.join(args)}: not coloured")
        if "\x1b[" in piped(args):
            failures.append(f"piped: occcalc {' '.join(args)}: coloured")
    # Piped, a kernel name is never cut (a report stays greppable); on a
    # terminal, a name cut keeps what tells kernels apart: the template
    # arguments and parameters.
    report = ["inspect", f"{FX}/kernels.sm_90.cubin"]
    if "void demo::scale<double, 8>(double*, double)" not in piped(report, 40):
        failures.append("piped: occcalc inspect cuts kernel names")
    # On a terminal, what every row says is said once above the table, and
    # its width goes to the names.
    shown = ANSI.sub("", under_terminal(report))
    if "  every kernel: arch sm_90, spill ?, occupancy 100.0%\n" not in shown or "\n  sm_90 " in shown:
        failures.append("terminal: occcalc inspect repeats on every row what every row says:\n" + shown)
    narrow = ANSI.sub("", under_terminal(report + ["--columns", "arch,regs,occupancy,limiter,kernel"]))
    if "\u2026scale<double, 8>(double*, double)" not in narrow and "scale<double, 8>(double*, double)" not in narrow:
        failures.append("terminal: a cut kernel name lost its template arguments and parameters:\n" + narrow)
    # Piped at 60 columns, a log whose kernel spills keeps the spill column
    # (the one figure a reader must not miss), and says which columns it left out.
    spills = piped(["inspect", f"{FX}/kernels.sm_80.log"], 60)
    header = next((line for line in spills.splitlines() if line.startswith("  arch ")), "")
    if " spill " not in header or "demo::spilling" not in spills \
            or "not shown for the width: " not in spills:
        failures.append("piped at 60 columns: occcalc inspect of a spilling kernel drops its spill column "
                        "or does not say what it left out:\n" + spills)
    for f in failures:
        print(f)
    print(f"{len(VIEWS)} views and {len(HELP)} help texts, under an {COLUMNS}-column terminal and piped; {len(failures)} problems")
    return 1 if failures else 0


sys.exit(main())
