# SPDX-License-Identifier: GPL-2.0-or-later
"""The chat the benchmark plays: the same lines, at the same rate, to every peer.

Feeders run in a thread at a fixed rate (events per second), each on its own
clock, and stop themselves: after `limit` seconds at most, or when stopped.
"""
import html
import json
import os
import queue
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USERS = ["さくら", "ゆうき", "はると", "あおい", "りん", "そら", "ひなた", "めい",
         "kaito_live", "MomoTV", "night_owl", "ren_ren", "gamer_kun", "Yuzu", "tanuki99", "mikan"]
TEXTS = ["こんにちは！", "今日もおつかれさま", "その曲すき", "wwwww", "初見です、よろしくお願いします",
         "GG!", "nice play", "声かわいい", "いまの神プレイでは？", "8888888", "待ってました",
         "BGMなんですか？", "草", "つよい", "lol that was close", "もう一回見たい",
         "おやすみなさい", "hello from Osaka", "きたー！", "かわいい"]
COLORS = ["#ff7eb6", "#7ee0ff", "#ffd37e", "#9dff7e", "#c49bff", "#ff9b7e", "#7effc8", "#f0f0f0"]


class Lines:
    """A deterministic endless chat."""

    def __init__(self, seed=5):
        self.rng = random.Random(seed)
        self.n = 0

    def next(self):
        self.n += 1
        i = self.rng.randrange(len(USERS))
        return {
            "id": f"b{self.n}",
            "user": USERS[i],
            "text": self.rng.choice(TEXTS),
            "color": COLORS[i % len(COLORS)],
        }


def comment_event(line):
    return json.dumps({"type": "comment", "id": line["id"], "user": line["user"],
                       "text": line["text"], "color": line["color"]}, ensure_ascii=False)


def text_line(line):
    return f"{line['user']}: {line['text']}"


class Feeder:
    """Calls `emit(line)` `rate` times a second in a thread, batching to 100 wakeups a second at most."""

    def __init__(self, emit, rate, limit=120.0, seed=5):
        self.emit = emit
        self.rate = rate
        self.limit = limit
        self.lines = Lines(seed)
        self.sent = 0
        self.last_emit = 0.0  # time.monotonic() of the last line sent
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        start = time.monotonic()
        tick = max(1.0 / self.rate, 0.01)
        k = 0
        while not self.stop_event.is_set():
            now = time.monotonic()
            if now - start > self.limit:
                break
            due = int((now - start) * self.rate) + 1
            while self.sent < due:
                self.emit(self.lines.next())
                self.last_emit = time.monotonic()
                self.sent += 1
            k += 1
            self.stop_event.wait(max(0.0, start + k * tick - time.monotonic()))

    def stop(self):
        self.stop_event.set()
        self.thread.join(5)
        return self.sent


def file_appender(path):
    """emit() for a text file: one line appended (opened, written, closed) per call."""
    def emit(line):
        with open(path, "a", encoding="utf-8") as f:
            f.write(text_line(line) + "\n")
    return emit


PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>chat overlay</title>
<style>
html, body { margin: 0; background: transparent; overflow: hidden; }
#chat { position: absolute; left: 0; top: 0; width: 1280px; height: 360px; box-sizing: border-box;
        padding: 12px 20px; background: rgba(20, 20, 30, 0.78); color: #fff;
        font: 26px "Noto Sans CJK JP", sans-serif; display: flex; flex-direction: column;
        justify-content: flex-end; }
.line { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; line-height: 1.3; }
.user { font-weight: bold; margin-right: 0.5em; }
</style></head>
<body><div id="chat"></div>
<script>
const chat = document.getElementById('chat');
const es = new EventSource('/events');
es.onmessage = (e) => {
  const m = JSON.parse(e.data);
  const div = document.createElement('div');
  div.className = 'line';
  const u = document.createElement('span');
  u.className = 'user'; u.style.color = m.color; u.textContent = m.user;
  div.appendChild(u);
  div.appendChild(document.createTextNode(m.text));
  chat.appendChild(div);
  while (chat.children.length > 6) chat.removeChild(chat.firstChild);
};
</script></body></html>
"""


class ChatPageServer:
    """A loopback HTTP server: GET / is a simple chat overlay, /events a Server-Sent Events stream."""

    def __init__(self):
        self.clients = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                if self.path == "/events":
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Cache-Control", "no-cache")
                    self.end_headers()
                    q = queue.Queue()
                    with outer.lock:
                        outer.clients.append(q)
                    try:
                        while True:
                            item = q.get(timeout=300)
                            if item is None:
                                return
                            self.wfile.write(("data: " + item + "\n\n").encode())
                            self.wfile.flush()
                    except (OSError, queue.Empty):
                        return
                    finally:
                        with outer.lock:
                            outer.clients.remove(q)
                body = PAGE.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def client_count(self):
        with self.lock:
            return len(self.clients)

    def emit(self, line):
        data = json.dumps({"user": line["user"], "text": line["text"], "color": line["color"]}, ensure_ascii=False)
        with self.lock:
            for q in self.clients:
                q.put(data)

    def close(self):
        with self.lock:
            for q in self.clients:
                q.put(None)
        self.httpd.shutdown()
        self.httpd.server_close()
