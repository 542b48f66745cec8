# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake control server for the dock's widget test, speaking the control API as docs/control-api.md
documents it (the renderer's real server is tested in Tests/control): GET /api/state,
/api/comments?since=&limit=&wait= (held until news: a comment, a removal, a pin or unpin; or the
wait's seconds), /api/search?q=&limit=; POST /api/pin, /api/unpin, /api/viewer,
/api/speech/skip, /api/speech/pause, with JSON bodies and `Content-Type: application/json`. The
token (`Authorization: Bearer`) and the Host are checked as documented: 401 and 403 otherwise.

The test drives it through routes of its own under /fake/ (no token; never part of the API):
    POST /fake/comments  [{"id", "user", "name", "text", ...}]   comment events, numbered on
    POST /fake/delete    {"id"}             a moderator deleted that comment (a delete event)
    POST /fake/ban       {"user"}           that viewer's comments went (a ban event; the user compared case-blind)
    POST /fake/clear     {}                 every comment of the stream went (a clear event)
    POST /fake/delete    {"id", "forgotten": true}   a deletion the server no longer keeps (as when more than
                                            1000 came since): /api/comments says removed_complete false
    POST /fake/restart   {}                 a server that started again: seq from 1, its comments resent as history
    POST /fake/stall     {"on": true|false} /api/ requests wait (a renderer that stops answering); the requests
                                            held for news are answered first, so the dock's next request
                                            is the one that meets the stall
    GET  /fake/log                          every /api/ request: method, path, authorization, body
    POST /fake/log/clear {}
"""
import hashlib
import hmac
import http.server
import json
import socket
import threading
import urllib.parse

from support.processes import free_port

KEPT = 1000  # the server keeps the newest 1000 comments (docs/control-api.md)


class FakeControl:
    def __init__(self, token):
        self.token = token
        self.port = free_port()
        # held wait= requests sleep on it; every change wakes them (the bench adds under it too)
        self.lock = threading.Condition()
        self.seq = 0
        self.state_seq = 0  # the newest pin or unpin: what /api/state gives changed
        self.comments = []  # comment events, oldest first
        # delete, ban and clear events, oldest first: /api/comments?since= gives those after since as
        # "removed", as the renderer's EventHub does (Sources/CommentBarControl/EventHub.swift)
        self.removed = []
        self.forgotten = 0  # the newest removal no longer kept (EventHub's removedForgotten)
        self.pin = None
        self.paused = False
        self.log = []
        self.connections = set()  # every connection accepted, for crash()
        self.hellos = 0  # GET /api/hello answered (the dock proves the server once per renderer run)
        self.released = threading.Event()
        self.released.set()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def setup(self):
                super().setup()
                with fake.lock:
                    fake.connections.add(self.connection)

            def do_GET(self):
                fake.handle(self, "GET")

            def do_POST(self):
                fake.handle(self, "POST")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    def crash(self):
        """Gone as a crashed renderer is: the port freed and every connection closed under its requests."""
        self.close()
        with self.lock:
            connections, self.connections = self.connections, set()
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # ---- the API ----

    def handle(self, request, method):
        url = urllib.parse.urlsplit(request.path)
        length = int(request.headers.get("Content-Length") or 0)
        raw = request.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = None
        if url.path.startswith("/fake/"):
            return self.reply(request, 200, self.test_route(method, url.path, body))
        if url.path == "/api/hello":
            # The renderer's proof that it holds the token, asked before every request that carries
            # it (docs/control-api.md, "Before sending the token"); not in the log of token requests.
            self.released.wait(60)
            with self.lock:
                self.hellos += 1
            nonce = urllib.parse.parse_qs(url.query).get("nonce", [""])[0]
            message = f"commentbar-control-hello|{self.port}|{nonce.lower()}".encode()
            return self.reply(request, 200, {"proof": hmac.new(self.token.encode(), message, hashlib.sha256).hexdigest()})
        with self.lock:
            self.log.append({"method": method, "path": request.path, "authorization": request.headers.get("Authorization"),
                             "content_type": request.headers.get("Content-Type"), "body": body})
        self.released.wait(60)
        if request.headers.get("Authorization") != f"Bearer {self.token}":
            return self.reply(request, 401, {"error": "no token"})
        if request.headers.get("Host") not in (f"127.0.0.1:{self.port}", f"localhost:{self.port}"):
            return self.reply(request, 403, {"error": "foreign host"})
        query = urllib.parse.parse_qs(url.query)
        with self.lock:
            if method == "GET":
                status, answer = self.read(url.path, query)
                if status == 200 and url.path == "/api/comments" and self.held(query):
                    status, answer = self.read(url.path, query)
            elif request.headers.get("Content-Type") != "application/json":
                status, answer = 415, {"error": "commands need Content-Type: application/json"}
            elif body is None:
                status, answer = 400, {"error": "not JSON"}
            else:
                status, answer = self.command(url.path, body)
        self.reply(request, status, answer)

    def held(self, query):
        """Holds a wait= request (the lock held) until news after its since, a stall or its seconds;
        true once it waited."""
        since = int(query.get("since", ["0"])[0])
        wait = int(query.get("wait", ["0"])[0])
        news = lambda: self.news > since or since > self.seq or not self.released.is_set()  # noqa: E731
        if not wait or news():
            return False
        self.lock.wait_for(news, timeout=wait)
        return True

    @property
    def news(self):
        """The newest event a comments reader hears of (comments, removals, the pin)."""
        return max([self.state_seq, self.forgotten] + [c["seq"] for c in self.comments[-1:]] +
                   [e["seq"] for e in self.removed[-1:]])

    def read(self, path, query):
        if path == "/api/state":
            state = {"version": 1, "seq": self.seq,
                     "streams": [{"platform": "twitch", "channel": "fake", "state": "live", "viewers": 12}]}
            if self.pin:
                state["pin"] = self.pin
            return 200, state
        if path == "/api/comments":
            since = int(query.get("since", ["0"])[0])
            limit = int(query.get("limit", ["100"])[0])
            after = [c for c in self.comments if c["seq"] > since]
            removed = [event for event in self.removed if event["seq"] > since]
            return 200, {"version": 1, "seq": self.seq, "state_seq": self.state_seq, "comments": after[-limit:],
                         "removed": removed,
                         "removed_complete": since >= self.forgotten}
        if path == "/api/search":
            text = query.get("q", [""])[0]
            found = [c for c in self.comments if text in c["text"] or text in c["name"]]
            return 200, {"version": 1, "comments": found[-int(query.get("limit", ["100"])[0]):]}
        return 404, {"error": "no such page"}

    def command(self, path, body):
        if path == "/api/pin":
            found = next((c for c in self.comments if c["id"] == body.get("id")), None)
            if not found:
                return 404, {"error": "no such comment"}
            self.seq += 1
            comment = {k: v for k, v in found.items() if k not in ("version", "type", "seq")}
            self.pin = {"id": found["id"], "pinned": True, "comment": comment}
            self.state_seq = self.seq
            self.lock.notify_all()
            return 200, {"ok": True, "id": found["id"], "until": None}
        if path == "/api/unpin":
            if not self.pin or ("id" in body and body["id"] != self.pin["id"]):
                return 404, {"error": "not pinned"}
            self.seq += 1
            self.pin = None
            self.state_seq = self.seq
            self.lock.notify_all()
            return 200, {"ok": True}
        if path == "/api/viewer":
            if not all(isinstance(body.get(k), str) for k in ("platform", "channel", "user")) or \
                    not any(k in body for k in ("nickname", "colour", "voice", "hidden")):
                return 400, {"error": "a viewer choice needs platform, channel, user and a choice"}
            voice = body.get("voice", "")
            if not isinstance(voice, str) or len(voice) > 256 or any(ord(c) < 0x20 or ord(c) == 0x7F for c in voice):
                return 400, {"error": "a voice is one line of at most 256 characters"}
            return 200, {"ok": True}
        if path == "/api/speech/skip":
            return 200, {"ok": True}
        if path == "/api/speech/pause":
            self.paused = body.get("paused", not self.paused)
            return 200, {"ok": True, "paused": self.paused}
        return 404, {"error": "no such command"}

    @staticmethod
    def reply(request, status, answer):
        data = json.dumps(answer, ensure_ascii=False).encode()
        try:
            request.send_response(status)
            request.send_header("Content-Type", "application/json")
            request.send_header("Content-Length", str(len(data)))
            request.send_header("Cache-Control", "no-store")
            request.end_headers()
            request.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (the stalled server's requests time out)

    # ---- the test's routes ----

    def add(self, comment, history=False):
        self.seq += 1
        event = {"version": 1, "type": "comment", "seq": self.seq, "platform": "twitch", "channel": "fake",
                 "platform_colour": "#9146ff", "user": comment.get("name", "").lower(), "nickname": None,
                 "first_time": False, "emotes": [], "colour": None, "badges": [], "kind": "comment",
                 "history": history, "time": 1700000000.0 + self.seq, **comment}
        self.comments.append(event)
        del self.comments[:-KEPT]
        self.lock.notify_all()

    def remove(self, event, takes, forgotten=False):
        """Publishes a delete, ban or clear EVENT; the comments it TAKES are no longer served (as the
        renderer's EventHub forgets them)."""
        self.seq += 1
        if forgotten:
            self.forgotten = self.seq
        else:
            self.removed.append({"version": 1, "seq": self.seq, "platform": "twitch", "channel": "fake", **event})
        del self.removed[:-KEPT]
        self.comments = [c for c in self.comments if not takes(c)]
        self.lock.notify_all()
        return {"seq": self.seq}

    def test_route(self, method, path, body):
        with self.lock:
            if path == "/fake/comments" and method == "POST":
                for comment in body:
                    self.add(comment)
                return {"seq": self.seq}
            if path == "/fake/delete":
                return self.remove({"type": "delete", "id": body["id"]}, lambda c: c["id"] == body["id"],
                                   forgotten=body.get("forgotten", False))
            if path == "/fake/ban":
                user = body["user"].lower()
                return self.remove({"type": "ban", "user": body["user"]}, lambda c: c["user"].lower() == user)
            if path == "/fake/clear":
                return self.remove({"type": "clear"}, lambda c: True)
            if path == "/fake/restart":
                old, self.comments, self.seq, self.pin, self.removed = self.comments, [], 0, None, []
                self.forgotten = self.state_seq = 0
                self.lock.notify_all()
                for comment in old:
                    self.add({k: v for k, v in comment.items() if k not in ("seq", "history")}, history=True)
                return {"seq": self.seq}
            if path == "/fake/stall":
                (self.released.clear if body.get("on") else self.released.set)()
                self.lock.notify_all()
                return {"ok": True}
            if path == "/fake/log":
                return self.log
            if path == "/fake/log/clear":
                self.log = []
                return {"ok": True}
        return {"error": "no such fake route"}
