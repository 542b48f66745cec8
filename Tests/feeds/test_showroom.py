# SPDX-License-Identifier: GPL-2.0-or-later
"""The `showroom` service against a fake SHOWROOM (web API and chat server under their real
host names, TLS with the test CA): status, SUB, comments, gifts with names and counts, the
banner, viewers, the end of a broadcast, a room not live yet, no such room, hostile frames."""
import pytest

from showroom_server import FakeShowroom


@pytest.fixture
def showroom(test_ca):
    server = FakeShowroom(test_ca)
    yield server
    server.close()


def by_id(ident):
    return lambda e: e.get("id") == ident


def start(tail_factory, showroom, test_ca, stream, **env):
    return tail_factory("--service", "showroom", "--stream", stream, env=showroom.env(**env))


def test_live_room_comments_gifts_viewers_and_end(showroom, test_ca, tail_factory):
    showroom.add_room("cb_room", "510067", live=True)
    tail = start(tail_factory, showroom, test_ca, "https://www.showroom-live.com/r/cb_room")
    tail.wait_stderr("status: live")
    showroom.chat.wait_received(lambda m: m == "SUB\t960df3:xzRiR62X")
    tail.wait_event(lambda e: e.get("type") == "start" and e.get("time") == 1591278000)
    tail.wait_event(lambda e: e.get("type") == "viewers" and e.get("count") == 1234)

    showroom.chat.send(
        showroom.msg({"ua": 3, "av": 1022305, "d": 0, "ac": "こにたん", "cm": "芸人", "created_at": 1591279316,
                      "u": 2262593, "at": 0, "t": "1"}),
        showroom.msg({"ua": 3, "n": 10, "av": 2, "d": 0, "ac": "すずな", "created_at": 1591278359, "u": 3054201,
                      "h": 0, "g": 1, "gt": 2, "at": 0, "t": "2"}),
        showroom.msg({"ua": 3, "n": 10, "av": 2, "d": 0, "ac": "すずな", "created_at": 1591278360, "u": 3054201,
                      "h": 0, "g": 1, "gt": 2, "at": 0, "t": "2"}),
        showroom.msg({"n": 1, "av": 2, "d": 0, "ac": "謎", "created_at": 1591278361, "u": 5, "g": 777777, "t": 2}),
        showroom.msg({"telops": [{"color": {"r": 255, "b": 255, "g": 255}, "text": "100日記念", "type": "user"}],
                      "telop": "100日記念", "interval": 6000, "t": 8,
                      "api": "https://www.showroom-live.com/live/telop?live_id=9834293"}),
        showroom.msg({"created_at": 1655446700, "c": "FF6C1A", "u": 6392080, "me": "here again",
                      "m": "2度目の訪問", "tt": 1, "t": 18}),
        showroom.msg({"created_at": 1591279455, "c": 0, "p": 197937, "t": 5}),
        showroom.msg({"ac": "空", "cm": "", "u": 9, "created_at": 1, "t": 1}),
        "ACK\tshowroom",
        showroom.msg({"ac": "marker", "cm": "after", "u": 1, "created_at": 2, "t": 1}))
    marker, _ = tail.wait_event(lambda e: e.get("text") == "after")
    rows = [e for e in tail.events if e.get("type") in ("comment", "gift")]
    comment = next(e for e in rows if e.get("text") == "芸人")
    assert comment == {**comment, "type": "comment", "user": "こにたん", "login": "2262593"}
    stars = [e for e in rows if e.get("gift") == "星"]
    assert [e["count"] for e in stars] == [10, 20], "a run of one gift is one row, counted up"
    assert stars[0]["id"] == stars[1]["id"] and stars[0]["user"] == "すずな"
    unknown_gift = next(e for e in rows if e.get("user") == "謎")
    assert unknown_gift["type"] == "gift" and unknown_gift["gift"] == "ギフト #777777" and unknown_gift["count"] == 1
    telop = next(e for e in rows if e.get("text") == "100日記念")
    assert telop["kind"] == "notice"
    empty = next(e for e in rows if e.get("user") == "空")
    assert empty["text"] == "…"
    assert not any("訪問" in (e.get("text") or "") for e in rows), "visits are not rows"
    assert len({e["id"] for e in rows}) == len(rows) - 1, "every row but the counted-up gift has its own id"

    showroom.chat.send(showroom.msg({"created_at": 1591282803, "n": 0, "a": 0, "t": 101}))
    line, _ = tail.wait_stderr("status: ended")
    assert "配信終了 / broadcast ended" in line
    assert tail.stop() == 0


def test_not_live_room_waits_then_joins(showroom, test_ca, tail_factory):
    showroom.add_room("later", "42", live=False)
    tail = start(tail_factory, showroom, test_ca, "later", COMMENTBAR_RECHECK_SECONDS="1")
    line, at = tail.wait_stderr("status: waiting")
    assert "配信前 / not live yet" in line
    assert not any("status: live" in l for l in tail.errors)
    showroom.set_live("later", True, broadcast_key="aa11:key2")
    tail.wait_stderr("status: live", start=at + 1)
    showroom.chat.wait_received(lambda m: m == "SUB\taa11:key2")
    showroom.chat.send(showroom.msg({"ac": "a", "cm": "started", "u": 1, "created_at": 3, "t": "1"}, key="aa11:key2"))
    tail.wait_event(lambda e: e.get("text") == "started")
    assert tail.stop() == 0


def test_no_such_room(showroom, test_ca, tail_factory):
    tail = start(tail_factory, showroom, test_ca, "https://www.showroom-live.com/r/nobody")
    line, _ = tail.wait_stderr("status: error")
    assert "ルームが見つかりません / no such SHOWROOM room: nobody" in line
    assert tail.stop() == 0


def test_too_many_requests_backs_off_30_seconds(showroom, test_ca, tail_factory):
    showroom.throttled.add("busy")
    tail = start(tail_factory, showroom, test_ca, "busy")
    line, _ = tail.wait_stderr("status: error")
    assert "HTTP 429" in line and "retrying in 30 s" in line
    assert showroom.api.count(lambda r: r[1] == "/api/room/status") == 1
    assert tail.stop() == 0


def test_bad_stream_id_is_refused(tail_factory):
    tail = tail_factory("--service", "showroom", "--stream", "https://www.showroom-live.com/r/../../etc/passwd")
    assert tail.proc.wait(timeout=30) == 2


def test_hostile_frames_are_skipped_and_a_huge_frame_reconnects(showroom, test_ca, tail_factory):
    showroom.add_room("cb_room", "510067", live=True)
    tail = start(tail_factory, showroom, test_ca, "cb_room")
    _, live_at = tail.wait_stderr("status: live")
    showroom.chat.wait_received(lambda m: m.startswith("SUB\t"))
    showroom.chat.send(
        "MSG\t960df3:xzRiR62X\t{not json",
        "MSG\tonly-a-key",
        "MSG\tk\t[1,2,3]",
        "HELLO\tworld",
        showroom.msg({"t": 999, "x": 1}),
        showroom.msg({"ac": "a", "cm": "x" * 5000, "u": 1, "created_at": 3, "t": 1}),
        showroom.msg({"ac": "a", "cm": "file:///etc/passwd", "u": 1, "created_at": 3, "t": 1, "av": "/etc/passwd"}),
        b"\xff\xfeMSG\tk\t{\"t\":1}",
        showroom.msg({"ac": "b", "cm": "still here", "u": 2, "created_at": 4, "t": 1}))
    tail.wait_event(lambda e: e.get("text") == "still here")
    tail.wait_stderr("skipped")
    long, _ = tail.wait_event(lambda e: (e.get("text") or "").startswith("xxx"))
    assert len(long["text"]) <= 501
    assert not any(e.get("type") in ("avatar", "background") for e in tail.events)

    showroom.chat.send_frame_header(100 * 1024 * 1024)
    line, lost_at = tail.wait_stderr("status: reconnecting", start=live_at + 1)
    assert "1 MiB" in line
    tail.wait_stderr("status: live", start=lost_at + 1)
    showroom.chat.wait_connections(2)
    showroom.chat.send(showroom.msg({"ac": "c", "cm": "back", "u": 3, "created_at": 5, "t": 1}))
    tail.wait_event(lambda e: e.get("text") == "back")
    assert tail.stop() == 0
