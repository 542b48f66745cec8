#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes docs/benchmarks-packaging.md, the packaging section of docs/benchmarks.md, from
test-deb's results (make bench-packaging). Tests/bench/report.py appends this file to the
page it generates, so the section survives `make bench`; this script also puts it into the
current page between its markers.

    bench-section.py RESULTS_JSON --out docs/benchmarks-packaging.md [--page docs/benchmarks.md]
"""
import argparse
import json
import os
import platform
import time

BEGIN, END = "<!-- packaging section: make bench-packaging -->", "<!-- end of packaging section -->"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--out", required=True)
    parser.add_argument("--page", default="docs/benchmarks.md")
    args = parser.parse_args()
    r = json.load(open(args.results))
    first = r.get("dpkg_to_first_frame_seconds")
    lines = [
        BEGIN,
        "## Installing the package",
        "",
        f"Measured by `make bench-packaging` (Tests/packaging/test-deb.sh) on {time.strftime('%Y-%m-%d')}, "
        f"{platform.machine()}, {os.cpu_count()} cores, Debian 12, OBS 29 headless under Xvfb.",
        "",
        "| measure | value |",
        "| --- | --- |",
        f"| package (`{r['package']}`, xz) | {r['package_bytes'] / 1048576:.1f} MiB |",
        f"| installed size (dpkg's Installed-Size) | {r['installed_kib'] / 1024:.1f} MiB |",
        f"| `dpkg -i` (upgrade over the older test package) | {r['dpkg_install_seconds']:.1f} s |",
        f"| `dpkg -i` start to the first drawn bar in OBS (OBS start included) | "
        + (f"{first:.1f} s" if first is not None else "n/a") + " |",
        "",
        "Target: under a minute from the package to the bar, with no Swift toolchain on the machine.",
        END,
        "",
    ]
    text = "\n".join(lines)
    with open(args.out, "w") as f:
        f.write(text)
    if os.path.exists(args.page):
        page = open(args.page).read()
        if BEGIN in page and END in page:
            page = page[:page.index(BEGIN)] + text.rstrip("\n") + page[page.index(END) + len(END):]
        else:
            page = page.rstrip("\n") + "\n\n" + text
        with open(args.page, "w") as f:
            f.write(page)
    print(f"wrote {args.out} and its section of {args.page}")


if __name__ == "__main__":
    main()
