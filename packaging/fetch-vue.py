#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Vue 3's browser build for OneComme's templates (their `../__origin/js/vue.min.js`), taken at
build time from a package, never kept in the repository: PyPI's nicegui 1.4.37 wheel holds
`nicegui/static/vue.global.prod.js` (Vue 3.3, MIT; newer wheels hold only ES modules, and
Debian's libjs-vue is Vue 2). pip downloads the wheel (checked by its SHA-256), the file is
taken out of it (checked too) and written atomically. A build without network (the Flatpak's:
flatpak-builder downloads the wheel as a source of its manifest) gives the wheel with --wheel.

    packaging/fetch-vue.py --out build/onecomme/vue.min.js [--wheel nicegui-1.4.37-py3-none-any.whl]
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "nicegui==1.4.37"
WHEEL_SHA256 = "b63ae7cf89ace808fefba866b81514c59a04cff40447b6043640e259747179b6"
MEMBER = "nicegui/static/vue.global.prod.js"
MEMBER_SHA256 = "b886fd8711cbdcf3d7dd859e851d902709d03e0abdec66f72d6e941739bd40c5"


def member_of(path):
    """Vue's file from the wheel at `path`, once the wheel's SHA-256 is the one expected."""
    with open(path, "rb") as file:
        digest = hashlib.sha256(file.read()).hexdigest()
    if digest != WHEEL_SHA256:
        sys.exit(f"fetch-vue: {path} has SHA-256 {digest}, not {WHEEL_SHA256}")
    with zipfile.ZipFile(path) as wheel:
        return wheel.read(MEMBER)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--wheel", help="the wheel, already downloaded (no pip, no network)")
    args = parser.parse_args()
    out = args.out
    if args.wheel:
        data = member_of(args.wheel)
    else:
        with tempfile.TemporaryDirectory(prefix="commentbar-vue.") as folder:
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                            "--dest", folder, WHEEL], check=True)
            wheels = [name for name in os.listdir(folder) if name.endswith(".whl")]
            if len(wheels) != 1:
                sys.exit(f"fetch-vue: expected one wheel, pip left {wheels}")
            data = member_of(os.path.join(folder, wheels[0]))
    if hashlib.sha256(data).hexdigest() != MEMBER_SHA256:
        sys.exit(f"fetch-vue: {MEMBER} is not the file expected")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out + ".tmp", "wb") as file:
        file.write(data)
    os.replace(out + ".tmp", out)
    print(f"fetch-vue: {out} (Vue 3 from {WHEEL}, {len(data)} bytes)")


if __name__ == "__main__":
    main()
