# SPDX-License-Identifier: GPL-2.0-or-later
"""The `twitch` service's viewer count and stream start from a gql.twitch.tv-like server (reached
through COMMENTBAR_CONNECT_TO with the test CA), beside the chat of the Twitch-like IRC server."""
import time

import pytest

from conftest import EVENTUALLY, free_port
from twitch_gql_server import FakeTwitchGQL
from twitch_server import FakeTwitch


@pytest.fixture
def twitch(test_ca):
    server = FakeTwitch(free_port(), test_ca)
    yield server
    server.close()


@pytest.fixture
def gql(test_ca):
    server = FakeTwitchGQL(test_ca)
    yield server
    server.close()


def start_tail(tail_factory, twitch, gql, test_ca):
    return tail_factory("--service", "twitch", "--stream", "CBTest", "--server", f"wss://localhost:{twitch.port}",
                        env={"COMMENTBAR_CA_FILE": test_ca["ca"],
                             # The emote APIs the feed also asks go nowhere (this replaces conftest's table).
                             "COMMENTBAR_CONNECT_TO": f"gql.twitch.tv:443:127.0.0.1:{gql.port},"
                                                      "api.betterttv.net:443:127.0.0.1:9,api.frankerfacez.com:443:127.0.0.1:9,"
                                                      "7tv.io:443:127.0.0.1:9"})


def test_viewers_and_start_come_from_graphql(twitch, gql, test_ca, tail_factory):
    gql.streams["cbtest"] = {"createdAt": "2024-05-01T10:00:00Z", "viewersCount": 1234}
    tail = start_tail(tail_factory, twitch, gql, test_ca)
    viewers, _ = tail.wait_event(lambda e: e.get("type") == "viewers")
    assert viewers["count"] == 1234
    start, _ = tail.wait_event(lambda e: e.get("type") == "start")
    assert start["time"] == 1714557600
    path, headers, body = gql.requests[0]
    assert path == "/gql"
    assert headers.get("Client-ID") == "kimne78kx3ncx6brgo4mgz0z8hexemsp"
    assert headers.get("Host") == "gql.twitch.tv"
    assert 'user(login: "cbtest")' in body["query"] and "viewersCount" in body["query"] and "createdAt" in body["query"]
    tail.wait_stderr("status: live")
    twitch.wait_joined()
    twitch.send("@id=m1 :a!a@a.tmi.twitch.tv PRIVMSG #cbtest :chat beside metadata")
    tail.wait_event(lambda e: e.get("id") == "m1")
    assert tail.stop() == 0


def test_offline_channel_has_no_viewers(twitch, gql, test_ca, tail_factory):
    gql.streams["cbtest"] = None
    tail = start_tail(tail_factory, twitch, gql, test_ca)
    tail.wait_stderr("status: live")
    twitch.wait_joined()
    deadline = time.monotonic() + EVENTUALLY
    while not gql.requests and time.monotonic() < deadline:
        time.sleep(0.1)
    assert gql.requests, "the metadata was asked for"
    twitch.send("@id=o1 :a!a@a.tmi.twitch.tv PRIVMSG #cbtest :marker")
    tail.wait_event(lambda e: e.get("id") == "o1")
    assert not any(e.get("type") in ("viewers", "start") for e in tail.events)
    assert tail.stop() == 0


def test_graphql_failure_is_logged_once_and_chat_keeps_working(twitch, gql, test_ca, tail_factory):
    gql.status = 500
    tail = start_tail(tail_factory, twitch, gql, test_ca)
    line, _ = tail.wait_stderr("twitch viewer count unavailable")
    assert "500" in line
    tail.wait_stderr("status: live")
    twitch.wait_joined()
    twitch.send("@id=f1 :a!a@a.tmi.twitch.tv PRIVMSG #cbtest :still chatting")
    tail.wait_event(lambda e: e.get("id") == "f1")
    assert not any(e.get("type") == "viewers" for e in tail.events)
    assert sum(1 for l in tail.errors if "twitch viewer count unavailable" in l) == 1
    assert tail.stop() == 0
