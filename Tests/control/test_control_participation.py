#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A poll and the 参加型 queue through the control API (issue 48) against `commentbar serve` reading two JSON relays on
loopback (the `websocket` service, no stream id: two streams, each named by its address): the
streamer starts it with `POST /api/poll`, viewers vote in the chat of both streams, a tool on
/api/events hears `poll_started`, every `poll_vote` and `poll_closed`, and `GET /api/poll` gives
the count per option and per platform; a timed poll closes itself at its moment; a poll that cannot
run (or would put an NG word on the bar) is refused in words. The queue: opened by the streamer,
joined and left with the words from both streams' chat (one place per account, first-time viewers
first when asked, a full queue changes nothing), the next ones called, a viewer taken out; the
OneComme server serves it as OneComme's orders (`GET /api/orders`, `waitingList` on `/sub`). A
giveaway: one entry per account, its rules (comments this stream, a banned viewer out), draws that
never repeat a winner. Streamer.bot's audience rules (`poll_closed`, `queue_join`, `queue_next`,
`giveaway_winner`) reach a fake Streamer.bot HTTP server (Tests/doors/fake_streamerbot.py) with
their arguments.

    PYTHONPATH=Tests COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/control/test_control_participation.py"""
import json
import os
import re
import tempfile
import time
import unittest
import urllib.request

from control.api_call import api_call
from control.browser import wait_for
from control.event_client import EventClient
from control.relay import Relay
from doors.fake_streamerbot import FakeStreamerBot
from support import websocket as ws_support
from support.pool_frames import QUIET, ServedBar
from support.processes import free_port

BIN = os.path.abspath(os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))


class ControlParticipationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.config = tempfile.mkdtemp(prefix="control-poll-")
        cls.env = {"XDG_CONFIG_HOME": cls.config, "XDG_DATA_HOME": os.path.join(cls.config, "data")}
        cls.relays = [Relay(), Relay()]
        cls.port = free_port()
        cls.onecomme_port = free_port()
        cls.streamerbot = FakeStreamerBot()
        streamerbot_port = cls.streamerbot.start_http()
        feeds = [{"value": f"ws://127.0.0.1:{relay.port}/chat"} for relay in cls.relays]
        cls.settings = {**QUIET, "service": "websocket", "feeds": feeds, "control": True, "control_port": cls.port,
                        "remember": False, "ng_words": [{"value": "ばか"}],
                        "onecomme": True, "onecomme_port": cls.onecomme_port,
                        "actions_target": f"http://127.0.0.1:{streamerbot_port}/DoAction",
                        "actions": [{"value": rule} for rule in ("poll_closed=Result", "queue_join=Joined",
                                                                 "queue_next=Your turn", "giveaway_winner=Winner")]}
        cls.bar = ServedBar(BIN, cls.settings, width=640, height=240, env=cls.env)
        cls.bar.wait_log(f"control page: on port {cls.port} ")
        cls.bar.wait_log(f"OneComme templates: on http://127.0.0.1:{cls.onecomme_port}/")
        wait_for(lambda: all(relay.clients for relay in cls.relays), "the bar to connect to both relays", timeout=30)
        with open(os.path.join(cls.config, "comment-bar", "control-token")) as file:
            cls.token = file.read().strip()
        cls.events = EventClient(cls.port, cls.token)

    @classmethod
    def tearDownClass(cls):
        cls.events.close()
        cls.bar.stop()
        cls.streamerbot.close()
        for relay in cls.relays:
            relay.close()

    def call(self, method, path, body=None):
        """(status, answer as JSON) of one request with the token."""
        return api_call(self.port, self.token, method, path, body)

    def orders(self):
        """The OneComme server's orders, as a template reads them (OneSDK's getOrders: GET /api/orders)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.onecomme_port}/api/orders", timeout=5) as answer:
            return json.load(answer)

    def of_type(self, kind):
        return [event for event in list(self.events.events) if event.get("type") == kind]

    def test_1_votes_from_both_streams_count_once_per_account(self):
        status, poll = self.call("POST", "/api/poll", {"question": "次はどれ？", "options": ["ラーメン", "Sushi", "カレー"]})
        self.assertEqual(status, 200, poll)
        self.assertEqual([option["text"] for option in poll["options"]], ["ラーメン", "Sushi", "カレー"])
        self.assertTrue(poll["open"])
        wait_for(lambda: self.of_type("poll_started"), "poll_started on /api/events")
        first, second = self.relays
        first.comment("v1", "Alice", "!vote 1")
        first.comment("v2", "Alice", "!vote 2")  # the first vote stands
        first.comment("v3", "Bob", "ｓｕｓｈｉ")
        first.comment("v4", "Carol", "2")  # no bare numbers: talk, not a vote
        # The same login on the other relay is another stream's account: it counts.
        second.comment("w1", "Alice", "！ｖｏｔｅ　３")
        second.comment("w2", "Dave", "カレー")
        wait_for(lambda: len(self.of_type("poll_vote")) >= 4, "four poll_vote events", timeout=10)
        status, poll = self.call("GET", "/api/poll")
        self.assertEqual(status, 200, poll)
        self.assertEqual([option["votes"] for option in poll["options"]], [1, 1, 2])
        self.assertEqual(poll["voters"], 4)
        self.assertEqual(poll["options"][2]["platforms"], {"websocket": 2})
        votes = self.of_type("poll_vote")
        self.assertEqual(len(votes), 4, votes)
        channels = {vote["channel"] for vote in votes}
        self.assertEqual(channels, {f"ws://127.0.0.1:{relay.port}/chat" for relay in self.relays},
                         "each relay is its own stream, named by its address")
        # The two relays are two feeds: their votes may come in either order.
        self.assertEqual(sorted(vote["option"] for vote in votes), [1, 2, 3, 3])
        self.assertEqual(votes[-1]["votes"], [1, 1, 2], "each event carries the count after it")

        status, closed = self.call("POST", "/api/poll/close", {})
        self.assertEqual(status, 200, closed)
        self.assertFalse(closed["open"])
        wait_for(lambda: self.of_type("poll_closed"), "poll_closed on /api/events")
        first.comment("late", "Erin", "!vote 1")
        time.sleep(0.5)
        status, poll = self.call("GET", "/api/poll")
        self.assertEqual(poll["voters"], 4, "a vote after the close does not count")
        self.assertEqual(self.call("POST", "/api/poll/close", {})[0], 404)

    def test_2_a_timed_poll_closes_itself(self):
        votes_before = len(self.of_type("poll_vote"))
        status, poll = self.call("POST", "/api/poll", {"question": "Timed", "options": ["a", "b"], "seconds": 3,
                                                      "bare_numbers": True})
        self.assertEqual(status, 200, poll)
        self.relays[0].comment("t1", "Frank", "２")
        wait_for(lambda: len(self.of_type("poll_vote")) > votes_before, "Frank's vote", timeout=3)

        def timed_closed():
            return [event for event in self.of_type("poll_closed") if event["question"] == "Timed"]
        wait_for(timed_closed, "poll_closed by itself", timeout=5)
        closed = timed_closed()[0]
        self.assertEqual(closed["closed_at"], closed["closes_at"])
        self.assertEqual([option["votes"] for option in closed["options"]], [0, 1])
        # The closed result leaves the bar when dismissed, once, told as poll_dismissed (the dock
        # reads the boards again); GET /api/poll still gives it, saying so.
        self.assertFalse(self.call("GET", "/api/poll")[1]["dismissed"])
        self.assertEqual(self.call("POST", "/api/poll/dismiss", {})[0], 200)
        self.assertEqual(self.call("POST", "/api/poll/dismiss", {})[0], 404)
        wait_for(lambda: self.of_type("poll_dismissed"), "poll_dismissed", timeout=3)
        self.assertEqual([(event["question"], event["dismissed"]) for event in self.of_type("poll_dismissed")],
                         [("Timed", True)])
        status, poll = self.call("GET", "/api/poll")
        self.assertEqual((poll["question"], poll["open"], poll["dismissed"]), ("Timed", False, True))

    def test_3_a_poll_that_cannot_run_is_refused_in_words(self):
        for body, words in (({"question": "Q", "options": ["only"]}, "2 to 9 options"),
                            ({"question": "Q", "options": ["Ａ", "a"]}, "the same word"),
                            ({"question": "Q", "options": ["a", "b"], "revote": "sometimes"}, "revote"),
                            ({"question": "Q", "options": ["a", "b"], "seconds": 0}, "seconds"),
                            ({"options": ["a", "b"]}, "question"),
                            ({"question": "Q", "options": ["a", "ＢＡＫＡ", "バカ", "ばか"]}, "option 4 holds an NG word"),
                            ({"question": "ばかな質問", "options": ["a", "b"]}, "the question holds an NG word")):
            status, answer = self.call("POST", "/api/poll", body)
            self.assertEqual(status, 400, body)
            self.assertIn(words, answer["error"], body)

    def test_4_the_queue_from_both_streams(self):
        self.assertEqual(self.call("POST", "/api/queue/next", {})[0], 404, "closed: nothing to call")
        first, second = self.relays
        first.comment("q0", "Early", "!join")  # before it opens: nothing
        # The bar hears one relay in order: once the comment after it is an event, the join was read.
        first.comment("q0b", "Early", "opening soon?")
        wait_for(lambda: any(event.get("id", "").endswith("q0b") for event in self.events.comments()), "the comment after")
        # A template with OneComme's ORDER permission (OneSDK src/permissions.ts: waitingList).
        page = ws_support.Client(f"ws://127.0.0.1:{self.onecomme_port}/sub?p=waitingList",
                                 origin=f"http://127.0.0.1:{self.onecomme_port}")
        self.addCleanup(page.close)
        connected = json.loads(page.recv_text())
        self.assertEqual((connected["type"], connected["data"]["waitingList"]), ("connected", []))
        status, queue = self.call("POST", "/api/queue/open", {"capacity": 3})
        self.assertEqual((status, queue["open"], queue["capacity"], queue["waiting"]), (200, True, 3, []))
        # What the streamer does to the queue is an event too (the dock reads the boards again as
        # boards_seq moves): the whole queue after it, as GET /api/queue gives it.
        wait_for(lambda: self.of_type("queue_changed"), "queue_changed for the opening")
        self.assertEqual(self.of_type("queue_changed")[-1]["open"], True)
        self.assertEqual(self.of_type("queue_changed")[-1]["capacity"], 3)
        # The two relays are two feeds: each join is waited for before the next, so the order is known.
        for relay, id, name, word, joined in ((first, "q1", "Alice", "!join", 1), (second, "q2", "Bob", "！参加", 2),
                                              (first, "q3", "Alice", "!join", 2),  # already in
                                              (second, "q4", "Alice", "!参加", 3),  # the other stream's Alice
                                              (first, "q5", "Carol", "!join", 3)):  # full
            relay.comment(id, name, word)
            wait_for(lambda: len(self.of_type("queue_join")) >= joined, f"{joined} queue_join events", timeout=10)
        time.sleep(0.3)
        status, queue = self.call("GET", "/api/queue")
        self.assertEqual([entry["name"] for entry in queue["waiting"]], ["Alice", "Bob", "Alice"])
        self.assertEqual([join["place"] for join in self.of_type("queue_join")], [1, 2, 3])
        # The streamer moves the other stream's Alice to the front, and back to the end (past it: last).
        status, queue = self.call("GET", "/api/queue")
        last = {key: queue["waiting"][2][key] for key in ("platform", "channel", "user")}
        changes = len(self.of_type("queue_changed"))
        boards_seq = self.call("GET", "/api/comments")[1]["boards_seq"]
        status, moved = self.call("POST", "/api/queue/move", {**last, "place": 1})
        self.assertEqual((status, [entry["channel"] for entry in moved["waiting"]][0]), (200, last["channel"]))
        wait_for(lambda: len(self.of_type("queue_changed")) > changes, "queue_changed for the move")
        self.assertEqual(self.of_type("queue_changed")[-1]["waiting"], moved["waiting"])
        self.assertGreater(self.call("GET", "/api/comments")[1]["boards_seq"], boards_seq, "a move moves boards_seq")
        status, moved = self.call("POST", "/api/queue/move", {**last, "place": 99})
        self.assertEqual((status, [entry["name"] for entry in moved["waiting"]]), (200, ["Alice", "Bob", "Alice"]))
        self.assertEqual(moved["waiting"][2]["channel"], last["channel"])
        self.assertEqual(self.call("POST", "/api/queue/move", {**last, "place": 0})[0], 400)
        self.assertEqual(self.call("POST", "/api/queue/move", {**last, "user": "nobody", "place": 1})[0], 404)
        second.comment("q6", "Bob", "!キャンセル")
        wait_for(lambda: self.of_type("queue_leave"), "queue_leave")
        status, called = self.call("POST", "/api/queue/next", {"count": 1})
        self.assertEqual((status, [entry["name"] for entry in called["called"]]), (200, ["Alice"]))
        self.assertEqual(called["called"][0]["count"], 1)
        wait_for(lambda: self.of_type("queue_next"), "queue_next")
        status, queue = self.call("GET", "/api/queue")
        self.assertEqual([entry["name"] for entry in queue["playing"]], ["Alice"])
        # OneComme's list follows within its pace (at most ten lists a second).
        told = lambda: [(order["username"], order["playing"], order["count"]) for order in self.orders()]
        wait_for(lambda: told() == [("Alice", True, 1), ("Alice", False, 0)], "OneComme's orders after the call",
                 timeout=5)
        orders = self.orders()
        # One account on two streams: each item's id names its stream's connection (one id per item).
        ids = [order["id"] for order in orders]
        self.assertEqual(len(set(ids)), 2, ids)
        self.assertTrue(all(re.fullmatch(r"commentbar-[0-9a-f]{16}:alice", i) for i in ids), ids)
        self.assertEqual({order["service"] for order in orders}, {"external"})
        # The page got the list's changes in order, the last one this one. At most ten lists a second
        # (OneCommeHook.ordersPace): changes closer together than that come as the newest of them.
        lists = []
        while not lists or [order["username"] for order in lists[-1]] != ["Alice", "Alice"] or not lists[-1][0]["playing"]:
            message = json.loads(page.recv_text())
            self.assertEqual(message["type"], "waitingList")
            lists.append(message["data"])
        names = [[order["username"] for order in each] for each in lists]
        every_change = [["Alice"], ["Alice", "Bob"], ["Alice", "Bob", "Alice"],  # joined
                        ["Alice", "Alice", "Bob"], ["Alice", "Bob", "Alice"],  # moved twice
                        ["Alice", "Alice"], ["Alice", "Alice"]]  # Bob left; Alice called
        changes = iter(every_change)
        self.assertTrue(all(each in changes for each in names), f"not the changes in order: {names}")
        other_alice = queue["waiting"][0]
        self.assertEqual(other_alice["channel"], f"ws://127.0.0.1:{second.port}/chat")
        removed = {key: other_alice[key] for key in ("platform", "channel", "user")}
        self.assertEqual(self.call("POST", "/api/queue/remove", removed)[0], 200)
        self.assertEqual(self.call("POST", "/api/queue/remove", removed)[0], 404)
        changes = len(self.of_type("queue_changed"))
        self.assertEqual(self.call("POST", "/api/queue/done", {})[0], 200)
        self.assertEqual(self.call("GET", "/api/queue")[1]["playing"], [])
        wait_for(lambda: len(self.of_type("queue_changed")) > changes, "queue_changed for the players done")
        self.assertEqual(self.of_type("queue_changed")[-1]["playing"], [])
        for body, words in (({"capacity": 0}, "capacity"), ({"join": ["!j"] * 11}, "at most 10 join words"),
                            ({"leave": ["x" * 101]}, "a leave word is at most 100 characters"),
                            ({"join": [" "]}, "at least one join word")):
            status, answer = self.call("POST", "/api/queue/open", body)
            self.assertEqual(status, 400, body)
            self.assertIn(words, answer["error"], body)
        self.assertEqual(self.call("POST", "/api/queue/close", {})[0], 200)
        self.assertFalse(self.call("GET", "/api/queue")[1]["open"])
        wait_for(lambda: self.of_type("queue_changed")[-1]["open"] is False, "queue_changed for the closing")
        wait_for(lambda: self.orders() == [], "the closed queue's orders to empty")

    def test_5_a_giveaway_from_both_streams(self):
        self.assertEqual(self.call("POST", "/api/giveaway/draw", {})[0], 404, "no giveaway yet")
        first, second = self.relays
        status, giveaway = self.call("POST", "/api/giveaway", {"word": "!抽選", "min_comments": 2})
        self.assertEqual((status, giveaway["open"], giveaway["entries"]), (200, True, 0), giveaway)
        wait_for(lambda: self.of_type("giveaway_started"), "giveaway_started")
        self.assertEqual({key: self.of_type("giveaway_started")[-1][key] for key in giveaway}, giveaway)
        first.comment("g1", "Talker", "こんばんは")
        first.comment("g2", "Talker", "!抽選")  # two comments this stream: in
        first.comment("g3", "Quiet", "!抽選")  # one: out
        second.comment("g4", "Fan", "hello")
        second.comment("g5", "Fan", "！抽選")
        second.comment("g6", "Fan", "!抽選")  # once only
        second.comment("g7", "Troll", "spam")
        second.send({"type": "delete", "user": "troll"})
        second.comment("g8", "Troll", "!抽選")  # banned this stream: out
        wait_for(lambda: len(self.of_type("giveaway_entry")) >= 2, "two giveaway_entry events", timeout=10)
        time.sleep(0.5)
        self.assertEqual(self.call("GET", "/api/giveaway")[1]["entries"], 2)
        self.assertEqual(sorted(entry["viewer"]["name"] for entry in self.of_type("giveaway_entry")), ["Fan", "Talker"])
        winners = [self.call("POST", "/api/giveaway/draw", {}) for _ in range(3)]
        self.assertEqual([status for status, _ in winners], [200, 200, 404], "two entrants, two draws")
        self.assertEqual(sorted(answer["winner"]["name"] for _, answer in winners[:2]), ["Fan", "Talker"])
        wait_for(lambda: len(self.of_type("giveaway_winner")) == 2, "two giveaway_winner events")
        self.assertEqual([event["draw"] for event in self.of_type("giveaway_winner")], [1, 2])
        final = self.call("GET", "/api/giveaway")[1]
        self.assertFalse(final["open"], "a draw closes the entries")
        self.assertEqual(len(final["winners"]), 2)
        # The winner leaves the bar when dismissed, once, told as giveaway_dismissed; the draws stay.
        self.assertFalse(final["dismissed"])
        self.assertEqual(self.call("POST", "/api/giveaway/dismiss", {})[0], 200)
        self.assertEqual(self.call("POST", "/api/giveaway/dismiss", {})[0], 404)
        wait_for(lambda: self.of_type("giveaway_dismissed"), "giveaway_dismissed", timeout=3)
        self.assertEqual([(event["word"], len(event["winners"]), event["dismissed"])
                          for event in self.of_type("giveaway_dismissed")], [("!抽選", 2, True)])
        dismissed = self.call("GET", "/api/giveaway")[1]
        self.assertEqual((dismissed["dismissed"], len(dismissed["winners"])), (True, 2))
        self.assertEqual(self.call("POST", "/api/giveaway", {"word": " "})[0], 400)
        status, answer = self.call("POST", "/api/giveaway", {"word": "!" + "x" * 100})
        self.assertEqual((status, answer.get("error")), (400, "an entry word is at most 100 characters"))


    def test_6_streamerbots_audience_rules_ran_with_their_arguments(self):
        """What tests 1-5 did ran the audience's rules, and nothing else ran (no comment rule)."""
        def ran(name):
            return [args for _transport, action, args in self.streamerbot.ran() if action == name]
        wait_for(lambda: ran("Winner"), "a giveaway_winner action", timeout=10)
        self.assertEqual({action for _transport, action, _args in self.streamerbot.ran()},
                         {"Result", "Joined", "Your turn", "Winner"})
        results = ran("Result")
        self.assertGreaterEqual(len(results), 2, "the closed and the timed poll")
        self.assertTrue(all(result["event"] == "poll_closed" and result["question"] for result in results), results)
        joined = ran("Joined")
        self.assertEqual([(join["name"], join["place"]) for join in joined], [("Alice", 1), ("Bob", 2), ("Alice", 3)])
        called = ran("Your turn")
        self.assertEqual([(call["name"], call["position"], call["called"], call["count"]) for call in called],
                         [("Alice", 1, 1, 1)])
        self.assertEqual(called[0]["platform"], "websocket")
        winners = ran("Winner")
        self.assertEqual(sorted(winner["name"] for winner in winners), ["Fan", "Talker"])
        self.assertEqual(sorted(winner["draw"] for winner in winners), [1, 2])

    def test_7_the_hotkeys_close_call_and_draw(self):
        """OBS's hotkeys "Close the poll", "Call the next viewer" and "Draw a giveaway winner" (the
        shim's counters on stdin: the first line a baseline, then one press each) act as the API does."""
        first, _second = self.relays
        actions = {"pin_newest": 0, "unpin": 0, "close_poll": 0, "queue_next": 0, "giveaway_draw": 0}
        self.bar.send({"actions": actions})
        self.assertEqual(self.call("POST", "/api/poll", {"question": "Hotkey?", "options": ["yes", "no"]})[0], 200)
        self.assertEqual(self.call("POST", "/api/queue/open", {})[0], 200)
        self.assertEqual(self.call("POST", "/api/giveaway", {"word": "!hk"})[0], 200)
        first.comment("h1", "Hana", "!join")
        first.comment("h2", "Hana", "!hk")
        wait_for(lambda: self.call("GET", "/api/giveaway")[1]["entries"] == 1, "Hana's entry")
        wait_for(lambda: len(self.call("GET", "/api/queue")[1]["waiting"]) == 1, "Hana in the queue")
        self.bar.send({"actions": {**actions, "close_poll": 1, "queue_next": 1, "giveaway_draw": 1}})
        wait_for(lambda: self.call("GET", "/api/poll")[1].get("open") is False, "the poll closed by the hotkey")
        wait_for(lambda: [entry["name"] for entry in self.call("GET", "/api/queue")[1]["playing"]] == ["Hana"],
                 "Hana called by the hotkey")
        wait_for(lambda: [winner["name"] for winner in self.call("GET", "/api/giveaway")[1]["winners"]] == ["Hana"],
                 "Hana drawn by the hotkey")
        # The same line again presses nothing: still one winner, nobody else called.
        self.bar.send({"actions": {**actions, "close_poll": 1, "queue_next": 1, "giveaway_draw": 1}})
        time.sleep(0.5)
        self.assertEqual(len(self.call("GET", "/api/giveaway")[1]["winners"]), 1)
        self.assertEqual(self.call("POST", "/api/queue/close", {})[0], 200)


if __name__ == "__main__":
    unittest.main(verbosity=2)
