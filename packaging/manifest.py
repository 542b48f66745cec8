#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""manifest.json for a module's data folder: what OBS 32's plugin manager shows of it.

    packaging/manifest.py MODULE --out FILE        MODULE: comment-bar or comment-bar-dock
    packaging/manifest.py --fields                 the loader's fields, one a line (the tests' list)

OBS 32 reads MODULE_DATA_FOLDER/manifest.json when it opens a module (obs-studio
libobs/obs-module.c, obs_module_load_metadata, called from obs_open_module): the strings
display_name, id, version, os_arch, name, description, long_description, the object urls with
the strings repository, website and support, and the booleans has_banner and has_icon. A missing
key reads as "" or false; display_name, when there, is the module's name in the plugin manager
(obs_get_module_name), id and version go to its modules.json (frontend/plugin-manager/
PluginManager.cpp). OBS 29 to 31 never open the file.

The words come from the repository, never typed here twice: the version from VERSION, the
display name from the en-US locale file (the source's name, the dock's title), the descriptions
from README.md (its first paragraph; for the dock, its row in "What is where").
"""
import argparse
import json
import os
import platform
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The keys obs_module_load_metadata reads, in its order.
FIELDS = ["display_name", "id", "version", "os_arch", "name", "description", "long_description",
          "urls", "has_banner", "has_icon"]
URL_FIELDS = ["repository", "website", "support"]
# No public address yet (docs/packaging.md, "Submitting to Flathub"): empty, as OBS reads a missing one.
URLS = {"repository": "", "website": "", "support": ""}


def read(path):
    with open(os.path.join(TOP, path), encoding="utf-8") as f:
        return f.read()


def plain(markdown):
    """Markdown's emphasis and code marks off, lines joined."""
    text = re.sub(r"\*\*([^*]+)\*\*|`([^`]+)`", lambda m: m.group(1) or m.group(2), markdown)
    return " ".join(text.split())


def locale_word(key):
    for line in read("plugin/data/locale/en-US.ini").splitlines():
        name, _, value = line.partition("=")
        if name == key and value.startswith('"') and value.endswith('"'):
            return value[1:-1]
    sys.exit(f"manifest.py: plugin/data/locale/en-US.ini has no {key}")


def readme_title_and_paragraph():
    """README's title (its first line, "# Name") and its first paragraph."""
    text = read("README.md")
    match = re.match(r"# (\S[^\n]*)\n\n((?:[^\n]+\n)+)", text)
    if not match:
        sys.exit("manifest.py: README.md does not start with a title and a paragraph")
    return match.group(1).strip(), plain(match.group(2))


def readme_row(path):
    """The text of README's "What is where" row for `path`, up to its first ';'."""
    for line in read("README.md").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and f"`{path}`" in cells[0]:
            return plain(cells[1].split(";")[0])
    sys.exit(f"manifest.py: README.md's table has no row for {path}")


def sentence(text):
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def manifest(module):
    title, paragraph = readme_title_and_paragraph()
    if module == "comment-bar":
        display, long_description = locale_word("CommentBar"), paragraph
        description = sentence(paragraph.split(":")[0])
    elif module == "comment-bar-dock":
        row = readme_row("CModules/dock")
        display, long_description = locale_word("Dock.Title") + " dock", sentence(row)
        description = sentence(row.split(":")[0])
    else:
        sys.exit(f"manifest.py: no module {module} (comment-bar or comment-bar-dock)")
    values = {
        "display_name": display,
        "id": module,  # the module's file name, by which OBS's plugin manager keeps it
        "version": read("VERSION").strip(),
        "os_arch": f"linux-{platform.machine()}",
        "name": f"{title} ({module})",
        "description": description,
        "long_description": long_description,
        "urls": dict(URLS),
        # Neither a banner nor an icon is shipped.
        "has_banner": False,
        "has_icon": False,
    }
    assert list(values) == FIELDS and list(values["urls"]) == URL_FIELDS
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", nargs="?")
    parser.add_argument("--out")
    parser.add_argument("--fields", action="store_true", help="print the loader's fields, urls' as urls.KEY")
    args = parser.parse_args()
    if args.fields:
        for field in FIELDS:
            print(field)
        for field in URL_FIELDS:
            print(f"urls.{field}")
        return 0
    if not args.module or not args.out:
        parser.error("MODULE and --out FILE")
    text = json.dumps(manifest(args.module), indent=2, ensure_ascii=False) + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(args.out + ".tmp", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
