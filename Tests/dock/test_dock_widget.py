# SPDX-License-Identifier: GPL-2.0-or-later
"""The dock's panel, Qt 6 build, offscreen: two fake control servers (Tests/dock/fake_control.py,
the documented API) and a token file; Tests/dock/dock_widget_test.cpp drives the panel and checks it.

    PYTHONPATH=Tests python3 Tests/dock/test_dock_widget.py --binary build/dock/test/dock_widget_test \
        --locale-dir plugin/data/locale [--screenshots build/dock/test]"""
import argparse
import os
import secrets
import subprocess
import sys
import tempfile

from dock.fake_control import FakeControl
from support.checks import check, finish


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--locale-dir", required=True)
    parser.add_argument("--screenshots", help="a folder for the pictures of the panel's Audience part")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="commentbar-dock-widget.") as work:
        token = secrets.token_hex(32)  # as the renderer makes it: the dock takes no other
        token_file = os.path.join(work, "control-token")
        with open(os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:  # 0600: the dock checks
            f.write(token + "\n")
        servers = [FakeControl(token), FakeControl(token)]
        try:
            env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": work, "HOME": work,
                   # a proxy the user set must not see the dock's requests (the token)
                   "http_proxy": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}
            run = subprocess.run([args.binary, "--port-a", str(servers[0].port), "--port-b", str(servers[1].port),
                                  "--token-file", token_file, "--locale-dir", args.locale_dir] +
                                 (["--screenshots", os.path.abspath(args.screenshots)] if args.screenshots else []),
                                 env=env, capture_output=True, text=True, timeout=180)
        finally:
            for server in servers:
                server.close()
    lines = run.stdout.splitlines()
    for line in lines[:-1]:
        print(line, flush=True)
    summary = lines[-1] if lines else ""
    check(run.returncode == 0 and summary.endswith(" 0 failed"), "the Qt 6 panel's checks",
          f"{summary or 'no summary'}; exit {run.returncode}; {run.stderr.strip()[-800:]}")
    check(token not in run.stdout + run.stderr, "the token is never printed")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
