#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every module of the package that a target imports is one of the target's declared
dependencies (Package.swift). SwiftPM finds an undeclared one through another dependency's
build folder and compiles, but does not rebuild the importer when that module changes: a stored
property added to `ChatLine` left test modules compiled against its old layout, and the tests
crashed or read garbage until a clean build. Prints each missing edge; exits 1 if any.

    python3 Tests/support/declared_imports.py [SWIFT]
"""
import glob
import json
import os
import re
import subprocess
import sys

IMPORT = re.compile(r"\s*(?:@testable\s+|@preconcurrency\s+|@_spi\(\w+\)\s+)*import\s+(?:struct\s+|class\s+|enum\s+)?(\w+)")


def main():
    swift = sys.argv[1] if len(sys.argv) > 1 else "swift"
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    dump = subprocess.run([swift, "package", "--package-path", top, "dump-package"], capture_output=True, text=True,
                          check=True).stdout
    targets = {target["name"]: target for target in json.loads(dump)["targets"]}
    missing = []
    for name, target in sorted(targets.items()):
        default = ("Tests/" if target["type"] == "test" else "Sources/") + name
        folder = os.path.join(top, target.get("path") or default)
        declared = {dependency[kind][0] for dependency in target["dependencies"]
                    for kind in ("byName", "target") if kind in dependency}
        imported = set()
        for path in glob.glob(folder + "/**/*.swift", recursive=True):
            with open(path, encoding="utf-8", errors="replace") as source:
                for line in source:
                    match = IMPORT.match(line)
                    if match and match.group(1) in targets:
                        imported.add(match.group(1))
        for module in sorted(imported - declared - {name}):
            missing.append(f"{name} imports {module} without declaring it in Package.swift")
    for line in missing:
        print(line)
    print(f"declared imports: {len(targets)} targets read, {len(missing)} undeclared")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
