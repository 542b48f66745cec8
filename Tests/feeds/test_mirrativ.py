# SPDX-License-Identifier: GPL-2.0-or-later
"""The `mirrativ` service against a fake Mirrativ (web API on www.mirrativ.com that wants a login
session, chat server on online.mirrativ.com, under their real host names, TLS with the test CA):
comments and gifts with a valid session, a clear status and no request without one, one request
per long wait with an expired one, a user page, and the session never in any output."""
import time

import pytest

from mirrativ_server import BAD_SESSION, GOOD_SESSION, FakeMirrativ


@pytest.fixture
def mirrativ(test_ca):
    server = FakeMirrativ(test_ca)
    yield server
    server.close()


def start(tail_factory, mirrativ, test_ca, stream, **env):
    return tail_factory("--service", "mirrativ", "--stream", stream, env=mirrativ.env(**env))


def assert_never_shown(tail, secret):
    tail.stop()
    for line in tail.lines + tail.errors:
        assert secret not in line, f"the session leaked: {line}"


def test_valid_session_reads_comments_gifts_and_viewers(mirrativ, test_ca, tail_factory):
    mirrativ.add_live("aB3xYz9QwErTyU")
    tail = start(tail_factory, mirrativ, test_ca, "https://www.mirrativ.com/live/aB3xYz9QwErTyU",
                 COMMENTBAR_MIRRATIV_SESSION=GOOD_SESSION)
    mirrativ.chat.wait_received(lambda m: m == "SUB\t3f9a2c:mRvT0k3n")
    tail.wait_stderr("status: live")
    tail.wait_event(lambda e: e.get("type") == "start" and e.get("time") == 1714586400)
    tail.wait_event(lambda e: e.get("type") == "viewers" and e.get("count") == 77)
    assert mirrativ.api.headers[0].get("Cookie") == f"mr_id={GOOD_SESSION}"

    mirrativ.chat.send(
        mirrativ.msg({"ac": "見る人", "cm": "こんにちは！", "u": "3141592", "iurl": "https://cdn.mirrativ.com/a.png",
                      "created_at": 1714586500, "t": 1}),
        mirrativ.msg({"ac": "入室者", "u": "2718281", "t": 3}),
        mirrativ.msg({"ac": "贈る人", "gift_title": "ハート", "count": "5", "coins": "10", "u": "1618033", "t": 35}),
        mirrativ.msg({"ac": "謎", "t": "35"}),
        "MSG\t3f9a2c:mRvT0k3n\t{broken",
        "ACK",
        mirrativ.msg({"ac": "marker", "cm": "after", "u": "1", "t": "1"}))
    tail.wait_event(lambda e: e.get("text") == "after")
    rows = [e for e in tail.events if e.get("type") in ("comment", "gift")]
    comment = next(e for e in rows if e.get("text") == "こんにちは！")
    assert comment["user"] == "見る人" and comment["login"] == "3141592"
    heart = next(e for e in rows if e.get("gift") == "ハート")
    assert heart["type"] == "gift" and heart["user"] == "贈る人" and heart["count"] == 5
    unnamed = next(e for e in rows if e.get("user") == "謎")
    assert unnamed["gift"] == "ギフト" and unnamed["count"] == 1
    assert not any(e.get("user") == "入室者" for e in rows), "joins are not shown"
    tail.wait_stderr("skipped")
    assert_never_shown(tail, GOOD_SESSION)


def test_without_a_session_it_says_what_is_needed_and_asks_nothing(mirrativ, test_ca, tail_factory):
    mirrativ.add_live("aB3xYz9QwErTyU")
    tail = start(tail_factory, mirrativ, test_ca, "https://www.mirrativ.com/live/aB3xYz9QwErTyU")
    tail.wait_stderr("Mirrativ needs your login session")
    tail.wait_stderr("ミラティブのログイン情報が必要です")
    time.sleep(2)
    assert mirrativ.api.requests == [] and mirrativ.chat.paths == []


def test_expired_session_is_said_once_without_a_retry_storm(mirrativ, test_ca, tail_factory):
    mirrativ.add_live("aB3xYz9QwErTyU")
    tail = start(tail_factory, mirrativ, test_ca, "aB3xYz9QwErTyU", COMMENTBAR_MIRRATIV_SESSION=BAD_SESSION)
    tail.wait_stderr(lambda line: "Mirrativ needs your login session" in line and "expired" in line)
    time.sleep(4)
    assert len(mirrativ.api.requests) == 1, "an expired session is not asked about again and again"
    assert mirrativ.chat.paths == []
    assert_never_shown(tail, BAD_SESSION)


def test_session_from_a_file_and_a_user_page(mirrativ, test_ca, tail_factory, tmp_path):
    mirrativ.add_live("LiveFromUser01", user_id="7654321")
    session_file = tmp_path / "mirrativ-session"
    session_file.write_text(f"mr_id={GOOD_SESSION}\n")
    tail = start(tail_factory, mirrativ, test_ca, "https://www.mirrativ.com/user/7654321",
                 COMMENTBAR_MIRRATIV_SESSION_FILE=str(session_file))
    mirrativ.api.wait_request(lambda r: r[1] == "/api/user/profile" and r[2].get("user_id") == "7654321")
    mirrativ.api.wait_request(lambda r: r[1] == "/api/live/live" and r[2].get("live_id") == "LiveFromUser01")
    tail.wait_stderr("status: live")
    mirrativ.chat.send(mirrativ.msg({"ac": "u", "cm": "ユーザーページから", "u": "5", "t": 1}))
    tail.wait_event(lambda e: e.get("text") == "ユーザーページから")
    assert_never_shown(tail, GOOD_SESSION)


def test_a_session_with_a_line_break_is_refused_unquoted(mirrativ, test_ca, tail_factory):
    secret = "abc\r\nX-Injected: 1"
    tail = start(tail_factory, mirrativ, test_ca, "aB3xYz9QwErTyU", COMMENTBAR_MIRRATIV_SESSION=secret)
    tail.wait_stderr("the Mirrativ session is not a cookie value")
    assert mirrativ.api.requests == []
    assert_never_shown(tail, "X-Injected")
