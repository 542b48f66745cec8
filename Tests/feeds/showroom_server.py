# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake SHOWROOM: the web API of www.showroom-live.com (room status, gift list, room
profile) over HTTPS, and the chat server online.showroom-live.com over a TLS WebSocket,
speaking SHOWROOM's tab-separated lines (SUB/MSG/PING/ACK). Shapes: fixtures/showroom/SOURCES.md."""
import json
import threading

from fake_platform import FakeChatServer, FakeWebAPI
from support.fakes import LoopbackFake

API_HOST = "www.showroom-live.com"
CHAT_HOST = "online.showroom-live.com"

GIFT_LIST = {
    "normal": [
        {"gift_type": 2, "gift_id": 1, "image": "https://static.showroom-live.com/image/gift/1_s.png",
         "is_hidden": False, "order_no": 101, "point": 1, "gift_name": "星", "free": True},
        {"gift_type": 1, "gift_id": 1001, "image": "https://static.showroom-live.com/image/gift/1001_s.png",
         "is_hidden": False, "order_no": 201, "point": 10, "gift_name": "ハート", "free": False},
    ],
    "enquete": [
        {"gift_id": 1601, "gift_name": "1", "point": 0, "free": True,
         "image": "https://static.showroom-live.com/image/gift/1601_s.png"},
    ],
}


class FakeShowroom(LoopbackFake):
    def __init__(self, test_ca):
        super().__init__(test_ca)
        self.lock = threading.Lock()
        # room_url_key -> the room status API's answer (None: no such room, 404)
        self.rooms = {}
        self.view_num = 1234
        self.throttled = set()  # room keys whose status answers 429
        self.api = self.serves(FakeWebAPI(test_ca, self._route), API_HOST)
        self.chat = self.serves(FakeChatServer(test_ca, on_message=self._on_message), CHAT_HOST)
        self.subscribed = {}  # websocket -> key

    def add_room(self, key, room_id, live, broadcast_key="960df3:xzRiR62X"):
        with self.lock:
            self.rooms[key] = {
                "room_url_key": key, "room_id": room_id, "room_name": "テストルーム", "is_live": live,
                "started_at": 1591278000 if live else 0, "live_id": 9834293 if live else 0,
                "broadcast_key": broadcast_key if live else "",
                "broadcast_host": CHAT_HOST if live else "", "broadcast_port": 8080,
            }

    def set_live(self, key, live, broadcast_key="960df3:xzRiR62X", host=CHAT_HOST):
        with self.lock:
            room = self.rooms[key]
            room.update(is_live=live, broadcast_key=broadcast_key if live else "",
                        broadcast_host=host if live else "", started_at=1591278000 if live else 0)

    def _route(self, method, path, query, body):
        with self.lock:
            if path == "/api/room/status":
                if query.get("room_url_key") in self.throttled:
                    return 429, "text/plain", "Too Many Requests"
                room = self.rooms.get(query.get("room_url_key"))
                if room is None:
                    return 404, "application/json", json.dumps({"errors": [{"message": "Not Found"}]})
                return 200, "application/json", json.dumps(room)
            if path == "/api/live/gift_list":
                return 200, "application/json", json.dumps(GIFT_LIST, ensure_ascii=False)
            if path == "/api/room/profile":
                return 200, "application/json", json.dumps({"room_id": int(query.get("room_id", 0)),
                                                            "view_num": self.view_num, "is_onlive": True})
        return 404, "text/plain", "not found"

    async def _on_message(self, websocket, message):
        if message.startswith("SUB\t"):
            self.subscribed[websocket] = message[4:]
        elif message.startswith("PING\t"):
            await websocket.send("ACK\t" + message[5:])

    def msg(self, payload, key="960df3:xzRiR62X"):
        """One MSG line as the chat server sends it."""
        return f"MSG\t{key}\t" + json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
