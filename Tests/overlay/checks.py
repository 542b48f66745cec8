# SPDX-License-Identifier: GPL-2.0-or-later
"""The overlay tests' verdicts: "ok"/"FAIL" lines as they come, then "N passed, M failed"."""

counts = {"passed": 0, "failed": 0}


def check(ok, what, detail=""):
    counts["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
    return ok


def finish():
    """The summary line; the exit status (non-zero after a failure)."""
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    return 1 if counts["failed"] else 0
