# SPDX-License-Identifier: GPL-2.0-or-later
"""A niconico-live-like server for tests, on 127.0.0.1 over TLS with the test CA, reached as the
real hosts through COMMENTBAR_CONNECT_TO:
  live.nicovideo.jp      watch pages with the `embedded-data` script (HTML-escaped JSON props)
  a.live2.nicovideo.jp   the seat WebSocket (startWatching → seat, messageServer, ping/pong, keepSeat)
  mpn.live.nicovideo.jp  the NDGR view and segment streams: length-delimited protobuf, built from the
                         published schema (fixtures/niconico/proto, compiled into ndgr.desc)
Scenarios are data: pages by path, and per view `at` the entries to stream (see test_niconico.py)."""
import asyncio
import html
import http.server
import json
import os
import ssl
import threading
import time

from google.protobuf import descriptor_pb2, message_factory
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from support.fakes import HTTPSServer
from support.tls import server_context

HERE = os.path.dirname(os.path.abspath(__file__))
DESCRIPTORS = os.path.join(HERE, "fixtures", "niconico", "ndgr.desc")


def load_messages():
    """The schema's message classes, from the checked-in descriptor set (no protoc needed here)."""
    with open(DESCRIPTORS, "rb") as handle:
        files = descriptor_pb2.FileDescriptorSet.FromString(handle.read())
    return message_factory.GetMessages(files.file)


class Messages(dict):
    """Message classes by full name; nested ones (`ChunkedEntry.ReadyForNext`) through their parent."""

    def __missing__(self, name):
        parent, _, child = name.rpartition(".")
        return getattr(self[parent], child)


MESSAGES = Messages(load_messages())
EDGE = "dwango.nicolive.chat.service.edge."
DATA = "dwango.nicolive.chat.data."


def message(type_name, /, **fields):
    cls = MESSAGES[type_name if type_name.startswith(("dwango.", "google.")) else DATA + type_name]
    return cls(**fields)


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def delimited(msg):
    body = msg if isinstance(msg, bytes) else msg.SerializeToString()
    return varint(len(body)) + body


def timestamp(seconds):
    return MESSAGES["google.protobuf.Timestamp"](seconds=int(seconds))


def segment_entry(uri, start, until, kind="segment"):
    seg = MESSAGES[EDGE + "MessageSegment"](uri=uri, until=timestamp(until))
    getattr(seg, "from").CopyFrom(timestamp(start))
    return MESSAGES[EDGE + "ChunkedEntry"](**{kind: seg})


def next_entry(at):
    return MESSAGES[EDGE + "ChunkedEntry"](next=MESSAGES[EDGE + "ChunkedEntry.ReadyForNext"](at=at))


def chunk(ident, **payload):
    meta = MESSAGES[EDGE + "ChunkedMessage.Meta"](id=ident, at=timestamp(time.time()))
    return MESSAGES[EDGE + "ChunkedMessage"](meta=meta, **payload)


def watch_page(programme_id, status, websocket_url, begin_time=1700000000, open_time=1699999000):
    props = {
        "program": {"nicoliveProgramId": programme_id, "title": "テスト番組 <&> \"quoted\" 'single'",
                    "status": status, "openTime": open_time, "beginTime": begin_time,
                    "vposBaseTime": open_time, "endTime": begin_time + 3600, "scheduledEndTime": begin_time + 3600,
                    "statistics": {"watchCount": 999999, "commentCount": 5}},
        "site": {"relive": {"webSocketUrl": websocket_url}},
    }
    escaped = html.escape(json.dumps(props, ensure_ascii=False), quote=True)
    return ("<!doctype html><html><head><title>niconico</title>"
            "<script>var x = '<script id=\"other\" data-props=\"{}\">';</script></head><body>"
            f"<script id=\"embedded-data\" data-props=\"{escaped}\"></script>"
            "<div id=\"root\"></div></body></html>").encode()


class Scenario:
    """What the server says. pages: path → (status, body bytes, extra headers); views: `at` →
    list of items (bytes to write, ("sleep", s), ("hold",) to keep the stream open until the client
    goes); segments: path → the same kind of list."""

    def __init__(self):
        self.pages = {}
        self.views = {}
        self.segments = {}
        self.seat = {"keep_interval": 1, "view_uri": "https://mpn.live.nicovideo.jp/api/view/v4/VIEWKEY",
                     "extra": []}


class FakeNiconico:
    def __init__(self, test_ca, scenario):
        self.scenario = scenario
        self.test_ca = test_ca
        self.ssl = server_context(test_ca)
        self.requests = []  # HTTP request paths, in order
        self.ws_received = []  # seat messages from the client (decoded JSON)
        self.ws_connections = 0
        self.cond = threading.Condition()
        self.closing = threading.Event()
        self._start_http()
        self._start_ws()

    # -- HTTP: watch pages and NDGR streams ---------------------------------------------------
    def _start_http(self):
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                with server.cond:
                    server.requests.append(self.path)
                    server.cond.notify_all()
                path, _, query = self.path.partition("?")
                if path in server.scenario.pages:
                    status, body, headers = server.scenario.pages[path]
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                if path == "/api/view/v4/VIEWKEY":
                    at = dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("at")
                    return self._stream(server.scenario.views.get(at, [("hold",)]))
                if path in server.scenario.segments:
                    return self._stream(server.scenario.segments[path])
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _stream(self, items):
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                try:
                    for item in items:
                        if isinstance(item, tuple) and item[0] == "sleep":
                            time.sleep(item[1])
                        elif isinstance(item, tuple) and item[0] == "hold":
                            # Keep the stream open (as a long view request does) until the client goes.
                            while not server.closing.wait(0.5):
                                if self._client_gone():
                                    break
                            self.close_connection = True
                            return
                        elif isinstance(item, tuple) and item[0] == "abort":
                            self.close_connection = True
                            return  # ends without the last chunk: a cut-off body
                        else:
                            data = item if isinstance(item, bytes) else delimited(item)
                            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                            self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
                    self.close_connection = True

            def _client_gone(self):
                import select
                readable, _, _ = select.select([self.connection], [], [], 0)
                if not readable:
                    return False
                try:
                    return self.connection.recv(1, 0) == b""
                except (ssl.SSLWantReadError, BlockingIOError):
                    return False
                except OSError:
                    return True

            def log_message(self, *args):
                pass

        self.http = HTTPSServer(self.test_ca, Handler)
        self.http_port = self.http.port

    # -- the seat WebSocket -----------------------------------------------------------------
    def _start_ws(self):
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

        async def start():
            return await serve(self._seat, "127.0.0.1", 0, ssl=self.ssl, max_size=2 ** 20)

        self.ws_server = asyncio.run_coroutine_threadsafe(start(), self.loop).result(timeout=30)
        self.ws_port = self.ws_server.sockets[0].getsockname()[1]

    async def _seat(self, websocket):
        with self.cond:
            self.ws_connections += 1
            self.cond.notify_all()
        try:
            await self._seat_messages(websocket)
        except ConnectionClosed:
            pass  # the client went (a test's end, or a reconnect)

    async def _seat_messages(self, websocket):
        seat = self.scenario.seat
        async for raw in websocket:
            data = json.loads(raw)
            with self.cond:
                self.ws_received.append(data)
                self.cond.notify_all()
            if data.get("type") == "startWatching":
                await websocket.send(json.dumps({"type": "serverTime", "data": {"iso8601": "2024-08-05T15:00:00+09:00"}}))
                await websocket.send(json.dumps({"type": "seat", "data": {"keepIntervalSec": seat["keep_interval"]}}))
                await websocket.send(json.dumps({"type": "messageServer", "data": {
                    "viewUri": seat["view_uri"], "vposBaseTime": "2024-08-05T15:00:00+09:00"}}))
                await websocket.send(json.dumps({"type": "ping"}))
                for extra in seat["extra"]:
                    await websocket.send(extra)

    # -- helpers for tests ------------------------------------------------------------------
    def connect_to(self):
        return ",".join([f"live.nicovideo.jp:443:127.0.0.1:{self.http_port}",
                         f"mpn.live.nicovideo.jp:443:127.0.0.1:{self.http_port}",
                         f"a.live2.nicovideo.jp:443:127.0.0.1:{self.ws_port}"])

    def wait_for(self, predicate, what, timeout=45):
        with self.cond:
            ok = self.cond.wait_for(predicate, timeout=timeout)
        assert ok, f"{what} within {timeout} s; requests {self.requests[-10:]}, seat {self.ws_received[-10:]}"

    def close(self):
        self.closing.set()
        self.http.close()
        self.ws_server.close()
        self.loop.call_soon_threadsafe(self.loop.stop)
