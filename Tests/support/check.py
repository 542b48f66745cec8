# SPDX-License-Identifier: GPL-2.0-or-later
"""`make check`'s runner: lanes of steps that run side by side, each lane's steps one after another.
The first lane starts with the build (--build: the renderer and everything the groups run); a step
of any lane waits for it unless --independent names it (the Swift unit tests' own debug build
fills the cores the release build leaves idle). Each step is a make target run with -j1; its
output goes to LOGDIR/TARGET.log, one line says when it starts and how it ended, and at the end a
table gives every step's time and verdict, the failed ones' log tails and the total. Exits
non-zero if any step failed.

    python3 -m support.check --logdir DIR [--before NAME=SECONDS] --build TARGET,... \
        [--independent TARGET,...] --lane TARGET,TARGET,... --lane ...

A lane holds the groups that must not overlap: the ones that start real OBS or install the .deb
(dpkg -i puts the module in OBS's system folder, where every OBS would load it) share one lane."""
import argparse
import os
import subprocess
import sys
import threading
import time

TAIL_LINES = 25


class Step:
    def __init__(self, target, logdir):
        self.target, self.log = target, os.path.join(logdir, f"{target}.log")
        self.status, self.seconds, self.started = None, None, None

    def run(self, make, say):
        self.started = time.monotonic()
        say(f"start  {self.target}")
        with open(self.log, "wb") as out:
            self.status = subprocess.run([make, "--no-print-directory", "-j1", self.target], stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode
        self.seconds = time.monotonic() - self.started
        say(f"{'ok   ' if self.status == 0 else 'FAIL '} {self.target} ({minutes(self.seconds)}; log {self.log})")
        return self.status == 0


def minutes(seconds):
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def verdict_line(step):
    """The step's own summary line ("N passed, M failed", pytest's "== ... ==") if its log has one."""
    try:
        with open(step.log, errors="replace") as f:
            lines = [line.rstrip() for line in f]
    except OSError:
        return ""
    found = [line for line in lines if " passed, " in line and " failed" in line or
             line.startswith("=") and (" passed" in line or " failed" in line)]
    counts = [line.strip("= ") for line in found]
    return "; ".join(counts[-3:])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logdir", required=True)
    parser.add_argument("--make", default=os.environ.get("MAKE", "make"))
    parser.add_argument("--before", action="append", default=[], metavar="NAME=SECONDS",
                        help="a step make ran before this runner (its time, for the table)")
    parser.add_argument("--build", default="", help="comma-separated targets, run first in the first lane")
    parser.add_argument("--independent", default="", help="comma-separated targets that need not wait for the build")
    parser.add_argument("--lane", action="append", default=[], help="comma-separated targets, run in order")
    args = parser.parse_args()
    os.makedirs(args.logdir, exist_ok=True)
    started = time.monotonic()
    lock = threading.Lock()

    def say(text):
        with lock:
            print(f"[check {minutes(time.monotonic() - started)}] {text}", flush=True)

    before = [(name, float(seconds)) for name, seconds in (item.split("=", 1) for item in args.before)]
    build = [Step(target, args.logdir) for target in args.build.split(",") if target]
    independent = set(args.independent.split(","))
    lanes = [[Step(target, args.logdir) for target in lane.split(",") if target] for lane in args.lane]
    build_done, outcome = threading.Event(), {"built": False}

    def run_lane(steps, builds):
        if builds:
            outcome["built"] = all(step.run(args.make, say) for step in build)  # stops at the first failure
            build_done.set()
        for step in steps:
            if step.target not in independent:
                build_done.wait()
                if not outcome["built"]:
                    continue  # not run: what it tests was not built
            step.run(args.make, say)
    threads = [threading.Thread(target=run_lane, args=(lane, number == 0)) for number, lane in enumerate(lanes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    built = outcome["built"]
    total = time.monotonic() - started + sum(seconds for _, seconds in before)

    steps = build + [step for lane in lanes for step in lane]
    failed = [step for step in steps if step.status not in (0, None)]
    for step in failed:
        print(f"\n---- {step.target} failed; the end of {step.log}:")
        try:
            with open(step.log, errors="replace") as f:
                print("".join(f.readlines()[-TAIL_LINES:]), end="")
        except OSError:
            pass
    print("\n| step | lane | time | result |\n|---|---|---|---|")
    for name, seconds in before:
        print(f"| {name} | - | {minutes(seconds)} | ok |")
    for step in build:
        result = "not run" if step.status is None else "ok" if step.status == 0 else "FAILED"
        print(f"| {step.target} | 1 (build) | {minutes(step.seconds or 0)} | {result} |")
    for number, lane in enumerate(lanes, 1):
        for step in lane:
            result = "not run" if step.status is None else "ok" if step.status == 0 else "FAILED"
            counts = verdict_line(step) if step.status is not None else ""
            print(f"| {step.target} | {number} | {minutes(step.seconds or 0)} | {result}"
                  f"{' (' + counts + ')' if counts else ''} |")
    lane_times = [sum(step.seconds or 0 for step in lane) for lane in lanes]
    lane_times[0] += sum(step.seconds or 0 for step in build)
    print(f"\nmake check: {minutes(total)} in all (lanes {', '.join(minutes(t) for t in lane_times)}, "
          f"the first with the build's {minutes(sum(s.seconds or 0 for s in build))}); "
          + ("every step passed" if not failed and built else
             f"FAILED: {', '.join(step.target for step in failed)}"), flush=True)
    return 1 if failed or not built else 0


if __name__ == "__main__":
    sys.exit(main())
