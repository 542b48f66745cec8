#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Each module's manifest.json as OBS 32's plugin manager reads it (issue 50).

OBS 32 opens MODULE_DATA/manifest.json when it opens a module (obs-studio libobs/obs-module.c,
obs_module_load_metadata) and reads, with obs_data_get_string, display_name, id, version, os_arch,
name, description, long_description, the object urls with repository, website and support, and with
obs_data_get_bool has_banner and has_icon. Every manifest given must hold each of those keys with
its type (the list is OBS's, written here, not read from the generator), its version must be
VERSION's, its id the module's file name; this machine's libobs must read the same values through
the same calls (obs_data_create_from_json_file, ctypes); and packaging/manifest.py must make the
same file from today's VERSION and README (a stale manifest fails). First a manifest without a key
and one of another version must be refused, so the checks can fail.

    PYTHONPATH=Tests python3 Tests/packaging/test_manifest.py MODULE=MANIFEST...
    (e.g. comment-bar=plugin/data/manifest.json comment-bar-dock=build/dock/data/manifest.json)
"""
import ctypes
import ctypes.util
import json
import os
import platform
import subprocess
import sys
import tempfile

from support.checks import check, finish

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRINGS = ["display_name", "id", "version", "os_arch", "name", "description", "long_description"]
URLS = ["repository", "website", "support"]
BOOLS = ["has_banner", "has_icon"]
NOT_EMPTY = ["display_name", "id", "version", "os_arch", "name", "description", "long_description"]


def problems(module, manifest, version):
    """What is wrong with a manifest (a dict), as OBS's loader and this project see it."""
    found = []
    for key in STRINGS:
        if not isinstance(manifest.get(key), str):
            found.append(f"{key} is not a string" if key in manifest else f"no {key}")
        elif key in NOT_EMPTY and not manifest[key].strip():
            found.append(f"{key} is empty")
    urls = manifest.get("urls")
    if not isinstance(urls, dict):
        found.append("no urls object")
    else:
        for key in URLS:
            value = urls.get(key)
            if not isinstance(value, str):
                found.append(f"no urls.{key}")
            elif value and not value.startswith("https://"):
                found.append(f"urls.{key} is not an https:// address")
    for key in BOOLS:
        if not isinstance(manifest.get(key), bool):
            found.append(f"{key} is not true or false" if key in manifest else f"no {key}")
    if manifest.get("version") != version:
        found.append(f"version {manifest.get('version')!r}, not VERSION's {version!r}")
    if manifest.get("id") != module:
        found.append(f"id {manifest.get('id')!r}, not {module!r}")
    if manifest.get("os_arch") != f"linux-{platform.machine()}":
        found.append(f"os_arch {manifest.get('os_arch')!r}")
    return found


class Libobs:
    """obs_module_load_metadata's reads, through this machine's libobs."""

    def __init__(self):
        self.lib = ctypes.CDLL(ctypes.util.find_library("obs") or "libobs.so.0")
        for name, result, args in [("obs_data_create_from_json_file", ctypes.c_void_p, [ctypes.c_char_p]),
                                   ("obs_data_get_string", ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_char_p]),
                                   ("obs_data_get_obj", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p]),
                                   ("obs_data_get_bool", ctypes.c_bool, [ctypes.c_void_p, ctypes.c_char_p]),
                                   ("obs_data_release", None, [ctypes.c_void_p])]:
            function = getattr(self.lib, name)
            function.restype, function.argtypes = result, args

    def read(self, path):
        data = self.lib.obs_data_create_from_json_file(path.encode())
        if not data:
            return None
        values = {key: self.lib.obs_data_get_string(data, key.encode()).decode() for key in STRINGS}
        urls = self.lib.obs_data_get_obj(data, b"urls")
        values["urls"] = {key: self.lib.obs_data_get_string(urls, key.encode()).decode() for key in URLS}
        self.lib.obs_data_release(urls)
        for key in BOOLS:
            values[key] = bool(self.lib.obs_data_get_bool(data, key.encode()))
        self.lib.obs_data_release(data)
        return values


def main():
    pairs = [argument.split("=", 1) for argument in sys.argv[1:]]
    if not pairs or any(len(pair) != 2 for pair in pairs):
        print(__doc__, file=sys.stderr)
        return 2
    with open(os.path.join(TOP, "VERSION"), encoding="utf-8") as f:
        version = f.read().strip()

    # ---- the checks can fail ----
    with open(pairs[0][1], encoding="utf-8") as f:
        good = json.load(f)
    without = {key: value for key, value in good.items() if key != "long_description"}
    without_url = dict(good, urls={"repository": "", "website": ""})
    other = dict(good, version=version + ".1")
    check("no long_description" in problems(pairs[0][0], without, version), "a manifest without long_description is refused")
    check("no urls.support" in problems(pairs[0][0], without_url, version), "a manifest without urls.support is refused")
    check(any("VERSION's" in p for p in problems(pairs[0][0], other, version)),
          f"a manifest of version {version}.1 is refused")

    libobs = Libobs()
    for module, path in pairs:
        try:
            with open(path, encoding="utf-8") as f:
                manifest = json.load(f)
        except (OSError, ValueError) as error:
            check(False, f"{path} is a JSON file", str(error))
            continue
        found = problems(module, manifest, version)
        check(not found, f"{path} has every field OBS 32's loader reads, version {version}, id {module}", "; ".join(found))
        seen = libobs.read(os.path.abspath(path))
        expected = {key: manifest.get(key) for key in STRINGS + ["urls"] + BOOLS}
        check(seen == expected, f"libobs reads the same values from {path} (obs_data_create_from_json_file)",
              "" if seen == expected else f"libobs: {seen}")
        with tempfile.TemporaryDirectory() as scratch:
            fresh = os.path.join(scratch, "manifest.json")
            made = subprocess.run([sys.executable, os.path.join(TOP, "packaging/manifest.py"), module, "--out", fresh],
                                  capture_output=True, text=True)
            same = made.returncode == 0 and open(fresh, encoding="utf-8").read() == open(path, encoding="utf-8").read()
        check(same, f"{path} is what packaging/manifest.py makes from today's VERSION and README",
              made.stderr.strip() or ("" if same else "stale: make it again (make plugin dock)"))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
