#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The audience's boards survive the renderer (issue 48, "the renderer killed mid-poll"): `commentbar serve` with
`remember` and the control page on reads a JSON relay on loopback; the streamer starts a poll and opens the 参加型
queue over the control API, viewers vote and join in the chat, someone is called; the renderer is killed with
SIGKILL, and a new one on the same memory file (the same source: its control port) comes back with the poll still
open and its counts, the queue as it was (who plays, who waits, in order). A viewer who voted before the kill
votes again and still counts once; one who waits joins again and still has one place. Then the poll is closed,
the renderer stops, and `commentbar poll list` and `commentbar poll show ID --csv/--json` read it from the file.

    PYTHONPATH=Tests COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/control/test_control_boards_restart.py"""
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from control.api_call import api_call
from control.browser import wait_for
from control.relay import Relay
from support.pool_frames import QUIET, ServedBar
from support.processes import free_port

BIN = os.path.abspath(os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))
# The memory's writer commits at most half a second after a change (MemoryWriter.batchWindow): a kill after this
# long loses nothing.
WRITER_WINDOW = 0.5


class BoardsRestartTest(unittest.TestCase):
    def setUp(self):
        self.config = tempfile.mkdtemp(prefix="control-boards-")
        self.database = os.path.join(self.config, "chat.sqlite3")
        self.env = {"XDG_CONFIG_HOME": self.config, "XDG_DATA_HOME": os.path.join(self.config, "data")}
        self.relay = Relay()
        self.port = free_port()
        self.settings = {**QUIET, "service": "websocket", "feeds": [{"value": f"ws://127.0.0.1:{self.relay.port}/chat"}],
                         "control": True, "control_port": self.port, "remember": True, "log_path": self.database}
        self.bar = None

    def tearDown(self):
        if self.bar and self.bar.proc.poll() is None:
            self.bar.stop()
        self.relay.close()
        shutil.rmtree(self.config, ignore_errors=True)

    def start(self):
        """A renderer on the test's memory file, its control page up and its feed connected."""
        clients = set(self.relay.clients)
        self.bar = ServedBar(BIN, self.settings, width=640, height=240, env=self.env)
        self.bar.wait_log(f"control page: on port {self.port} ")
        wait_for(lambda: set(self.relay.clients) - clients, "the bar to connect to the relay", timeout=30)
        with open(os.path.join(self.config, "comment-bar", "control-token")) as file:
            self.token = file.read().strip()

    def kill(self):
        """SIGKILL, as a crash or OBS killing its child: nothing is flushed or closed."""
        self.bar.proc.send_signal(signal.SIGKILL)
        self.bar.proc.wait(timeout=10)
        self.bar.stop_watching.set()
        self.bar.proc.stdin.close()

    def call(self, method, path, body=None):
        """(status, answer as JSON) of one request with the token."""
        return api_call(self.port, self.token, method, path, body)

    def votes(self):
        status, poll = self.call("GET", "/api/poll")
        return [option["votes"] for option in poll["options"]] if status == 200 else None

    def names(self, part):
        return [entry["name"] for entry in self.call("GET", "/api/queue")[1][part]]

    def commentbar(self, *arguments):
        done = subprocess.run([BIN, *arguments, "--db", self.database], capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def test_the_renderer_killed_mid_poll_comes_back_with_the_poll_and_the_queue(self):
        self.start()
        status, poll = self.call("POST", "/api/poll", {"question": "次はどれ？", "options": ["ラーメン", "Sushi", "カレー"],
                                                      "seconds": 600})
        self.assertEqual(status, 200, poll)
        status, queue = self.call("POST", "/api/queue/open", {"capacity": 5})
        self.assertEqual(status, 200, queue)
        self.relay.comment("v1", "Alice", "!vote 1")
        self.relay.comment("v2", "Bob", "ｓｕｓｈｉ")
        self.relay.comment("v3", "Carol", "!vote 3")
        self.relay.comment("v4", "Dave", "カレー")
        for number, name in enumerate(["Erin", "Frank", "Grace"]):
            self.relay.comment(f"j{number}", name, "!join")
        wait_for(lambda: self.votes() == [1, 1, 2], "four votes counted", timeout=10)
        wait_for(lambda: len(self.names("waiting")) == 3, "three viewers in the queue", timeout=10)
        status, called = self.call("POST", "/api/queue/next", {})
        self.assertEqual([entry["name"] for entry in called["called"]], ["Erin"])
        time.sleep(WRITER_WINDOW * 3)

        self.kill()
        self.start()
        wait_for(lambda: self.votes() == [1, 1, 2], "the poll restored with its votes", timeout=15)
        status, poll = self.call("GET", "/api/poll")
        self.assertTrue(poll["open"], poll)
        self.assertEqual(poll["question"], "次はどれ？")
        self.assertEqual(poll["voters"], 4)
        self.assertIn("closes_at", poll, "the deadline kept")
        self.assertEqual(self.names("playing"), ["Erin"])
        self.assertEqual(self.names("waiting"), ["Frank", "Grace"])
        self.assertEqual(self.call("GET", "/api/queue")[1]["capacity"], 5)
        self.assertTrue(any("boards: restored" in line for line in self.bar.log), self.bar.log[-20:])

        # Alice voted before the kill: she still counts once; Heidi is new.
        self.relay.comment("v5", "Alice", "!vote 2")
        self.relay.comment("v6", "Heidi", "!vote 2")
        self.relay.comment("j3", "Frank", "!join")
        self.relay.comment("j4", "Ivan", "!join")
        wait_for(lambda: self.votes() == [1, 2, 2], "Heidi's vote", timeout=10)
        wait_for(lambda: self.names("waiting") == ["Frank", "Grace", "Ivan"], "Ivan in the queue", timeout=10)
        self.assertEqual(self.call("GET", "/api/poll")[1]["voters"], 5)

        status, closed = self.call("POST", "/api/poll/close", {})
        self.assertEqual(status, 200, closed)
        self.assertEqual(self.bar.stop(), 0)

        listed = self.commentbar("poll", "list")
        self.assertIn("次はどれ？", listed)
        self.assertIn("5 votes", listed)
        poll_id = listed.split()[0]
        rows = list(csv.DictReader(io.StringIO(self.commentbar("poll", "show", poll_id, "--csv"))))
        self.assertEqual([(row["option"], row["text"], row["platform"], row["votes"]) for row in rows],
                         [("1", "ラーメン", "websocket", "1"), ("2", "Sushi", "websocket", "2"),
                          ("3", "カレー", "websocket", "2")])
        every = list(csv.DictReader(io.StringIO(self.commentbar("poll", "list", "--csv"))))
        self.assertEqual([(row["poll"], row["votes"]) for row in every], [(poll_id, "1"), (poll_id, "2"), (poll_id, "2")],
                         "poll list --csv: every poll's rows under one header")
        shown = json.loads(self.commentbar("poll", "show", poll_id, "--json"))
        self.assertEqual(shown["voters"], 5)
        self.assertIsNotNone(shown["closed_at"])
        self.assertEqual(sorted(ballot["user"] for ballot in shown["ballots"]),
                         ["alice", "bob", "carol", "dave", "heidi"])

    def test_a_giveaway_keeps_every_draw(self):
        self.start()
        status, giveaway = self.call("POST", "/api/giveaway", {"word": "!enter"})
        self.assertEqual(status, 200, giveaway)
        for number, name in enumerate(["Alice", "Bob", "Carol"]):
            self.relay.comment(f"e{number}", name, "!enter")
        wait_for(lambda: self.call("GET", "/api/giveaway")[1]["entries"] == 3, "three entries", timeout=10)
        first = self.call("POST", "/api/giveaway/draw", {})[1]["winner"]["name"]
        time.sleep(WRITER_WINDOW * 3)
        self.kill()
        self.start()
        wait_for(lambda: self.call("GET", "/api/giveaway")[0] == 200, "the giveaway restored", timeout=15)
        status, giveaway = self.call("GET", "/api/giveaway")
        self.assertEqual(giveaway["entries"], 3)
        self.assertEqual([winner["name"] for winner in giveaway["winners"]], [first])
        second = self.call("POST", "/api/giveaway/draw", {})[1]["winner"]["name"]
        self.assertNotEqual(second, first, "a re-draw after the restart never repeats a winner")
        self.assertEqual(self.bar.stop(), 0)
        listed = self.commentbar("giveaway", "list", "--json")
        draws = json.loads(listed.splitlines()[0])["draws"]
        self.assertEqual([draw["name"] for draw in draws], [first, second])

    def test_a_viewer_hidden_after_joining_leaves_the_queue_and_is_never_drawn(self):
        """Hidden viewers never take part (issue 48): the streamer hides one who already waits and entered; the
        queue loses them and no draw picks them, though their entry stays on record."""
        self.start()
        self.assertEqual(self.call("POST", "/api/queue/open", {})[0], 200)
        self.assertEqual(self.call("POST", "/api/giveaway", {"word": "!enter"})[0], 200)
        for number, name in enumerate(["Alice", "Bob"]):
            self.relay.comment(f"j{number}", name, "!join")
            self.relay.comment(f"e{number}", name, "!enter")
        wait_for(lambda: self.names("waiting") == ["Alice", "Bob"], "both in the queue", timeout=10)
        wait_for(lambda: self.call("GET", "/api/giveaway")[1]["entries"] == 2, "two entries", timeout=10)
        alice = self.call("GET", "/api/queue")[1]["waiting"][0]
        status, answer = self.call("POST", "/api/viewer", {"platform": alice["platform"], "channel": alice["channel"],
                                                          "user": alice["user"], "hidden": True})
        self.assertEqual(status, 200, answer)
        self.assertEqual(self.names("waiting"), ["Bob"], "out of the queue at once")
        for _ in range(5):
            status, answer = self.call("POST", "/api/giveaway/draw", {})
            if status != 200:
                break
            self.assertEqual(answer["winner"]["name"], "Bob", "Alice is never drawn")
        self.assertEqual(status, 404, "nobody but Bob could win")
        self.assertEqual(self.call("GET", "/api/giveaway")[1]["entries"], 2, "every entry stays on record")
        self.assertEqual(self.bar.stop(), 0)

    def test_with_the_memory_off_nothing_is_kept(self):
        self.settings["remember"] = False
        self.start()
        self.assertEqual(self.call("POST", "/api/poll", {"question": "Q", "options": ["a", "b"]})[0], 200)
        self.relay.comment("v1", "Alice", "a")
        wait_for(lambda: self.votes() == [1, 0], "Alice's vote", timeout=10)
        time.sleep(WRITER_WINDOW * 3)
        self.kill()
        self.start()
        time.sleep(1)
        self.assertEqual(self.call("GET", "/api/poll")[0], 404, "no poll after a restart")
        self.assertFalse(os.path.exists(self.database))


if __name__ == "__main__":
    unittest.main()
