# SPDX-License-Identifier: GPL-2.0-or-later
"""The `kick` service against a fake Kick (the channel JSON on kick.com and Kick's Pusher app on
ws-us2.pusher.com, under their real host names, TLS with the test CA): the channel JSON (live,
offline, refused by the bot wall), the Pusher protocol 7 handshake and pings, every chat event the
bar shows, a chatroom id typed directly, hostile frames."""
import json
import time

import pytest

from kick_server import FakeKick


@pytest.fixture
def kick(test_ca):
    server = FakeKick(test_ca)
    yield server
    server.close()


def start(tail_factory, kick, test_ca, stream, **env):
    return tail_factory("--service", "kick", "--stream", stream, env=kick.env(**env))


def subscribed(channel):
    return lambda m: json.loads(m) == {"event": "pusher:subscribe", "data": {"auth": "", "channel": channel}}


def test_live_channel_handshake_chat_events_and_end(kick, test_ca, tail_factory):
    kick.add_channel("cb_streamer".replace("_", "-"), channel_id=700, chatroom_id=668, viewers=4321)
    tail = start(tail_factory, kick, test_ca, "https://kick.com/CB_Streamer")
    kick.api.wait_request(lambda r: r[1] == "/api/v2/channels/cb-streamer")
    kick.chat.wait_received(subscribed("chatrooms.668.v2"))
    kick.chat.wait_received(subscribed("channel.700"))
    tail.wait_stderr("status: live")
    tail.wait_event(lambda e: e.get("type") == "start" and e.get("time") == 1714586400)
    tail.wait_event(lambda e: e.get("type") == "viewers" and e.get("count") == 4321)
    assert all(path.startswith("/app/32cbd69e4b950bf97679?protocol=7") for path in kick.chat.paths)

    kick.chat.send(
        kick.message("m1", "Viewer", "こんにちは [emote:37226:KEKW] gg", color="#FF9D00",
                     badges=("moderator", "subscriber")),
        kick.message("m2", "Troll", "spam", slug="troll"),
        kick.message("m3", "Other", "消される"),
        kick.event("MessageDeletedEvent", {"id": "e1", "message": {"id": "m3"}, "aiModerated": False}),
        kick.event("UserBannedEvent", {"id": "e2", "user": {"id": 9, "username": "Troll", "slug": "troll"},
                                       "banned_by": {"id": 1, "username": "Mod", "slug": "mod"},
                                       "permanent": False, "duration": 10}),
        kick.event("SubscriptionEvent", {"chatroom_id": 668, "username": "Fan", "months": 3}),
        kick.event("GiftedSubscriptionsEvent", {"chatroom_id": 668, "gifted_usernames": ["a", "b", "c"],
                                                "gifter_username": "Gifter", "gifter_total": 30}),
        kick.event("PinnedMessageCreatedEvent", {"message": {"id": "m1"}}),
        json.dumps({"event": "App\\Events\\ChatMessageEvent", "data": "{not json", "channel": "chatrooms.668.v2"}),
        "not a pusher frame",
        kick.message("m4", "Marker", "after"))
    tail.wait_event(lambda e: e.get("text") == "after")
    events = list(tail.events)
    comment = next(e for e in events if e.get("id") == "m1")
    assert comment["type"] == "comment" and comment["user"] == "Viewer" and comment["login"] == "viewer"
    assert comment["text"] == "こんにちは KEKW gg" and comment["color"] == "#ff9d00"
    assert comment["badges"] == ["moderator", "subscriber"]
    assert comment["emotes"] == [{"start": 6, "end": 10, "name": "KEKW",
                                  "url": "https://files.kick.com/emotes/37226/fullsize"}]
    assert any(e.get("type") == "delete" and e.get("id") == "m3" for e in events)
    assert any(e.get("type") == "delete" and e.get("user") == "troll" for e in events)
    sub = next(e for e in events if e.get("type") == "gift" and e.get("user") == "Fan")
    assert "Subscription (3 months)" in sub["gift"] and sub["count"] == 1
    gifted = next(e for e in events if e.get("type") == "gift" and e.get("user") == "Gifter")
    assert gifted["count"] == 3 and "Gifted subscriptions" in gifted["gift"]
    assert not any(e.get("id") == "m1" and e.get("type") == "delete" for e in events)
    tail.wait_stderr("skipped")

    kick.chat.send(kick.event("ChatroomClearEvent", {"id": "e3"}))
    tail.wait_event(lambda e: e.get("type") == "clear")

    # The server's own ping is answered.
    kick.chat.send(kick.pusher("pusher:ping", {}))
    kick.chat.wait_received(lambda m: json.loads(m).get("event") == "pusher:pong")

    kick.chat.send(kick.pusher("App\\Events\\StopStreamBroadcast", {"livestream": {"id": 990001, "channel": {"id": 700}}},
                               channel="channel.700"))
    tail.wait_stderr("status: ended")


def test_pings_at_the_servers_activity_timeout(test_ca, tail_factory):
    kick = FakeKick(test_ca, activity_timeout=1)
    try:
        kick.add_channel("quiet")
        start(tail_factory, kick, test_ca, "quiet")
        kick.chat.wait_received(subscribed("chatrooms.668.v2"))
        kick.chat.wait_received(lambda m: json.loads(m) == {"event": "pusher:ping", "data": {}}, count=2)
    finally:
        kick.close()


def test_an_unanswered_ping_reconnects(test_ca, tail_factory):
    # A link that died without a close: Kick's ping goes unanswered, the connection is given up
    # (the server's activity timeout, 1 s here, not the transport's minutes) and made again.
    kick = FakeKick(test_ca, activity_timeout=1, answers_pings=False)
    try:
        kick.add_channel("mute")
        tail = start(tail_factory, kick, test_ca, "mute")
        kick.chat.wait_received(subscribed("chatrooms.668.v2"))
        tail.wait_stderr("did not answer a ping")
        deadline = time.monotonic() + 15
        while len(kick.chat.paths) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(kick.chat.paths) >= 2, "no new connection after the unanswered ping"
    finally:
        kick.close()


def test_offline_channel_waits(kick, test_ca, tail_factory):
    kick.add_channel("sleepy", live=False)
    tail = start(tail_factory, kick, test_ca, "kick.com/sleepy")
    tail.wait_stderr("status: waiting")
    time.sleep(1)
    assert kick.chat.paths == [], "no chat connection while the channel is offline"


def test_no_such_channel(kick, test_ca, tail_factory):
    tail = start(tail_factory, kick, test_ca, "nobody")
    tail.wait_stderr("no such Kick channel: nobody")


def test_bot_wall_says_so_and_a_typed_chatroom_still_reads_chat(kick, test_ca, tail_factory):
    kick.add_channel("walled")
    kick.refused.add("walled")
    tail = start(tail_factory, kick, test_ca, "https://kick.com/walled")
    tail.wait_stderr(lambda line: "HTTP 403" in line and "kick:chatroom:ID" in line)

    direct = tail_factory("--stream", "kick:chatroom:668", env=kick.env())
    kick.chat.wait_received(subscribed("chatrooms.668.v2"))
    direct.wait_stderr("status: live")
    kick.chat.send(kick.message("d1", "Direct", "届いた"))
    direct.wait_event(lambda e: e.get("text") == "届いた")
    assert kick.api.count(lambda r: r[1] == "/api/v2/channels/walled") >= 1


def test_oversized_frame_is_refused_and_chat_comes_back(kick, test_ca, tail_factory):
    kick.add_channel("big")
    tail = start(tail_factory, kick, test_ca, "big")
    kick.chat.wait_received(subscribed("chatrooms.668.v2"))
    tail.wait_stderr("status: live")
    kick.chat.send_frame_header(1 << 20 + 1)
    tail.wait_stderr(lambda line: "reconnecting" in line)
    kick.chat.wait_connections(2)
    kick.chat.wait_received(subscribed("chatrooms.668.v2"), count=2)
    time.sleep(0.5)
    kick.chat.send(kick.message("b1", "Back", "戻った"))
    tail.wait_event(lambda e: e.get("text") == "戻った")


def test_bad_channel_names_are_refused(kick, test_ca, tail_factory):
    tail = start(tail_factory, kick, test_ca, "https://kick.com/../etc")
    tail.wait_stderr("bad Kick channel")
    assert kick.api.requests == []
