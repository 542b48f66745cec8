#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Puts an SPDX-License-Identifier line at the top of every CommentBar source file, or checks it is there.

    packaging/spdx-headers.py --check    lists the files without the right line; exits 1 if any
    packaging/spdx-headers.py --apply    adds (or corrects) the line; running it twice changes nothing
    --top DIR                            another tree (the test's scratch repository); default: this one

Sources: the .swift, .c, .h, .py, .sh, .mk files and Makefiles that git tracks or would track
(untracked but not ignored) under Sources, CModules, Tests, plugin, packaging and linker, and the
top-level Makefile and Package.swift. CommentBar's own code is GPL-2.0-or-later (OBS's licence: the
shim links libobs); the Swift code protoc-gen-swift generated from n-air-app's MIT schema
(Sources/Platforms/*/Generated/) is MIT, as packaging/copyright says.

The line goes first, or second after a `#!` line or Package.swift's `// swift-tools-version`
line, which must stay first.
"""
import argparse
import fnmatch
import os
import subprocess
import sys

DEFAULT_TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ["Sources", "CModules", "Tests", "plugin", "packaging", "linker"]
TOP_FILES = ["Makefile", "Package.swift"]
SLASH_COMMENT = (".swift", ".c", ".h")
HASH_COMMENT = (".py", ".sh", ".mk")
PROJECT_LICENCE = "GPL-2.0-or-later"
# (glob on the path from the top, licence): the first match wins.
OTHER_LICENCES = [("Sources/Platforms/*/Generated/*.pb.swift", "MIT")]
TAG = "SPDX-License-Identifier:"


def comment_prefix(path):
    name = os.path.basename(path)
    if name.endswith(SLASH_COMMENT):
        return "//"
    if name.endswith(HASH_COMMENT) or name == "Makefile":
        return "#"
    return None


def licence_of(path):
    for pattern, licence in OTHER_LICENCES:
        if fnmatch.fnmatch(path, pattern):
            return licence
    return PROJECT_LICENCE


def source_files(top):
    listed = subprocess.run(["git", "-C", top, "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--"]
                            + FOLDERS + TOP_FILES, check=True, capture_output=True).stdout.decode()
    paths = sorted({p for p in listed.split("\0") if p and comment_prefix(p) and os.path.isfile(os.path.join(top, p))})
    return paths


def header_index(lines):
    """Where the SPDX line belongs: after a line that must stay first."""
    if lines and (lines[0].startswith("#!") or lines[0].startswith("// swift-tools-version")):
        return 1
    return 0


def fixed(path, text):
    """The file's text with the right SPDX line in place (the same text when it already has it)."""
    line = f"{comment_prefix(path)} {TAG} {licence_of(path)}\n"
    lines = text.splitlines(keepends=True)
    at = header_index(lines)
    # An SPDX line a few lines down (or with another licence) is replaced, not doubled.
    existing = [i for i, old in enumerate(lines[:at + 3]) if TAG in old]
    for i in reversed(existing):
        del lines[i]
    lines.insert(at, line)
    return "".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--apply", action="store_true")
    parser.add_argument("--top", default=DEFAULT_TOP)
    args = parser.parse_args()
    wrong = []
    paths = source_files(args.top)
    for path in paths:
        full = os.path.join(args.top, path)
        with open(full, encoding="utf-8", newline="") as f:
            text = f.read()
        want = fixed(path, text)
        if want == text:
            continue
        wrong.append(path)
        if args.apply:
            mode_bits = os.stat(full).st_mode
            with open(full, "w", encoding="utf-8", newline="") as f:
                f.write(want)
            os.chmod(full, mode_bits)
    verb = "fixed" if args.apply else "without the right SPDX line"
    for path in wrong:
        print(f"{verb}: {path}")
    print(f"{len(paths)} source files, {len(wrong)} {verb}")
    return 1 if wrong and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
