# SPDX-License-Identifier: GPL-2.0-or-later
"""The `twitcasting` service against a fake TwitCasting (twitcasting.tv's web endpoints and the
event WebSocket, TLS with the test CA): the movie lookup, the event URL with gift=1, comments,
items, the end of a broadcast, a user not live yet, no such user, hostile frames."""
import pytest

from twitcasting_server import FakeTwitCasting


@pytest.fixture
def twitcasting(test_ca):
    server = FakeTwitCasting(test_ca)
    yield server
    server.close()


def start(tail_factory, twitcasting, test_ca, stream, **env):
    return tail_factory("--service", "twitcasting", "--stream", stream, env=twitcasting.env(**env))


def by_id(ident):
    return lambda e: e.get("id") == ident


def test_live_movie_comments_items_and_end(twitcasting, test_ca, tail_factory):
    twitcasting.add_user("cb_caster", 789012345, live=True)
    tail = start(tail_factory, twitcasting, test_ca, "https://twitcasting.tv/cb_caster", COMMENTBAR_RECHECK_SECONDS="1")
    tail.wait_stderr("status: live")
    twitcasting.api.wait_request(lambda r: r[0] == "POST" and r[1] == "/eventpubsuburl.php"
                                 and r[3] == b"movie_id=789012345")
    twitcasting.events.wait_connections(1)
    assert twitcasting.events.paths[0] == "/tc.event.pubsub/789012345?n=cce425f940dea58b&gift=1"
    assert twitcasting.api.count(lambda r: r[1] == "/streamserver.php" and r[2].get("target") == "cb_caster"
                                 and r[2].get("mode") == "client") >= 1
    tail.wait_event(lambda e: e.get("type") == "viewers" and e.get("count") == 42)

    twitcasting.send(twitcasting.comment(12345678901, "こんにちは！", "なまえ", "namae_id"),
                     twitcasting.comment(12345678902, "", "", "c:other"))
    twitcasting.send(twitcasting.gift("0123abcd.0123456789abcdef.12345678", "お茶", "(+🍡2)", "giver", count=2),
                     twitcasting.gift("0123abcd.0123456789abcdef.12345679", "", "ありがとう", "anon"))
    twitcasting.send({"type": "somethingNew", "id": 5}, twitcasting.comment(12345678903, "marker", "m", "m"))
    tail.wait_event(by_id("tc-12345678903"))
    first, _ = tail.wait_event(by_id("tc-12345678901"))
    assert first == {**first, "type": "comment", "user": "なまえ", "login": "namae_id", "text": "こんにちは！"}
    second, _ = tail.wait_event(by_id("tc-12345678902"))
    assert second["user"] == "c:other" and second["text"] == "…"
    tea, _ = tail.wait_event(by_id("tc-gift-0123abcd.0123456789abcdef.12345678"))
    assert tea == {**tea, "type": "gift", "gift": "お茶", "count": 2, "user": "GIVER", "login": "giver",
                   "text": "(+🍡2)"}
    plain, _ = tail.wait_event(by_id("tc-gift-0123abcd.0123456789abcdef.12345679"))
    assert plain["gift"] == "アイテム" and plain["count"] == 1 and plain["text"] == "ありがとう"
    tail.wait_stderr("unknown type")

    # The broadcast ends: the movie is no longer live and the event socket closes.
    twitcasting.set_live("cb_caster", False)
    twitcasting.events.close_clients()
    line, _ = tail.wait_stderr("status: ended")
    assert "配信終了 / broadcast ended" in line
    assert tail.stop() == 0


def test_not_live_user_waits_then_joins(twitcasting, test_ca, tail_factory):
    twitcasting.add_user("later", 111, live=False)
    tail = start(tail_factory, twitcasting, test_ca, "later", COMMENTBAR_RECHECK_SECONDS="1")
    line, at = tail.wait_stderr("status: waiting")
    assert "配信前 / not live yet" in line
    assert twitcasting.api.count(lambda r: r[0] == "POST") == 0
    twitcasting.set_live("later", True, movie_id=222)
    tail.wait_stderr("status: live", start=at + 1)
    twitcasting.events.wait_connections(1)
    assert "/tc.event.pubsub/222?" in twitcasting.events.paths[0]
    twitcasting.send(twitcasting.comment(1, "started", "a", "a"))
    tail.wait_event(by_id("tc-1"))
    assert tail.stop() == 0


def test_no_such_user(twitcasting, test_ca, tail_factory):
    tail = start(tail_factory, twitcasting, test_ca, "https://twitcasting.tv/nobody")
    line, _ = tail.wait_stderr("status: error")
    assert "ユーザーが見つかりません / no such TwitCasting user: nobody" in line
    assert tail.stop() == 0


def test_hostile_frames_are_skipped_and_a_huge_frame_reconnects(twitcasting, test_ca, tail_factory):
    twitcasting.add_user("cb_caster", 789012345, live=True)
    tail = start(tail_factory, twitcasting, test_ca, "cb_caster")
    _, live_at = tail.wait_stderr("status: live")
    twitcasting.events.wait_connections(1)
    twitcasting.events.send("not json", '{"type":"comment","id":1,"message":"an object, not an array"}', "[1,2]",
                            '[{"type":"comment","message":"no id"}]', b"\xff\xfe[]", '"text"', "[]")
    twitcasting.send(twitcasting.comment(77, "x" * 5000, "long", "long"),
                     twitcasting.comment(78, "still here", "b", "b"))
    tail.wait_event(by_id("tc-78"))
    long, _ = tail.wait_event(by_id("tc-77"))
    assert len(long["text"]) <= 501
    tail.wait_stderr("skipped")
    assert not any(e.get("type") in ("avatar", "background") for e in tail.events)

    twitcasting.events.send_frame_header(100 * 1024 * 1024)
    line, lost_at = tail.wait_stderr("status: reconnecting", start=live_at + 1)
    assert "1 MiB" in line
    tail.wait_stderr("status: live", start=lost_at + 1)
    twitcasting.events.wait_connections(2)
    twitcasting.send(twitcasting.comment(79, "back", "c", "c"))
    tail.wait_event(by_id("tc-79"))
    assert tail.stop() == 0
