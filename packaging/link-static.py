#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Links a product of SwiftPM's release build again, with the Swift runtime linked statically.

    packaging/link-static.py --manifest .build-release/release.yaml --product commentbar --out FILE

The one release build (the Makefile's) compiles every module once, dynamic and with testing
enabled, so that the Swift unit tests and the renderer share its objects. XCTest exists only as a
shared library, so that build cannot itself link the Swift runtime statically; this runs the
product's own link command from SwiftPM's manifest (its objects, Package.swift's linker settings:
lld, packed relocations, the symbol order) with `-static-stdlib` added and any RPATH dropped.
Objects compiled for the shared runtime name only the libraries the shared ones need (their
autolink entries: -lFoundationEssentials); the static runtime's modules need more
(-l_FoundationCollections, -l_FoundationCShims). Those are what a static compile of the same
imports asks for: a one-line probe importing each runtime module the objects name is compiled
with -static-stdlib, and its autolink entries are added. The packages check the result
(packaging/check-no-swift-runtime.sh: no libswift*, no RUNPATH).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def link_command(manifest, product):
    """The product's link command (an argv) from SwiftPM's llbuild manifest."""
    with open(manifest) as f:
        text = f.read()
    # The product's name, then the target triple (arch-vendor-linux-…): a product whose name only
    # begins with this one's (commentbar-memory-crash-helper for commentbar) has other words there.
    key = re.search(rf'^  "C\.{re.escape(product)}-[A-Za-z0-9_]+-[A-Za-z0-9_]+-linux-[^"]*\.exe":$', text, re.M)
    if not key:
        raise SystemExit(f"link-static: no link command for {product} in {manifest} (built with --product {product}?)")
    block = text[key.end():]
    args = re.search(r"^    args: (\[.*\])$", block, re.M)
    following = re.search(r'^  "', block, re.M)
    if not args or (following and args.start() > following.start()):
        raise SystemExit(f"link-static: the link command of {product} in {manifest} has no args")
    return json.loads(args.group(1))


def autolinked(paths):
    """The -l entries Swift objects (or archives of them) ask for: their .swift1_autolink_entries."""
    found = set()
    for path in paths:
        text = subprocess.run(["readelf", "-p", ".swift1_autolink_entries", path], capture_output=True,
                              text=True).stdout
        found.update(m.group(1) for m in re.finditer(r"^\s*\[\s*[0-9a-f]+\]\s+(-l\S+)", text, re.M))
    return found


def static_runtime_libraries(argv):
    """The libraries a -static-stdlib compile of the objects' runtime imports would name, beyond theirs."""
    lists = [arg[1:] for arg in argv if arg.startswith("@") and arg.endswith(".LinkFileList")]
    objects = [line for path in lists for line in open(path).read().split()]
    swiftc = argv[0]
    static_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swiftc))), "lib", "swift_static", "linux")
    named = autolinked(objects)
    modules = sorted(lib[2:] for lib in named if os.path.exists(os.path.join(static_dir, lib[2:] + ".swiftmodule")))
    with tempfile.TemporaryDirectory() as work:
        probe = os.path.join(work, "probe.swift")
        with open(probe, "w") as f:
            f.write("".join(f"import {module}\n" for module in modules))
        subprocess.run([swiftc, "-static-stdlib", "-O", "-parse-as-library", "-c", probe, "-o", probe + ".o"], check=True)
        return sorted(autolinked([probe + ".o"]) - named)


def static(argv, out):
    """argv with `-o out`, -static-stdlib, and no -rpath (a static runtime needs none)."""
    result, skip = [], 0
    for index, arg in enumerate(argv):
        if skip:
            skip -= 1
            continue
        if arg == "-o":
            result += ["-o", out]
            skip = 1
        elif arg == "-Xlinker" and argv[index + 1:index + 2] == ["-rpath"]:
            skip = 3  # -Xlinker -rpath -Xlinker DIR
        elif arg in ("-static-stdlib", "-no-static-stdlib"):
            continue
        else:
            result.append(arg)
    return result + ["-static-stdlib", "-no-toolchain-stdlib-rpath"] + static_runtime_libraries(argv)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--product", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    argv = static(link_command(args.manifest, args.product), out + ".tmp")
    print(" ".join(argv[:1] + ["…"] + argv[-2:]), flush=True)
    if subprocess.run(argv).returncode != 0:
        return 1
    os.replace(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
