# SPDX-License-Identifier: GPL-2.0-or-later
"""BetterTTV-, FrankerFaceZ- and 7TV-like emote APIs for tests: one HTTPS server on 127.0.0.1
that answers for api.betterttv.net, api.frankerfacez.com and 7tv.io (told apart by the Host
header; the client reaches them through COMMENTBAR_CONNECT_TO with the test CA). By default
each path answers with the recorded-shape fixture in fixtures/twitch-emotes (see SOURCES.md)."""
import http.server
import os
import threading

from support.fakes import HTTPSServer

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "twitch-emotes")
ROOM = "12826"


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def default_routes(room=ROOM):
    """(host, path) → (status, body): the real APIs' paths for the global lists and one channel."""
    return {
        ("api.betterttv.net", "/3/cached/emotes/global"): (200, fixture("bttv_global.json")),
        ("api.betterttv.net", f"/3/cached/users/twitch/{room}"): (200, fixture("bttv_user.json")),
        ("api.frankerfacez.com", "/v1/set/global"): (200, fixture("ffz_global.json")),
        ("api.frankerfacez.com", f"/v1/room/id/{room}"): (200, fixture("ffz_room.json")),
        ("7tv.io", "/v3/emote-sets/global"): (200, fixture("7tv_global.json")),
        ("7tv.io", f"/v3/users/twitch/{room}"): (200, fixture("7tv_user.json")),
    }


class Hang:
    """A route that answers nothing until the test releases it (or 60 s pass)."""

    def __init__(self):
        self.release = threading.Event()


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        server = self.server
        with server.cond:
            server.requests.append((host, self.path))
            server.cond.notify_all()
        route = server.routes.get((host, self.path), (404, b'{"message":"Not Found"}'))
        if isinstance(route, Hang):
            route.release.wait(60)
            return
        status, body = route
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass  # the client gave up on a body over its cap

    def log_message(self, *args):
        pass


class FakeEmoteAPIs:
    def __init__(self, test_ca, routes=None):
        self.httpd = HTTPSServer(test_ca, _Handler)
        self.httpd.routes = default_routes() if routes is None else routes
        self.httpd.requests = []
        self.httpd.cond = threading.Condition()
        self.port = self.httpd.port

    @property
    def routes(self):
        return self.httpd.routes

    @property
    def requests(self):
        with self.httpd.cond:
            return list(self.httpd.requests)

    def wait_requests(self, wanted, timeout=45):
        """Waits until every (host, path) in `wanted` has been asked for."""
        with self.httpd.cond:
            ok = self.httpd.cond.wait_for(lambda: set(wanted) <= set(self.httpd.requests), timeout=timeout)
        assert ok, f"not all of {sorted(wanted)} were asked for within {timeout} s; got {self.httpd.requests}"

    def connect_to(self):
        return [f"{host}:443:127.0.0.1:{self.port}" for host in ("api.betterttv.net", "api.frankerfacez.com", "7tv.io")]

    def close(self):
        for route in self.httpd.routes.values():
            if isinstance(route, Hang):
                route.release.set()
        self.httpd.close()
