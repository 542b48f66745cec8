# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake OPENREC: the public movies API (public.openrec.tv) over HTTPS, and the chat
(chat.openrec.tv) as Socket.IO over Engine.IO 3 on a TLS WebSocket: `0{…}` open, `40`,
`2`/`3` pings, `42["message","{json}"]` events. Shapes: fixtures/openrec/SOURCES.md."""
import json
import threading

from fake_platform import FakeChatServer, FakeWebAPI
from support.fakes import LoopbackFake

API_HOST = "public.openrec.tv"
CHAT_HOST = "chat.openrec.tv"


class FakeOpenrec(LoopbackFake):
    def __init__(self, test_ca, ping_interval_ms=25000):
        super().__init__(test_ca)
        self.lock = threading.Lock()
        self.movies = {}  # id -> movie answer
        self.ping_interval_ms = ping_interval_ms
        self.api = self.serves(FakeWebAPI(test_ca, self._route), API_HOST)
        self.chat = self.serves(FakeChatServer(test_ca, on_connect=self._on_connect, on_message=self._on_message), CHAT_HOST)

    def add_movie(self, ident, movie_id, status, live_views=1368):
        with self.lock:
            self.movies[ident] = {
                "id": ident, "movie_id": movie_id, "title": "テスト配信", "is_live": status == 1, "onair_status": status,
                "live_views": live_views, "total_views": live_views * 8, "total_yells": 0,
                "created_at": "2018-08-23T09:07:32+09:00",
                "started_at": "2018-08-23T09:37:50+09:00" if status else None,
                "ended_at": "2018-08-23T12:00:00+09:00" if status == 2 else None,
                "channel": {"id": "cb_channel", "nickname": "チャンネル"},
            }

    def set_status(self, ident, status):
        with self.lock:
            self.movies[ident]["onair_status"] = status
            self.movies[ident]["is_live"] = status == 1
            if status:
                self.movies[ident]["started_at"] = "2018-08-23T09:37:50+09:00"

    def _route(self, method, path, query, body):
        prefix = "/external/api/v5/movies/"
        with self.lock:
            if method == "GET" and path.startswith(prefix):
                movie = self.movies.get(path[len(prefix):])
                if movie is None:
                    return 404, "application/json", json.dumps({"status": 404, "message": "Not Found"})
                return 200, "application/json", json.dumps(movie, ensure_ascii=False)
        return 404, "text/plain", "not found"

    async def _on_connect(self, websocket):
        await websocket.send("0" + json.dumps({"sid": "OaVm6u6Lf5nqLRLEAAAB", "upgrades": [],
                                               "pingInterval": self.ping_interval_ms, "pingTimeout": 60000},
                                              separators=(",", ":")))
        await websocket.send("40")

    async def _on_message(self, websocket, message):
        if message == "2":
            await websocket.send("3")

    @staticmethod
    def event(kind, data):
        """A Socket.IO `message` event whose argument is the JSON text, as OPENREC sends it."""
        inner = json.dumps({"type": kind, "data": data}, ensure_ascii=False, separators=(",", ":"))
        return "42" + json.dumps(["message", inner], ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def chat_data(chat_id, message, name, key, **extra):
        data = {"movie_id": "993793", "live_type": "1", "onair_satus": "1", "user_id": "144706655",
                "openrec_user_id": "1091345", "user_name": name, "user_type": "2", "user_key": key, "user_rank": 0,
                "chat_id": str(chat_id), "item": "0", "golds": "0", "message": message,
                "cre_dt": "2018-07-26 08:25:45", "is_fresh": 0, "is_warned": 0, "is_moderator": 0, "is_premium": 0,
                "has_banned_word": 0, "stamp": None, "quality_type": "0",
                "user_icon": "https://hayabusa.io/openrec-image/user/1/1.png", "supporter_rank": 0,
                "is_creaters": 0, "is_premium_hidden": 0, "user_color": None, "yell": None,
                "display_dt": "0秒前", "del_flg": "0"}
        data.update(extra)
        return data
