#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The control page and the event API never stall the bar through the viewer memory (issue 37).

`commentbar serve` runs on a memfd pool made as the OBS shim makes it (Tests/support/pool_frames.py),
reading a loopback relay at 25 comments/s, with the chat log on (a generated 200,000-row log) and
the control server on. While it draws, each scenario of the security review runs:

- six searches at once from six page sessions (the server runs one search at a time per client),
  each for a 200-character run of `w` (a common laugh), each sent three times in a row;
- sixteen viewer changes (`POST /api/viewer`) while another process holds the log's write lock;
- `remember` turned on while another process holds the log's write lock.

The frames' times are read from the pool (its sequence number), the heartbeat from the pool's
header (`heartbeat_ns`, CLOCK_MONOTONIC, as Python's time.monotonic_ns reads it). Each scenario
must keep the largest frame gap under 500 ms (before the fix: 2.6 s with three searches) and the
heartbeat under 1.5 s old (before: 6.1 s with six; the shim restarts a renderer after 3 s); the
figures are printed, and `--json` prints them for `make bench` (the goal there: 100 ms).

    COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/memory/memory_freeze_test.py [--json]
"""
import http.client
import json
import os
import re
import shutil
import sqlite3
import struct
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from control.links import first_use
from control.relay import Relay
from support.checks import check, finish
from support.pool_frames import QUIET, ServedBar
from support.processes import free_port, wait_for

BIN = os.path.abspath(os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))

AS_JSON = "--json" in sys.argv[1:]
ROWS = 200_000
RATE = 25  # comments a second from the relay: a frame about every 40 ms
MAX_GAP = 0.5  # seconds: a stall, not jitter (the benchmark's goal is 100 ms)
MAX_HEARTBEAT_AGE = 1.5  # seconds: the ticker beats every 0.5 s; the shim gives up at 3 s
LAUGH = "w" * 200


def say(*parts):
    if not AS_JSON:
        print(*parts, flush=True)


def generate_log(path):
    """Fills the log (made by the renderer: its schema) with ROWS comments of 5,000 viewers on a
    channel of their own: a third of them laugh with a run of 3 to 60 `w`."""
    phrases = ["こんにちは", "初見です", "ラーメン食べたい", "神回", "草", "gg", "nice play", "pizza time", "8888"]
    with sqlite3.connect(path, isolation_level=None) as db:
        db.execute("BEGIN")
        db.execute("INSERT INTO channels (platform, channel) VALUES ('gen', 'chat')")
        channel = db.execute("SELECT id FROM channels WHERE platform = 'gen'").fetchone()[0]
        start = time.time() - 86_400
        db.execute("INSERT INTO sessions (channel_id, stream, started_at, ended_at, last_seen_at) VALUES (?, 0, ?, ?, ?)",
                   (channel, start, start + 3600, start + 3600))
        session = db.execute("SELECT max(id) FROM sessions").fetchone()[0]
        db.execute("UPDATE sessions SET stream = id WHERE id = ?", (session,))
        db.executemany("INSERT INTO viewers (channel_id, user, login, name, name_key, login_key, first_seen, last_seen, "
                       "streams, comments) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 40)",
                       [(channel, f"viewer{n}", f"viewer{n}", f"Viewer{n}", f"viewer{n}", f"viewer{n}", start, start)
                        for n in range(5000)])
        first_viewer = db.execute("SELECT min(id) FROM viewers WHERE channel_id = ?", (channel,)).fetchone()[0]

        def rows():
            for n in range(ROWS):
                text = f"{phrases[n % len(phrases)]} {phrases[(n * 7) % len(phrases)]}"
                if n % 3 == 0:
                    text += " " + "w" * (3 + n % 58)
                yield (session, session, channel, f"gen{n}", first_viewer + n % 5000, f"Viewer{n % 5000}", "comment", text,
                       start + n * 0.018, "shown")
        db.executemany("INSERT INTO messages (session, stream, channel_id, message_id, viewer, name, kind, text, time, "
                       "verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows())
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


class Watch:
    """The bar's frames (their times) and its heartbeat's age, read from its pool every 2 ms.
    The frames' pixels, which ServedBar keeps, are let go: only their times count here."""

    def __init__(self, bar):
        self.bar = bar
        self.times = []
        self.ages = []  # (monotonic time, heartbeat age in seconds)
        self.stopped = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while not self.stopped.is_set():
            frames, self.bar.frames = self.bar.frames, []
            self.times += [seen for seen, _, _ in frames]
            beat, = struct.unpack_from("<Q", self.bar.pool, 64)
            if beat:
                self.ages.append((time.monotonic(), time.monotonic_ns() / 1e9 - beat / 1e9))
            time.sleep(0.002)

    def window(self, start, end):
        """The largest frame gap and the oldest heartbeat between `start` and `end` (monotonic)."""
        times = [start] + [t for t in self.times if start <= t <= end] + [end]
        gap = max(b - a for a, b in zip(times, times[1:]))
        age = max((a for t, a in self.ages if start <= t <= end), default=float("inf"))
        return gap, age, len(times) - 2

    def stop(self):
        self.stopped.set()


class Chat(threading.Thread):
    """RATE comments a second to the relay, until stopped."""

    def __init__(self, relay):
        super().__init__(daemon=True)
        self.relay, self.stopped, self.sent = relay, threading.Event(), 0

    def run(self):
        start = time.monotonic()
        while not self.stopped.is_set():
            self.relay.comment(f"c{self.sent}", f"Fan{self.sent % 40}", f"comment {self.sent}: 草 www")
            self.sent += 1
            time.sleep(max(0.0, start + self.sent / RATE - time.monotonic()))


class Api:
    """The event API as a program uses it (the token in an Authorization header), or as one page
    uses it (its session cookie, under the page's path: `page`)."""

    def __init__(self, port, token=None, cookie=None, prefix=""):
        self.port, self.token, self.cookie, self.prefix = port, token, cookie, prefix

    def page(self):
        """A page session of its own: a one-time link (`POST /api/page-link`) swapped for its
        cookie. The server runs one search at a time per client (a second one is 429): six pages
        are six clients, as in the review's six searches at once."""
        status, _, body = self.exchange("/api/page-link", {})
        status, headers = first_use(json.loads(body)["url"]) if status == 200 else (status, {})
        cookie = headers.get("Set-Cookie", "")
        path = re.search(r"Path=([^;]+)", cookie)
        if status != 303 or not path:
            raise RuntimeError(f"no page session: {status} {headers}")
        return Api(self.port, cookie=cookie.split(";")[0], prefix=path.group(1).rstrip("/"))

    def call(self, path, body=None):
        """(status, seconds) of one request."""
        status, seconds, _ = self.exchange(path, body)
        return status, seconds

    def headers(self):
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.cookie:
            headers["Cookie"] = self.cookie
        return headers

    def exchange(self, path, body=None):
        """(status, seconds, body) of one request."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{self.prefix}{path}",
                                         data=None if body is None else json.dumps(body).encode(), headers=self.headers())
        started = time.monotonic()
        answer_body = b""
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                answer_body = answer.read()
                status = answer.status
        except urllib.error.HTTPError as error:
            status = error.code
        except OSError as error:
            status = f"{type(error).__name__}: {error}"
        return status, time.monotonic() - started, answer_body


class Connection:
    """One kept-alive connection that has shown its credential (a first `GET /api/state`). The
    server keeps at most 16 connections that have not answered an authenticated request yet (its
    slowloris guard closes the oldest of them for a new one), so more calls than that at once go
    over connections opened beforehand, as a page's browser keeps its own."""

    def __init__(self, api):
        self.api = api
        self.http = http.client.HTTPConnection("127.0.0.1", api.port, timeout=30)
        self.call("/api/state")

    def call(self, path, body=None):
        """(status, seconds) of one request."""
        started = time.monotonic()
        try:
            self.http.request("GET" if body is None else "POST", self.api.prefix + path,
                              body=None if body is None else json.dumps(body), headers=self.api.headers())
            answer = self.http.getresponse()
            answer.read()
            status = answer.status
        except (OSError, http.client.HTTPException) as error:
            status = f"{type(error).__name__}: {error}"
        return status, time.monotonic() - started

    def close(self):
        self.http.close()


def at_once(jobs):
    """Runs every job on a thread of its own; their results, in order."""
    results = [None] * len(jobs)

    def run(index, job):
        results[index] = job()
    threads = [threading.Thread(target=run, args=(index, job)) for index, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


class Locked:
    """Another process's write lock on the log (this test's own connection: BEGIN IMMEDIATE)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None, timeout=30)

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, *_):
        self.db.execute("COMMIT")
        self.db.close()


def measure(watch, name, action, settle=1.0):
    """Runs `action` while the bar draws; the largest frame gap and heartbeat age meanwhile."""
    time.sleep(settle)
    start = time.monotonic()
    detail = action()
    time.sleep(settle)
    gap, age, frames = watch.window(start, time.monotonic())
    say(f"{name}: largest frame gap {gap * 1000:.0f} ms, heartbeat at most {age * 1000:.0f} ms old "
        f"({frames} frames); {detail}")
    return {"largest_frame_gap_ms": round(gap * 1000, 1), "oldest_heartbeat_ms": round(age * 1000, 1),
            "frames": frames, "detail": detail}


def main():
    work = tempfile.mkdtemp(prefix="memory-freeze-")
    db = os.path.join(work, "chat.sqlite3")
    env = {"XDG_CONFIG_HOME": work, "XDG_DATA_HOME": os.path.join(work, "data")}
    relay = Relay()
    port = free_port()
    settings = {**QUIET, "service": "websocket", "stream_id": "freeze", "server": f"ws://127.0.0.1:{relay.port}/chat",
                "max_lines": 8, "remember": True, "log_path": db, "control": True, "control_port": port,
                "pace_bursts": False}

    # The log's schema is the renderer's own: a first run makes the file, then it is filled.
    maker = ServedBar(BIN, settings, width=320, height=120, env=env)
    wait_for(lambda: relay.clients, 30)
    relay.comment("first", "Maker", "hello")
    made = wait_for(lambda: os.path.exists(db) and sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] >= 3, 30)
    maker.stop()
    if not check(made, "the renderer makes the chat log", f"{db}: {maker.log[-5:]}"):
        return {}
    began = time.monotonic()
    generate_log(db)
    say(f"(generated {ROWS:,} comments in {time.monotonic() - began:.1f} s)")

    bar = ServedBar(BIN, settings, width=320, height=120, env=env)
    token_file = os.path.join(work, "comment-bar", "control-token")
    wait_for(lambda: relay.clients and os.path.exists(token_file), 30)
    with open(token_file) as file:
        api = Api(port, file.read().strip())
    watch = Watch(bar)
    chat = Chat(relay)
    chat.start()
    results = {"rows": ROWS, "rate": RATE}
    try:
        wait_for(lambda: api.call("/api/state")[0] == 200, 30)
        results["quiet"] = measure(watch, "no control page call (noise)", lambda: time.sleep(4) or "nothing asked")

        def searches():
            path = "/api/search?" + urllib.parse.urlencode({"q": LAUGH, "limit": 100})
            pages = [api.page() for _ in range(6)]
            answers = at_once([lambda page=page: [page.call(path) for _ in range(3)] for page in pages])
            calls = [call for answer in answers for call in (answer or [])]
            return f"{len(calls)} searches answered {sorted({str(s) for s, _ in calls})}, the slowest in " \
                   f"{max((t for _, t in calls), default=0):.2f} s"
        results["searches"] = measure(watch, "6 searches at once for 200 w, 3 times each", searches)

        def choices():
            with Locked(db):
                answers = at_once([lambda n=n: api.call("/api/viewer", {"platform": "gen", "channel": "chat",
                                                                         "user": f"viewer{n}", "nickname": f"Fan{n}"})
                                   for n in range(16)])
                time.sleep(1)
            return f"16 viewer changes answered {sorted({str(s) for s, _ in answers if s})}, the slowest in " \
                   f"{max((t for s, t in answers if s), default=0):.2f} s"
        results["viewer_changes_locked"] = measure(watch, "16 viewer changes while the log is locked", choices)

        def both():
            pages = [Connection(api.page()) for _ in range(6)]
            tools = [Connection(api) for _ in range(16)]
            with Locked(db):
                path = "/api/search?" + urllib.parse.urlencode({"q": LAUGH, "limit": 100})
                answers = at_once([lambda page=page: page.call(path) for page in pages]
                                  + [lambda n=n, tool=tool: tool.call("/api/viewer", {"platform": "gen", "channel": "chat",
                                                                                      "user": f"viewer{n}", "colour": "#ff8800"})
                                     for n, tool in enumerate(tools)])
            for connection in pages + tools:
                connection.close()
            return f"6 searches answered {sorted({str(s) for s, _ in answers[:6] if s})}, " \
                   f"16 changes {sorted({str(s) for s, _ in answers[6:] if s})}"
        results["searches_and_changes_locked"] = measure(watch, "6 searches and 16 changes at once, log locked", both)

        def remember_on():
            bar.send({"settings": {"width": 320, "height": 120, **settings, "remember": False}})
            time.sleep(1.5)
            with Locked(db):
                bar.send({"settings": {"width": 320, "height": 120, **settings}})
                time.sleep(4)
            return "remember off, then on while the log was locked for 4 s"
        results["remember_on_locked"] = measure(watch, "remember turned on while the log is locked", remember_on)
    finally:
        chat.stopped.set()
        watch.stop()
        code = bar.stop()
        relay.close()
    results["largest_frame_gap_ms"] = max(r["largest_frame_gap_ms"] for r in results.values() if isinstance(r, dict))
    results["oldest_heartbeat_ms"] = max(r["oldest_heartbeat_ms"] for r in results.values() if isinstance(r, dict))
    check(code == 0, "the renderer exits cleanly", f"exit {code}: {bar.log[-5:]}")
    for name, figures in results.items():
        if isinstance(figures, dict) and name != "quiet":
            check(figures["largest_frame_gap_ms"] <= MAX_GAP * 1000 and figures["oldest_heartbeat_ms"] <= MAX_HEARTBEAT_AGE * 1000,
                  f"{name}: no frame gap over {MAX_GAP * 1000:.0f} ms, the heartbeat never {MAX_HEARTBEAT_AGE} s old",
                  f"{figures}")
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as log:
        saved = log.execute("SELECT count(*) FROM viewers v JOIN channels c ON c.id = v.channel_id WHERE c.platform = 'gen' "
                            "AND v.colour = '#ff8800' AND v.nickname = 'Fan' || substr(v.user, 7)").fetchone()[0]
        rows = log.execute("SELECT count(*) FROM messages WHERE message_id LIKE 'c%'").fetchone()[0]
    check(saved == 16, "the choices asked while the log was locked are written once it is free", f"{saved} of 16")
    check(rows >= chat.sent * 0.9, "the bar's comments are in the log, those sent while it was locked too",
          f"{rows} of {chat.sent} sent")
    shutil.rmtree(work, ignore_errors=True)
    return results


if __name__ == "__main__":
    figures = main()
    if AS_JSON:
        # Figures for `make bench`: printed whatever the checks said.
        print(json.dumps(figures))
        sys.exit(0)
    sys.exit(finish())
