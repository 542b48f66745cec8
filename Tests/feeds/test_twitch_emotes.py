# SPDX-License-Identifier: GPL-2.0-or-later
"""The `twitch` service's emotes: Twitch's own (`emotes` tag) and the channel's BetterTTV,
FrankerFaceZ and 7TV ones, loaded from fake APIs (reached as api.betterttv.net,
api.frankerfacez.com and 7tv.io through COMMENTBAR_CONNECT_TO with the test CA) by the
`room-id` the chat gives; chat reached as irc-ws.chat.twitch.tv. Hostile API answers leave
chat working."""
import itertools
import time

import pytest

from conftest import EVENTUALLY, free_port
from emote_api_server import ROOM, FakeEmoteAPIs, Hang, default_routes
from twitch_server import FakeTwitch

TWITCH_CDN = "https://static-cdn.jtvnw.net/emoticons/v2/{}/default/dark/2.0"
CHANNEL_PATHS = {("api.betterttv.net", f"/3/cached/users/twitch/{ROOM}"),
                 ("api.frankerfacez.com", f"/v1/room/id/{ROOM}"),
                 ("7tv.io", f"/v3/users/twitch/{ROOM}")}
GLOBAL_PATHS = {("api.betterttv.net", "/3/cached/emotes/global"),
                ("api.frankerfacez.com", "/v1/set/global"),
                ("7tv.io", "/v3/emote-sets/global")}


@pytest.fixture
def twitch(test_ca):
    server = FakeTwitch(free_port(), test_ca)
    yield server
    server.close()


def start(tail_factory, twitch, apis, test_ca):
    # The whole routing table: chat and the emote APIs to the fakes, metadata to nowhere.
    connect_to = [f"irc-ws.chat.twitch.tv:443:127.0.0.1:{twitch.port}", "gql.twitch.tv:443:127.0.0.1:9"]
    connect_to += apis.connect_to() if apis else [f"{h}:443:127.0.0.1:9" for h in ("api.betterttv.net",
                                                                                   "api.frankerfacez.com", "7tv.io")]
    tail = tail_factory("--service", "twitch", "--stream", "CBTest",
                        env={"COMMENTBAR_CA_FILE": test_ca["ca"], "COMMENTBAR_CONNECT_TO": ",".join(connect_to)})
    tail.wait_stderr("status: live")
    twitch.wait_joined()
    twitch.send(f"@emote-only=0;followers-only=-1;r9k=0;room-id={ROOM};slow=0;subs-only=0 :tmi.twitch.tv ROOMSTATE #cbtest")
    return tail


def emotes(event):
    return [(e["start"], e["end"], e["name"], e["url"]) for e in event.get("emotes", [])]


def send_until(twitch, tail, line, done):
    """Sends `line` (with a fresh id each time) until a row satisfies `done`: the lists load
    beside the chat, so the first rows may come before them."""
    deadline = time.monotonic() + EVENTUALLY
    for n in itertools.count():
        ident = f"try{n}"
        twitch.send(f"@id={ident};" + line)
        event, _ = tail.wait_event(lambda e: e.get("id") == ident)
        if done(event) or time.monotonic() > deadline:
            return event
        time.sleep(0.5)


def test_twitch_bttv_ffz_and_7tv_words_become_emotes(twitch, test_ca, tail_factory):
    apis = FakeEmoteAPIs(test_ca)
    try:
        tail = start(tail_factory, twitch, apis, test_ca)
        apis.wait_requests(GLOBAL_PATHS | CHANNEL_PATHS)
        text = "Kappa catJAM EZ OMEGALUL peepoHappy monkaS LilZ FileTrick xEZ :tf:"
        row = send_until(twitch, tail, f"emotes=25:0-4;room-id={ROOM} :fan!fan@fan.tmi.twitch.tv PRIVMSG #cbtest :{text}",
                         lambda e: len(e.get("emotes", [])) >= 8)
        assert row["text"] == text
        assert emotes(row) == [
            (0, 5, "Kappa", TWITCH_CDN.format("25")),
            (6, 12, "catJAM", "https://cdn.betterttv.net/emote/5f1b0186cf6d2144653d2970/2x"),
            (13, 15, "EZ", "https://cdn.7tv.app/emote/60ae958e229664e8667aea38/2x.webp"),
            (16, 24, "OMEGALUL", "https://cdn.frankerfacez.com/emote/128054/2"),
            (25, 35, "peepoHappy", "https://cdn.7tv.app/emote/60aed4fe423a803ccae373d3/2x.webp"),
            # In 7TV's, BetterTTV's and FrankerFaceZ's channel lists: 7TV's wins.
            (36, 42, "monkaS", "https://cdn.7tv.app/emote/603cac391cd55c0014d989be/2x.webp"),
            (43, 47, "LilZ", "https://cdn.frankerfacez.com/emote/28136/2"),
            # FileTrick's images are file: and http: (refused); xEZ is not a whole word.
            (62, 66, ":tf:", "https://cdn.betterttv.net/emote/54fa8f1401e468494b85b537/2x"),
        ]

        # Twitch's own emote wins over a third-party code on the same word; a cheer row gets them too.
        twitch.send(f"@id=t2;emotes=emotesv2_4c3b4ed516de493bbcd2df2f5d450f49:3-4 :fan!fan@fan.tmi.twitch.tv PRIVMSG #cbtest :hi EZ catJAM",
                    "@id=t3;bits=100;emotes= :fan!fan@fan.tmi.twitch.tv PRIVMSG #cbtest :Cheer100 catJAM")
        own, _ = tail.wait_event(lambda e: e.get("id") == "t2")
        assert emotes(own) == [(3, 5, "EZ", TWITCH_CDN.format("emotesv2_4c3b4ed516de493bbcd2df2f5d450f49")),
                               (6, 12, "catJAM", "https://cdn.betterttv.net/emote/5f1b0186cf6d2144653d2970/2x")]
        cheer, _ = tail.wait_event(lambda e: e.get("id") == "t3")
        assert cheer["type"] == "gift" and emotes(cheer) == [(9, 15, "catJAM", "https://cdn.betterttv.net/emote/5f1b0186cf6d2144653d2970/2x")]
        assert tail.stop() == 0
    finally:
        apis.close()


def test_hostile_emote_apis_leave_chat_working(twitch, test_ca, tail_factory):
    routes = default_routes()
    hang = Hang()
    routes[("api.betterttv.net", "/3/cached/emotes/global")] = (200, b"<html>not json</html>")
    routes[("api.betterttv.net", f"/3/cached/users/twitch/{ROOM}")] = (200, b"[" + b"1," * (3 << 20) + b"1]")
    routes[("api.frankerfacez.com", "/v1/set/global")] = (404, b'{"error":"Not Found","status":404}')
    routes[("api.frankerfacez.com", f"/v1/room/id/{ROOM}")] = (500, b"")
    routes[("7tv.io", "/v3/emote-sets/global")] = hang
    routes[("7tv.io", f"/v3/users/twitch/{ROOM}")] = (200, b'{"emote_set": {"emotes": [{"name": "evil", "data": {"host": {"url": "file:///etc"}}}, 7]}}')
    apis = FakeEmoteAPIs(test_ca, routes=routes)
    try:
        tail = start(tail_factory, twitch, apis, test_ca)
        apis.wait_requests(GLOBAL_PATHS | CHANNEL_PATHS)
        # 7TV's global list still hangs: chat goes on meanwhile.
        assert not hang.release.is_set()
        twitch.send("@id=h1;emotes=25:0-4 :fan!fan@fan.tmi.twitch.tv PRIVMSG #cbtest :Kappa catJAM evil EZ")
        row, _ = tail.wait_event(lambda e: e.get("id") == "h1")
        assert row["text"] == "Kappa catJAM evil EZ"
        assert emotes(row) == [(0, 5, "Kappa", TWITCH_CDN.format("25"))]
        # The failures are logged once (the hanging request times out after 10 s).
        line, _ = tail.wait_stderr("third-party emotes unavailable (chat is not affected)")
        assert "BetterTTV" in line and "FrankerFaceZ" in line
        twitch.send("@id=h2 :fan!fan@fan.tmi.twitch.tv PRIVMSG #cbtest :catJAM still here")
        after, _ = tail.wait_event(lambda e: e.get("id") == "h2")
        assert emotes(after) == []
        assert sum("third-party emotes unavailable" in l for l in tail.errors) == 1
        assert tail.stop() == 0
    finally:
        apis.close()


def test_unreachable_emote_apis_do_not_hold_up_chat(twitch, test_ca, tail_factory):
    tail = start(tail_factory, twitch, None, test_ca)
    twitch.send("@id=u1;emotes=25:0-4 :fan!fan@fan.tmi.twitch.tv PRIVMSG #cbtest :Kappa catJAM")
    row, _ = tail.wait_event(lambda e: e.get("id") == "u1")
    assert emotes(row) == [(0, 5, "Kappa", TWITCH_CDN.format("25"))]
    tail.wait_stderr("third-party emotes unavailable (chat is not affected)")
    assert tail.stop() == 0
