#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""HTML5コメジェネ's comment.xml from the bar (issue 39), end to end: `commentbar serve` reading a
WebSocket relay writes it; the file parses as XML, every comment has `handle` (the nickname a
viewer gave themselves in chat where there is one), it holds the newest 100, and deletions leave
it. A folder that cannot be written is one line in the log while the bar goes on.

    COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/doors/test_comment_xml.py
"""
import os
import sys
import time
import unittest
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from control.relay import Relay  # noqa: E402
from doors.served import Bar, wait_until  # noqa: E402


class CommentXMLTest(unittest.TestCase):
    def setUp(self):
        self.relay = Relay()
        self.bar = None

    def tearDown(self):
        if self.bar:
            self.bar.stop()
        self.relay.close()

    def start(self, path):
        self.bar = Bar({"service": "websocket", "stream_id": "relay", "server": f"ws://127.0.0.1:{self.relay.port}/chat",
                        "remember": True, "comment_xml_path": path, "pace_bursts": False})
        wait_until(lambda: self.relay.clients, "the bar to connect to the relay", timeout=30)

    def read(self, path):
        return ElementTree.parse(path).getroot()

    def test_the_newest_100_each_with_a_handle(self):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"comment-xml-{os.getpid()}.xml")
        self.addCleanup(lambda: os.path.exists(path) and os.remove(path))
        self.start(path)
        self.relay.comment("n0", "Taro", "よろしく@たろう")  # a nickname from chat (the viewer memory)
        for number in range(1, 130):
            self.relay.comment(f"n{number}", f"Viewer{number % 7}", f"comment {number} <&> \"quoted\"")
        self.relay.comment("last-taro", "Taro", "また来ました")

        def written(check):
            try:
                root = self.read(path)
            except (OSError, ElementTree.ParseError):
                return None
            return root if check([comment.text for comment in root]) else None
        root = wait_until(lambda: written(lambda texts: texts and texts[-1] == "また来ました"),
                          "comment.xml with the last comment", timeout=20)
        comments = list(root)
        self.assertEqual(root.tag, "log")
        self.assertEqual(len(comments), 100)
        for comment in comments:
            self.assertEqual(comment.tag, "comment")
            self.assertTrue(comment.get("handle"), comment.attrib)
            for key in ("no", "time", "owner", "service"):
                self.assertIn(key, comment.attrib)
        self.assertEqual(comments[0].text, 'comment 31 <&> "quoted"')  # 131 sent: the first 31 went
        self.assertEqual(comments[-1].get("handle"), "たろう")
        self.assertEqual(comments[-2].text, 'comment 129 <&> "quoted"')
        numbers = [int(comment.get("no")) for comment in comments]
        self.assertEqual(numbers, sorted(numbers))
        self.assertFalse(os.path.exists(path + ".commentbar-new"))
        # A deletion leaves the file.
        self.relay.send({"type": "delete", "id": "n129"})
        root = wait_until(lambda: written(lambda texts: 'comment 129 <&> "quoted"' not in texts),
                          "comment.xml without the deleted comment", timeout=20)
        self.assertEqual(len(list(root)), 99)

    def test_a_folder_that_cannot_be_written_is_one_line(self):
        path = "/proc/comment-bar-cannot-write/comment.xml"
        self.start(path)
        for number in range(5):
            self.relay.comment(f"u{number}", "Viewer", f"comment {number}")
            time.sleep(0.6)
        self.bar.wait_log("comment.xml: cannot write")
        self.assertEqual(len(self.bar.lines("comment.xml: cannot write")), 1, self.bar.log[-10:])
        self.assertIsNone(self.bar.proc.poll())


if __name__ == "__main__":
    unittest.main(verbosity=2)
