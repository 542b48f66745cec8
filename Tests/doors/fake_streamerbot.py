# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake Streamer.bot (and Cuebot, which speaks the same), built to behave toward us as the real
server behaves toward Streamer.bot's official client (Streamerbot/client 2.0.1, MIT,
packages/client/src/ws/StreamerbotClient.ts and src/ws/types/*.ts) and as docs.streamer.bot
describes it:

- WebSocket: the server speaks first. On every new connection it sends `Hello` with `info`, and
  `authentication: {salt, challenge}` when it has a password (types/streamerbot-auth.types.ts:3-12;
  docs.streamer.bot api/websocket/guide/authentication "Hello Request"); the client waits 5 s for
  it (StreamerbotClient.ts:321-352). `Authenticate` is checked as
  base64(sha256(base64(sha256(password + salt)) + challenge)) (StreamerbotClient.ts:392-399,
  util/websocket.util.ts:65-71). Every `{request, id, ...}` is answered `{id, status: "ok"|"error",
  ...}` (types/streamerbot-response.types.ts:21-28; docs.streamer.bot api/websocket/guide/requests):
  `GetInfo` with `info` (response.types.ts:67-69), `DoAction` with nothing more, a failure with
  `error`. A password is needed for every request only when the server is set so
  (`require_auth_for_all`); the docs say only SendMessage needs it by default, which is why the
  official client asks `GetInfo` when it has no password (StreamerbotClient.ts:369-381).
- HTTP: `POST /DoAction` with `{"action":{"name"},"args"}` answered `204 No Content`
  (docs.streamer.bot api/http/requests/do-action), the connection kept open (HTTP/1.1 keep-alive).
- UDP: one DoAction per datagram.

Every action it ran is kept as (transport, action name, args); every WebSocket connection's
transcript (`ws_log`: ("sent", "Hello") and ("received", request name) in order), and the number of
HTTP connections opened."""
import asyncio
import base64
import hashlib
import json
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import websockets

from support import websocket as ws_support

# The instance as GetInfo and Hello describe it (types/streamerbot-info.types.ts:1-43).
INFO = {"instanceId": "b63152c5-0000-4751-8644-579f7fb4a682", "name": "Fake Streamer.bot", "os": "linux",
        "osVersion": "6.1", "version": "1.0.0", "source": "websocketServer"}


def expected_authentication(password, salt, challenge):
    secret = base64.b64encode(hashlib.sha256((password + salt).encode()).digest()).decode()
    return base64.b64encode(hashlib.sha256((secret + challenge).encode()).digest()).decode()


class FakeStreamerBot:
    def __init__(self):
        self.actions = []
        self.lock = threading.Lock()
        self.http = None
        self.http_connections = 0
        self.ws = None
        self.ws_log = []  # per connection, in order: ("sent", "Hello") / ("received", request)
        self.udp = None
        self.authentications = []  # (ok) per Authenticate request

    def ran(self):
        with self.lock:
            return list(self.actions)

    def transcripts(self):
        with self.lock:
            return [list(log) for log in self.ws_log]

    def _record(self, transport, body):
        action = body.get("action") or {}
        with self.lock:
            self.actions.append((transport, action.get("name"), body.get("args") or {}))

    # -- HTTP ---------------------------------------------------------------------------------
    def start_http(self, port=0):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keeps the connection open, as Streamer.bot's server does

            def setup(self):
                super().setup()
                with fake.lock:
                    fake.http_connections += 1

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path != "/DoAction":
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                fake._record("http", json.loads(body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        return self.http.server_address[1]

    def stop_http(self):
        self.http.shutdown()
        self.http.server_close()
        self.http = None

    # -- WebSocket ----------------------------------------------------------------------------
    def start_ws(self, password=None, port=0, hello_after=0.0, require_auth_for_all=True):
        """`hello_after`: seconds before the Hello (a busy server; the official client waits 5 s)."""
        fake = self

        async def handle(socket_, _path=None):
            transcript = []
            with fake.lock:
                fake.ws_log.append(transcript)
            salt = base64.b64encode(os.urandom(32)).decode()
            challenge = base64.b64encode(os.urandom(32)).decode()
            hello = {"timestamp": "2026-11-28T09:00:00Z", "session": "fake", "request": "Hello", "info": INFO}
            if password is not None:
                hello["authentication"] = {"salt": salt, "challenge": challenge}
            authenticated = password is None

            async def hello_later():
                await asyncio.sleep(hello_after)
                with fake.lock:
                    transcript.append(("sent", "Hello"))
                await socket_.send(json.dumps(hello))
            greeting = asyncio.ensure_future(hello_later())
            try:
                async for text in socket_:
                    message = json.loads(text)
                    request, id_ = message.get("request"), message.get("id")
                    with fake.lock:
                        transcript.append(("received", request))
                    answer = {"id": id_, "status": "ok"}
                    if request == "Authenticate":
                        ok = password is not None and \
                            message.get("authentication") == expected_authentication(password, salt, challenge)
                        fake.authentications.append(ok)
                        authenticated = authenticated or ok
                        if not ok:
                            answer = {"id": id_, "status": "error", "error": "Authentication failed"}
                    elif password is not None and require_auth_for_all and not authenticated:
                        answer = {"id": id_, "status": "error", "error": "Authentication required"}
                    elif request == "GetInfo":
                        answer["info"] = INFO
                    elif request == "DoAction":
                        fake._record("ws", message)
                    else:
                        answer = {"id": id_, "status": "error", "error": f"Unknown request {request!r}"}
                    await socket_.send(json.dumps(answer))
            except websockets.exceptions.ConnectionClosed:
                pass
            finally:
                greeting.cancel()

        async def start():
            return await websockets.serve(handle, "127.0.0.1", port, compression=None)
        self.ws = ws_support.run(start(), 10)
        return self.ws.sockets[0].getsockname()[1]

    def stop_ws(self):
        async def stop():
            self.ws.close()
            await self.ws.wait_closed()
        ws_support.run(stop(), 10)
        self.ws = None

    # -- UDP ----------------------------------------------------------------------------------
    def start_udp(self):
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))

        def receive():
            while True:
                try:
                    data, _ = self.udp.recvfrom(65536)
                except OSError:
                    return
                message = json.loads(data)
                if message.get("request") == "DoAction":
                    self._record("udp", message)
        threading.Thread(target=receive, daemon=True).start()
        return self.udp.getsockname()[1]

    def close(self):
        if self.http:
            self.stop_http()
        if self.ws:
            self.stop_ws()
        if self.udp:
            self.udp.close()
