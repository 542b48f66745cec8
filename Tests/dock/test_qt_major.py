# SPDX-License-Identifier: GPL-2.0-or-later
"""The loader's look at which Qt the process has (CModules/dock/loader/qt-major.c): in a process with
no Qt, with Qt 5's widgets, with Qt 6's (Debian's libraries, opened before the look).

    PYTHONPATH=Tests python3 Tests/dock/test_qt_major.py build/dock/test/qt_major_test"""
import subprocess
import sys

from support.checks import check, finish

CASES = [("0", [], "a process without Qt: none (the loader opens no dock)"),
         ("5", ["libQt5Widgets.so.5"], "Qt 5's widgets loaded (OBS 29): 5"),
         ("6", ["libQt6Widgets.so.6"], "Qt 6's widgets loaded (OBS 30+): 6")]


def main():
    binary = sys.argv[1]
    for expected, libraries, what in CASES:
        run = subprocess.run([binary, expected, *libraries], capture_output=True, text=True, timeout=30)
        check(run.returncode == 0, what, f"{run.stdout.strip()} {run.stderr.strip()}".strip())
    return finish()


if __name__ == "__main__":
    sys.exit(main())
