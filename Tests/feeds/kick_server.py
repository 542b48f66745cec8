# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake Kick: the channel JSON of kick.com over HTTPS (live, offline, 403 from a bot wall)
and Kick's Pusher app on ws-us2.pusher.com over a TLS WebSocket speaking Pusher protocol 7
(connection_established with activity_timeout, subscribe/subscription_succeeded, ping/pong,
events whose `data` is a JSON string). Shapes: fixtures/kick/SOURCES.md."""
import json
import threading

from fake_platform import FakeChatServer, FakeWebAPI
from support.fakes import LoopbackFake

API_HOST = "kick.com"
PUSHER_HOST = "ws-us2.pusher.com"
PUSHER_PATH_PREFIX = "/app/32cbd69e4b950bf97679"


def channel_json(slug, channel_id, chatroom_id, live, viewers=4321):
    return {
        "id": channel_id, "user_id": channel_id + 8, "slug": slug, "is_banned": False, "vod_enabled": True,
        "subscription_enabled": True, "followers_count": 5120,
        "user": {"id": channel_id + 8, "username": slug.capitalize(), "bio": "", "profile_pic": None},
        "chatroom": {"id": chatroom_id, "chatable_type": "App\\Models\\Channel", "channel_id": channel_id,
                     "chat_mode": "public", "slow_mode": False, "followers_mode": False,
                     "subscribers_mode": False, "emotes_mode": False, "message_interval": 0},
        "livestream": {"id": 990001, "slug": f"990001-{slug}", "channel_id": channel_id,
                       "created_at": "2024-05-01 18:00:00", "session_title": "テスト配信 test stream",
                       "is_live": True, "start_time": "2024-05-01 18:00:00", "viewer_count": viewers,
                       "language": "Japanese", "is_mature": False} if live else None,
    }


class FakeKick(LoopbackFake):
    def __init__(self, test_ca, activity_timeout=120, answers_pings=True):
        super().__init__(test_ca)
        self.answers_pings = answers_pings  # False: a server gone silent (its pongs never come)
        self.lock = threading.Lock()
        self.channels = {}  # slug -> JSON (None: 404)
        self.refused = set()  # slugs whose JSON answers 403 (the bot wall)
        self.activity_timeout = activity_timeout
        self.api = self.serves(FakeWebAPI(test_ca, self._route), API_HOST)
        self.chat = self.serves(FakeChatServer(test_ca, on_message=self._on_message, on_connect=self._on_connect), PUSHER_HOST)

    def add_channel(self, slug, channel_id=700, chatroom_id=668, live=True, viewers=4321):
        with self.lock:
            self.channels[slug] = channel_json(slug, channel_id, chatroom_id, live, viewers)

    def _route(self, method, path, query, body):
        with self.lock:
            if path.startswith("/api/v2/channels/"):
                slug = path[len("/api/v2/channels/"):]
                if slug in self.refused:
                    return 403, "text/html", "<html><title>Just a moment...</title></html>"
                channel = self.channels.get(slug)
                if channel is None:
                    return 404, "application/json", json.dumps({"message": "Not found"})
                return 200, "application/json", json.dumps(channel, ensure_ascii=False)
        return 404, "text/plain", "not found"

    async def _on_connect(self, websocket):
        await websocket.send(self.pusher("pusher:connection_established",
                                         {"socket_id": "123456.7890123", "activity_timeout": self.activity_timeout}))

    async def _on_message(self, websocket, message):
        frame = json.loads(message)
        if frame.get("event") == "pusher:subscribe":
            await websocket.send(self.pusher("pusher_internal:subscription_succeeded", {},
                                             channel=frame["data"]["channel"]))
        elif frame.get("event") == "pusher:ping" and self.answers_pings:
            await websocket.send(self.pusher("pusher:pong", {}))

    @staticmethod
    def pusher(event, data, channel=None):
        """One Pusher frame: `data` is a JSON string inside the JSON, as Pusher sends it."""
        frame = {"event": event, "data": json.dumps(data, ensure_ascii=False, separators=(",", ":"))}
        if channel is not None:
            frame["channel"] = channel
        return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))

    def event(self, kind, data, chatroom_id=668):
        return self.pusher("App\\Events\\" + kind, data, channel=f"chatrooms.{chatroom_id}.v2")

    def message(self, ident, username, content, color="#FF9D00", badges=(), slug=None):
        return self.event("ChatMessageEvent", {
            "id": ident, "chatroom_id": 668, "content": content, "type": "message",
            "created_at": "2024-05-01T18:05:00+00:00",
            "sender": {"id": 4242, "username": username, "slug": slug or username.lower(),
                       "identity": {"color": color, "badges": [{"type": b, "text": b.capitalize()} for b in badges]}},
            "metadata": {"message_ref": "1714586700000"}})
