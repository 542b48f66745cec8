# SPDX-License-Identifier: GPL-2.0-or-later
"""An HTS voice for Open JTalk in the tests: `mei_normal.htsvoice` (MMDAgent's "Mei", CC BY 3.0,
Nagoya Institute of Technology; its licence file travels with it) from PyPI's pyopenjtalk 0.4.1
source archive, fetched with `pip download --no-deps pyopenjtalk==0.4.1` into a cache folder
that is never committed, by `make deps` (the tests download nothing).
    python3 -m speech.voice CACHE    fetches it (once) and prints its path"""
import os
import shutil
import subprocess
import sys
import tarfile

MEMBER = "pyopenjtalk-0.4.1/pyopenjtalk/htsvoice/mei_normal.htsvoice"
LICENCE = "pyopenjtalk-0.4.1/pyopenjtalk/htsvoice/LICENSE_mei_normal.htsvoice"


def mei_voice(cache, fetch=False):
    """The voice's path in `cache`; fetched there with `fetch` (make deps does), else it must be there."""
    voice = os.path.join(cache, "mei_normal.htsvoice")
    if os.path.exists(voice):
        return voice
    if not fetch:
        raise FileNotFoundError(f"{voice} is missing: `make deps` fetches it (python3 -m speech.voice {cache})")
    os.makedirs(cache, exist_ok=True)
    archive = os.path.join(cache, "pyopenjtalk-0.4.1.tar.gz")
    if not os.path.exists(archive):
        pip = [shutil.which("pip3") or shutil.which("pip")] if (shutil.which("pip3") or shutil.which("pip")) \
            else [sys.executable, "-m", "pip"]
        subprocess.run(pip + ["download", "-q", "--no-deps", "pyopenjtalk==0.4.1", "-d", cache], check=True)
    with tarfile.open(archive) as tar:
        for member, name in ((MEMBER, voice), (LICENCE, voice + ".LICENSE")):
            with tar.extractfile(member) as source, open(name + ".part", "wb") as out:
                out.write(source.read())
            os.replace(name + ".part", name)
    return voice


if __name__ == "__main__":
    print(mei_voice(sys.argv[1], fetch=True))
