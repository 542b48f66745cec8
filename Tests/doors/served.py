# SPDX-License-Identifier: GPL-2.0-or-later
"""`commentbar serve` for the doors' tests, as the OBS shim runs it: a memfd pool made as the shim
makes it (the benchmark's `make_pool`), a private XDG home (memory, secrets and templates start
empty), the settings and other lines on stdin, and the log kept."""
import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
from renderer_rss import make_pool, private_xdg  # noqa: E402
from support.processes import die_with_parent, wait_for  # noqa: E402

BIN = os.path.abspath(os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))
# Nothing on the bar that changes by itself.
QUIET = {"show_clock": False, "show_viewers": False, "show_gifts": False, "show_mic": False, "show_avatar": False,
         "fps": 10}


class Bar:
    def __init__(self, settings, env=None, width=640, height=240):
        fd, self.header = make_pool(width, height)
        self.env, self.home = private_xdg({**os.environ, **(env or {})})
        self.data = self.env["XDG_DATA_HOME"]
        self.settings = {"width": width, "height": height, **QUIET, **settings}
        self.log = []
        self.proc = subprocess.Popen([BIN, "serve", "--pool-fd", str(fd)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, pass_fds=[fd], env=self.env,
                                     preexec_fn=die_with_parent())
        os.close(fd)
        self.reader = threading.Thread(target=self._read_log, daemon=True)
        self.reader.start()
        self.send({"settings": self.settings})
        self.send({"active": True})

    def _read_log(self):
        for line in self.proc.stdout:
            self.log.append(line.decode(errors="replace").rstrip())

    def send(self, line):
        self.proc.stdin.write((json.dumps(line, ensure_ascii=False) + "\n").encode())
        self.proc.stdin.flush()

    def update(self, **changes):
        """New settings (the source's properties changed)."""
        self.settings.update(changes)
        self.send({"settings": self.settings})

    def lines(self, text):
        return [line for line in self.log if text in line]

    def wait_log(self, text, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.lines(text):
                return self.lines(text)
            time.sleep(0.05)
        raise AssertionError(f"no log line with {text!r} within {timeout} s: {self.log[-20:]}")

    def stop(self):
        self.proc.stdin.close()
        try:
            code = self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self.reader.join(5)
        self.proc.stdout.close()
        return code


def wait_until(condition, what, timeout=15, poll=0.02):
    """`condition`'s first true value within `timeout` seconds; else the test fails, saying `what`."""
    value = wait_for(condition, timeout, poll)
    if not value:
        raise AssertionError(f"timed out waiting for {what}")
    return value
