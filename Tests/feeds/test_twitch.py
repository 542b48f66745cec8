# SPDX-License-Identifier: GPL-2.0-or-later
"""The `twitch` service against a Twitch-like server over TLS WebSocket with a test CA:
tags, cheers, gifts, notices, CLEARMSG/CLEARCHAT, PING and RECONNECT."""
import time

import pytest

from conftest import free_port
from twitch_server import FakeTwitch

ROOM = "#cbtest"


@pytest.fixture
def twitch(test_ca):
    server = FakeTwitch(free_port(), test_ca)
    yield server
    server.close()


def start_tail(tail_factory, twitch, test_ca, host="localhost"):
    tail = tail_factory("--service", "twitch", "--stream", "CBTest", "--server", f"wss://{host}:{twitch.port}",
                        env={"COMMENTBAR_CA_FILE": test_ca["ca"]})
    tail.wait_stderr("status: live")
    twitch.wait_joined()
    return tail


def by_id(ident):
    return lambda e: e.get("id") == ident


def test_anonymous_login_and_tagged_chat(twitch, test_ca, tail_factory):
    tail = start_tail(tail_factory, twitch, test_ca)
    sent = list(twitch.received)
    assert "CAP REQ :twitch.tv/tags twitch.tv/commands" in sent
    nick = next(l for l in sent if l.startswith("NICK "))[5:]
    assert nick.startswith("justinfan") and nick[9:].isdigit()
    assert "JOIN #cbtest" in sent and not any(l.startswith("PASS oauth") for l in sent)

    twitch.send(
        r"@badge-info=subscriber/8;badges=broadcaster/1,subscriber/12;color=#1E90FF;display-name=Ronni\s;"
        r"emotes=25:0-4;id=m1;user-id=1 :ronni!ronni@ronni.tmi.twitch.tv PRIVMSG #cbtest :Kappa こんにちは",
        "@color=;display-name=;id=m2 :quiet!quiet@quiet.tmi.twitch.tv PRIVMSG #cbtest :\x01ACTION lurks\x01",
        "@bits=100;display-name=Cheery;id=m3 :cheery!cheery@cheery.tmi.twitch.tv PRIVMSG #cbtest :Cheer100 nice")
    first, _ = tail.wait_event(by_id("m1"))
    assert first == {**first, "type": "comment", "user": "Ronni", "login": "ronni", "text": "Kappa こんにちは",
                     "color": "#1e90ff", "badges": ["broadcaster", "subscriber"]}
    action, _ = tail.wait_event(by_id("m2"))
    assert action["kind"] == "action" and action["text"] == "lurks" and action["user"] == "quiet"
    cheer, _ = tail.wait_event(by_id("m3"))
    assert cheer == {**cheer, "type": "gift", "gift": "Bits", "count": 100, "text": "Cheer100 nice"}
    assert tail.stop() == 0


def test_usernotices_and_gifts(twitch, test_ca, tail_factory):
    tail = start_tail(tail_factory, twitch, test_ca)
    twitch.send(
        r"@msg-id=sub;display-name=Subby;login=subby;id=n1;system-msg=Subby\ssubscribed\sat\sTier\s1. :tmi.twitch.tv USERNOTICE #cbtest",
        r"@msg-id=resub;display-name=Re;login=re;id=n2;system-msg=Re\ssubscribed\sfor\s5\smonths! :tmi.twitch.tv USERNOTICE #cbtest :still here",
        r"@msg-id=submysterygift;msg-param-mass-gift-count=3;display-name=Giver;login=giver;id=n3;system-msg=Giver\sis\sgifting\s3\ssubs! :tmi.twitch.tv USERNOTICE #cbtest",
        r"@msg-id=subgift;msg-param-community-gift-id=77;login=giver;id=n4;system-msg=x :tmi.twitch.tv USERNOTICE #cbtest",
        r"@msg-id=subgift;display-name=Solo;login=solo;id=n5;system-msg=Solo\sgifted\sa\ssub\sto\sLucky! :tmi.twitch.tv USERNOTICE #cbtest",
        r"@msg-id=raid;display-name=Raider;login=raider;id=n6;system-msg=15\sraiders\sfrom\sRaider\shave\sjoined! :tmi.twitch.tv USERNOTICE #cbtest",
        r"@msg-id=somethingnew;login=x;id=n7;system-msg=A\snew\skind :tmi.twitch.tv USERNOTICE #cbtest",
        "@id=n8 :after!after@after.tmi.twitch.tv PRIVMSG #cbtest :marker")
    tail.wait_event(by_id("n8"))
    got = {e["id"]: e for e in tail.events if e.get("id", "").startswith("n")}
    assert got["n1"]["kind"] == "notice" and got["n1"]["text"] == "Subby subscribed at Tier 1."
    assert got["n2"]["text"] == "Re subscribed for 5 months! — still here"
    assert got["n3"]["type"] == "gift" and got["n3"]["gift"] == "Gift Sub" and got["n3"]["count"] == 3
    assert "n4" not in got, "a recipient line of a gift batch is not a second row"
    assert got["n5"]["type"] == "gift" and got["n5"]["count"] == 1 and got["n5"]["text"] == "Solo gifted a sub to Lucky!"
    assert got["n6"]["kind"] == "notice" and got["n6"]["text"] == "15 raiders from Raider have joined!"
    assert got["n7"]["text"] == "A new kind"
    assert tail.stop() == 0


def test_moderation_clearmsg_and_clearchat(twitch, test_ca, tail_factory):
    tail = start_tail(tail_factory, twitch, test_ca)
    twitch.send("@id=c1 :troll!troll@troll.tmi.twitch.tv PRIVMSG #cbtest :bad words",
                "@login=troll;target-msg-id=c1 :tmi.twitch.tv CLEARMSG #cbtest :bad words",
                "@ban-duration=600 :tmi.twitch.tv CLEARCHAT #cbtest :troll",
                ":tmi.twitch.tv CLEARCHAT #cbtest",
                ":tmi.twitch.tv CLEARCHAT #otherroom")
    _, at = tail.wait_event(lambda e: e == {**e, "type": "delete", "id": "c1"})
    _, at = tail.wait_event(lambda e: e == {**e, "type": "delete", "user": "troll"}, start=at + 1)
    tail.wait_event(lambda e: e.get("type") == "clear", start=at + 1)
    twitch.send("@id=c9 :a!a@a.tmi.twitch.tv PRIVMSG #cbtest :marker")
    tail.wait_event(by_id("c9"))
    assert sum(1 for e in tail.events if e.get("type") == "clear") == 1
    assert tail.stop() == 0


def test_ping_is_answered_and_malformed_lines_are_skipped(twitch, test_ca, tail_factory):
    tail = start_tail(tail_factory, twitch, test_ca)
    twitch.send("PING :tmi.twitch.tv", "", "@only=tags", ":only.source", "@a=b :src 12345 x", "\x00\x00",
                "@id=p1;bits=abc :z!z@z PRIVMSG #cbtest :" + "長" * 3000,
                "@id=p2 :z!z@z PRIVMSG #cbtest :after the junk")
    # Invalid UTF-8 (sent as a binary message): decoded lossily; garbage before the tags makes a bad command.
    twitch.send_raw(b"\xff\xfe@id=p0 :z!z@z PRIVMSG #cbtest :skipped\r\n"
                    b"@id=p3 :z!z@z PRIVMSG #cbtest :bytes \xe3\x81\x82 \xff ok\r\n")
    tail.wait_event(by_id("p3"))
    twitch.wait_received("PONG :tmi.twitch.tv")
    long, _ = tail.wait_event(by_id("p1"))
    assert long["type"] == "comment" and len(long["text"]) <= 501, "over-long text is cut"
    assert tail.events[-1]["text"] == "bytes あ \ufffd ok"
    assert not any(e.get("id") == "p0" for e in tail.events)
    tail.wait_stderr("skipped")
    assert tail.stop() == 0


def test_reconnect_command_reconnects_at_once(twitch, test_ca, tail_factory):
    tail = start_tail(tail_factory, twitch, test_ca)
    _, live_at = tail.wait_stderr("status: live")
    twitch.send(":tmi.twitch.tv RECONNECT")
    twitch.wait_joined(count=2)
    _, reconnecting_at = tail.wait_stderr("status: reconnecting", start=live_at + 1)
    tail.wait_stderr("status: live", start=reconnecting_at + 1)
    assert twitch.connections >= 2
    twitch.send("@id=r1 :a!a@a.tmi.twitch.tv PRIVMSG #cbtest :back again")
    tail.wait_event(by_id("r1"))
    assert tail.stop() == 0


def test_ip_address_endpoint_verifies_against_ip_san(twitch, test_ca, tail_factory):
    tail = start_tail(tail_factory, twitch, test_ca, host="127.0.0.1")
    assert tail.stop() == 0


def test_certificate_is_verified_without_the_test_ca(twitch, tail_factory):
    tail = tail_factory("--service", "twitch", "--stream", "cbtest", "--server", f"wss://localhost:{twitch.port}",
                        env={"COMMENTBAR_CA_FILE": ""})
    line, _ = tail.wait_stderr("status: error")
    assert "TLS" in line
    time.sleep(1)
    assert not any("status: live" in l for l in tail.errors)
    assert not any(l.startswith("JOIN") for l in twitch.received)
    assert tail.stop() == 0


def test_server_going_away_and_coming_back(test_ca, tail_factory):
    port = free_port()
    twitch = FakeTwitch(port, test_ca)
    tail = start_tail(tail_factory, twitch, test_ca)
    _, live_at = tail.wait_stderr("status: live")
    twitch.close()
    _, lost_at = tail.wait_stderr("status: reconnecting", start=live_at + 1)
    twitch = FakeTwitch(port, test_ca)
    try:
        tail.wait_stderr("status: live", start=lost_at + 1)
        twitch.wait_joined()
        twitch.send("@id=b1 :a!a@a.tmi.twitch.tv PRIVMSG #cbtest :back")
        tail.wait_event(by_id("b1"))
        assert tail.stop() == 0
    finally:
        twitch.close()
