# SPDX-License-Identifier: GPL-2.0-or-later
"""Building blocks for the fake Japanese live platforms (SHOWROOM, TwitCasting, OPENREC):
an HTTPS web API and a TLS WebSocket chat server on 127.0.0.1, both with the test CA's
certificate, reached under the platforms' real host names through COMMENTBAR_CONNECT_TO.
Each runs in a background thread; tests drive them from the main thread."""
import asyncio
import http.server
import struct
import threading
import urllib.parse

from websockets.asyncio.server import serve

from conftest import EVENTUALLY
from support.fakes import HTTPSServer
from support.tls import server_context


class FakeWebAPI:
    """HTTPS: `route(method, path, query, body)` returns (status, content type, body bytes);
    with `with_headers`, `route(method, path, query, body, headers)` (a dict)."""

    def __init__(self, test_ca, route, with_headers=False):
        outer = self
        self.requests = []  # (method, path, query dict, body)
        self.headers = []  # each request's headers, as a dict
        self.cond = threading.Condition()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parsed = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(parsed.query))
                with outer.cond:
                    outer.requests.append((method, parsed.path, query, body))
                    outer.headers.append(dict(self.headers.items()))
                    outer.cond.notify_all()
                if with_headers:
                    status, kind, payload = route(method, parsed.path, query, body, dict(self.headers.items()))
                else:
                    status, kind, payload = route(method, parsed.path, query, body)
                if isinstance(payload, str):
                    payload = payload.encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self):
                self._answer("GET")

            def do_POST(self):
                self._answer("POST")

            def log_message(self, *args):
                pass

        self.server = HTTPSServer(test_ca, Handler)
        self.port = self.server.port

    def wait_request(self, predicate, timeout=EVENTUALLY):
        with self.cond:
            ok = self.cond.wait_for(lambda: any(predicate(r) for r in self.requests), timeout=timeout)
        assert ok, f"no matching request within {timeout} s; got {self.requests[-10:]}"

    def count(self, predicate):
        with self.cond:
            return sum(1 for r in self.requests if predicate(r))

    def close(self):
        self.server.close()


class FakeChatServer:
    """A TLS WebSocket server; `on_connect(ws)` and `on_message(ws, text)` are coroutines
    the platform's fake defines. Keeps every client and every message a client sent."""

    def __init__(self, test_ca, on_message=None, on_connect=None):
        self.on_message = on_message
        self.on_connect = on_connect
        self.received = []  # (path, message)
        self.paths = []
        self.clients = set()
        self.cond = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        context = server_context(test_ca)
        async def start():
            return await serve(self._handle, "127.0.0.1", 0, ssl=context, max_size=2 ** 20, ping_interval=None)
        self.server = self.call(start())
        self.port = self.server.sockets[0].getsockname()[1]

    def call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=30)

    async def _handle(self, websocket):
        path = websocket.request.path
        with self.cond:
            self.paths.append(path)
            self.clients.add(websocket)
            self.cond.notify_all()
        try:
            if self.on_connect:
                await self.on_connect(websocket)
            async for message in websocket:
                with self.cond:
                    self.received.append((path, message))
                    self.cond.notify_all()
                if self.on_message:
                    await self.on_message(websocket, message)
        except Exception:
            pass
        finally:
            with self.cond:
                self.clients.discard(websocket)
                self.cond.notify_all()

    def wait_received(self, predicate, count=1, timeout=EVENTUALLY):
        with self.cond:
            ok = self.cond.wait_for(lambda: sum(1 for _, m in self.received if predicate(m)) >= count,
                                    timeout=timeout)
        assert ok, f"no matching message #{count} within {timeout} s; got {self.received[-10:]}"

    def wait_connections(self, count, timeout=EVENTUALLY):
        with self.cond:
            ok = self.cond.wait_for(lambda: len(self.paths) >= count, timeout=timeout)
        assert ok, f"not {count} connections within {timeout} s; got {self.paths}"

    def send(self, *messages):
        """Each message (str or bytes) to every client, one WebSocket message each."""
        async def go():
            for client in list(self.clients):
                for message in messages:
                    await client.send(message)
        self.call(go())

    def send_frame_header(self, length):
        """A text frame header announcing `length` bytes, then a little of them: the client
        must refuse it from the header alone, never buffer it."""
        async def go():
            for client in list(self.clients):
                client.transport.write(struct.pack("!BBQ", 0x81, 127, length) + b"x" * 1024)
        self.call(go())

    def close_clients(self):
        async def go():
            for client in list(self.clients):
                await client.close()
        self.call(go())

    def close(self):
        async def go():
            self.server.close()
            await self.server.wait_closed()
        try:
            self.call(go())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)

