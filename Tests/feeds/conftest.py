# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared helpers for the live-feed tests: the `commentbar tail` process, free ports,
and a throwaway test CA. Every server runs on 127.0.0.1 only."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from support.processes import free_port
from support.tls import make_test_ca

EVENTUALLY = 45  # seconds: generous limits for "eventually", never a timed assertion
# Real host names the test certificate also covers (reached through COMMENTBAR_CONNECT_TO).
# One list for every platform's tests, so that adding a platform's names touches no other test.
REAL_HOST_NAMES = [
    "yt3.ggpht.com", "www.youtube.com", "youtube.com", "youtu.be",  # YouTube
    "irc-ws.chat.twitch.tv", "gql.twitch.tv", "static-cdn.jtvnw.net",  # Twitch chat, metadata, emote images
    "api.betterttv.net", "cdn.betterttv.net", "api.frankerfacez.com", "cdn.frankerfacez.com", "7tv.io", "cdn.7tv.app",
    "live.nicovideo.jp", "live2.nicovideo.jp", "a.live2.nicovideo.jp", "mpn.live.nicovideo.jp",  # niconico
    "twitcasting.tv", "frontendapi.twitcasting.tv", "apiv2.twitcasting.tv",  # TwitCasting
    "www.openrec.tv", "public.openrec.tv", "chat.openrec.tv",  # OPENREC
    "www.showroom-live.com", "online.showroom-live.com",  # SHOWROOM
    "www.mirrativ.com", "online.mirrativ.com",  # Mirrativ
    "kick.com", "ws-us2.pusher.com", "files.kick.com",  # Kick
]


def pytest_configure(config):
    config.addinivalue_line("markers", "long_wait: waits long on a timer of the renderer's; run first, "
                                       "so that with several workers (pytest-xdist) it overlaps the others")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.get_closest_marker("long_wait") is None)  # stable: the rest keep their order


def binary():
    path = os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar")
    if not os.access(path, os.X_OK):
        pytest.fail(f"COMMENTBAR_BIN={path} is not an executable (run through `make test-feeds`)")
    return os.path.abspath(path)


def wait_for_port(port, timeout=EVENTUALLY):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


class Tail:
    """`commentbar tail` running in the background; stdout JSON lines and stderr lines are collected."""

    def __init__(self, *args, env=None):
        full_env = dict(os.environ)
        extra = dict(env or {})
        # A test's own routes come first (the first matching rule wins); every other real host
        # still goes to the closed port, so no test reaches the internet by leaving one out.
        if extra.get("COMMENTBAR_CONNECT_TO") and os.environ.get("COMMENTBAR_CONNECT_TO"):
            extra["COMMENTBAR_CONNECT_TO"] += "," + os.environ["COMMENTBAR_CONNECT_TO"]
        full_env.update(extra)
        self.proc = subprocess.Popen([binary(), "tail", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=full_env)
        self.lines = []  # raw stdout lines
        self.events = []  # decoded stdout objects
        self.errors = []  # stderr lines
        self.cond = threading.Condition()
        self.readers = [threading.Thread(target=self._read, args=(self.proc.stdout, True), daemon=True),
                        threading.Thread(target=self._read, args=(self.proc.stderr, False), daemon=True)]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, is_stdout):
        for raw in stream:
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            with self.cond:
                if is_stdout:
                    self.lines.append(line)
                    self.events.append(json.loads(line))
                else:
                    self.errors.append(line)
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def wait_event(self, predicate, start=0, timeout=EVENTUALLY):
        """The first event at or after index `start` matching `predicate`, and its index."""
        return self._wait(lambda: self.events, predicate, start, timeout, "event")

    def wait_stderr(self, predicate, start=0, timeout=EVENTUALLY):
        if isinstance(predicate, str):
            text = predicate
            predicate = lambda line: text in line
        return self._wait(lambda: self.errors, predicate, start, timeout, "stderr line")

    def _wait(self, items, predicate, start, timeout, what):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                found = items()
                for index in range(start, len(found)):
                    if predicate(found[index]):
                        return found[index], index
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.proc.poll() is not None and not any(r.is_alive() for r in self.readers)):
                    raise AssertionError(f"no matching {what} within {timeout} s; exit={self.proc.poll()}\n"
                                         f"stdout: {self.lines[-20:]}\nstderr: {self.errors[-20:]}")
                self.cond.wait(min(remaining, 0.5))

    def comments(self):
        with self.cond:
            return [e for e in self.events if e.get("type") == "comment"]

    def stop(self, timeout=15):
        """SIGINT, as Ctrl-C would; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("tail did not end within 15 s of SIGINT")
        for reader in self.readers:
            reader.join(timeout=5)
        return code


@pytest.fixture
def tail_factory():
    started = []

    def make(*args, env=None):
        tail = Tail(*args, env=env)
        started.append(tail)
        return tail

    yield make
    for tail in started:
        if tail.proc.poll() is None:
            tail.proc.kill()
            tail.proc.wait()


@pytest.fixture
def websocketd_factory(tmp_path):
    """websocketd on 127.0.0.1 running a Python program per connection (each stdout line is
    one WebSocket text message); returns the port."""
    started = []

    def start(program):
        if shutil.which("websocketd") is None:
            raise AssertionError("websocketd is not installed (apt-get install websocketd)")
        port = free_port()
        log = open(tmp_path / f"websocketd-{port}.log", "wb")
        started.append(subprocess.Popen(["websocketd", "--address=127.0.0.1", f"--port={port}", sys.executable, program],
                                        stdout=log, stderr=subprocess.STDOUT))
        wait_for_port(port)
        return port

    yield start
    for proc in started:
        proc.terminate()
        proc.wait(timeout=15)


@pytest.fixture(scope="session")
def test_ca(tmp_path_factory):
    """A CA made for this run, and a server certificate signed by it for localhost, 127.0.0.1 and
    the real host names the tests route to loopback with COMMENTBAR_CONNECT_TO."""
    return make_test_ca(str(tmp_path_factory.mktemp("ca")), REAL_HOST_NAMES)


@pytest.fixture(autouse=True)
def private_memory(monkeypatch, tmp_path):
    """Each test's renderers remember into a folder of their own: the chat log (remember is on by
    default) and the secrets never carry one test's rows or sessions into the next one."""
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        folder = tmp_path / name.lower()
        folder.mkdir()
        monkeypatch.setenv(name, str(folder))


@pytest.fixture(autouse=True)
def no_real_internet(monkeypatch):
    """No test reaches a real platform: every real host name goes to a closed loopback port unless
    the test routes it to its own server (`Tail` puts a test's own COMMENTBAR_CONNECT_TO rules first)."""
    monkeypatch.setenv("COMMENTBAR_CONNECT_TO", ",".join(f"{name}:443:127.0.0.1:9" for name in REAL_HOST_NAMES))
