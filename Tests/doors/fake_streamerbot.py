# SPDX-License-Identifier: GPL-2.0-or-later
"""A fake Streamer.bot (and Cuebot, which speaks the same) from the documented shapes
(docs.streamer.bot/api): the HTTP server's `POST /DoAction` with `{"action":{"name"},"args"}`
answered 204; the WebSocket server's `Hello` (with `authentication: {salt, challenge}` when it has
a password), `Authenticate` checked as base64(sha256(base64(sha256(password + salt)) + challenge)),
and `DoAction` answered `{"id", "status": "ok"}`; the UDP server's datagrams. Every action it ran
is kept as (transport, action name, args)."""
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


def expected_authentication(password, salt, challenge):
    secret = base64.b64encode(hashlib.sha256((password + salt).encode()).digest()).decode()
    return base64.b64encode(hashlib.sha256((secret + challenge).encode()).digest()).decode()


class FakeStreamerBot:
    def __init__(self):
        self.actions = []
        self.lock = threading.Lock()
        self.http = None
        self.ws = None
        self.udp = None
        self.authentications = []  # (ok) per Authenticate request

    def ran(self):
        with self.lock:
            return list(self.actions)

    def _record(self, transport, body):
        action = body.get("action") or {}
        with self.lock:
            self.actions.append((transport, action.get("name"), body.get("args") or {}))

    # -- HTTP ---------------------------------------------------------------------------------
    def start_http(self, port=0):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keeps the connection open, as Streamer.bot's server does

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
    def start_ws(self, password=None, port=0):
        fake = self

        async def handle(socket_, _path=None):
            salt = base64.b64encode(os.urandom(16)).decode()
            challenge = base64.b64encode(os.urandom(16)).decode()
            hello = {"timestamp": "2026-11-28T09:00:00Z", "session": "fake", "request": "Hello",
                     "info": {"instanceId": "fake", "name": "Fake Streamer.bot", "version": "1.0.0", "os": "linux",
                              "source": "websocketServer"}}
            if password is not None:
                hello["authentication"] = {"salt": salt, "challenge": challenge}
            await socket_.send(json.dumps(hello))
            authenticated = password is None
            async for text in socket_:
                message = json.loads(text)
                if message.get("request") == "Authenticate":
                    ok = password is not None and message.get("authentication") == expected_authentication(password, salt, challenge)
                    fake.authentications.append(ok)
                    answer = {"id": message.get("id"), "status": "ok" if ok else "error"}
                    if not ok:
                        answer["error"] = "Authentication failed"
                    await socket_.send(json.dumps(answer))
                    if not ok:
                        await socket_.close()
                        return
                    authenticated = True
                elif message.get("request") == "DoAction":
                    if not authenticated:
                        await socket_.send(json.dumps({"id": message.get("id"), "status": "error",
                                                       "error": "Not authenticated"}))
                        await socket_.close()
                        return
                    fake._record("ws", message)
                    await socket_.send(json.dumps({"id": message.get("id"), "status": "ok"}))

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
