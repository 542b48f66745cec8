# SPDX-License-Identifier: GPL-2.0-or-later
"""Two streams on one bar: a Twitch-like chat (reached as irc-ws.chat.twitch.tv with the test CA) and a
JSON relay, through `commentbar tail --stream … --stream …`. Events carry the stream's name in `feed`;
the Twitch server dies and comes back while the relay keeps flowing."""
import os

from conftest import free_port
from twitch_server import FakeTwitch

RELAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "steady_relay.py")


def relay_ids_after(tail, index):
    return [e["id"] for e in tail.events[index:] if e.get("feed") == "WebSocket relay (JSON events)"
            and e.get("type") == "comment"]


def test_two_streams_merge_and_one_failing_never_stalls_the_other(test_ca, tail_factory, websocketd_factory):
    port = free_port()
    twitch = FakeTwitch(port, test_ca)
    relay = websocketd_factory(RELAY)
    env = {"COMMENTBAR_CA_FILE": test_ca["ca"],
           "COMMENTBAR_CONNECT_TO": f"irc-ws.chat.twitch.tv:443:127.0.0.1:{port},gql.twitch.tv:443:127.0.0.1:9,"
                                    "api.betterttv.net:443:127.0.0.1:9,api.frankerfacez.com:443:127.0.0.1:9,7tv.io:443:127.0.0.1:9"}
    tail = tail_factory("--stream", "https://www.twitch.tv/CBTest", "--stream", f"ws://127.0.0.1:{relay}/chat",
                        "--stream", "twitch:cbtest", env=env)  # the same channel twice is one stream
    try:
        twitch.wait_joined()
        tail.wait_stderr("status (Twitch): live")
        tail.wait_stderr("status (WebSocket relay (JSON events)): live")
        twitch.send("@display-name=Ronni;id=m1 :ronni!ronni@ronni.tmi.twitch.tv PRIVMSG #cbtest :hello from twitch")
        twitch_row, _ = tail.wait_event(lambda e: e.get("id") == "m1")
        assert twitch_row["feed"] == "Twitch" and twitch_row["text"] == "hello from twitch"
        relay_row, _ = tail.wait_event(lambda e: e.get("id") == "r3")
        assert relay_row["feed"] == "WebSocket relay (JSON events)"
        assert not any(e.get("feed") == "Twitch 2" for e in tail.events), "a duplicate URL is one stream"

        # Twitch goes away: the relay's comments keep coming while Twitch reconnects.
        twitch.close()
        _, lost_at = tail.wait_stderr("status (Twitch): reconnecting")
        mark = len(tail.events)
        tail.wait_event(lambda e: e.get("type") == "comment" and e.get("feed", "").startswith("WebSocket"), start=mark)
        first_after = relay_ids_after(tail, mark)[0]
        tail.wait_event(lambda e: e.get("id") == f"r{int(first_after[1:]) + 5}", start=mark)
        assert len(relay_ids_after(tail, mark)) >= 5, "the relay kept flowing while Twitch was down"

        # Twitch comes back on the same address; its chat joins the merged stream again.
        twitch = FakeTwitch(port, test_ca)
        twitch.wait_joined()
        tail.wait_stderr("status (Twitch): live", start=lost_at + 1)
        twitch.send("@display-name=Ronni;id=m2 :ronni!ronni@ronni.tmi.twitch.tv PRIVMSG #cbtest :back again")
        back, _ = tail.wait_event(lambda e: e.get("id") == "m2")
        assert back["feed"] == "Twitch"
        assert tail.stop() == 0
    finally:
        twitch.close()
