# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake Mirrativ: the web API of www.mirrativ.com over HTTPS, which answers only with a
valid session cookie (401 without one or with an expired one), and the chat server
online.mirrativ.com over a TLS WebSocket speaking tab-separated lines (SUB/MSG/PING/ACK).
Shapes: fixtures/mirrativ/SOURCES.md."""
import json
import threading

from fake_platform import FakeChatServer, FakeWebAPI
from support.fakes import LoopbackFake

API_HOST = "www.mirrativ.com"
CHAT_HOST = "online.mirrativ.com"
GOOD_SESSION = "s3cr3t-session-0123456789abcdef"
BAD_SESSION = "expired-session-fedcba9876543210"
OK = {"ok": 1, "msg": "", "error": "", "captcha_url": "", "error_code": 0, "message": ""}
NOT_LOGGED_IN = {"ok": 0, "msg": "", "error": "ログインしてください", "captcha_url": "", "error_code": 401,
                 "message": "ログインしてください"}


class FakeMirrativ(LoopbackFake):
    def __init__(self, test_ca):
        super().__init__(test_ca)
        self.lock = threading.Lock()
        self.lives = {}  # live_id -> answer
        self.onlive = {}  # user_id -> live_id
        self.online_user_num = 77
        self.api = self.serves(FakeWebAPI(test_ca, self._route, with_headers=True), API_HOST)
        self.chat = self.serves(FakeChatServer(test_ca, on_message=self._on_message), CHAT_HOST)

    def add_live(self, live_id, key="3f9a2c:mRvT0k3n", live=True, user_id="1234567"):
        with self.lock:
            self.lives[live_id] = {
                "live_id": live_id, "is_live": live, "title": "ミラティブ テスト配信", "bcsvr_key": key,
                "broadcast_key": key, "online_user_num": self.online_user_num, "total_viewer_num": 512,
                "started_at": 1714586400, "owner": {"user_id": user_id, "name": "配信者", "share_url": ""},
                "status": OK}
            self.onlive[user_id] = live_id if live else None

    def _route(self, method, path, query, body, headers):
        cookie = headers.get("Cookie", "")
        with self.lock:
            if f"mr_id={GOOD_SESSION}" not in cookie:
                return 401, "application/json", json.dumps({"status": NOT_LOGGED_IN}, ensure_ascii=False)
            if path == "/api/live/live":
                live = self.lives.get(query.get("live_id"))
                if live is None:
                    return 404, "application/json", json.dumps({"status": {**OK, "ok": 0, "error_code": 404}})
                return 200, "application/json", json.dumps({**live, "online_user_num": self.online_user_num},
                                                           ensure_ascii=False)
            if path == "/api/user/profile":
                live_id = self.onlive.get(query.get("user_id"))
                return 200, "application/json", json.dumps(
                    {"user_id": query.get("user_id"), "name": "配信者", "status": OK,
                     "onlive": {"live_id": live_id} if live_id else None}, ensure_ascii=False)
        return 404, "text/plain", "not found"

    async def _on_message(self, websocket, message):
        if message == "PING":
            await websocket.send("ACK")

    def msg(self, payload, key="3f9a2c:mRvT0k3n"):
        return f"MSG\t{key}\t" + json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
