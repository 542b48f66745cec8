#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""comment.xml as the real HTML5コメジェネ readers read it (issue 46), end to end: `commentbar serve`
merging two WebSocket relays writes comment.xml into a folder that already holds MultiCommentViewer's
file from before; the folder is served on 127.0.0.1 as HTML5コメジェネ's own folder is laid out, and
Debian's headless chromium runs our clean-room doubles of HTML5コメジェネ 0.0.8a's page and of
NiCommentGenerator (Tests/doors/readers: their sources cited there). A burst of 30 comments in one
second, from two streams whose sent times are out of order, must all be shown by both, in the order
written (`no`), none twice; the older rows stay in the file, and no version of the file is an
empty `<log>` (NiCommentGenerator stops for good after one).

    COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/doors/test_comment_xml_readers.py
"""
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading
import time
import unittest
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from control.browser import chromium  # noqa: E402
from control.relay import Relay  # noqa: E402
from doors.served import Bar, wait_until  # noqa: E402
from support.processes import wait_for  # noqa: E402

READERS = os.path.join(HERE, "readers")
BURST = 30
# HTML5コメジェネ shows one comment per poll: 100 ms instead of its 500 ms keeps the test short.
HCG_POLL_MS = 100
YESTERDAY = int(time.time()) - 86400
# The file MultiCommentViewer leaves (CommentGeneratorPlugin/main.cs, `XElement.Save`): a UTF-8 byte
# order mark, CRLF, `icon_url` first, every `no` "0", `time` the second it was written.
OLDER_ROWS = [("0", str(YESTERDAY + n), f"昨日の視聴者{n}", f"before {n}") for n in range(5)]
OLDER_FILE = ("\ufeff<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<log>\r\n" + "".join(
    f'  <comment icon_url="" no="{no}" time="{when}" owner="0" service="youtubelive" handle="{handle}">{text}</comment>\r\n'
    for no, when, handle, text in OLDER_ROWS) + "</log>").encode()


class QuietFolder(http.server.SimpleHTTPRequestHandler):
    """The folder as a browser source would read it from disk: never a stale copy from a cache."""

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


class FileWatcher:
    """Every version of comment.xml, as (no, time, handle, text) rows, read every few milliseconds
    (the readers see only some; this sees what any of them could have)."""

    def __init__(self, path):
        self.path = path
        self.versions = []
        self.unreadable = []
        self.running = True
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self):
        last = None
        while self.running:
            try:
                with open(self.path, "rb") as file:
                    data = file.read()
            except OSError as error:
                data = repr(error).encode()
            if data != last:
                last = data
                try:
                    root = ElementTree.fromstring(data)
                    self.versions.append((root.tag, [(row.get("no"), row.get("time"), row.get("handle"), row.text or "")
                                                     for row in root.iter("comment")]))
                except ElementTree.ParseError:
                    self.unreadable.append(data[:200])
            time.sleep(0.003)

    def stop(self):
        self.running = False
        self.thread.join(5)


def burst_events(start):
    """30 comments in turn from the two streams: the first stream's sent just now, the second's (a
    platform that delivers late) 20 s ago, each stream's out of order. One is a gift without text,
    one starts with "/", one viewer's name holds HTML5コメジェネ's colour and skin marks."""
    events = []
    for i in range(BURST):
        stream, k = i % 2, i // 2
        sent = (start - 0.5 + (k * 7 % 15) * 0.03) if stream == 0 else (start - 20 + (k * 4 % 15) * 0.03)
        user = f"Viewer{i}" if stream == 0 else f"視聴者{i}"
        event = {"type": "comment", "id": f"burst-{i}", "user": user, "login": f"viewer{i}", "text": f"burst {i:02d}",
                 "sent": sent}
        if i == 4:
            event["text"] = f"/burst {i:02d} help"
        elif i == 7:
            event["user"] = "Ko{#ff0000}ji[gold]"
        elif i == 10:
            event.update(type="gift", gift=f"burst {i:02d} star", count=1, text="")
        events.append((stream, event))
    return events


class CommentXMLReadersTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Class cleanups run even when this fails half-way (tearDownClass would not).
        cls.folder = tempfile.mkdtemp(prefix="hcg-")
        cls.addClassCleanup(shutil.rmtree, cls.folder, ignore_errors=True)
        # HTML5コメジェネ's folder: its page and setting.xml beside comment.xml, NiCommentGenerator's
        # folder inside it (it reads ../comment.xml).
        shutil.copytree(os.path.join(READERS, "hcg"), cls.folder, dirs_exist_ok=True)
        shutil.copytree(os.path.join(READERS, "nicg"), os.path.join(cls.folder, "nicg"))
        shutil.copy(os.path.join(READERS, "both.html"), cls.folder)
        cls.path = os.path.join(cls.folder, "comment.xml")
        with open(cls.path, "wb") as file:
            file.write(OLDER_FILE)
        cls.watcher = FileWatcher(cls.path)
        cls.addClassCleanup(cls.watcher.stop)
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietFolder, directory=cls.folder))
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.addClassCleanup(cls.server.shutdown)
        cls.driver = chromium(language="ja")
        cls.addClassCleanup(cls.driver.quit)
        cls.driver.get(f"http://127.0.0.1:{cls.server.server_port}/both.html?hcg=interval%3D{HCG_POLL_MS}")
        wait_until(lambda: cls.reader("hcg").get("settings") == "read", "HTML5コメジェネ's setting.xml read")
        wait_until(lambda: int(cls.reader("nicg").get("reads") or 0) >= 1, "NiCommentGenerator's first read")

        cls.relays = [Relay(), Relay()]
        for relay in cls.relays:
            cls.addClassCleanup(relay.close)
        feeds = [{"value": f"ws://127.0.0.1:{relay.port}/chat"} for relay in cls.relays]
        cls.bar = Bar({"service": "websocket", "feeds": feeds, "comment_xml_path": cls.path})
        cls.addClassCleanup(cls.bar.stop)
        wait_until(lambda: all(relay.clients for relay in cls.relays), "the bar to connect to both relays", timeout=30)
        # NiCommentGenerator reads the folder three times more with the bar running: whatever the bar
        # wrote when it started, it has seen.
        reads = int(cls.reader("nicg")["reads"])
        wait_until(lambda: int(cls.reader("nicg")["reads"]) >= reads + 3, "NiCommentGenerator reading on")

        cls.burst_start = time.time()
        for stream, event in burst_events(cls.burst_start):
            cls.relays[stream].send(event)
        print(f"\n  {BURST} comments sent in {(time.time() - cls.burst_start) * 1000:.0f} ms", file=sys.stderr)
        # Both readers show all 30 (or the tests say what they showed), then a moment for any extra.
        wait_for(lambda: all(len(cls.reader(name)["shown"]) >= BURST for name in ("hcg", "nicg")), 30, 0.2)
        time.sleep(1.5)
        cls.watcher.stop()
        cls.final = cls.watcher.versions[-1][1] if cls.watcher.versions else []

    @classmethod
    def reader(cls, name):
        """What the reader in frame `name` showed, hid and threw, and (NiCommentGenerator) its reads."""
        return cls.driver.execute_script("""
            const doc = document.getElementById(arguments[0]).contentDocument;
            if (!doc || !doc.body) return {shown: [], hidden: [], errors: []};
            const rows = (id) => Array.from(doc.querySelectorAll(`#${id} li`))
              .map((item) => Object.assign({line: item.textContent}, item.dataset));
            const count = (id) => (doc.getElementById(id) || {}).textContent;
            return {shown: rows('shown'), hidden: rows('hidden'), errors: rows('errors'), reads: count('reads'),
                    empty: count('empty'), settings: doc.body.dataset.settings};
        """, name)

    def new_rows(self):
        """The burst's rows in the last file, by `no` (all 30, or the test fails here)."""
        older = {(handle, text) for _, _, handle, text in OLDER_ROWS}
        rows = [row for row in self.final if (row[2], row[3]) not in older]
        self.assertEqual(len(rows), BURST, f"the burst's rows in the last comment.xml: {rows}")
        return sorted(rows, key=lambda row: int(row[0] or 0))

    def test_01_the_older_rows_stay_in_every_version_of_the_file(self):
        kept = [(when, handle, text) for _, when, handle, text in OLDER_ROWS]
        self.assertGreater(len(self.watcher.versions), 1, f"the bar never wrote comment.xml: {self.bar.lines('comment.xml')}")
        for index, (_, rows) in enumerate(self.watcher.versions):
            self.assertEqual([(when, handle, text) for _, when, handle, text in rows[:len(kept)]], kept,
                             f"version {index} of comment.xml lost the rows it had before the bar started")

    def test_02_no_version_is_an_empty_log_and_every_one_parses(self):
        self.assertEqual(self.watcher.unreadable, [])
        for index, (root, rows) in enumerate(self.watcher.versions):
            self.assertEqual(root, "log", f"version {index}")
            self.assertTrue(rows, f"version {index} of comment.xml is an empty <log>")
        self.assertEqual(self.reader("nicg")["empty"], "0", "NiCommentGenerator read an empty <log>")

    def test_03_the_burst_is_numbered_for_the_readers(self):
        rows = self.new_rows()
        markers = [f"burst {i:02d}" for i in range(BURST)]
        self.assertEqual(sorted(marker for marker in markers for row in rows if marker in row[3]), markers,
                         "each comment of the burst once in the file")
        numbers = [row[0] for row in rows]
        self.assertTrue(all(len(no) == 10 and no.isdigit() for no in numbers), f"`no` zero-padded to 10 digits: {numbers}")
        self.assertEqual(numbers, sorted(set(numbers)), "`no` strictly increasing, as strings")
        self.assertGreater(int(numbers[0]), max(int(no) for no, *_ in OLDER_ROWS), "numbering goes on after the older rows")

    def test_04_the_burst_is_timed_when_written(self):
        times = [row[1] for row in self.new_rows()]
        self.assertEqual(times, sorted(times), "`time` never goes back")
        self.assertGreaterEqual(int(times[0]), int(self.burst_start), "`time` is the second of writing, not the sent time")

    def test_05_each_write_adds_rows_only_in_a_later_second(self):
        seen = {}
        for index, (_, rows) in enumerate(self.watcher.versions):
            if seen:
                added = [row for row in rows if (row[2], row[3]) not in seen]
                latest = max(seen.values())
                for row in added:
                    self.assertGreater(row[1], latest, f"version {index} added {row} in a second already written")
            seen.update({(row[2], row[3]): row[1] for row in rows})

    def test_06_no_text_is_empty_or_a_command_and_no_name_holds_a_mark(self):
        for _, _, handle, text in self.new_rows():
            self.assertTrue(text.strip(), f"an empty text for {handle}")
            self.assertFalse(text.startswith("/"), f"a leading / in {text!r}")
            self.assertFalse(set(handle) & set("{}[]"), f"HTML5コメジェネ's colour or skin marks in {handle!r}")

    def assert_shows_the_burst(self, name, text_of):
        shown = self.reader(name)["shown"]
        expected = [(row[0], text_of(row[3])) for row in self.new_rows()]
        self.assertEqual([(item["no"], item["text"] if "text" in item else item["line"]) for item in shown], expected,
                         f"{name} must show every comment of the burst once, in the order written")

    def test_07_html5_comment_generator_shows_every_comment_once_in_order(self):
        # Its page trims the text it draws (CommentGenerator.html 0.0.8a:309).
        self.assert_shows_the_burst("hcg", lambda text: text.strip())

    def test_08_nicommentgenerator_shows_every_comment_once_in_order(self):
        self.assert_shows_the_burst("nicg", lambda text: text)

    def test_09_a_name_with_marks_picks_no_colour_or_skin(self):
        row = next((row for row in self.new_rows() if "burst 07" in row[3]), None)
        self.assertIsNotNone(row, "the marked name's comment is not in the file")
        shown = [item for item in self.reader("hcg")["shown"] if item["no"] == row[0]]
        self.assertEqual([(item["handle"], item["colour"], item["skin"]) for item in shown], [(row[2], "", "")],
                         "HTML5コメジェネ shows the name as written, in no colour or skin of the viewer's choosing")

    def test_10_neither_reader_failed_or_hid_a_comment(self):
        self.assertEqual(self.reader("hcg")["errors"], [], "HTML5コメジェネ")
        self.assertEqual(self.reader("hcg")["hidden"], [], "HTML5コメジェネ hid a comment")
        errors = self.reader("nicg")["errors"]
        self.assertEqual(errors[:3], [], f"NiCommentGenerator ({len(errors)} errors)")

if __name__ == "__main__":
    unittest.main(verbosity=2)
