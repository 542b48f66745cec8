#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Flatpak manifest's SwiftPM sources: one git source per resolved package, and the mirror setup.

    packaging/flatpak/swiftpm-sources.py write DEPENDENCIES_JSON > packaging/flatpak/swiftpm-sources.json
    packaging/flatpak/swiftpm-sources.py mirrors SOURCES_JSON SWIFT   (in the Flatpak build)

DEPENDENCIES_JSON is `swift package show-dependencies --format json`. flatpak-builder builds with
no network, so every package SwiftPM resolves is a `git` source of the manifest (flatpak-builder
fetches it beforehand), checked out under swiftpm/<identity>; `mirrors` then points SwiftPM's
mirror for each package URL at that checkout, so `swift build` resolves offline.
A Flathub submission also wants each source's `commit`: add it on a machine that reaches
GitHub (the machines here read github.com from local copies whose commit ids are not GitHub's).
"""
import json
import os
import subprocess
import sys


def resolved(tree):
    """identity -> (url, version) for every package below the root, each once."""
    found = {}
    stack = list(tree.get("dependencies", []))
    while stack:
        node = stack.pop()
        found[node["identity"]] = (node["url"], node["version"])
        stack.extend(node.get("dependencies", []))
    return found


def sources(tree):
    return [{"type": "git", "url": url, "tag": version, "dest": f"swiftpm/{identity}"}
            for identity, (url, version) in sorted(resolved(tree).items())]


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        with open(sys.argv[2], encoding="utf-8") as f:
            tree = json.load(f)
        json.dump(sources(tree), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "mirrors":
        with open(sys.argv[2], encoding="utf-8") as f:
            listed = json.load(f)
        for source in listed:
            for original in {source["url"], source["url"].removesuffix(".git") + ".git"}:
                subprocess.run([sys.argv[3], "package", "config", "set-mirror", "--original", original,
                                "--mirror", os.path.abspath(source["dest"])], check=True)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
