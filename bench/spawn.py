#!/usr/bin/env python3
"""Runs commands as processes, in turn, and prints each one's median wall time,
its ratio to the first (the floor), and its page faults per run.

  bench/spawn.py RUNS NAME=COMMAND... (COMMAND split on spaces; NAME the label)

In turn, not one after another: a machine that slows down or speeds up during
the run moves every command alike, so the ratios hold. Page faults are the
child's own (wait4's rusage), which a query's start is mostly made of.
"""
import os
import statistics
import sys
import time


def run_once(argv):
    """(wall seconds, minor page faults) of one run of argv, output discarded."""
    quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
             (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=quiet)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"spawn.py: {' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_minflt


def main(argv):
    runs = int(argv[0])
    commands = [(label, command.split()) for label, command in (a.split("=", 1) for a in argv[1:])]
    walls = {label: [] for label, _ in commands}
    faults = {label: 0 for label, _ in commands}
    for _ in range(runs):
        for label, command in commands:
            wall, minflt = run_once(command)
            walls[label].append(wall)
            faults[label] = minflt
    floor = statistics.median(walls[commands[0][0]])
    for label, _ in commands:
        median = statistics.median(walls[label])
        print(f"{label}: median {median * 1e6:.0f} us, {median / floor:.2f}x {commands[0][0]}, "
              f"{faults[label]} page faults")


if __name__ == "__main__":
    main(sys.argv[1:])
