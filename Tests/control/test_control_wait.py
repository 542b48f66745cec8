#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`GET /api/comments?since=SEQ&wait=S` (issue 49, what the dock asks) against `commentbar serve`
reading a JSON relay on loopback: with nothing after SEQ the request is held, and answered within a
second of a comment's arrival, or of a pin (its `state_seq` then above SEQ); with nothing coming it
is answered empty after S seconds; with news already, or a SEQ beyond the server's newest event, at
once; over the cap of held requests (8) at once, and a held request whose client went gives its
place back; a new token (`control-url --rotate`) refuses the held requests at once (401: their
credential no longer holds); the renderer's stop does not wait for held requests. A poll started
or closed is news too (its `boards_seq` then above SEQ).

    PYTHONPATH=Tests COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/control/test_control_wait.py"""
import http.client
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
import unittest

from control.browser import wait_for
from control.relay import Relay
from support.pool_frames import QUIET, ServedBar
from support.processes import free_port

BIN = os.path.abspath(os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))
CAP = 8  # NewsWaits.limit


class Held:
    """One request on a connection of its own, answered on a thread: `answered` is set with the
    time it took, its status and its JSON."""

    def __init__(self, port, token, path):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.answered = threading.Event()
        self.status, self.body, self.seconds = None, None, None
        self.started = time.monotonic()
        self.connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        self.socket = self.connection.sock
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            response = self.connection.getresponse()
            with response:
                self.status, self.body = response.status, json.loads(response.read() or b"null")
        except (OSError, http.client.HTTPException, ValueError) as error:
            self.status = repr(error)
        self.seconds = time.monotonic() - self.started
        self.answered.set()

    def close(self):
        """The client goes: its connection closes (shut down: the reading thread's file would keep it open)."""
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()


class ControlWaitTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.config = tempfile.mkdtemp(prefix="control-wait-")
        cls.relay = Relay()
        cls.port = free_port()
        settings = {**QUIET, "service": "websocket", "feeds": [{"value": f"ws://127.0.0.1:{cls.relay.port}/chat"}],
                    "control": True, "control_port": cls.port, "remember": False}
        cls.env = {"XDG_CONFIG_HOME": cls.config, "XDG_DATA_HOME": os.path.join(cls.config, "data")}
        cls.bar = ServedBar(BIN, settings, width=640, height=240, env=cls.env)
        cls.bar.wait_log(f"control page: on port {cls.port} ")
        wait_for(lambda: cls.relay.clients, "the bar to connect to the relay", timeout=30)
        with open(os.path.join(cls.config, "comment-bar", "control-token")) as file:
            cls.token = file.read().strip()
        cls.count = 0

    @classmethod
    def tearDownClass(cls):
        if cls.bar.proc.poll() is None:
            cls.bar.stop()
        elif cls.bar.proc.returncode != 0:
            print(f"the renderer ended with {cls.bar.proc.returncode} during the tests; its log:", *cls.bar.log[-40:],
                  sep="\n")
        cls.relay.close()

    def call(self, method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()

    def hold(self, path):
        return Held(self.port, self.token, path)

    def newest(self):
        """The server's newest event number, as /api/comments gives it."""
        status, body = self.call("GET", "/api/comments?limit=0")
        self.assertEqual(status, 200, body)
        return body["seq"]

    def comment(self, text):
        """A comment through the relay; waits until /api/comments serves it. Its id."""
        type(self).count += 1
        since = self.newest()
        self.relay.comment(f"w{self.count}", "Waiter", text)
        found = []

        def served():
            found[:] = self.call("GET", f"/api/comments?since={since}")[1]["comments"]
            return found
        wait_for(served, "the comment to be served", timeout=10)
        return found[-1]["id"]

    def test_1_held_until_a_comment(self):
        self.comment("first")
        since = self.newest()
        held = self.hold(f"/api/comments?since={since}&wait=20")
        self.assertFalse(held.answered.wait(1.5), "a request with nothing new is held")
        sent = time.monotonic()
        self.relay.comment("h1", "Waiter", "news at last")
        self.assertTrue(held.answered.wait(5), "the held request is answered")
        took = time.monotonic() - sent
        held.close()
        self.assertEqual(held.status, 200, held.body)
        self.assertLess(took, 1.0, "answered within a second of the comment")
        self.assertEqual([c["text"] for c in held.body["comments"]], ["news at last"])
        self.assertGreater(held.body["seq"], since)

    def test_2_empty_after_its_seconds(self):
        since = self.newest()
        held = self.hold(f"/api/comments?since={since}&wait=2")
        self.assertTrue(held.answered.wait(8))
        held.close()
        self.assertEqual(held.status, 200, held.body)
        self.assertEqual((held.body["comments"], held.body["removed"]), ([], []))
        self.assertGreaterEqual(held.seconds, 1.9, "held for its wait")
        self.assertLess(held.seconds, 4.0, "answered once its wait ran out")

    def test_3_at_once_with_news_or_a_future_seq(self):
        since = self.newest()
        self.comment("already here")
        for path, what in ((f"/api/comments?since={since}&wait=20", "news already after since"),
                           (f"/api/comments?since={since + 1000}&wait=20", "a since beyond the newest event")):
            started = time.monotonic()
            status, body = self.call("GET", path)
            self.assertEqual(status, 200, body)
            self.assertLess(time.monotonic() - started, 1.0, what)
        self.assertEqual(self.call("GET", "/api/comments?wait=31")[0], 400, "wait is at most 30")

    def test_4_a_pin_is_news(self):
        comment = self.comment("pin me")
        since = self.newest()
        held = self.hold(f"/api/comments?since={since}&wait=20")
        self.assertFalse(held.answered.wait(1.0))
        sent = time.monotonic()
        self.assertEqual(self.call("POST", "/api/pin", {"id": comment})[0], 200)
        self.assertTrue(held.answered.wait(5))
        took = time.monotonic() - sent
        held.close()
        self.assertLess(took, 1.0, "a pin answers the held request within a second")
        self.assertGreater(held.body["state_seq"], since, "its state_seq says /api/state changed")
        self.assertEqual(self.call("POST", "/api/unpin", {})[0], 200)
        # The unpin reaches the event API after its answer: the next test's `since` must be past it.
        wait_for(lambda: self.call("GET", "/api/state")[1].get("pin") is None, "the unpin to be published", timeout=10)

    def test_5_a_poll_is_news(self):
        """The dock reads the poll, the queue and the giveaway only when `boards_seq` moves."""
        since = self.newest()
        held = self.hold(f"/api/comments?since={since}&wait=20")
        self.assertFalse(held.answered.wait(1.0))
        sent = time.monotonic()
        status, body = self.call("POST", "/api/poll", {"question": "Which?", "options": ["A", "B"]})
        self.assertEqual(status, 200, body)
        self.assertTrue(held.answered.wait(5), "a poll started answers the held request")
        took = time.monotonic() - sent
        held.close()
        self.assertLess(took, 1.0, "within a second")
        self.assertGreater(held.body["boards_seq"], since, "its boards_seq says the boards changed")
        self.assertLessEqual(held.body["state_seq"], since, "and /api/state did not")
        boards = held.body["boards_seq"]
        self.assertEqual(self.call("POST", "/api/poll/close", {})[0], 200)
        wait_for(lambda: self.call("GET", f"/api/comments?since={boards}&limit=0")[1]["boards_seq"] > boards,
                 "the poll closed to move boards_seq again", timeout=10)

    def test_6_the_cap_and_a_client_that_goes(self):
        since = self.newest()
        held = [self.hold(f"/api/comments?since={since}&wait=20") for _ in range(CAP)]
        time.sleep(1.0)
        self.assertFalse(any(h.answered.is_set() for h in held), "the first 8 are held")
        over = self.hold(f"/api/comments?since={since}&wait=20")
        self.assertTrue(over.answered.wait(1.0), "one over the cap is answered at once")
        over.close()
        self.assertEqual((over.status, over.body["comments"]), (200, []))
        # Clients that go give their places back: a new request is held again.
        for h in held[:2]:
            h.close()
        time.sleep(0.5)
        again = self.hold(f"/api/comments?since={since}&wait=20")
        self.assertFalse(again.answered.wait(1.0), "a request is held again once clients went")
        self.relay.comment("c1", "Waiter", "for all of them")
        for h in held[2:] + [again]:
            self.assertTrue(h.answered.wait(5))
            self.assertEqual([c["text"] for c in h.body["comments"]], ["for all of them"])
            h.close()

    def test_6z_a_new_token_refuses_the_held_requests(self):
        since = self.newest()
        held = [self.hold(f"/api/comments?since={since}&wait=20") for _ in range(2)]
        self.assertFalse(any(h.answered.wait(1.0) for h in held))
        rotated = subprocess.run([BIN, "control-url", "--rotate", "--port", str(self.port)],
                                 env={**os.environ, **self.env}, capture_output=True, text=True, timeout=30)
        self.assertEqual(rotated.returncode, 0, rotated.stderr)
        for h in held:
            self.assertTrue(h.answered.wait(3), "a held request ends when the token changes")
            h.close()
            self.assertEqual(h.status, 401, h.body)
        self.relay.comment("t1", "Waiter", "after the new token")
        with open(os.path.join(self.config, "comment-bar", "control-token")) as file:
            type(self).token = file.read().strip()
        self.assertEqual(self.call("GET", f"/api/comments?since={since}")[0], 200, "the new token is taken")

    def test_7_stop_does_not_wait_for_held_requests(self):
        since = self.newest()
        held = [self.hold(f"/api/comments?since={since}&wait=30") for _ in range(CAP)]
        time.sleep(1.0)
        started = time.monotonic()
        self.bar.stop()
        took = time.monotonic() - started
        for h in held:
            h.close()
        self.assertLess(took, 10.0, "the renderer stopped without waiting out the held requests (30 s)")


if __name__ == "__main__":
    unittest.main(verbosity=2)
