# SPDX-License-Identifier: GPL-2.0-or-later
"""`make check`'s runner: every step its group's .mk file declares (CHECK_STEPS), as many side by side
as the plan in support/check_plan.py allows (what a step needs, holds and uses; the machine's cores).
A step is a make target. Each step's output goes to LOGDIR/STEP.log; one line says when a step
starts and how it ended; at the end a table gives every step's start, time, CPU and verdict (with
the counts its log ends with), the failed ones' log tails, and the total. Exits non-zero if a step
failed or was not run. --plan prints the plan and why instead (make check-plan).

    python3 -m support.check --logdir DIR [--before NAME=SECONDS] [--plan] \\
        --step 'NAME;needs=A B;holds=R;uses=R;cores=all' ..."""
import argparse
import os
import re
import subprocess
import sys
import threading
import time

from support.check_plan import Plan, Step

TAIL_LINES = 25
# Lines that name what failed, wherever they are in a long log (XCTest's "File.swift:N: error: -[…] :
# XCTAssert…" and "Test Case … failed (", Swift Testing's "✘ Test …", pytest's "FAILED …", the shim's "not ok"),
# shown before the tail. Only at a line's start or after a Swift file: a test's own name may say "error:".
FAILURE_LINE = re.compile(r"(\.swift:\d+: error: |^✘ |^FAILED |^not ok |^FAIL: |^ERROR: |^Test Case .* failed \()")
FAILURE_LINES = 40


def minutes(seconds):
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


class Run:
    """One step's run: its log, time, CPU and exit status."""
    def __init__(self, step, logdir):
        self.step, self.log = step, os.path.join(logdir, f"{step.name}.log")
        self.status, self.seconds, self.cpu, self.began = None, None, None, None

    def run(self, make, jobs, say, began):
        started, self.began = time.monotonic(), began
        say(f"start  {self.step.name}")
        with open(self.log, "wb") as out:
            process = subprocess.Popen([make, "--no-print-directory", f"-j{jobs}", self.step.name], stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            # wait4: this step's own CPU time (make and every process it waited for), whatever the
            # other steps run meanwhile.
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = self.status = os.waitstatus_to_exitcode(status)
        self.seconds = time.monotonic() - started
        self.cpu = usage.ru_utime + usage.ru_stime
        say(f"{'ok   ' if self.status == 0 else 'FAIL '} {self.step.name} ({minutes(self.seconds)}; log {self.log})")

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
    parser.add_argument("--step", action="append", default=[], metavar="NAME;needs=…;holds=…;uses=…;cores=all",
                        help="a step as its .mk file declares it (support/check_plan.py)")
    parser.add_argument("--plan", action="store_true", help="print the plan and why, run nothing")
    args = parser.parse_args()
    try:
        plan = Plan([Step.parse(spec, order) for order, spec in enumerate(args.step)])
    except ValueError as error:
        parser.error(str(error))
    if args.plan:
        print_plan(plan)
        return 0
    os.makedirs(args.logdir, exist_ok=True)
    started = time.monotonic()
    printing = threading.Lock()

    def say(text):
        with printing:
            print(f"[check {minutes(time.monotonic() - started)}] {text}", flush=True)

    runs = {name: Run(step, args.logdir) for name, step in plan.steps.items()}
    changed = threading.Condition()
    passed, failed, running = set(), set(), {}  # running: the minute each started

    def run(step_run):
        step_run.run(args.make, plan.cores if step_run.step.builds else 1, say, time.monotonic() - started)
        with changed:
            running.pop(step_run.step.name, None)
            (passed if step_run.status == 0 else failed).add(step_run.step.name)
            changed.notify()
    with changed:
        while True:
            start, skipped = plan.next_steps(passed, failed, running, now=(time.monotonic() - started) / 60)
            for step in skipped:
                say(f"skip   {step.name} (needs {', '.join(n for n in step.needs if n not in passed)}, "
                    "which did not pass)")
                failed.add(step.name)
            for step in start:
                running[step.name] = (time.monotonic() - started) / 60
                threading.Thread(target=run, args=(runs[step.name],)).start()
            if skipped:
                continue
            if not running:
                break
            changed.wait()

    before = [(name, float(seconds)) for name, seconds in (item.split("=", 1) for item in args.before)]
    total = time.monotonic() - started + sum(seconds for _, seconds in before)
    bad = [run for run in runs.values() if run.status != 0]
    for run in bad:
        if run.status is None:
            continue
        with open(run.log, errors="replace") as f:
            lines = f.readlines()
        failures = [line for line in lines if FAILURE_LINE.search(line)]
        if failures:
            print(f"\n---- {run.step.name} failed; the lines of {run.log} that say what failed:")
            print("".join(failures[:FAILURE_LINES]), end="")
        print(f"\n---- {run.step.name} failed; the end of {run.log}:")
        print("".join(lines[-TAIL_LINES:]), end="")
    print("\n| step | needs | started | time | CPU | result |\n|---|---|---|---|---|---|")
    for name, seconds in before:
        print(f"| {name} | - | - | {minutes(seconds)} | - | ok |")
    for run in sorted(runs.values(), key=lambda run: (run.began is None, run.began or 0, run.step.order)):
        counts = run.counts()
        cpu = minutes(run.cpu) if run.cpu is not None else "-"
        began = minutes(run.began) if run.began is not None else "-"
        print(f"| {run.step.name} | {' '.join(run.step.needs) or '-'} | {began} | {minutes(run.seconds or 0)} | {cpu} | "
              f"{run.result()}{' (' + counts + ')' if counts else ''} |")
    cpu = sum(run.cpu or 0 for run in runs.values())
    print(f"\nmake check: {minutes(total)} in all on {plan.cores} cores (the steps' CPU {minutes(cpu)}); "
          + (f"FAILED or not run: {', '.join(run.step.name for run in bad)}" if bad else "every step passed"),
          flush=True)
    return 1 if bad else 0


def print_plan(plan):
    print(f"make check's plan on {plan.cores} cores: at most {plan.capacity} steps side by side, a build "
          f"with make -j{plan.cores}.\n")
    print("| step | minutes | needs | holds | uses | chain behind it (why it goes first) |\n|---|---|---|---|---|---|")
    for step in plan.ranked():
        chain = plan.longest_chain(step)
        why = " → ".join(chain) + (f" (and {step.waiting - len(chain) + 1} more wait)"
                                    if step.waiting > len(chain) - 1 else "")
        kind = " (build)" if step.builds else " (before the holder)" if step.yields else ""
        print(f"| {step.name}{kind} | {step.minutes:g} | {' '.join(step.needs) or '-'} | {' '.join(step.holds) or '-'} | "
              f"{' '.join(step.uses) or '-'} | {why} |")
    print("\nThe steps run with their declared minutes, none slowing another (a real run differs: steps "
          "side by side share the cores):\n\n| step | starts | ends |\n|---|---|---|")
    ran = plan.simulate()
    for step, began, end in ran:
        print(f"| {step.name} | {minutes(began * 60)} | {minutes(end * 60)} |")
    print(f"\nAll of them: {minutes(max(end for _, _, end in ran) * 60)}, and `make deps` before them.")

if __name__ == "__main__":
    sys.exit(main())
