# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake TwitCasting: twitcasting.tv's streamserver.php (a user's current movie and whether
it is live) and eventpubsuburl.php (the movie's event WebSocket URL) over HTTPS, and the event
WebSocket (JSON arrays of comment and gift events) over TLS. The event socket is served as
twitcasting.tv:8443, a name the test certificate covers. Shapes: fixtures/twitcasting/SOURCES.md."""
import json
import threading

from fake_platform import FakeChatServer, FakeWebAPI
from support.fakes import LoopbackFake

API_HOST = "twitcasting.tv"
FRONTEND_HOST = "frontendapi.twitcasting.tv"
TOKEN = "a1b2c3d4e5"
EVENT_PORT = 8443


class FakeTwitCasting(LoopbackFake):
    def __init__(self, test_ca):
        super().__init__(test_ca)
        self.lock = threading.Lock()
        self.users = {}  # user id -> {"id": movie id, "live": bool}
        self.viewers = 42
        self.api = self.serves(FakeWebAPI(test_ca, self._route), API_HOST, FRONTEND_HOST)
        self.events = self.serves(FakeChatServer(test_ca), API_HOST, port=EVENT_PORT)

    def add_user(self, user, movie_id, live):
        with self.lock:
            self.users[user] = {"id": movie_id, "live": live}

    def set_live(self, user, live, movie_id=None):
        with self.lock:
            self.users[user]["live"] = live
            if movie_id is not None:
                self.users[user]["id"] = movie_id

    def _route(self, method, path, query, body):
        with self.lock:
            if method == "GET" and path == "/streamserver.php":
                movie = self.users.get(query.get("target"))
                if movie is None:
                    return 200, "application/json", "{}"
                return 200, "application/json", json.dumps({
                    "movie": dict(movie),
                    "tc-hls": {"streams": {"high": "https://tc-hls.example/high.m3u8"}},
                })
            if method == "POST" and path == "/eventpubsuburl.php":
                form = dict(pair.split("=", 1) for pair in body.decode().split("&") if "=" in pair)
                movie_id = form.get("movie_id", "")
                return 200, "application/json", json.dumps(
                    {"url": f"wss://{API_HOST}:{EVENT_PORT}/tc.event.pubsub/{movie_id}?n=cce425f940dea58b"})
            if method == "POST" and path == "/happytoken.php":
                return 200, "application/json", json.dumps({"token": TOKEN})
            if method == "GET" and path.startswith("/movies/") and path.endswith("/status/viewer"):
                if query.get("token") != TOKEN:
                    return 403, "application/json", json.dumps({"error": {"code": 403}})
                movie_id = int(path.split("/")[2])
                return 200, "application/json", json.dumps({
                    "update_interval_sec": 30,
                    "movie": {"id": movie_id, "title": "ライブ", "telop": None, "category": None, "is_on_live": True,
                              "viewers": {"current": self.viewers, "total": self.viewers * 3}}}, ensure_ascii=False)
        return 404, "text/plain", "not found"

    @staticmethod
    def comment(ident, message, name, screen_name, user_id=None):
        return {"type": "comment", "id": ident, "message": message, "createdAt": 1703125960000,
                "author": {"id": user_id or screen_name, "name": name, "screenName": screen_name,
                           "profileImage": "https://imagegw02.twitcasting.tv/image3s/x.jpg", "grade": 0},
                "numComments": 100}

    @staticmethod
    def gift(ident, item, message, sender, count=None):
        event = {"id": ident, "type": "gift", "message": message, "plainMessage": "",
                 "item": {"name": item, "image": "https://s01.twitcasting.tv/img/item_tea.png", "detailImage": "",
                          "effectCommand": "", "showsSenderInfo": True},
                 "sender": {"id": sender, "name": sender.upper(), "screenName": sender,
                            "profileImage": "https://imagegw02.twitcasting.tv/g.jpg", "grade": 1},
                 "createdAt": 1703126345000, "isForMovie": True, "isPaidGift": False}
        if count is not None:
            event["score_items"] = [{"title": "🍡", "text": str(count)}]
        return event

    def send(self, *events):
        """One WebSocket message holding these events, as TwitCasting batches them."""
        self.events.send(json.dumps(list(events), ensure_ascii=False))
