#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The token stays with its renderer (issue 46), against the real renderer (`commentbar serve`
with the demo service and Control page on) and `commentbar control-url`:
- a program squatting another port (Tests/control/squatter.py: lying about the hello, or relaying
  it to the real renderer) is never sent the token by `control-url`, which says why;
- a port the renderer could not bind (a squatter had it first) is said so in
  control-port-PORT.status, and `control-url` sends nothing there;
- "Open control page" (`control-url --open`, and the source's button) gives `xdg-open` a 0600
  file in $XDG_RUNTIME_DIR/comment-bar, never the link: a process watching every command line
  (/proc/*/cmdline) to race the browser to the code finds none; the file goes once used;
- a code someone used first is shown to the user, in the real browser that opens the file, as
  "already used", and the renderer's log says so.

    PYTHONPATH=Tests COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/control/test_control_token.py"""
import os
import re
import stat
import subprocess
import tempfile
import threading
import time
import unittest

from selenium.webdriver.common.by import By

from control.browser import chromium as browser, wait_for
from control.links import first_use
from control.squatter import Squatter
from support.pool_frames import QUIET, ServedBar
from support.processes import free_port

BIN = os.path.abspath(os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))


class CommandLineRacer:
    """Another user's process racing the browser to the one-time link: it reads every process's
    command line, as `ps` can, over and over, and keeps any that names a code or the page."""

    def __init__(self, port):
        self.pattern = re.compile(rf":{port}/p/|code=[0-9a-f]{{32}}")
        self.found = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self):
        while not self.stop.is_set():
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                        line = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                if self.pattern.search(line):
                    self.found.append(line)

    def close(self):
        self.stop.set()
        self.thread.join(timeout=10)


class ControlTokenTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="control-token-")
        cls.config = os.path.join(cls.work, "config")
        cls.runtime = os.path.join(cls.work, "runtime")
        os.makedirs(cls.runtime, mode=0o700)
        # A fake xdg-open first on PATH: it records its command line and, for a file it is given,
        # the file's mode and text (as the browser would read it), then stays a moment, so the
        # racer has time to read its command line.
        fakes = os.path.join(cls.work, "bin")
        os.makedirs(fakes)
        cls.opened_path = os.path.join(cls.work, "xdg-open.log")
        with open(os.path.join(fakes, "xdg-open"), "w") as fake:
            # The entry is appended in one write: control-url's xdg-open and the renderer's may run
            # at once, and lines appended one by one interleaved (the test read half an entry).
            fake.write(f'#!/bin/sh\nlog="{cls.opened_path}"\n'
                       'entry="$(tr "\\0" " " < /proc/$$/cmdline)"\n'
                       'file="${1#file://}"\n'
                       'if [ -f "$file" ]; then entry="$entry\nmode $(stat -c %a "$file")\n$(cat "$file")"; fi\n'
                       'printf "%s\\n--\\n" "$entry" >> "$log"\nsleep 0.5\n')
        os.chmod(os.path.join(fakes, "xdg-open"), 0o755)
        cls.env = {**os.environ, "XDG_CONFIG_HOME": cls.config, "XDG_DATA_HOME": os.path.join(cls.work, "data"),
                   "XDG_RUNTIME_DIR": cls.runtime, "PATH": fakes + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")}
        cls.port = free_port()
        cls.bar = ServedBar(BIN, {**QUIET, "service": "demo", "stream_id": "demo", "control": True,
                                  "control_port": cls.port}, env=cls.env)
        cls.bar.wait_log(f"control page: on port {cls.port} ")
        with open(os.path.join(cls.config, "comment-bar", "control-token")) as file:
            cls.token = file.read().strip()

    @classmethod
    def tearDownClass(cls):
        cls.bar.stop()

    def control_url(self, *arguments):
        return subprocess.run([BIN, "control-url", *arguments], env=self.env, capture_output=True, text=True,
                              timeout=60)

    def opened(self):
        """What the fake xdg-open recorded: one entry per run (command line, then the file)."""
        try:
            with open(self.opened_path) as log:
                entries = log.read().split("--\n")
            return ["\n".join(line.rstrip() for line in entry.strip().splitlines()) for entry in entries if entry.strip()]
        except FileNotFoundError:
            return []

    def test_1_a_squatter_on_the_port_never_gets_the_token_from_control_url(self):
        for mode in ("liar", "relay"):
            squatter = Squatter(mode, relay_port=self.port)
            try:
                for arguments in (["--port", str(squatter.port)], ["--open", "--port", str(squatter.port)]):
                    run = self.control_url(*arguments)
                    self.assertNotEqual(run.returncode, 0, f"{mode}: {run.stdout}")
                    self.assertIn("not this user's Comment Bar", run.stderr, mode)
                self.assertTrue(any(r.startswith("GET /api/hello?nonce=") for r in squatter.received()),
                                f"{mode}: control-url asked the squatter to prove itself")
                self.assertFalse(squatter.saw(self.token), f"{mode}: the squatter received the token")
                self.assertFalse(any("page-link" in r for r in squatter.received()), mode)
            finally:
                squatter.close()
        # The renderer itself proves itself and gives a link.
        run = self.control_url("--port", str(self.port))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertRegex(run.stdout.strip(), rf"^http://127\.0\.0\.1:{self.port}/p/[0-9a-f]{{32}}/\?code=[0-9a-f]{{32}}$")

    def test_2_a_port_the_renderer_could_not_bind_is_sent_nothing(self):
        status = os.path.join(self.config, "comment-bar", f"control-port-{self.port}.status")
        info = os.lstat(status)
        self.assertEqual(stat.S_IMODE(info.st_mode), 0o600)
        with open(status) as file:
            self.assertEqual(file.read().split(), ["bound", str(self.bar.proc.pid)])
        squatter = Squatter("relay", relay_port=self.port)
        try:
            self.bar.send({"settings": {**QUIET, "width": self.bar.width, "height": self.bar.height, "service": "demo",
                                        "stream_id": "demo", "control": True, "control_port": squatter.port}})
            self.bar.wait_log(f"control page: port {squatter.port} is in use by another program")
            moved = os.path.join(self.config, "comment-bar", f"control-port-{squatter.port}.status")
            wait_for(lambda: os.path.exists(moved), "the status file of the port it could not bind")
            with open(moved) as file:
                self.assertEqual(file.read().split(), ["unbound", str(self.bar.proc.pid)])
            self.assertFalse(os.path.exists(status), "the port it left is no longer said bound")
            run = self.control_url("--port", str(squatter.port))
            self.assertNotEqual(run.returncode, 0)
            self.assertIn(f"could not bind port {squatter.port}", run.stderr)
            self.assertEqual(squatter.received(), [], "control-url sent nothing to the squatter")
        finally:
            self.bar.send({"settings": {**QUIET, "width": self.bar.width, "height": self.bar.height, "service": "demo",
                                        "stream_id": "demo", "control": True, "control_port": self.port}})
            squatter.close()
        wait_for(lambda: os.path.exists(status), "the renderer back on its port", timeout=30)
        self.assertFalse(os.path.exists(moved), "the port no longer wanted is no longer said unbound")

    def test_3_open_gives_xdg_open_a_private_file_and_no_racer_finds_the_code(self):
        racer = CommandLineRacer(self.port)
        try:
            before = len(self.opened())
            run = self.control_url("--open", "--port", str(self.port))
            self.assertEqual(run.returncode, 0, run.stderr)
            # The source's "Open control page" button (the shim's action counter going up).
            self.bar.send({"actions": {"open_control": 0}})
            self.bar.send({"actions": {"open_control": 1}})
            wait_for(lambda: len(self.opened()) >= before + 2, "the renderer to run xdg-open")
        finally:
            racer.close()
        self.assertEqual(racer.found, [], "a command line named the page or its code")
        for entry in self.opened()[before:]:
            command, mode, *page = entry.splitlines()
            self.assertRegex(command, rf"xdg-open file://{re.escape(self.runtime)}/comment-bar/open-[0-9a-f]{{32}}\.html$")
            self.assertEqual(mode, "mode 600")
            self.assertNotIn(self.token, entry)
            self.assertRegex("\n".join(page), rf'url=http://127\.0\.0\.1:{self.port}/p/[0-9a-f]{{32}}/\?code=[0-9a-f]{{32}}"')
        folder = os.path.join(self.runtime, "comment-bar")
        self.assertEqual(stat.S_IMODE(os.lstat(folder).st_mode), 0o700)
        # Once its code is used, the file goes.
        entry = self.opened()[-1]
        path = entry.splitlines()[0].split("file://", 1)[1]
        link = re.search(r'url=([^"]+)"', entry).group(1)
        self.assertTrue(os.path.exists(path))
        self.assertEqual(first_use(link)[0], 303)
        self.assertFalse(os.path.exists(path), "the link file is removed once its code is used")

    def test_4_a_code_someone_used_first_shows_already_used(self):
        run = self.control_url("--open", "--port", str(self.port))
        self.assertEqual(run.returncode, 0, run.stderr)
        entry = self.opened()[-1]
        path = entry.splitlines()[0].split("file://", 1)[1]
        # A copy of the file as the browser will read it (the racer's use removes the original).
        page = os.path.join(self.work, "as-the-browser-reads-it.html")
        with open(path) as original, open(page, "w") as copy:
            copy.write(original.read())
        link = re.search(r'url=([^"]+)"', entry).group(1)
        self.assertEqual(first_use(link)[0], 303, "the racer used the code first")
        driver = browser()
        try:
            driver.get("file://" + page)
            wait_for(lambda: "already used" in driver.find_element(By.TAG_NAME, "body").text,
                     "the browser to show that the link was already used")
            self.assertTrue(driver.current_url.startswith(f"http://127.0.0.1:{self.port}/p/"), driver.current_url)
            self.assertEqual(driver.get_cookies(), [], "no session for the late browser")
        finally:
            driver.quit()
        self.bar.wait_log("control page: a one-time link was presented again after it was already used")

    def test_5_the_file_opens_the_page_in_a_real_browser(self):
        run = self.control_url("--open", "--port", str(self.port))
        self.assertEqual(run.returncode, 0, run.stderr)
        address = self.opened()[-1].splitlines()[0].split()[-1]
        driver = browser()
        try:
            driver.get(address)
            wait_for(lambda: re.fullmatch(rf"http://127\.0\.0\.1:{self.port}/p/[0-9a-f]{{32}}/", driver.current_url),
                     "the page's address without the code")
            self.assertTrue(any(c["name"] == "commentbar_session" for c in driver.get_cookies()), "a session")
            self.assertNotIn("code=", driver.current_url)
        finally:
            driver.quit()


if __name__ == "__main__":
    unittest.main(verbosity=2)
