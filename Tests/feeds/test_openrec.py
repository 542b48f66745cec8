# SPDX-License-Identifier: GPL-2.0-or-later
"""The `openrec` service against a fake OPENREC (public movies API and the Socket.IO chat under
their real host names, TLS with the test CA): Engine.IO open/connect/pings, comments, stamps,
yells, viewers, the end of a broadcast, one not started, one over, none, hostile frames."""
import pytest

from openrec_server import FakeOpenrec


@pytest.fixture
def openrec(test_ca):
    # A one-second ping interval, so the test sees the client's pings without waiting 25 s.
    server = FakeOpenrec(test_ca, ping_interval_ms=1000)
    yield server
    server.close()


def start(tail_factory, openrec, test_ca, stream, **env):
    return tail_factory("--service", "openrec", "--stream", stream, env=openrec.env(**env))


def by_id(ident):
    return lambda e: e.get("id") == ident


def test_live_chat_stamps_yells_viewers_pings_and_end(openrec, test_ca, tail_factory):
    openrec.add_movie("n9ze3m2w184", 993793, status=1)
    tail = start(tail_factory, openrec, test_ca, "https://www.openrec.tv/live/n9ze3m2w184")
    tail.wait_stderr("status: live")
    openrec.chat.wait_connections(1)
    assert openrec.chat.paths[0] == "/socket.io/?movieId=993793&EIO=3&transport=websocket"
    tail.wait_event(lambda e: e.get("type") == "start" and e.get("time") == 1534984670)
    tail.wait_event(lambda e: e.get("type") == "viewers" and e.get("count") == 1368)
    openrec.chat.wait_received(lambda m: m == "2", count=2)  # Engine.IO 3: the client pings

    stamp = {"stamp_id": "396", "group_id": "15",
             "image_url": "https://dqd0jw5gvbchn.cloudfront.net/stamp/15/128/16a1341ae3788fa55c84cb05be3663825f5df7e2.png"}
    yell = {"yell_id": "5", "name": "エール", "label": "500", "image_url": "https://dqd0jw5gvbchn.cloudfront.net/yell/5.png",
            "points": "500", "yells": "1", "ticker_seconds": "30"}
    openrec.chat.send(
        openrec.event(0, openrec.chat_data(182743145, "運だけ〜", "信乃", "shinano_all", user_color="#E03B92")),
        openrec.event(0, openrec.chat_data(182743146, "", "スタンパー", "stamper", stamp=stamp)),
        openrec.event(0, openrec.chat_data(182743147, "がんばって！", "エーラー", "yeller", yell=yell, is_moderator=1)),
        openrec.event(1, {"movie_id": "993793", "viewers": "5999", "live_viewers": 1406}),
        openrec.event("6", {"owner_to_banned_user_id": "96397446"}),
        openrec.event(42, {"what": "new"}),
        '42["notmessage","{}"]',
        openrec.event(0, openrec.chat_data(182743148, "marker", "m", "m")))
    tail.wait_event(by_id("or-182743148"))
    first, _ = tail.wait_event(by_id("or-182743145"))
    assert first == {**first, "type": "comment", "user": "信乃", "login": "shinano_all", "text": "運だけ〜",
                     "color": "#e03b92"}
    stamped, _ = tail.wait_event(by_id("or-182743146"))
    assert stamped["type"] == "comment" and stamped["text"] == "[スタンプ]"
    yelled, _ = tail.wait_event(by_id("or-182743147"))
    assert yelled == {**yelled, "type": "gift", "gift": "500エール", "count": 1, "text": "がんばって！",
                      "user": "エーラー", "badges": ["moderator/1"]}
    assert "highlight" in yelled
    tail.wait_event(lambda e: e.get("type") == "viewers" and e.get("count") == 1406)
    tail.wait_stderr("unknown type 42")

    openrec.chat.send(openrec.event(3, {"movie_id": "993793"}))
    line, _ = tail.wait_stderr("status: ended")
    assert "配信終了 / broadcast ended" in line
    assert tail.stop() == 0


def test_upcoming_broadcast_waits_then_joins(openrec, test_ca, tail_factory):
    openrec.add_movie("soon", 1000, status=0)
    tail = start(tail_factory, openrec, test_ca, "soon", COMMENTBAR_RECHECK_SECONDS="1")
    line, at = tail.wait_stderr("status: waiting")
    assert "配信前 / not live yet" in line
    assert not openrec.chat.paths
    openrec.set_status("soon", 1)
    tail.wait_stderr("status: live", start=at + 1)
    openrec.chat.send(openrec.event(0, openrec.chat_data(1, "started", "a", "a")))
    tail.wait_event(by_id("or-1"))
    assert tail.stop() == 0


def test_finished_broadcast_says_ended(openrec, test_ca, tail_factory):
    openrec.add_movie("over", 2000, status=2)
    tail = start(tail_factory, openrec, test_ca, "https://www.openrec.tv/live/over")
    line, _ = tail.wait_stderr("status: ended")
    assert "配信終了 / broadcast ended" in line
    assert not openrec.chat.paths
    assert tail.stop() == 0


def test_no_such_broadcast(openrec, test_ca, tail_factory):
    tail = start(tail_factory, openrec, test_ca, "https://www.openrec.tv/live/nothing")
    line, _ = tail.wait_stderr("status: error")
    assert "配信が見つかりません / no such OPENREC broadcast: nothing" in line
    assert tail.stop() == 0


def test_hostile_frames_are_skipped_and_a_huge_frame_reconnects(openrec, test_ca, tail_factory):
    openrec.add_movie("n9ze3m2w184", 993793, status=1)
    tail = start(tail_factory, openrec, test_ca, "n9ze3m2w184")
    _, live_at = tail.wait_stderr("status: live")
    openrec.chat.wait_connections(1)
    openrec.chat.send("", "7", "0{", "42", "42[]", "42{}", '42["message"]', '42["message","not json"]',
                      '42["message",{"type":0,"data":{"chat_id":"9","message":"object, not text"}}]',
                      '42/admin,["message","{}"]', "45-[]", b"\xff\xfe42[]", "6", "3",
                      openrec.event(0, openrec.chat_data(77, "x" * 5000, "long", "long")),
                      openrec.event(0, openrec.chat_data(78, "file:///etc/passwd", "b", "b",
                                                         user_icon="/etc/passwd")),
                      openrec.event(0, openrec.chat_data(79, "still here", "c", "c")))
    tail.wait_event(by_id("or-79"))
    long, _ = tail.wait_event(by_id("or-77"))
    assert len(long["text"]) <= 501
    assert not any(e.get("id") == "or-9" for e in tail.events)
    assert not any(e.get("type") in ("avatar", "background") for e in tail.events)
    tail.wait_stderr("skipped")

    openrec.chat.send_frame_header(100 * 1024 * 1024)
    line, lost_at = tail.wait_stderr("status: reconnecting", start=live_at + 1)
    assert "1 MiB" in line
    tail.wait_stderr("status: live", start=lost_at + 1)
    openrec.chat.wait_connections(2)
    openrec.chat.send(openrec.event(0, openrec.chat_data(80, "back", "d", "d")))
    tail.wait_event(by_id("or-80"))
    assert tail.stop() == 0
