# SPDX-License-Identifier: GPL-2.0-or-later
"""The `niconico` service against a niconico-live-like server (niconico_server.py) over TLS with the
test CA, reached under the real host names: the watch page's embedded-data, the seat WebSocket
(startWatching, seat/keepSeat, messageServer, ping/pong) and the NDGR view and segment streams of
length-delimited protobuf built from the published schema, hostile frames included."""
import json
import time

import pytest

from niconico_server import FakeNiconico, Scenario, chunk, message, next_entry, segment_entry, watch_page, varint, \
    MESSAGES, EDGE

WS_URL = "wss://a.live2.nicovideo.jp/unama/wsapi/v2/watch/lv1?audience_token=lv1_tok&frontend_id=9"
SEGMENT = "https://mpn.live.nicovideo.jp/data/segment/v4/"


def on_air_page(scenario, path="/watch/lv1", status="ON_AIR", websocket_url=WS_URL):
    scenario.pages[path] = (200, watch_page("lv1", status, websocket_url), {})


def seg(name):
    return SEGMENT + name


@pytest.fixture
def niconico(test_ca):
    servers = []

    def start(scenario):
        server = FakeNiconico(test_ca, scenario)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


def tail_for(tail_factory, server, test_ca, stream="lv1"):
    return tail_factory("--service", "niconico", "--stream", stream,
                        env={"COMMENTBAR_CA_FILE": test_ca["ca"], "COMMENTBAR_CONNECT_TO": server.connect_to()})


def by_id(ident):
    return lambda e: e.get("id") == ident


def chat(**fields):
    return message("Chat", **fields)


def busy_programme():
    """A programme on air: one segment of every kind of message, then a second segment via `next`."""
    now = int(time.time())
    scenario = Scenario()
    on_air_page(scenario)
    scenario.views["now"] = [
        segment_entry(seg("old"), now - 40, now - 20, kind="previous"),  # history: never read
        segment_entry(seg("s1"), now - 2, now + 30),
        next_entry(1001),
        ("hold",),  # the view stream stays open: `next` must be followed without waiting for its end
    ]
    scenario.views["1001"] = [segment_entry(seg("s2"), now + 10, now + 40), next_entry(1002), ("hold",)]
    modifier = MESSAGES["dwango.nicolive.chat.data.Chat.Modifier"]
    full = MESSAGES["dwango.nicolive.chat.data.Chat.Modifier.FullColor"]
    nicoad = MESSAGES["dwango.nicolive.chat.data.Nicoad"]
    scenario.segments["/data/segment/v4/s1"] = [
        chunk("c-named", message=message("NicoliveMessage", chat=chat(
            content="こんにちは <b>&amp;</b>", name="太郎", raw_user_id=12345, account_status=1, no=1,
            modifier=modifier(named_color=1)))),
        chunk("c-anon", message=message("NicoliveMessage", chat=chat(
            content="184です", hashed_user_id="a:Xk3pQzAbCdEf", no=2))),
        chunk("c-rawid", message=message("NicoliveMessage", chat=chat(content="名前なし", raw_user_id=777, no=3,
                                                                          modifier=modifier(full_color=full(r=1, g=2, b=300))))),
        chunk("c-empty", message=message("NicoliveMessage", overflowed_chat=chat(content="", hashed_user_id="a:Zz9", no=4))),
        chunk("g-1", message=message("NicoliveMessage", gift=message(
            "Gift", item_id="cake", advertiser_user_id=555, advertiser_name="ギフト太郎", point=500,
            message="おめでとう", item_name="ケーキ"))),
        chunk("ad-0", message=message("NicoliveMessage", nicoad=nicoad(v0=nicoad.V0(
            latest=nicoad.V0.Latest(advertiser="広告主", point=300, message="応援してます"), total_point=800)))),
        chunk("ad-1", message=message("NicoliveMessage", nicoad=nicoad(v1=nicoad.V1(
            total_ad_point=1100, message="【ニコニ広告】広告主さんが300pt広告しました")))),
        chunk("emo", message=message("NicoliveMessage", simple_notification=message("SimpleNotification", emotion="88888"))),
        chunk("op", state=message("NicoliveState", marquee=message("Marquee", display=message(
            "Marquee.Display", operator_comment=message("OperatorComment", content="運営からのお知らせ"))))),
        chunk("st", state=message("NicoliveState", statistics=message("Statistics", viewers=4321, comments=10))),
        chunk("sig", signal=0),
    ]
    scenario.seat["extra"] = [json.dumps({"type": "statistics", "data": {"viewers": 77, "comments": 1}})]
    scenario.segments["/data/segment/v4/s2"] = [
        ("sleep", 0.2),
        chunk("c-second", message=message("NicoliveMessage", chat=chat(content="second segment", raw_user_id=9, no=5))),
        ("sleep", 1),
    ]
    return scenario


def test_comments_gifts_nicoad_statistics_and_start(niconico, test_ca, tail_factory):
    server = niconico(busy_programme())
    tail = tail_for(tail_factory, server, test_ca, stream="https://live.nicovideo.jp/watch/lv1?ref=top")
    tail.wait_stderr("status: live")

    start, _ = tail.wait_event(lambda e: e.get("type") == "start")
    assert start["time"] == 1700000000  # beginTime, not openTime

    named, _ = tail.wait_event(by_id("c-named"))
    assert named == {**named, "type": "comment", "user": "太郎", "login": "12345", "text": "こんにちは <b>&amp;</b>",
                     "color": "#ff0000", "badges": ["premium/1"]}
    anon, _ = tail.wait_event(by_id("c-anon"))
    assert anon == {**anon, "type": "comment", "user": "匿名 Xk3p", "login": "a:Xk3pQzAbCdEf", "text": "184です"}
    rawid, _ = tail.wait_event(by_id("c-rawid"))
    assert rawid == {**rawid, "user": "ID 777", "login": "777", "color": "#0102ff"}
    empty, _ = tail.wait_event(by_id("c-empty"))
    assert empty["type"] == "comment" and empty["text"] == "…"
    gift, _ = tail.wait_event(by_id("g-1"))
    assert gift == {**gift, "type": "gift", "gift": "ケーキ 500pt", "user": "ギフト太郎", "login": "555",
                    "text": "おめでとう", "count": 1}
    ad0, _ = tail.wait_event(by_id("ad-0"))
    assert ad0 == {**ad0, "type": "gift", "gift": "ニコニ広告 300pt", "user": "広告主", "text": "応援してます"}
    ad1, _ = tail.wait_event(by_id("ad-1"))
    assert ad1 == {**ad1, "type": "comment", "kind": "notice", "user": "ニコニ広告",
                   "text": "【ニコニ広告】広告主さんが300pt広告しました"}
    emotion, _ = tail.wait_event(by_id("emo"))
    assert emotion == {**emotion, "kind": "notice", "user": "エモーション", "text": "88888"}
    operator, _ = tail.wait_event(by_id("op"))
    assert operator == {**operator, "kind": "notice", "user": "放送者", "text": "運営からのお知らせ"}
    tail.wait_event(lambda e: e.get("type") == "viewers" and e.get("count") == 4321)
    tail.wait_event(lambda e: e.get("type") == "viewers" and e.get("count") == 77)  # the seat's statistics
    tail.wait_event(by_id("c-second"))  # the segment named by `next`, while the first view stream still hangs

    # The seat: startWatching, pong for ping, keepSeat at the seat's interval, on one connection throughout.
    server.wait_for(lambda: any(m.get("type") == "startWatching" for m in server.ws_received), "no startWatching")
    server.wait_for(lambda: any(m.get("type") == "pong" for m in server.ws_received), "no pong")
    server.wait_for(lambda: sum(1 for m in server.ws_received if m.get("type") == "keepSeat") >= 2, "no 2 keepSeats")
    assert server.ws_connections == 1
    assert "/watch/lv1?ref=top" not in server.requests and "/watch/lv1" in server.requests
    assert server.requests.index("/api/view/v4/VIEWKEY?at=now") < server.requests.index("/api/view/v4/VIEWKEY?at=1001")
    assert not any("old" in path for path in server.requests), "a previous (history) segment was read"
    with tail.cond:
        events = list(tail.events)
    assert not any(e.get("type") == "viewers" and e.get("count") == 999999 for e in events)  # not the page's count
    assert not any(e.get("type") == "comment" and e.get("id") == "sig" for e in events)
    assert sum(1 for e in events if e.get("id") == "c-named") == 1
    assert tail.stop() == 0


def test_community_url_follows_to_its_current_programme(niconico, test_ca, tail_factory):
    scenario = busy_programme()
    scenario.pages["/watch/co77"] = (302, b"", {"Location": "https://live.nicovideo.jp/watch/lv1"})
    server = niconico(scenario)
    tail = tail_for(tail_factory, server, test_ca, stream="https://com.nicovideo.jp/community/co77")
    tail.wait_event(by_id("c-named"))
    assert server.requests[0] == "/watch/co77"
    assert tail.stop() == 0


@pytest.mark.parametrize("how", ["program_status", "disconnect"])
def test_programme_that_ends_while_watched(niconico, test_ca, tail_factory, how):
    now = int(time.time())
    scenario = Scenario()
    on_air_page(scenario)
    scenario.views["now"] = [segment_entry(seg("e1"), now - 1, now + 30), next_entry(3001), ("hold",)]
    items = [chunk("last", message=message("NicoliveMessage", chat=chat(content="おつ", raw_user_id=1, no=1)))]
    if how == "program_status":
        items += [("sleep", 0.5), chunk("end", state=message("NicoliveState", program_status=message("ProgramStatus", state=1)))]
    else:
        scenario.seat["extra"] = [json.dumps({"type": "disconnect", "data": {"reason": "END_PROGRAM"}})]
    scenario.segments["/data/segment/v4/e1"] = items + [("hold",)]
    server = niconico(scenario)
    tail = tail_for(tail_factory, server, test_ca)
    if how == "program_status":
        tail.wait_event(by_id("last"))
    _, index = tail.wait_stderr("status: ended: 放送終了 / programme ended")
    assert not any("status: live" in line for line in tail.errors[index + 1:])
    assert tail.stop() == 0


@pytest.mark.parametrize("case,expected", [
    ("ended", "status: ended: 放送終了 / programme ended"),
    ("not_started", "status: waiting: 配信前 / not started yet"),
    ("not_found", "status: error: 番組が見つかりません / no such programme"),
    ("members_only", "status: error: 視聴できません（メンバー限定など） / cannot watch (members-only or login required)"),
], ids=["ended", "not_started", "not_found", "members_only"])
def test_programme_not_on_air_shows_why_and_no_old_chat(niconico, test_ca, tail_factory, case, expected):
    scenario = Scenario()
    if case == "ended":
        on_air_page(scenario, status="ENDED")
    elif case == "not_started":
        on_air_page(scenario, status="RELEASED")
    elif case == "members_only":
        on_air_page(scenario, websocket_url="")
    # The old programme's chat is there to be (wrongly) read.
    scenario.views["now"] = [segment_entry(seg("old"), 0, 10), ("hold",)]
    scenario.segments["/data/segment/v4/old"] = [
        chunk("old-chat", message=message("NicoliveMessage", chat=chat(content="old", raw_user_id=1)))]
    server = niconico(scenario)
    tail = tail_for(tail_factory, server, test_ca)
    tail.wait_stderr(expected)
    assert server.ws_connections == 0
    assert not any(p.startswith("/api/") or p.startswith("/data/") for p in server.requests)
    with tail.cond:
        assert not any(e.get("type") in ("comment", "gift", "start") for e in tail.events)
        assert not any("status: live" in line for line in tail.errors)
    assert tail.stop() == 0


def test_hostile_frames_are_skipped_with_bounded_memory(niconico, test_ca, tail_factory):
    now = int(time.time())
    scenario = Scenario()
    on_air_page(scenario)
    scenario.seat["extra"] = ["not json {", json.dumps({"type": "brandNewKind", "data": {}}),
                              json.dumps({"type": "statistics", "data": {"viewers": "many"}})]
    empty_entry = MESSAGES[EDGE + "ChunkedEntry"]()
    scenario.views["now"] = [empty_entry, segment_entry(seg("h1"), now - 1, now + 30), next_entry(2001), ("hold",)]
    scenario.views["2001"] = [segment_entry(seg("h2"), now, now + 2), next_entry(2002), ("hold",)]
    scenario.views["2002"] = [segment_entry(seg("h3"), now, now + 2), next_entry(2003), ("hold",)]
    scenario.views["2003"] = [segment_entry(seg("h4"), now, now + 30), next_entry(2004), ("hold",)]

    def say(ident, text):
        return chunk(ident, message=message("NicoliveMessage", chat=chat(content=text, raw_user_id=2)))

    scenario.segments["/data/segment/v4/h1"] = [
        say("before", "before garbage"),
        varint(5) + b"\xff\xff\xff\xff\xff",  # a frame that is not a ChunkedMessage
        chunk("no-payload"),  # a ChunkedMessage of an unknown kind (only meta)
        chunk("no-data", message=message("NicoliveMessage")),  # a NicoliveMessage of an unknown kind
        MESSAGES[EDGE + "ChunkedMessage"](meta=MESSAGES[EDGE + "ChunkedMessage.Meta"](id="x")).SerializeToString()
        + b"\xf8\xff\xff\xff\x0f\x01",  # an unknown field: still a message, with no payload
        say("after", "after garbage"),
        varint(100) + b"cut off",  # truncated: the body ends inside the frame
        ("abort",),
    ]
    scenario.segments["/data/segment/v4/h2"] = [varint(2 ** 63) + b"x" * 64]  # a varint length of 2^63
    # A 100 MB frame, 64 MiB of it really sent: refused at its length, never buffered.
    scenario.segments["/data/segment/v4/h3"] = [varint(100 << 20)] + [b"y" * (1 << 20)] * 64
    scenario.segments["/data/segment/v4/h4"] = [say("alive", "still alive"), ("sleep", 1)]
    server = niconico(scenario)
    tail = tail_for(tail_factory, server, test_ca)
    tail.wait_event(by_id("before"))
    tail.wait_event(by_id("after"))
    tail.wait_event(by_id("alive"))
    server.wait_for(lambda: "/data/segment/v4/h3" in server.requests, "h3 never requested")
    tail.wait_stderr("skipped")
    assert tail.proc.poll() is None
    with open(f"/proc/{tail.proc.pid}/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    print(f"peak RSS of commentbar tail: {peak} KiB")
    assert peak < 96 * 1024, f"peak RSS {peak} KiB"
    with tail.cond:
        ids = [e.get("id") for e in tail.events]
    assert "no-payload" not in ids and "no-data" not in ids and "x" not in ids
    assert server.ws_connections == 1  # bad seat messages are skipped, not a reason to drop the seat
    assert tail.stop() == 0


def test_view_stream_without_next_carries_on_from_now(niconico, test_ca, tail_factory):
    """A view stream that ends after its entries but before `next` (as a long silence ends it) is
    requested again from now; the segment it named again is not read twice."""
    now = int(time.time())
    scenario = Scenario()
    on_air_page(scenario)
    scenario.views["now"] = [segment_entry(seg("r1"), now - 1, now + 30)]  # ends without next, every time
    scenario.segments["/data/segment/v4/r1"] = [
        chunk("once", message=message("NicoliveMessage", chat=chat(content="once", raw_user_id=3))), ("hold",)]
    server = niconico(scenario)
    tail = tail_for(tail_factory, server, test_ca)
    tail.wait_event(by_id("once"))
    server.wait_for(lambda: server.requests.count("/api/view/v4/VIEWKEY?at=now") >= 4, "no 4 view requests")
    assert server.requests.count("/data/segment/v4/r1") == 1
    assert server.ws_connections == 1
    with tail.cond:
        assert sum(1 for e in tail.events if e.get("id") == "once") == 1
        assert not any("status: reconnecting" in line for line in tail.errors)
    assert tail.stop() == 0
