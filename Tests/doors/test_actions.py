#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Streamer.bot's and Cuebot's actions from the bar (issues 39 and 46), end to end: `commentbar serve`
reading a WebSocket relay on loopback, with the viewer memory on (first-time viewers), sending
DoAction to a fake Streamer.bot (Tests/doors/fake_streamerbot.py, behaving as the real server does
toward Streamer.bot's official client) over HTTP (one kept-alive connection), over the WebSocket
(Hello awaited first, Authenticate or GetInfo as the official client does) and over UDP; each
rule's own rate, so a burst of comments never drops a gift; targets quoted without credentials.

    COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/doors/test_actions.py
"""
import os
import socket
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from control.relay import Relay  # noqa: E402
from doors.fake_streamerbot import FakeStreamerBot  # noqa: E402
from doors.served import Bar, wait_until  # noqa: E402

RULES = ["first_time=Welcome", "gift_min:500=Big thanks", "keyword:ラーメン=Ramen"]


def gift(relay, id, user, amount, text=""):
    relay.send({"type": "gift", "id": id, "user": user, "login": user.lower(), "gift": amount, "count": 1, "text": text})


def read_text(path):
    """The file's text, or "" while it is not there."""
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except FileNotFoundError:
        return ""


class ActionsTest(unittest.TestCase):
    def setUp(self):
        self.fake = FakeStreamerBot()
        self.relay = Relay()
        self.bars = []

    def tearDown(self):
        for bar in self.bars:
            bar.stop()
        self.relay.close()
        self.fake.close()

    def start_bar(self, **settings):
        bar = Bar({"service": "websocket", "stream_id": "relay", "server": f"ws://127.0.0.1:{self.relay.port}/chat",
                   "remember": True, "actions": [{"value": rule} for rule in RULES], **settings})
        self.bars.append(bar)
        wait_until(lambda: self.relay.clients, "the bar to connect to the relay", timeout=30)
        return bar

    def settle(self, count):
        """Waits for `count` actions, then a moment more: nothing else may come."""
        wait_until(lambda: len(self.fake.ran()) >= count, f"{count} actions (have {self.fake.ran()})")
        time.sleep(1.0)
        return self.fake.ran()

    def run_the_chat(self):
        """A first-time viewer, a bot and a command (filtered), a keyword, a gift over 500 and one under."""
        self.relay.comment("c1", "Sakura", "はじめまして")
        self.relay.comment("c2", "Nightbot", "ラーメン is a food")      # a known bot: filtered
        self.relay.comment("c3", "Sakura", "!ramen ラーメン")           # a command: filtered
        self.relay.comment("c4", "Sakura", "ラーメン食べたい")
        self.relay.comment("c5", "Taro", "こんばんは")
        gift(self.relay, "g1", "Taro", "¥1,000", "応援してます")
        gift(self.relay, "g2", "Taro", "¥200")

    def check_the_chat(self, ran, transport):
        self.assertEqual([(t, name) for t, name, _ in ran],
                         [(transport, "Welcome"), (transport, "Ramen"), (transport, "Welcome"), (transport, "Big thanks")])
        welcome = ran[0][2]
        for key, value in {"event": "first_time", "platform": "websocket", "user": "sakura", "name": "Sakura",
                           "text": "はじめまして", "first_time": True, "id": "c1"}.items():
            self.assertEqual(welcome.get(key), value, key)
        self.assertEqual(ran[1][2]["text"], "ラーメン食べたい")
        self.assertEqual(ran[1][2]["first_time"], False)
        big = ran[3][2]
        for key, value in {"event": "gift_min", "user": "taro", "gift": "¥1,000", "amount": 1000, "currency": "JPY",
                           "count": 1, "text": "応援してます"}.items():
            self.assertEqual(big.get(key), value, key)

    def test_http_runs_exactly_the_rules_actions(self):
        port = self.fake.start_http()
        self.start_bar(actions_target=f"http://127.0.0.1:{port}/DoAction")
        self.run_the_chat()
        self.check_the_chat(self.settle(4), "http")
        self.assertEqual(self.fake.http_connections, 1, "one kept-alive connection for every action")

    def test_websocket_waits_for_the_hello_then_asks_getinfo(self):
        # A busy server says Hello after 3 s: the official client waits up to 5 s for it
        # (StreamerbotClient.ts:347) and, with no password, asks GetInfo (416-421).
        port = self.fake.start_ws(hello_after=3.0)
        self.start_bar(actions_target=f"ws://127.0.0.1:{port}/")
        self.relay.comment("h1", "Sakura", "はじめまして")
        ran = self.settle(1)
        self.assertEqual([(t, name) for t, name, _ in ran], [("ws", "Welcome")])
        transcript = self.fake.transcripts()[0]
        self.assertEqual(transcript[:3], [("sent", "Hello"), ("received", "GetInfo"), ("received", "DoAction")], transcript)

    def test_websocket_password_answers_the_hellos_challenge(self):
        # The Hello (late, with salt and challenge) is awaited; Authenticate comes first, no GetInfo.
        port = self.fake.start_ws(password="hunter2", hello_after=3.0)
        self.start_bar(actions_target=f"ws://127.0.0.1:{port}/", actions_password="hunter2",
                       secrets_id="00112233445566778899aabbccddeeff", actions_password_saved=True)
        self.relay.comment("a1", "Hanako", "こんにちは")
        ran = self.settle(1)
        self.assertEqual([(t, name) for t, name, _ in ran], [("ws", "Welcome")])
        self.assertEqual(self.fake.authentications, [True])
        self.assertEqual(self.fake.transcripts()[0][:3],
                         [("sent", "Hello"), ("received", "Authenticate"), ("received", "DoAction")])

    def test_without_a_password_a_server_that_needs_none_for_actions_runs_them(self):
        # The server has a password but needs it only for SendMessage (docs.streamer.bot's default):
        # GetInfo answers ok, so the official client goes on without one (StreamerbotClient.ts:369-379).
        port = self.fake.start_ws(password="hunter2", require_auth_for_all=False)
        self.start_bar(actions_target=f"ws://127.0.0.1:{port}/")
        self.relay.comment("n1", "Jiro", "どうも")
        ran = self.settle(1)
        self.assertEqual([(t, name) for t, name, _ in ran], [("ws", "Welcome")])
        self.assertEqual(self.fake.transcripts()[0][:2], [("sent", "Hello"), ("received", "GetInfo")])

    def test_a_server_that_wants_a_password_we_lack_is_one_status_line(self):
        port = self.fake.start_ws(password="hunter2", require_auth_for_all=True)
        bar = self.start_bar(actions_target=f"ws://127.0.0.1:{port}/")
        self.relay.comment("q1", "Ken", "やあ")
        line = bar.wait_log("asks for a password")[0]
        self.assertIn(f"ws://127.0.0.1:{port}", line)
        self.assertEqual(self.fake.transcripts()[0][:2], [("sent", "Hello"), ("received", "GetInfo")])
        self.assertEqual(self.fake.ran(), [])

    def test_a_burst_of_comments_never_drops_the_gift(self):
        # As a new user tried it: comment=… on, a busy second of chat, then a 150-Bits gift.
        port = self.fake.start_http()
        bar = self.start_bar(actions_target=f"http://127.0.0.1:{port}/DoAction",
                             actions=[{"value": rule} for rule in ["comment=Log", "first_time=Welcome", "gift_min:100=Big thanks"]])
        for number in range(8):
            self.relay.comment(f"x{number}", "Regular", f"コメント{number}")
        self.relay.send({"type": "gift", "id": "bits", "user": "Cheerer", "login": "cheerer", "gift": "Bits", "count": 150,
                         "text": "cheer150"})
        ran = wait_until(lambda: any(name == "Big thanks" for _, name, _ in self.fake.ran()) and self.fake.ran(),
                         "the gift's action", timeout=10)
        gift_args = next(args for _, name, args in ran if name == "Big thanks")
        self.assertEqual((gift_args["gift"], gift_args["amount"]), ("Bits", 150))
        time.sleep(1.5)
        logs = self.fake.ran()
        self.assertIn(sum(1 for _, name, _ in logs if name == "Log"), range(5, 8), "the comment rule's own 5 a second")
        self.assertTrue(bar.wait_log('the rule "comment=Log" ran more than 5 a second'), bar.log[-10:])
        self.assertFalse(bar.lines('"gift_min:100=Big thanks" ran more than'))

    def test_a_target_is_quoted_without_its_credentials_path_or_query(self):
        bar = self.start_bar(actions_target="http://user:pw@127.0.0.1:7474/DoAction?key=s3cret")
        line = bar.wait_log("is not an address for actions")[0]
        self.assertIn('"http://127.0.0.1:7474"', line)
        # Down: the error names scheme, host and port only.
        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        closed.close()
        bar.update(actions_target=f"http://127.0.0.1:{port}/DoAction?key=s3cret")
        bar.wait_log(f"actions: to http://127.0.0.1:{port}, ")
        self.relay.comment("r1", "Aki", "hello")
        line = bar.wait_log("trying again")[0]
        self.assertIn(f"http://127.0.0.1:{port}: ", line)
        for secret in ["user", ":pw@", "s3cret", "key=", "/DoAction?"]:
            self.assertFalse([text for text in bar.log if secret in text and "actions" in text], secret)

    def test_websocket_without_a_password(self):
        port = self.fake.start_ws()
        self.start_bar(actions_target=f"ws://127.0.0.1:{port}/")
        self.run_the_chat()
        self.check_the_chat(self.settle(4), "ws")

    def test_websocket_with_the_password_kept_as_a_secret(self):
        port = self.fake.start_ws(password="hunter2")
        secrets_id = "0123456789abcdef0123456789abcdef"
        # As the shim sends a secret: once, with its file's id; later lines only say it is saved.
        bar = self.start_bar(actions_target=f"ws://127.0.0.1:{port}/", actions_password="hunter2",
                             secrets_id=secrets_id, actions_password_saved=True)
        self.relay.comment("p1", "Hanako", "こんにちは")
        ran = self.settle(1)
        self.assertEqual([(t, name, args["user"]) for t, name, args in ran], [("ws", "Welcome", "hanako")])
        self.assertEqual(self.fake.authentications, [True])
        saved = os.path.join(bar.env["XDG_CONFIG_HOME"], "comment-bar", "secrets", secrets_id)
        self.assertTrue(os.path.exists(saved), "the password is kept in the secrets file")
        self.assertFalse(any("hunter2" in line for line in bar.log), "the password is never logged")
        # A new server (the same password): the renderer reads the saved password back.
        self.fake.stop_ws()
        port = self.fake.start_ws(password="hunter2")
        bar.settings.pop("actions_password")
        bar.update(actions_target=f"ws://127.0.0.1:{port}/")
        bar.wait_log(f"actions: to ws://127.0.0.1:{port},")
        self.relay.comment("p2", "Jiro", "どうも")
        ran = self.settle(2)
        self.assertEqual((ran[-1][1], ran[-1][2]["user"]), ("Welcome", "jiro"))
        self.assertEqual(self.fake.authentications, [True, True])

    def test_a_wrong_password_is_one_status_line(self):
        port = self.fake.start_ws(password="right")
        bar = self.start_bar(actions_target=f"ws://127.0.0.1:{port}/", actions_password="wrong",
                             secrets_id="fedcba9876543210fedcba9876543210", actions_password_saved=True)
        self.relay.comment("w1", "Ken", "やあ")
        self.relay.comment("w2", "Ken2", "やあ")
        lines = bar.wait_log("refused the WebSocket password")
        time.sleep(1.5)
        self.assertEqual(len(bar.lines("refused the WebSocket password")), 1, bar.log[-10:])
        self.assertEqual(self.fake.ran(), [])
        self.assertTrue(lines)

    def test_udp(self):
        port = self.fake.start_udp()
        self.start_bar(actions_target=f"udp://127.0.0.1:{port}")
        self.run_the_chat()
        self.check_the_chat(self.settle(4), "udp")

    def test_the_target_down_and_back(self):
        port = self.fake.start_http()
        self.fake.stop_http()
        bar = self.start_bar(actions_target=f"http://127.0.0.1:{port}/DoAction")
        self.relay.comment("d1", "Yuki", "最初のコメント")
        bar.wait_log("trying again")
        self.relay.comment("d2", "Mei", "二つ目")
        time.sleep(3)
        # Down: one log line, however many tries and actions.
        self.assertEqual(len(bar.lines("trying again")), 1, bar.log[-10:])
        # Back: what waited goes, in order.
        self.fake.start_http(port)
        ran = wait_until(lambda: len(self.fake.ran()) >= 2 and self.fake.ran(), "the actions after the target came back",
                         timeout=45)
        self.assertEqual([args["user"] for _, _, args in ran], ["yuki", "mei"])
        bar.wait_log("reached again")

    def test_a_target_that_never_answers_costs_the_bar_nothing(self):
        # Accepts every connection and reads nothing back: each send ends at the 5 s deadline.
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        self.addCleanup(silent.close)
        xml = os.path.join(self.enterContext(tempfile.TemporaryDirectory()), "comment.xml")
        bar = self.start_bar(actions_target=f"http://127.0.0.1:{silent.getsockname()[1]}/DoAction",
                             comment_xml_path=xml)
        self.relay.comment("s1", "Hana", "はじめまして")
        self.relay.comment("s2", "Hana", "二つ目")
        # The bar goes on: the comments reach comment.xml while the action waits.
        wait_until(lambda: "二つ目" in read_text(xml), "the second comment in comment.xml", timeout=5)
        bar.wait_log("no answer within 5 s", timeout=15)
        started = time.monotonic()
        self.assertEqual(bar.stop(), 0)
        self.assertLess(time.monotonic() - started, 10)

    def test_a_burst_sends_at_most_n_a_second(self):
        port = self.fake.start_http()
        bar = self.start_bar(actions_target=f"http://127.0.0.1:{port}/DoAction", actions_per_second=2)
        for number in range(10):
            self.relay.comment(f"b{number}", f"Viewer{number}", "はじめまして")
        time.sleep(3)
        ran = self.fake.ran()
        self.assertGreaterEqual(len(ran), 2)
        self.assertLessEqual(len(ran), 4, ran)  # the burst's two, and none sent late
        bar.wait_log("more than 2 a second")

    def test_an_address_on_the_internet_is_refused(self):
        bar = self.start_bar(actions_target="http://8.8.8.8:7474/DoAction")
        self.relay.comment("i1", "Aki", "hello")
        bar.wait_log("on the internet")


if __name__ == "__main__":
    unittest.main(verbosity=2)
