# SPDX-License-Identifier: GPL-2.0-or-later
"""`make check`'s runner: lanes of steps that run side by side, each lane's steps one after another.
A step is a make target; `TARGET@AFTER` waits until step AFTER (of any lane) has passed, and is not
run if it failed. Each step's output goes to LOGDIR/TARGET.log; one line says when a step starts
and how it ended; at the end a table gives every step's lane, time and verdict (with the counts
its log ends with), the failed ones' log tails, and the total. Exits non-zero if a step failed
or was not run.

    python3 -m support.check --logdir DIR [--before NAME=SECONDS] [--jobs TARGET=N] \\
        --lane TARGET,TARGET@AFTER,... --lane ...

Groups that must not overlap are ordered with `@` or put in one lane: every group that starts real
OBS or runs the shim waits for test-deb (dpkg -i puts the module in OBS's system folder, where every
OBS would load it, and the renderer where the shim looks)."""
import argparse
import os
import re
import subprocess
import sys
import threading
import time

TAIL_LINES = 25
# Lines that name what failed, wherever they are in a long log (XCTest's "File.swift:N: error: -[…] :
# XCTAssert…" and "Test Case … failed (", Swift Testing's "✘ Test …", pytest's "FAILED …", the shim's "not ok"),
# shown before the tail. Only at a line's start or after a Swift file: a test's own name may say "error:".
FAILURE_LINE = re.compile(r"(\.swift:\d+: error: |^✘ |^FAILED |^not ok |^FAIL: |^ERROR: |^Test Case .* failed \()")
FAILURE_LINES = 40


def minutes(seconds):
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


class Step:
    def __init__(self, spec, lane, logdir):
        self.target, _, self.after = spec.partition("@")
        self.lane, self.log = lane, os.path.join(logdir, f"{self.target}.log")
        self.status, self.seconds, self.cpu = None, None, None
        self.done = threading.Event()

    def run(self, make, jobs, say):
        started = time.monotonic()
        say(f"start  {self.target}")
        with open(self.log, "wb") as out:
            process = subprocess.Popen([make, "--no-print-directory", f"-j{jobs}", self.target], stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            # wait4: this step's own CPU time (make and every process it waited for), whatever the
            # other lanes run meanwhile.
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = self.status = os.waitstatus_to_exitcode(status)
        self.seconds = time.monotonic() - started
        self.cpu = usage.ru_utime + usage.ru_stime
        say(f"{'ok   ' if self.status == 0 else 'FAIL '} {self.target} ({minutes(self.seconds)}; log {self.log})")

    def result(self):
        return "not run" if self.status is None else "ok" if self.status == 0 else "FAILED"

    def counts(self):
        """The step's own summary lines ("N passed, M failed", pytest's "== N passed in … ==")."""
        if self.status is None:
            return ""
        try:
            with open(self.log, errors="replace") as f:
                lines = [line.strip() for line in f]
        except OSError:
            return ""
        found = [line.strip("= ") for line in lines
                 if re.search(r"\d+ passed, \d+ failed", line) or re.match(r"=+ .*\d+ (passed|failed)", line)
                 or re.match(r"Executed \d+ tests?, with", line) or re.match(r"Ran \d+ tests? in", line)]
        unique = list(dict.fromkeys(found))
        return "; ".join(unique[-4:])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logdir", required=True)
    parser.add_argument("--make", default=os.environ.get("MAKE", "make"))
    parser.add_argument("--before", action="append", default=[], metavar="NAME=SECONDS",
                        help="a step make ran before this runner (its time, for the table)")
    parser.add_argument("--jobs", action="append", default=[], metavar="TARGET=N",
                        help="make -jN for that step (default 1: a group's output stays in order)")
    parser.add_argument("--lane", action="append", default=[], help="comma-separated steps, run in order")
    args = parser.parse_args()
    os.makedirs(args.logdir, exist_ok=True)
    started = time.monotonic()
    lock = threading.Lock()

    def say(text):
        with lock:
            print(f"[check {minutes(time.monotonic() - started)}] {text}", flush=True)

    jobs = {target: int(n) for target, n in (item.split("=", 1) for item in args.jobs)}
    lanes = [[Step(spec, number, args.logdir) for spec in lane.split(",") if spec]
             for number, lane in enumerate(args.lane, 1)]
    steps = {step.target: step for lane in lanes for step in lane}
    unknown = [step.after for step in steps.values() if step.after and step.after not in steps]
    if unknown:
        parser.error(f"a step waits for one that is not there: {', '.join(unknown)}")

    def run_lane(lane):
        for step in lane:
            if step.after:
                steps[step.after].done.wait()
            if step.after and steps[step.after].status != 0:
                say(f"skip   {step.target} ({step.after} did not pass)")
            else:
                step.run(args.make, jobs.get(step.target, 1), say)
            step.done.set()
        for step in lane:  # a lane that stopped early still releases whoever waits for its steps
            step.done.set()
    threads = [threading.Thread(target=run_lane, args=(lane,)) for lane in lanes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    before = [(name, float(seconds)) for name, seconds in (item.split("=", 1) for item in args.before)]
    total = time.monotonic() - started + sum(seconds for _, seconds in before)
    bad = [step for step in steps.values() if step.status != 0]
    for step in bad:
        if step.status is None:
            continue
        with open(step.log, errors="replace") as f:
            lines = f.readlines()
        failures = [line for line in lines if FAILURE_LINE.search(line)]
        if failures:
            print(f"\n---- {step.target} failed; the lines of {step.log} that say what failed:")
            print("".join(failures[:FAILURE_LINES]), end="")
        print(f"\n---- {step.target} failed; the end of {step.log}:")
        print("".join(lines[-TAIL_LINES:]), end="")
    print("\n| step | lane | after | time | CPU | result |\n|---|---|---|---|---|---|")
    for name, seconds in before:
        print(f"| {name} | - | - | {minutes(seconds)} | - | ok |")
    for lane in lanes:
        for step in lane:
            counts = step.counts()
            cpu = minutes(step.cpu) if step.cpu is not None else "-"
            print(f"| {step.target} | {step.lane} | {step.after or '-'} | {minutes(step.seconds or 0)} | {cpu} | "
                  f"{step.result()}{' (' + counts + ')' if counts else ''} |")
    busy = ", ".join(f"lane {lane[0].lane} {minutes(sum(step.seconds or 0 for step in lane))}" for lane in lanes)
    cpu = sum(step.cpu or 0 for step in steps.values())
    print(f"\nmake check: {minutes(total)} in all ({busy} busy; the steps' CPU {minutes(cpu)}); "
          + (f"FAILED or not run: {', '.join(step.target for step in bad)}" if bad else "every step passed"),
          flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
