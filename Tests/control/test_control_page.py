#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The control page (issue 30) in a real browser: Debian's chromium, headless, driven by Selenium
through /usr/bin/chromedriver, against `commentbar serve` (on a memfd pool made as the OBS shim
makes it, support/pool_frames.py) reading a WebSocket relay on loopback (the `websocket`
service). The page is opened from `commentbar control-url --open` (a fake `xdg-open` on PATH
records the one-time link it is given); what the page sends is read from chromium's own network
log, what the bar shows from the pool's frames. The token's ways out (issue 37) are checked
here too: never in a command line or the page's address, a link that works once, no cookie for
other ports of 127.0.0.1, a cookie of the same name set by another port, `control-url --rotate`.

    PYTHONPATH=Tests COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/control/test_control_page.py
    CONTROL_SHOTS=/tmp/shots  keeps the screenshots and the bar's frames as PNG files

Needs chromium, chromium-driver, python3-selenium, python3-websockets, python3-pil (Debian)."""
import http.server
import json
import os
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from control.browser import chromium as browser, wait_for
from control.link_files import link_in
from control.links import first_use
from control.relay import BLUE, Relay
from support.pool_frames import QUIET, ServedBar
from support.processes import free_port

BIN = os.path.abspath(os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))

SHOTS = os.environ.get("CONTROL_SHOTS") or tempfile.mkdtemp(prefix="control-shots-")
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plugin", "data", "locale")


def page_words(locale):
    """The page's words as plugin/data/locale/<locale>.ini writes them: its `Page.key="word"` lines
    whose word holds no escape (the renderer reads the whole format: OBSLocaleFileTests)."""
    words = {}
    with open(os.path.join(LOCALE_DIR, f"{locale}.ini"), encoding="utf-8") as ini:
        for line in ini:
            key, equals, value = line.rstrip("\n").partition("=")
            if key.startswith("Page.") and equals and len(value) > 1 and value[0] == value[-1] == '"' and "\\" not in value:
                words[key.removeprefix("Page.")] = value[1:-1]
    return words


def nio_threads(pid):
    """The renderer's SwiftNIO event-loop threads (NIO names its shared ones NIO-SGLTN-…, others NIO-ELT-…)."""
    names = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/comm") as comm:
                names.append(comm.read().strip())
        except OSError:
            pass
    return sum(1 for name in names if name.startswith(("NIO-ELT", "NIO-SGLTN")))


def listening(port):
    """Local addresses listening on `port` (hex, as /proc/net/tcp{,6} write them)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                address, _, hex_port = fields[1].partition(":")
                if fields[3] == "0A" and int(hex_port, 16) == port:
                    found.append(address)
    return found


def amber_pixels(bar, pixels, top, bottom):
    """Pixels of rows top..bottom that are the pin strip's amber (B, G, R order)."""
    count = 0
    for y in range(top, bottom):
        line = pixels[y * bar.stride:(y + 1) * bar.stride]
        for x in range(0, bar.width * 4, 4):
            b, g, r = line[x], line[x + 1], line[x + 2]
            if r > 90 and r > g + 20 and g > b + 40:
                count += 1
    return count


class OtherPort:
    """Another web server on 127.0.0.1 (another program, another port): it keeps the Cookie header
    of every request it gets, and `/toss?path=P` answers with a cookie of the page's session name
    for path P (a cookie for 127.0.0.1 reaches every port: cookies do not keep ports apart)."""

    def __init__(self):
        self.cookies = []
        other = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                other.cookies.append((self.path, self.headers.get("Cookie", "")))
                self.send_response(200)
                if self.path.startswith("/toss?path="):
                    path = self.path.split("=", 1)[1]
                    self.send_header("Set-Cookie", f"commentbar_session={'e' * 64}; Path={path}; SameSite=Lax")
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(b"<!doctype html><title>another program</title><p>another program</p>")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def save_frame(bar, pixels, name):
    image = Image.frombuffer("RGBA", (bar.width, bar.height), pixels, "raw", "BGRA", 0, 1)
    path = os.path.join(SHOTS, name)
    image.save(path)
    return path


class ControlPageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.config = tempfile.mkdtemp(prefix="control-config-")
        # A fake xdg-open first on PATH (the renderer's and control-url's): it records its command
        # line, as `ps` would show it, one line per run.
        fakes = os.path.join(cls.config, "bin")
        os.makedirs(fakes)
        cls.opened = os.path.join(cls.config, "xdg-open.log")
        with open(os.path.join(fakes, "xdg-open"), "w") as fake:
            fake.write(f'#!/bin/sh\ntr "\\0" " " < /proc/$$/cmdline >> "{cls.opened}"\necho >> "{cls.opened}"\n')
        os.chmod(os.path.join(fakes, "xdg-open"), 0o755)
        cls.env = {"XDG_CONFIG_HOME": cls.config, "XDG_DATA_HOME": os.path.join(cls.config, "data"),
                   "PATH": fakes + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")}
        cls.relay = Relay()
        cls.port = free_port()
        cls.settings = {**QUIET, "service": "websocket", "stream_id": "relay1",
                        "server": f"ws://127.0.0.1:{cls.relay.port}/chat", "max_lines": 12,
                        "control": True, "control_port": cls.port,
                        # No viewer memory: the page's answer when a choice cannot be kept (503) is
                        # checked here; Tests/control/obs_control_test.py keeps choices in real OBS.
                        "remember": False}
        cls.bar = ServedBar(BIN, cls.settings, width=640, height=360, env=cls.env)
        cls.bar.wait_log(f"control page: on port {cls.port} ")
        deadline = time.monotonic() + 30
        while not cls.relay.clients and time.monotonic() < deadline:
            time.sleep(0.05)
        if not cls.relay.clients:
            raise AssertionError(f"the bar did not connect to the relay: {cls.bar.log[-10:]}")
        with open(os.path.join(cls.config, "comment-bar", "control-token")) as file:
            cls.token = file.read().strip()
        subprocess.run([BIN, "control-url", "--open", "--port", str(cls.port)], env={**os.environ, **cls.env},
                       capture_output=True, text=True, check=True)
        # xdg-open is given a private file that leads to the link (Tests/control/test_control_token.py).
        cls.first_link = link_in(cls.opened_links()[-1].split()[-1])
        cls.driver = browser()
        cls.driver.get(cls.first_link)
        cls.wait_for(lambda: cls.driver.find_element(By.ID, "connection").text == "Connected", "the page to connect")

    @classmethod
    def opened_links(cls):
        """The command lines the fake xdg-open ran with, oldest first."""
        with open(cls.opened) as record:
            return [line.strip() for line in record if line.strip()]

    @classmethod
    def link(cls):
        """A new one-time link, as `commentbar control-url` prints it."""
        return subprocess.run([BIN, "control-url", "--port", str(cls.port)], env={**os.environ, **cls.env},
                              capture_output=True, text=True, check=True).stdout.strip()

    def open_page(self, language="en-US"):
        """Another browser with the page opened from a new link, connected."""
        driver = browser(language)
        driver.get(self.link())
        self.wait_for(lambda: driver.find_element(By.ID, "connection").text in ("Connected", "接続中"), "the page to connect")
        return driver

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.bar.stop()

    wait_for = staticmethod(wait_for)

    def row(self, id):
        return self.driver.find_element(By.CSS_SELECTOR, f'li.comment[data-id="{id}"]')

    def shot(self, name):
        path = os.path.join(SHOTS, name)
        self.driver.save_screenshot(path)
        return path

    def posts(self):
        """The POSTs the page sent since the last call: (path inside the page's path, body as JSON)."""
        found = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                request = message["params"]["request"]
                if request.get("method") == "POST":
                    path = request["url"].split(str(self.port), 1)[-1].removeprefix(self.page_path())
                    found.append((path, json.loads(request.get("postData") or "{}")))
        return found

    def test_1_a_new_comment_shows_within_a_second(self):
        sent = time.monotonic()
        self.relay.comment("fast1", "Sakura", "こんばんは、初見です")
        self.wait_for(lambda: "こんばんは、初見です" in self.row("fast1").text, "the comment on the page", timeout=5, poll=0.01)
        elapsed = time.monotonic() - sent
        print(f"\n  comment on the page {elapsed * 1000:.0f} ms after the relay sent it")
        self.assertLess(elapsed, 1.0)
        row = self.row("fast1")
        self.assertEqual(row.find_element(By.CSS_SELECTOR, ".name").text, "Sakura")
        self.assertEqual(row.find_element(By.CSS_SELECTOR, ".mark").text.lower(), "web")
        # Chat text is text, never markup.
        self.relay.comment("html1", "Mallory", "<img src=x onerror=alert(1)><b>bold</b>")
        self.wait_for(lambda: self.row("html1"), "the markup comment")
        self.assertEqual(self.row("html1").find_element(By.CSS_SELECTOR, ".text").text,
                         "<img src=x onerror=alert(1)><b>bold</b>")
        self.assertEqual(self.row("html1").find_elements(By.CSS_SELECTOR, "img, b"), [])
        self.shot("page-comments.png")

    def test_2_pin_calls_the_api_and_the_strip_stays_while_ten_comments_scroll(self):
        self.relay.comment("pin1", "Questioner", "What game is this?")
        self.wait_for(lambda: self.row("pin1"), "the comment to pin")
        self.posts()
        published_before = len(self.bar.frames)
        self.row("pin1").find_element(By.CSS_SELECTOR, "button.pin").click()
        self.wait_for(lambda: self.driver.find_element(By.ID, "pinned").is_displayed(), "the page's pinned box")
        self.assertIn(("/api/pin", {"id": "pin1"}), self.posts())
        self.assertIn("What game is this?", self.driver.find_element(By.ID, "pinned-comment").text)
        self.assertEqual(self.row("pin1").find_element(By.CSS_SELECTOR, "button.pin").text, "Unpin")
        self.bar.wait_log("control: pinned pin1")
        top, bottom = ServedBar.COMMENTS_TOP - 8, ServedBar.COMMENTS_TOP + 14
        self.wait_for(lambda: len(self.bar.frames) > published_before
                      and amber_pixels(self.bar, self.bar.frames[-1][2], top, bottom) > 100, "the strip on the bar")
        pinned_frame = self.bar.frames[-1][2]
        save_frame(self.bar, pinned_frame, "bar-pinned.png")
        strip = [pinned_frame[y * self.bar.stride:(y + 1) * self.bar.stride] for y in range(top, bottom)]
        for index in range(10):
            self.relay.comment(f"after{index}", f"Viewer{index}", f"comment {index} after the pin")
            self.wait_for(lambda: self.row(f"after{index}"), f"comment {index}")
        self.wait_for(lambda: self.bar.bright_rows(self.bar.frames[-1][2]), "rows under the strip")
        time.sleep(0.5)
        last = self.bar.frames[-1][2]
        save_frame(self.bar, last, "bar-pinned-after-ten.png")
        self.assertEqual([last[y * self.bar.stride:(y + 1) * self.bar.stride] for y in range(top, bottom)], strip,
                         "the strip moved while ten comments scrolled")
        self.shot("page-pinned.png")
        # Unpin from the page's pinned box: the strip goes from the bar.
        self.driver.find_element(By.ID, "pinned-unpin").click()
        self.wait_for(lambda: not self.driver.find_element(By.ID, "pinned").is_displayed(), "the pin to go")
        self.assertIn(("/api/unpin", {"id": "pin1"}), self.posts())
        self.wait_for(lambda: amber_pixels(self.bar, self.bar.frames[-1][2], top, bottom) == 0, "the strip to go")

    def test_3_nickname_colour_and_hide_send_the_right_commands(self):
        self.relay.comment("who1", "Bob", "hello from bob")
        self.wait_for(lambda: self.row("who1"), "Bob's comment")
        self.posts()
        self.row("who1").find_element(By.CSS_SELECTOR, "button.nickname").click()
        field = self.driver.find_element(By.ID, "viewer-nickname")
        self.wait_for(lambda: field.is_displayed(), "the nickname dialog")
        self.assertEqual(self.driver.switch_to.active_element, field, "the dialog's field has the focus")
        field.send_keys("ボブさん")
        self.shot("page-nickname-dialog.png")
        field.send_keys(Keys.ENTER)
        self.wait_for(lambda: self.driver.find_element(By.ID, "notice").text, "the command's answer")
        viewer = {"platform": "websocket", "channel": "relay1", "user": "bob"}
        self.assertIn(("/api/viewer", {**viewer, "nickname": "ボブさん"}), self.posts())
        self.bar.wait_log('control: viewer websocket/relay1/bob: nickname "ボブさん"')
        # Without the viewer memory in this renderer the choice cannot be kept: the page says so.
        self.assertIn("503", self.driver.find_element(By.ID, "notice").text)

        self.row("who1").find_element(By.CSS_SELECTOR, "button.colour").click()
        self.wait_for(lambda: self.driver.find_element(By.ID, "viewer-colour").is_displayed(), "the colour dialog")
        self.driver.find_element(By.ID, "viewer-save").click()
        self.wait_for(lambda: any(path == "/api/viewer" and "colour" in body for path, body in self.posts_seen()),
                      "the colour command")
        self.row("who1").find_element(By.CSS_SELECTOR, "button.hide").click()
        self.wait_for(lambda: any(body.get("hidden") is True for _, body in self.posts_seen()), "the hide command")
        self.assertIn(("/api/viewer", {**viewer, "colour": BLUE}), self.seen)
        self.assertIn(("/api/viewer", {**viewer, "hidden": True}), self.seen)
        self.bar.wait_log("control: viewer websocket/relay1/bob: hidden")

    def test_3b_a_viewers_voice_is_set_from_the_page(self):
        self.relay.comment("voice1", "Vera", "read me in another voice")
        self.wait_for(lambda: self.row("voice1"), "Vera's comment")
        self.posts()
        self.row("voice1").find_element(By.CSS_SELECTOR, "button.voice").click()
        field = self.driver.find_element(By.ID, "viewer-voice")
        self.wait_for(lambda: field.is_displayed(), "the voice dialog")
        self.assertEqual(self.driver.switch_to.active_element, field, "the dialog's field has the focus")
        self.assertFalse(self.driver.find_element(By.ID, "viewer-nickname").is_displayed())
        self.assertIn("VOICEVOX", self.driver.find_element(By.CSS_SELECTOR, 'label[for="viewer-voice"]').text,
                      "the dialog says what a voice is")
        field.send_keys("ja+f3")
        self.shot("page-voice-dialog.png")
        field.send_keys(Keys.ENTER)
        viewer = {"platform": "websocket", "channel": "relay1", "user": "vera"}
        self.wait_for(lambda: ("/api/viewer", {**viewer, "voice": "ja+f3"}) in self.posts_seen(), "the voice command")
        self.bar.wait_log('control: viewer websocket/relay1/vera: voice "ja+f3"')

    def comments_since(self, since):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/comments?since={since}&limit=1000",
                                         headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.load(answer)

    def state_seq(self):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/state",
                                         headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.load(answer)["seq"]

    def test_3c_deletions_bans_and_clears_reach_the_page_and_a_polling_client(self):
        since = self.state_seq()
        for id, user, text in (("mod1", "Alice", "delete me"), ("mod2", "Troll", "spam one"),
                               ("mod3", "Troll", "spam two"), ("mod4", "Carol", "I stay")):
            self.relay.comment(id, user, text)
        self.wait_for(lambda: self.row("mod4"), "the comments")
        self.relay.send({"type": "delete", "id": "mod1"})
        self.relay.send({"type": "delete", "user": "TROLL"})  # a ban: the user compared case-blind
        self.wait_for(lambda: not self.driver.find_elements(By.CSS_SELECTOR, 'li.comment[data-id^="mod"]:not([data-id="mod4"])'),
                      "the deleted and banned rows to leave the page")
        polled = self.comments_since(since)
        self.assertEqual([c["id"] for c in polled["comments"]], ["mod4"], "what was removed is not served")
        self.assertEqual([(e["type"], e.get("id"), e.get("user"), e["platform"], e["channel"]) for e in polled["removed"]],
                         [("delete", "mod1", None, "websocket", "relay1"), ("ban", None, "TROLL", "websocket", "relay1")],
                         "a polling client learns what was removed since")
        self.assertTrue(polled["removed_complete"])
        self.assertTrue(all(e["seq"] > since for e in polled["removed"]))
        newest = max(e["seq"] for e in polled["comments"] + polled["removed"])
        self.assertEqual(self.comments_since(newest)["removed"], [], "nothing removed after the newest event")

        self.relay.send({"type": "clear"})
        self.relay.comment("mod5", "Dave", "after the clear")
        self.wait_for(lambda: self.row("mod5"), "the comment after the clear")
        self.wait_for(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#chat li.comment")) == 1, "the clear to empty the page")
        polled = self.comments_since(newest)
        self.assertEqual([e["type"] for e in polled["removed"]], ["clear"])
        self.assertEqual([c["id"] for c in polled["comments"]], ["mod5"])

    def test_3d_the_removals_kept_are_bounded_and_a_client_told_when_it_missed_some(self):
        since = self.state_seq()
        for index in range(1001):
            self.relay.send({"type": "delete", "id": f"gone{index}"})
        self.wait_for(lambda: self.comments_since(since)["removed"][-1].get("id") == "gone1000", "the 1001 deletions", poll=0.2)
        polled = self.comments_since(since)
        self.assertEqual(len(polled["removed"]), 1000, "the server keeps the newest 1000 removals")
        self.assertFalse(polled["removed_complete"], "a client that asks from before them is told it missed one")
        self.assertTrue(self.comments_since(polled["removed"][0]["seq"] - 1)["removed_complete"])

    def posts_seen(self):
        self.seen = getattr(self, "seen", []) + self.posts()
        return self.seen

    def test_4_keyboard_reaches_every_control(self):
        self.relay.comment("kb1", "Keys", "tab to me")
        self.wait_for(lambda: self.row("kb1"), "the comment")
        body = self.driver.find_element(By.TAG_NAME, "body")
        body.click()
        reached = set()
        for _ in range(400):
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
            element = self.driver.switch_to.active_element
            reached.add(element.get_attribute("id") or element.get_attribute("class"))
            if {"speech-skip", "speech-pause", "search-text", "pin", "nickname", "colour", "hide"} <= reached:
                break
        self.assertTrue({"speech-skip", "speech-pause", "search-text", "pin", "nickname", "colour", "hide"} <= reached,
                        reached)
        buttons = self.driver.find_elements(By.CSS_SELECTOR, "li.comment button")
        self.assertTrue(all(button.tag_name == "button" and button.get_attribute("aria-label") for button in buttons))

    def test_5_search_and_speech(self):
        self.relay.comment("s1", "Finder", "ラーメン食べたい")
        self.wait_for(lambda: self.row("s1"), "the comment")
        self.posts()
        self.driver.find_element(By.ID, "search-text").send_keys("ラーメン")
        # The button is off from the moment the search starts until its answer came.
        disabled = self.driver.execute_script(
            "const go = document.getElementById('search-go'); go.click(); return go.disabled;")
        self.assertTrue(disabled, "the Search button stays on while a search runs")
        self.wait_for(lambda: self.driver.find_element(By.ID, "results").is_displayed(), "search results")
        self.assertTrue(self.driver.find_element(By.ID, "search-go").is_enabled())
        texts = [row.find_element(By.CSS_SELECTOR, ".text").text
                 for row in self.driver.find_elements(By.CSS_SELECTOR, "#results li.comment")]
        self.assertEqual(texts, ["ラーメン食べたい"])
        self.shot("page-search.png")
        self.driver.find_element(By.ID, "search-back").click()
        self.driver.find_element(By.ID, "speech-skip").click()
        self.driver.find_element(By.ID, "speech-pause").click()
        self.wait_for(lambda: len(self.posts_seen()) >= 2, "the speech commands")
        self.assertIn(("/api/speech/skip", {}), self.seen)
        self.assertIn(("/api/speech/pause", {"paused": True}), self.seen)

    def test_5b_the_audience_panel_runs_a_poll_the_queue_and_a_giveaway(self):
        """The panel (audience.js) sends the control API's commands and shows what viewers do in
        the chat: votes counted, a join, the one called, the winner; names stay text."""
        find = lambda id: self.driver.find_element(By.ID, id)
        find("audience").find_element(By.TAG_NAME, "summary").click()
        find("poll-question").send_keys("次は？")
        find("poll-options").send_keys("マリオ\nゼルダ")
        find("poll-latest").click()
        find("poll-bare-numbers").click()
        self.posts()
        find("poll-start").click()
        self.wait_for(lambda: [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#poll-result li")]
                      == ["マリオ: 0", "ゼルダ: 0"], "the poll on the page")
        self.assertIn(("/api/poll", {"question": "次は？", "options": ["マリオ", "ゼルダ"], "revote": "latest",
                                     "bare_numbers": True}), self.posts())
        self.relay.comment("v1", "Voter", "!vote 1")
        self.wait_for(lambda: [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#poll-result li")]
                      == ["マリオ: 1", "ゼルダ: 0"], "the vote counted on the page")
        # The number alone, full-width, and the latest vote replaces the first: the page's two choices.
        self.relay.comment("v2", "Voter", "２")
        self.wait_for(lambda: [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#poll-result li")]
                      == ["マリオ: 0", "ゼルダ: 1"], "the vote moved on the page")
        find("poll-close").click()
        self.wait_for(lambda: find("poll-state").text.endswith("✓"), "the poll closed")
        self.wait_for(lambda: find("poll-dismiss").is_enabled(), "the result may be taken off the bar")
        self.posts()
        find("poll-dismiss").click()
        self.wait_for(lambda: ("/api/poll/dismiss", {}) in self.posts_seen(), "the dismiss command")
        self.wait_for(lambda: not find("poll-dismiss").is_enabled(), "nothing more to dismiss")
        # The queue's rules from the form: first-time viewers first (members only would keep the
        # relay's viewers out: they have no badge; regulars only needs the memory, off here).
        find("queue-first-time-first").click()
        find("queue-join").clear()
        find("queue-join").send_keys("!参加、 !play")
        self.posts()
        find("queue-open").click()
        self.wait_for(lambda: find("queue-next").is_enabled(), "the queue open")
        self.assertIn(("/api/queue/open", {"capacity": 50, "min_streams": 0, "first_time_first": True,
                                           "members_only": False, "join": ["!参加", "!play"],
                                           "leave": ["!leave", "!キャンセル"]}), self.posts())
        waiting = lambda: [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#queue-waiting li")]
        self.relay.comment("j0", "Early", "!play")
        self.relay.comment("j1", "<b>Joiner</b>", "!参加")
        self.relay.comment("j2", "Leaver", "!play")
        self.wait_for(lambda: waiting() == ["Early", "<b>Joiner</b>", "Leaver"], "the joins on the page, in order")
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#queue-waiting b"), [])
        # Choose a waiting viewer: move them up, then take another out.
        self.assertFalse(find("queue-up").is_enabled(), "nobody chosen yet")
        self.driver.find_elements(By.CSS_SELECTOR, "#queue-waiting input")[1].click()
        find("queue-up").click()
        self.wait_for(lambda: waiting() == ["<b>Joiner</b>", "Early", "Leaver"], "Joiner moved up")
        self.assertFalse(find("queue-up").is_enabled(), "the chosen one is first now")
        self.driver.find_elements(By.CSS_SELECTOR, "#queue-waiting input")[2].click()
        find("queue-remove").click()
        self.wait_for(lambda: waiting() == ["<b>Joiner</b>", "Early"], "Leaver removed")
        self.assertIn("/api/queue/move", [path for path, _ in self.posts_seen()])
        find("queue-next").click()
        self.wait_for(lambda: [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#queue-playing li")]
                      == ["<b>Joiner</b>"], "the one called, playing")
        find("giveaway-word").send_keys("!抽選")
        find("giveaway-seconds").clear()
        find("giveaway-seconds").send_keys("600")
        find("giveaway-min-comments").clear()
        find("giveaway-min-comments").send_keys("1")
        self.posts()
        find("giveaway-start").click()
        self.wait_for(lambda: find("giveaway-draw").is_enabled(), "the giveaway started")
        self.assertIn(("/api/giveaway", {"word": "!抽選", "seconds": 600, "min_comments": 1}), self.posts())
        self.relay.comment("g1", "Lucky", "!抽選")
        self.wait_for(lambda: "(1)" in find("giveaway-state").text, "the entry counted")
        find("giveaway-draw").click()
        self.wait_for(lambda: [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#giveaway-winners li")]
                      == ["Lucky (websocket)"], "the winner on the page")
        self.shot("page-audience.png")
        self.wait_for(lambda: find("giveaway-dismiss").is_enabled(), "the winner may be taken off the bar")
        self.posts()
        find("giveaway-dismiss").click()
        self.wait_for(lambda: ("/api/giveaway/dismiss", {}) in self.posts_seen(), "the giveaway's dismiss command")
        self.wait_for(lambda: not find("giveaway-dismiss").is_enabled(), "no winner left to dismiss")
        self.assertEqual([item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#giveaway-winners li")],
                         ["Lucky (websocket)"], "the draw stays listed")
        find("queue-close").click()
        self.wait_for(lambda: not find("queue-next").is_enabled(), "the queue closed")
        # A refused command says why, in the page's notice.
        find("poll-question").clear()
        find("poll-start").click()
        self.wait_for(lambda: find("notice").text, "the refusal's reason")
        find("audience").find_element(By.TAG_NAME, "summary").click()

    def test_6_without_the_token_or_from_a_foreign_host_refused(self):
        for headers, status in (({}, 401), ({"Host": f"evil.example:{self.port}"}, 403),
                                ({"Host": f"evil.example:{self.port}", "Authorization": f"Bearer {self.token}"}, 403)):
            request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/state", headers=headers)
            with self.assertRaises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=5)
            self.assertEqual(refused.exception.code, status, headers)
        other = browser()
        try:
            for path in ("/", f"/?token={self.token}", self.page_path() + "/"):
                other.get(f"http://127.0.0.1:{self.port}{path}")
                self.assertIn("needs to be opened from OBS", other.find_element(By.TAG_NAME, "body").text, path)
            self.assertEqual(other.get_cookies(), [], "the token in an address opens nothing")
        finally:
            other.quit()

    def page_path(self):
        """The page's path on this server, from the main browser's address."""
        return self.path_of_url(self.driver.current_url)

    def test_6b_the_token_is_in_no_command_line_and_no_address(self):
        # `control-url --open` ran xdg-open with a link, never with the token.
        self.assertTrue(self.opened_links(), "control-url --open ran no xdg-open")
        # "Open control page" in OBS (the shim's action counter going up).
        before = len(self.opened_links())
        self.bar.send({"actions": {"open_control": 0}})
        self.bar.send({"actions": {"open_control": 1}})
        self.wait_for(lambda: len(self.opened_links()) > before, "the renderer to run xdg-open")
        for line in self.opened_links():
            self.assertNotIn(self.token, line)
            self.assertRegex(line, r"xdg-open file:///\S+/comment-bar/open-[0-9a-f]{32}\.html$")
        # The renderer's and every other process's command line, now.
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                    self.assertNotIn(self.token.encode(), cmdline.read(), f"process {pid}")
            except OSError:
                pass
        # The link works once; the page's address (and its history entry) keeps no code.
        link = link_in(self.opened_links()[-1].split()[-1])
        status, headers = first_use(link)
        self.assertEqual(status, 303)
        self.assertNotIn("code=", headers["Location"])
        self.assertIn(f"Path={self.page_path()}/", headers["Set-Cookie"])
        self.assertEqual(first_use(link)[0], 401, "a link works once")
        self.assertEqual(first_use(self.first_link)[0], 401, "the link the page was opened with is spent")
        self.assertEqual(self.driver.current_url, f"http://127.0.0.1:{self.port}{self.page_path()}/")
        history = self.driver.execute_script("return [history.length, location.href]")
        self.assertNotIn("code=", history[1])
        self.assertNotIn(self.token, self.driver.page_source)

    def test_7_japanese_page(self):
        """A browser in Japanese gets ja-JP.ini's words: every text of the page, and the rows' buttons."""
        words = page_words("ja-JP")
        japanese = self.open_page("ja")
        try:
            self.wait_for(lambda: japanese.find_elements(By.CSS_SELECTOR, "li.comment button.pin"), "rows")
            self.assertEqual(japanese.find_element(By.CSS_SELECTOR, "li.comment button.pin").text, words["pin"])
            self.assertEqual(words["pin"], "固定")
            self.assertEqual(japanese.find_element(By.CSS_SELECTOR, "li.comment button.voice").text, words["voice"])
            self.assertEqual(japanese.find_element(By.ID, "speech-skip").text, "スキップ")
            shown = japanese.execute_script(
                "return [...document.querySelectorAll('[data-text]')].map(e => [e.dataset.text, e.textContent])")
            self.assertGreater(len(shown), 10)
            for key, text in shown:
                self.assertEqual(text, words[key], key)
            self.assertEqual(japanese.title, words["title"])
            self.assertEqual(japanese.execute_script("return document.documentElement.lang"), "ja")
            japanese.save_screenshot(os.path.join(SHOTS, "page-ja.png"))
        finally:
            japanese.quit()

    def test_7z_a_pin_goes_when_its_time_is_up(self):
        self.bar.send({"settings": {"width": 640, "height": 360, **self.settings, "pin_seconds": 1}})
        self.relay.comment("brief1", "Brief", "pinned for a second")
        self.wait_for(lambda: self.row("brief1"), "the comment")
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/pin", data=json.dumps({"id": "brief1"}).encode(),
                                         headers={"Authorization": f"Bearer {self.token}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            self.assertIsNotNone(json.load(answer).get("until"))
        top, bottom = ServedBar.COMMENTS_TOP - 8, ServedBar.COMMENTS_TOP + 14
        self.wait_for(lambda: amber_pixels(self.bar, self.bar.frames[-1][2], top, bottom) > 100, "the strip")
        self.wait_for(lambda: self.driver.find_element(By.ID, "pinned").is_displayed(), "the page's pinned box")
        # The bar drops it after a second, and the page hears that the pin went.
        self.wait_for(lambda: amber_pixels(self.bar, self.bar.frames[-1][2], top, bottom) == 0, "the strip to go",
                      timeout=5)
        self.wait_for(lambda: not self.driver.find_element(By.ID, "pinned").is_displayed(), "the page's box to go",
                      timeout=5)
        self.bar.send({"settings": {"width": 640, "height": 360, **self.settings}})

    def test_8_off_means_no_socket_and_no_thread(self):
        pid = self.bar.proc.pid
        on_threads = nio_threads(pid)
        self.assertTrue(listening(self.port))
        self.assertTrue(all(address in ("0100007F", "00000000000000000000000001000000") for address in listening(self.port)),
                        listening(self.port))
        self.bar.send({"settings": {"width": 640, "height": 360, **self.settings, "control": False}})
        self.bar.wait_log("control page: off")
        self.wait_for(lambda: not listening(self.port), "the port to close")
        # The server runs on the shared network loop (NetworkLoop): it has no thread to end, and
        # turning it off and on leaves none behind.
        self.assertEqual(nio_threads(pid), on_threads, "the server has no thread of its own")
        self.bar.send({"settings": {"width": 640, "height": 360, **self.settings, "control": True}})
        self.wait_for(lambda: listening(self.port), "the port to open again")
        self.assertEqual(nio_threads(pid), on_threads)
        # A server started anew has a new page path and no sessions: the open page says so.
        self.wait_for(lambda: "OBS" in self.driver.find_element(By.ID, "connection").text, "the page to say it ended")

    def test_9a_another_port_never_receives_the_pages_cookie(self):
        other = OtherPort()
        driver = self.open_page()
        try:
            cookies = driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
            self.assertEqual([(c["name"], c["path"], c["httpOnly"]) for c in cookies],
                             [("commentbar_session", self.path_of(driver) + "/", True)])
            for path in ("/", "/api/events", "/api/state", "/p/", "/control.js"):
                driver.get(f"http://127.0.0.1:{other.port}{path}")
            # (chromium also asks for /favicon.ico)
            self.assertLessEqual({"/", "/api/events", "/api/state", "/p/", "/control.js"}, {path for path, _ in other.cookies})
            for path, cookie in other.cookies:
                self.assertNotIn("commentbar", cookie, path)
                self.assertNotIn(cookies[0]["value"], cookie, path)
                self.assertNotIn(self.token, cookie, path)
        finally:
            driver.quit()
            other.close()

    @staticmethod
    def path_of(driver):
        return ControlPageTest.path_of_url(driver.current_url)

    @staticmethod
    def path_of_url(url):
        """The page's path (/p/ and 32 hex digits) in its address."""
        return "/" + "/".join(url.split("/")[3:5])

    def test_9b_a_cookie_of_the_same_name_from_another_port_breaks_nothing(self):
        other = OtherPort()
        driver = self.open_page()
        try:
            page = driver.current_url
            # Another program on 127.0.0.1 sets a cookie of the session's name with a longer path:
            # the browser sends it first with every API call of the page.
            driver.get(f"http://127.0.0.1:{other.port}/toss?path={self.path_of_url(page)}/api/")
            every = driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
            self.assertEqual(sorted(c["path"] for c in every if c["name"] == "commentbar_session"),
                             [self.path_of_url(page) + "/", self.path_of_url(page) + "/api/"])
            driver.get(page)
            self.wait_for(lambda: driver.find_element(By.ID, "connection").text == "Connected", "the page to connect")
            self.relay.comment("toss1", "Tosser", "cookie tossing")
            self.wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, 'li.comment[data-id="toss1"]'), "the comment")
            driver.find_element(By.ID, "search-text").send_keys("tossing", Keys.ENTER)
            self.wait_for(lambda: driver.find_element(By.ID, "results").is_displayed(), "search results")
        finally:
            driver.quit()
            other.close()

    def test_9z_rotate_ends_every_page_and_the_old_token(self):
        driver = self.open_page()
        try:
            old = self.token
            rotated = subprocess.run([BIN, "control-url", "--rotate", "--port", str(self.port)],
                                     env={**os.environ, **self.env}, capture_output=True, text=True)
            self.assertEqual(rotated.returncode, 0, rotated.stderr)
            with open(os.path.join(self.config, "comment-bar", "control-token")) as file:
                new = file.read().strip()
            self.assertNotEqual(new, old)
            # At once: the old token is refused, the new one taken.
            for token, status in ((old, 401), (new, 200)):
                request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/state",
                                                 headers={"Authorization": f"Bearer {token}"})
                try:
                    with urllib.request.urlopen(request, timeout=5) as answer:
                        self.assertEqual(answer.status, status)
                except urllib.error.HTTPError as error:
                    self.assertEqual(error.code, status)
            # The open page is told, and asks to be opened again.
            self.wait_for(lambda: "token was changed" in driver.find_element(By.ID, "connection").text,
                          "the page to say the token changed", timeout=5)
            driver.refresh()
            self.assertIn("needs to be opened from OBS", driver.find_element(By.TAG_NAME, "body").text)
        finally:
            driver.quit()


if __name__ == "__main__":
    print(f"screenshots and frames in {SHOTS}")
    unittest.main(verbosity=2)
