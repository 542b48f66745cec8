# SPDX-License-Identifier: GPL-2.0-or-later
"""One marked section of docs/benchmarks.md, written by the bench that measured it: the text
between BEGIN and END is replaced, or appended when the page has no such section yet."""
import os


def write_section(path, begin, end, text):
    page = open(path).read() if os.path.exists(path) else ""
    if begin in page and end in page:
        page = page[:page.index(begin)] + text + page[page.index(end) + len(end):]
    else:
        page = page.rstrip("\n") + "\n\n" + text + "\n"
    with open(path, "w") as f:
        f.write(page)
