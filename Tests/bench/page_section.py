# SPDX-License-Identifier: GPL-2.0-or-later
"""One marked section of docs/benchmarks.md, written by the bench that measured it: the text
between BEGIN and END is replaced, or appended when the page has no such section yet. A bench
reads the figures of the run before (`previous_cells`) to show them beside its own. `make bench`
regenerates the page (report.py) before the section benches run, so it keeps the page as it was
in BENCH_PREVIOUS_PAGE and they read the run before from there."""
import os
import re


def previous_cells(path, begin, end):
    """The section's table as it stands, row label -> its first figure cell (without the bold),
    so a bench can put the previous figure beside the new one."""
    path = os.environ.get("BENCH_PREVIOUS_PAGE") or path
    page = open(path).read() if os.path.exists(path) else ""
    if begin not in page or end not in page:
        return {}
    section = page[page.index(begin):page.index(end)]
    cells = {}
    for line in section.splitlines():
        parts = [part.strip() for part in line.strip().strip("|").split("|")]
        if len(parts) >= 2 and not set(parts[1]) <= set("-: "):
            cells[parts[0].replace("*", "")] = re.sub(r"[*]", "", parts[1])
    return cells


def write_section(path, begin, end, text):
    page = open(path).read() if os.path.exists(path) else ""
    if begin in page and end in page:
        page = page[:page.index(begin)] + text + page[page.index(end) + len(end):]
    else:
        page = page.rstrip("\n") + "\n\n" + text + "\n"
    with open(path, "w") as f:
        f.write(page)
