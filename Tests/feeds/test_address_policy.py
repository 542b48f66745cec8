# SPDX-License-Identifier: GPL-2.0-or-later
"""Issue 19, finding 2: picture URLs a feed names never reach this machine or its network. Loopback,
private, `localhost`/`.localhost` and IP-literal hosts are refused before any connection, directly
and through a redirect from a public host; a loopback listener counts the connections it accepts
(zero). The CDN itself is reached only through COMMENTBAR_CONNECT_TO, the one explicit override."""
import json
import os
import socket
import subprocess
import threading

import pytest

import https_routes
from conftest import binary
from test_emote_images import HOST, fixture


class CountingListener:
    """Listens on 127.0.0.1 and ::1 at one port and counts the connections it accepts."""

    def __init__(self):
        self.accepts = 0
        self.sockets = []
        v4 = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        v4.bind(("127.0.0.1", 0))
        self.port = v4.getsockname()[1]
        self.sockets.append(v4)
        try:
            v6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
            v6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            v6.bind(("::1", self.port))
            self.sockets.append(v6)
        except OSError:
            pass  # no IPv6 loopback here
        for listening in self.sockets:
            listening.listen(16)
            threading.Thread(target=self._accept, args=(listening,), daemon=True).start()

    def _accept(self, listening):
        while True:
            try:
                connection, _ = listening.accept()
            except OSError:
                return
            self.accepts += 1
            connection.close()

    def close(self):
        for listening in self.sockets:
            listening.close()


@pytest.fixture
def listener():
    counting = CountingListener()
    yield counting
    counting.close()


def test_loopback_and_private_pictures_make_no_connection(listener, test_ca, tmp_path):
    port = listener.port
    inside = [f"https://127.0.0.1:{port}/a.png", f"https://localhost:{port}/a.png",
              f"https://emotes.localhost:{port}/a.png", f"https://[::1]:{port}/a.png",
              f"https://127.1:{port}/a.png", f"https://2130706433:{port}/a.png",
              f"https://printer.local:{port}/a.png", f"https://10.0.0.1:{port}/a.png",
              f"https://192.168.1.1:{port}/a.png", f"https://100.64.0.1:{port}/a.png",
              f"https://[fd00::1]:{port}/a.png", f"https://[::ffff:127.0.0.1]:{port}/a.png"]
    routes = {"/to-loopback.png": (302, {"Location": f"https://127.0.0.1:{port}/r.png"}, b""),
              "/to-localhost.png": (302, {"Location": f"https://localhost:{port}/r.png"}, b""),
              "/still.png": (200, {"Content-Type": "image/png"}, fixture("still.png"))}
    cdn = https_routes.serve(routes, test_ca)
    try:
        urls = inside + [f"https://{HOST}/to-loopback.png", f"https://{HOST}/to-localhost.png"]
        text, emotes = "look", []
        for index, url in enumerate(urls):
            word = f"e{index}"
            emotes.append({"start": len(text) + 1, "end": len(text) + 1 + len(word), "name": word, "url": url})
            text += " " + word
        line = {"type": "comment", "id": "a", "user": "viewer", "text": text, "emotes": emotes, "at": 0}
        events = tmp_path / "events.jsonl"
        events.write_text(json.dumps({"type": "recording", "time": 1700000000}) + "\n" + json.dumps(line) + "\n")
        settings = tmp_path / "settings.json"
        settings.write_text(json.dumps({"width": 960, "height": 240, "animate_emotes": False}))
        env = {**os.environ, "COMMENTBAR_CA_FILE": test_ca["ca"], "XDG_CACHE_HOME": str(tmp_path / "cache"),
               "COMMENTBAR_CONNECT_TO": f"{HOST}:443:127.0.0.1:{cdn.server_port}"}
        result = subprocess.run([binary(), "render", "--service", "file", "--stream", str(events), "--at", "1",
                                 "--settings", str(settings), "--out", str(tmp_path / "out.png")],
                                env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert listener.accepts == 0, f"{listener.accepts} connections reached the loopback listener\n{result.stderr}"
        seen = sorted(path for path, _ in cdn.seen)
        assert seen == ["/to-localhost.png", "/to-loopback.png"], "the public host was asked, the redirect refused"
        refused = [l for l in result.stderr.splitlines() if "emote shown as text" in l and "refused" in l]
        assert len(refused) == len(urls), result.stderr
    finally:
        cdn.close()
