# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake control server for the dock's widget test, speaking the control API as docs/control-api.md
documents it (the renderer's real server is tested in Tests/control): GET /api/state,
/api/comments?since=&limit=&wait= (held until news: a comment, a removal, a pin or unpin, a poll,
queue or giveaway event; or the wait's seconds), /api/search?q=&limit=; POST /api/pin, /api/unpin,
/api/viewer, /api/speech/skip, /api/speech/pause, with JSON bodies and `Content-Type:
application/json`. The token (`Authorization: Bearer`) and the Host are checked as documented: 401
and 403 otherwise.

The audience's boards (issue 48), in the shapes docs/control-api.md gives: GET /api/poll,
/api/queue, /api/giveaway; POST /api/poll, /api/poll/close, /api/poll/dismiss, /api/queue/open,
/api/queue/close, /api/queue/next, /api/queue/done, /api/queue/remove, /api/queue/move, /api/giveaway,
/api/giveaway/draw, /api/giveaway/dismiss, refusing what the API refuses with its status and an {"error"}. A move answers
the queue after it. Opening, closing, a move and players done are a queue_changed event and a started
giveaway a giveaway_started one, as the renderer's QueueBoard and GiveawayBoard tell them. /api/comments
answers say "boards_seq", the newest poll_*, queue_* or giveaway_* event's seq, and those events
wake held requests (the renderer's change for the dock, issue 49); /api/queue/open also takes
"min_streams" (an int from 0: regulars only, seen on that many earlier streams) and
"members_only" (a bool), which the renderer takes from the same change on. A draw picks the first
entrant not drawn yet (the renderer draws at random): a test knows who wins.

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
    POST /fake/vote      {"user", "option"}  a viewer's vote (option from 1) in the open poll: a poll_vote event
    POST /fake/join      {"user", "name"}    a viewer joined the open queue: a queue_join event
    POST /fake/enter     {"user", "name"}    a viewer entered the open giveaway: a giveaway_entry event
    POST /fake/boards_seq {"on": false}     a renderer from before boards_seq: its answers lack it and the
                                            boards' events wake no held request ({"on": true}: back)
    GET  /fake/log                          every /api/ request: method, path, authorization, body
    POST /fake/log/clear {}
"""
import hashlib
import hmac
import http.server
import json
import socket
import threading
import time
import urllib.parse

from support.processes import free_port

KEPT = 1000  # the server keeps the newest 1000 comments (docs/control-api.md)
PLATFORM, CHANNEL = "twitch", "fake"  # the stream every fake viewer is on


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
        self.boards_seq = 0  # the newest poll, queue or giveaway event
        self.says_boards_seq = True  # False: a renderer from before boards_seq
        self.poll = None  # as GET /api/poll gives it
        self.poll_voters = {}  # (platform, channel, user): the option voted (from 0)
        self.queue = self.closed_queue()
        self.giveaway = None  # as GET /api/giveaway gives it
        self.entrants = []  # the giveaway's entries, viewers as its events name them
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
        """The newest event a comments reader hears of (comments, removals, the pin; the boards' events
        unless this is a renderer from before boards_seq)."""
        return max([self.state_seq, self.forgotten] + [c["seq"] for c in self.comments[-1:]] +
                   [e["seq"] for e in self.removed[-1:]] + ([self.boards_seq] if self.says_boards_seq else []))

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
            answer = {"version": 1, "seq": self.seq, "state_seq": self.state_seq, "comments": after[-limit:],
                      "removed": removed, "removed_complete": since >= self.forgotten}
            if self.says_boards_seq:
                answer["boards_seq"] = self.boards_seq
            return 200, answer
        if path == "/api/search":
            text = query.get("q", [""])[0]
            found = [c for c in self.comments if text in c["text"] or text in c["name"]]
            return 200, {"version": 1, "comments": found[-int(query.get("limit", ["100"])[0]):]}
        if path == "/api/poll":
            return (200, self.poll) if self.poll else (404, {"error": "no poll yet"})
        if path == "/api/queue":
            return 200, self.queue
        if path == "/api/giveaway":
            self.close_entries_on_time()
            return (200, self.giveaway) if self.giveaway else (404, {"error": "no giveaway yet"})
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
        if path.startswith("/api/poll"):
            return self.poll_command(path, body)
        if path.startswith("/api/queue"):
            return self.queue_command(path, body)
        if path.startswith("/api/giveaway"):
            return self.giveaway_command(path, body)
        return 404, {"error": "no such command"}

    # ---- the audience's boards (the lock held) ----

    def board_event(self):
        """A poll_*, queue_* or giveaway_* event: boards_seq moves and held requests wake."""
        self.seq += 1
        self.boards_seq = self.seq
        self.lock.notify_all()

    @staticmethod
    def is_int(value, low, high):
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    @staticmethod
    def seconds_refused(body):
        seconds = body.get("seconds")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not 1 <= seconds <= 86400):
            return "seconds is 1 to 86400"
        return None

    def close_poll(self):
        self.poll["open"] = False
        self.poll["closed_at"] = time.time()
        self.board_event()

    def poll_command(self, path, body):
        if path == "/api/poll":
            question, options = body.get("question"), body.get("options")
            if not isinstance(question, str) or not question.strip() or len(question) > 200:
                return 400, {"error": "a poll needs a question of at most 200 characters"}
            if not isinstance(options, list) or not 2 <= len(options) <= 9 or \
                    not all(isinstance(o, str) and o.strip() and len(o) <= 200 for o in options):
                return 400, {"error": "a poll has 2 to 9 answers of at most 200 characters"}
            if len({o.strip().casefold() for o in options}) != len(options):
                return 400, {"error": "two answers are the same"}
            if self.seconds_refused(body):
                return 400, {"error": self.seconds_refused(body)}
            if body.get("revote", "first") not in ("first", "latest"):
                return 400, {"error": 'revote is "first" or "latest"'}
            if not isinstance(body.get("bare_numbers", False), bool):
                return 400, {"error": "bare_numbers is true or false"}
            if self.poll and self.poll["open"]:
                self.close_poll()
            now = time.time()
            self.poll = {"question": question, "options": [{"text": o, "votes": 0, "platforms": {}} for o in options],
                         "voters": 0, "open": True, "opened_at": now, "dismissed": False}
            self.poll_voters = {}
            if body.get("seconds"):
                self.poll["closes_at"] = now + body["seconds"]
                poll = self.poll
                timer = threading.Timer(body["seconds"], lambda: self.close_on_time(poll))
                timer.daemon = True
                timer.start()
            self.board_event()
            return 200, self.poll
        if path == "/api/poll/close":
            if not self.poll or not self.poll["open"]:
                return 404, {"error": "no poll is open"}
            self.close_poll()
            return 200, self.poll
        if path == "/api/poll/dismiss":
            # As the renderer's PollBoard.dismiss: a closed result only, once (poll_dismissed).
            if not self.poll or self.poll["open"] or self.poll["dismissed"]:
                return 404, {"error": "no closed poll is on the bar (close an open one first)"}
            self.poll["dismissed"] = True
            self.board_event()
            return 200, {"ok": True}
        return 404, {"error": "no such command"}

    def close_on_time(self, poll):
        with self.lock:
            if self.poll is poll and poll["open"]:
                self.close_poll()

    @staticmethod
    def same_viewer(entry, body):
        return all(entry[k] == body.get(k) for k in ("platform", "channel", "user"))

    @staticmethod
    def closed_queue():
        """GET /api/queue while it is closed, as the renderer's ControlQueue.closed encodes (every key)."""
        return {"open": False, "capacity": 0, "first_time_first": False, "min_streams": 0, "members_only": False,
                "playing": [], "waiting": []}

    def move_in_queue(self, body):
        """POST /api/queue/move as the renderer's ControlRoutes.moveInQueue: the viewer's fields and a
        place from 1 (past the end: last); 404 for a viewer not waiting, the queue closed too."""
        if not isinstance(body, dict) or not all(isinstance(body.get(k), str) for k in ("platform", "channel", "user")) \
                or not self.is_int(body.get("place"), 1, (1 << 63) - 1):
            return 400, {"error": "send {\"platform\", \"channel\", \"user\", \"place\": 1 or more} as the events name the viewer"}
        waiting = self.queue["waiting"] if self.queue["open"] else []
        index = next((i for i, entry in enumerate(waiting) if self.same_viewer(entry, body)), None)
        if index is None:
            return 404, {"error": "that viewer is not waiting in the queue"}
        entry = waiting.pop(index)
        waiting.insert(min(body["place"] - 1, len(waiting)), entry)
        self.board_event()
        return 200, self.queue

    def queue_command(self, path, body):
        if path == "/api/queue/move":
            return self.move_in_queue(body)
        if path == "/api/queue/open":
            capacity = body.get("capacity", 50)
            if not self.is_int(capacity, 1, 500):
                return 400, {"error": "capacity is 1 to 500"}
            if "first_time_first" in body and not isinstance(body["first_time_first"], bool) or \
                    "members_only" in body and not isinstance(body["members_only"], bool):
                return 400, {"error": "first_time_first and members_only are true or false"}
            if "min_streams" in body and not self.is_int(body["min_streams"], 0, 1 << 31):
                return 400, {"error": "min_streams is 0 or more"}
            for name in ("join", "leave"):
                words = body.get(name, ["!" + name])
                if not isinstance(words, list) or not 1 <= len(words) <= 10 or \
                        not all(isinstance(w, str) and w.strip() and len(w) <= 100 for w in words):
                    return 400, {"error": f"{name} is a list of 1 to 10 words of at most 100 characters"}
            if not self.queue["open"]:
                self.queue = {"open": True, "capacity": capacity, "playing": [], "waiting": []}
            self.queue.update({"capacity": capacity, "first_time_first": body.get("first_time_first", False),
                               "min_streams": body.get("min_streams", 0), "members_only": body.get("members_only", False)})
            self.board_event()
            return 200, self.queue
        if not self.queue["open"]:
            return 404, {"error": "the queue is not open"}
        if path == "/api/queue/close":
            self.queue = self.closed_queue()
            self.board_event()
            return 200, {"ok": True}
        if path == "/api/queue/next":
            count = body.get("count", 1)
            if not self.is_int(count, 1, 50):
                return 400, {"error": "send {} or {\"count\": 1 to 50}"}
            called, self.queue["waiting"] = self.queue["waiting"][:count], self.queue["waiting"][count:]
            for entry in called:
                entry["count"] += 1
            self.queue["playing"] = called
            self.board_event()
            return 200, {"called": called}
        if path == "/api/queue/done":
            if self.queue["playing"]:
                self.queue["playing"] = []
                self.board_event()
            return 200, {"ok": True}
        if path == "/api/queue/remove":
            kept = {name: [e for e in self.queue[name] if not self.same_viewer(e, body)] for name in ("playing", "waiting")}
            if sum(map(len, kept.values())) == len(self.queue["playing"]) + len(self.queue["waiting"]):
                return 404, {"error": "that viewer is not in the queue"}
            self.queue.update(kept)
            self.board_event()
            return 200, {"ok": True}
        return 404, {"error": "no such command"}

    def close_entries_on_time(self):
        if self.giveaway and self.giveaway["open"] and self.giveaway.get("closes_at", float("inf")) <= time.time():
            self.giveaway["open"] = False

    def giveaway_command(self, path, body):
        if path == "/api/giveaway":
            word = body.get("word")
            if not isinstance(word, str) or not word.strip() or len(word) > 100:
                return 400, {"error": "a giveaway needs an entry word of at most 100 characters"}
            if self.seconds_refused(body):
                return 400, {"error": self.seconds_refused(body)}
            if "min_comments" in body and not self.is_int(body["min_comments"], 0, 1000):
                return 400, {"error": "min_comments is 0 to 1000"}
            if not isinstance(body.get("first_time", True), bool):
                return 400, {"error": "first_time is true or false"}
            self.giveaway = {"word": word, "open": True, "entries": 0, "winners": [], "dismissed": False}
            if body.get("seconds"):
                self.giveaway["closes_at"] = time.time() + body["seconds"]
            self.entrants = []
            self.board_event()
            return 200, self.giveaway
        if path == "/api/giveaway/draw":
            left = [v for v in self.entrants if v not in self.giveaway["winners"]] if self.giveaway else []
            if not left:
                return 404, {"error": "no giveaway, or nobody left to draw"}
            self.giveaway["open"] = False
            self.giveaway["winners"].append(left[0])
            self.giveaway["dismissed"] = False  # as GiveawayBoard.draw: the new winner is pinned
            self.board_event()
            return 200, {"winner": left[0]}
        if path == "/api/giveaway/dismiss":
            # As the renderer's GiveawayBoard.dismiss: a winner on the bar only, once (giveaway_dismissed).
            if not self.giveaway or not self.giveaway["winners"] or self.giveaway["dismissed"]:
                return 404, {"error": "no giveaway winner is on the bar"}
            self.giveaway["dismissed"] = True
            self.board_event()
            return 200, {"ok": True}
        return 404, {"error": "no such command"}

    def viewer(self, body):
        return {"platform": PLATFORM, "channel": CHANNEL, "user": body["user"], "name": body.get("name", body["user"])}

    def vote(self, body):
        key = (PLATFORM, CHANNEL, body["user"])
        option = body["option"] - 1
        if not self.poll or not self.poll["open"] or key in self.poll_voters or \
                not 0 <= option < len(self.poll["options"]):
            return {"counted": False}
        self.poll_voters[key] = option
        chosen = self.poll["options"][option]
        chosen["votes"] += 1
        chosen["platforms"][PLATFORM] = chosen["platforms"].get(PLATFORM, 0) + 1
        self.poll["voters"] += 1
        self.board_event()
        return {"counted": True, "seq": self.seq}

    def join(self, body):
        entry = {**self.viewer(body), "count": 0}
        queue = self.queue
        if not queue["open"] or len(queue["waiting"]) >= queue["capacity"] or \
                any(self.same_viewer(e, entry) for e in queue["playing"] + queue["waiting"]):
            return {"joined": False}
        queue["waiting"].append(entry)
        self.board_event()
        return {"joined": True, "place": len(queue["waiting"]), "seq": self.seq}

    def enter(self, body):
        self.close_entries_on_time()
        viewer = self.viewer(body)
        if not self.giveaway or not self.giveaway["open"] or viewer in self.entrants:
            return {"entered": False}
        self.entrants.append(viewer)
        self.giveaway["entries"] = len(self.entrants)
        self.board_event()
        return {"entered": True, "seq": self.seq}

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
                self.forgotten = self.state_seq = self.boards_seq = 0
                self.lock.notify_all()
                for comment in old:
                    self.add({k: v for k, v in comment.items() if k not in ("seq", "history")}, history=True)
                return {"seq": self.seq}
            if path == "/fake/stall":
                (self.released.clear if body.get("on") else self.released.set)()
                self.lock.notify_all()
                return {"ok": True}
            if path == "/fake/vote":
                return self.vote(body)
            if path == "/fake/join":
                return self.join(body)
            if path == "/fake/enter":
                return self.enter(body)
            if path == "/fake/boards_seq":
                self.says_boards_seq = bool(body.get("on"))
                return {"ok": True}
            if path == "/fake/log":
                return self.log
            if path == "/fake/log/clear":
                self.log = []
                return {"ok": True}
        return {"error": "no such fake route"}
