# SPDX-License-Identifier: GPL-2.0-or-later
"""The script tests' verdicts (the shell tests' Tests/checks.sh in Python): one "ok"/"FAIL" line per
check as it happens, then "N passed, M failed"; the exit status is non-zero after a failure or
when nothing was checked."""

counts = {"passed": 0, "failed": 0}


def check(ok, what, detail=""):
    counts["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
    return ok


def finish():
    """Prints the summary line; returns the exit status."""
    print(f"{counts['passed']} passed, {counts['failed']} failed", flush=True)
    return 1 if counts["failed"] or not counts["passed"] else 0
