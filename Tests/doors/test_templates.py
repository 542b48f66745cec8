#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""OneComme templates served by the bar (issue 39), in Debian's headless chromium: two templates
written here in OneComme's format (Tests/doors/templates: plain JavaScript in OneSDK's diff mode,
Vue 3 in its all mode), copied into the renderer's templates folder and opened from its OneComme
server, against `commentbar serve` reading a WebSocket relay with the viewer memory on. A comment
shows within a second, a first-time viewer is marked, a deletion removes the row, a pin arrives;
nothing the page can send changes the bar; the Host, the Origin and paths are checked.

    COMMENTBAR_BIN=.build-release/static/commentbar COMMENTBAR_VUE_JS=build/onecomme/vue.min.js \\
        /usr/bin/python3 Tests/doors/test_templates.py
"""
import http.client
import os
import shutil
import sys
import time
import unittest

from selenium.webdriver.common.by import By

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from control.browser import chromium, wait_for  # noqa: E402
from control.relay import Relay  # noqa: E402
from doors.served import Bar, wait_until  # noqa: E402
from support import websocket as ws_support  # noqa: E402
from support.processes import free_port  # noqa: E402

ACTIONS = {"pin_newest": 0, "unpin": 0, "open_control": 0, "forget_secrets": 0}
# Every way the control server changes the bar, and more: none may answer here.
CHANGING_REQUESTS = [("POST", path) for path in ("/api/pin", "/api/unpin", "/api/viewer", "/api/speech", "/api/comments",
                                                  "/api/events", "/templates/custom/plainjs/index.html", "/sub")] + \
    [("PUT", "/api/comments"), ("DELETE", "/api/comments"), ("PATCH", "/api/services")]
CONTROL_PATHS = ["/api/events", "/api/pin", "/api/unpin", "/api/viewer", "/api/speech", "/api/search?q=x", "/api/token"]


class TemplatesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.relay = Relay()
        cls.port = free_port()
        cls.bar = Bar({"service": "websocket", "stream_id": "relay", "server": f"ws://127.0.0.1:{cls.relay.port}/chat",
                       "remember": True, "onecomme": True, "onecomme_port": cls.port})
        templates = os.path.join(cls.bar.data, "comment-bar", "templates")
        for name in ("plainjs", "vue3"):
            shutil.copytree(os.path.join(HERE, "templates", name), os.path.join(templates, name))
        cls.bar.send({"actions": ACTIONS})
        cls.bar.wait_log(f"OneComme templates: on http://127.0.0.1:{cls.port}/templates/")
        wait_until(lambda: cls.relay.clients, "the bar to connect to the relay", timeout=30)
        cls.drivers = {}
        for name in ("plainjs", "vue3"):
            driver = chromium()
            driver.get(f"http://127.0.0.1:{cls.port}/templates/custom/{name}/")
            cls.drivers[name] = driver
        cls.pins = 0
        time.sleep(2)  # both pages connected

    @classmethod
    def tearDownClass(cls):
        for driver in cls.drivers.values():
            driver.quit()
        cls.bar.stop()
        cls.relay.close()

    def rows(self, driver):
        return {row.get_attribute("data-id"): row for row in driver.find_elements(By.CSS_SELECTOR, "li.comment")}

    def test_1_a_comment_shows_within_a_second_and_a_first_time_viewer_is_marked(self):
        sent = time.monotonic()
        self.relay.comment("t1", "Sakura", "こんばんは <b>初見</b> です")
        for name, driver in self.drivers.items():
            wait_for(lambda: "t1" in self.rows(driver), f"the comment in {name}", timeout=5, poll=0.01)
            elapsed = time.monotonic() - sent
            print(f"\n  {name}: the comment showed {elapsed * 1000:.0f} ms after the relay sent it")
            self.assertLess(elapsed, 1.0, name)
            row = self.rows(driver)["t1"]
            self.assertEqual(row.get_attribute("data-first"), "true", name)
            # The text is text: the relay's markup is shown, never made markup.
            self.assertIn("<b>初見</b>", row.find_element(By.CSS_SELECTOR, ".text").text, name)
            self.assertEqual(row.find_elements(By.CSS_SELECTOR, ".text b"), [], name)
        self.relay.comment("t2", "Sakura", "二回目")
        for name, driver in self.drivers.items():
            wait_for(lambda: "t2" in self.rows(driver), f"the second comment in {name}")
            self.assertEqual(self.rows(driver)["t2"].get_attribute("data-first"), "false", name)

    def test_2_a_deletion_removes_it(self):
        self.relay.comment("d1", "Troll", "消されるコメント")
        for name, driver in self.drivers.items():
            wait_for(lambda: "d1" in self.rows(driver), f"the comment in {name}")
        self.relay.send({"type": "delete", "id": "d1"})
        for name, driver in self.drivers.items():
            wait_for(lambda: "d1" not in self.rows(driver), f"the deletion in {name}")

    def pin_newest(self):
        type(self).pins += 1
        self.bar.send({"actions": {**ACTIONS, "pin_newest": self.pins}})

    def test_3_a_pin_arrives(self):
        self.relay.comment("p1", "Questioner", "何のゲーム？")
        for name, driver in self.drivers.items():
            wait_for(lambda: "p1" in self.rows(driver), f"the comment in {name}")
        self.pin_newest()
        for name, driver in self.drivers.items():
            wait_for(lambda: driver.find_element(By.ID, "pinned").get_attribute("data-id") == "p1", f"the pin in {name}")
            self.assertIn("何のゲーム", driver.find_element(By.ID, "pinned").text)

    def test_4_nothing_from_the_page_changes_the_bar(self):
        driver = self.drivers["plainjs"]
        statuses = driver.execute_async_script("""
            const [requests, gets, done] = arguments;
            const body = JSON.stringify({id: 'p1'});
            const sent = requests.map(([method, path]) =>
              fetch(path, {method, body, headers: {'Content-Type': 'application/json'}}).then((r) => [method, path, r.status],
                (e) => [method, path, String(e)]));
            const read = gets.map((path) => fetch(path).then((r) => ['GET', path, r.status]));
            Promise.all(sent.concat(read)).then(done);
        """, CHANGING_REQUESTS, CONTROL_PATHS)
        for method, path, status in statuses:
            if method == "GET":
                self.assertEqual(status, 404, f"{method} {path}")
            else:
                self.assertIn(status, (405,), f"{method} {path}")
        # The page's own SDK refuses too.
        refused = driver.execute_async_script("""
            const done = arguments[0];
            OneSDK.post('/api/pin', {id: 'p1'}).then(() => done('sent'), (e) => done(String(e)));
        """)
        self.assertIn("read-only", refused)
        time.sleep(1)
        self.assertEqual(self.bar.lines("unpinned"), [])
        self.assertEqual(len(self.bar.lines("pinned the newest comment")), self.pins)
        self.assertEqual(driver.find_element(By.ID, "pinned").get_attribute("data-id"), "p1")

    def raw(self, path, host=None, method="GET"):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host or f"127.0.0.1:{self.port}")
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, body

    def test_5_host_origin_and_paths_are_checked(self):
        self.assertEqual(self.raw("/api/comments")[0], 200)
        for host in (f"attacker.example:{self.port}", "attacker.example", f"127.0.0.1.nip.io:{self.port}"):
            self.assertEqual(self.raw("/api/comments", host=host)[0], 403, host)
            self.assertEqual(self.raw("/templates/custom/plainjs/", host=host)[0], 403, host)
        secret = os.path.join(self.bar.data, "comment-bar", "secret.txt")
        with open(secret, "w") as file:
            file.write("do not serve")
        os.symlink(secret, os.path.join(self.bar.data, "comment-bar", "templates", "plainjs", "link.txt"))
        for path in ("/templates/custom/../secret.txt", "/templates/custom/%2e%2e/secret.txt",
                     "/templates/custom/plainjs/../../secret.txt", "/templates/custom/plainjs/%2E%2E%2F%2E%2E%2Fsecret.txt",
                     "/templates/custom/plainjs/link.txt", "/templates/preset/../custom/plainjs/index.html"):
            status, body = self.raw(path)
            self.assertIn(status, (400, 403, 404), path)
            self.assertNotIn(b"do not serve", body, path)
        # The WebSocket: another site's page may not open it.
        with self.assertRaises(Exception):
            ws_support.Client(f"ws://127.0.0.1:{self.port}/sub", origin="http://attacker.example")
        client = ws_support.Client(f"ws://127.0.0.1:{self.port}/sub?p=comments", origin=f"http://127.0.0.1:{self.port}")
        self.assertIn('"type":"connected"', client.recv_text())
        client.close()

    def test_6_the_presets_run(self):
        driver = self.drivers["plainjs"]
        for preset in ("bar", "simple"):
            driver.get(f"http://127.0.0.1:{self.port}/templates/preset/{preset}/")
            time.sleep(1)
            self.relay.comment(f"preset-{preset}", "Viewer", f"{preset} のテスト")
            wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-id="preset-{preset}"]'), f"a comment in {preset}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
