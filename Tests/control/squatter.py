# SPDX-License-Identifier: GPL-2.0-or-later
"""A program squatting a control port on 127.0.0.1, as another user's could (any program may bind a
free loopback port while the renderer is not running): it answers like a Comment Bar would, to lure
a client on, and keeps every byte of every request it is sent, so a test can say that the token
never reached it.

    liar   /api/hello answers a proof made up of random digits (it knows no token)
    relay  /api/hello is asked of the real server on RELAY_PORT (a renderer, or the dock's fake)
           and its answer passed on, proof and all: a squatter that cannot sign relays instead
Every other request is answered 200 with what a client would take for success (a page link,
an empty state), so a client that sent its token would go on and send it again."""
import http.server
import json
import secrets
import threading
import urllib.request

from support.processes import free_port


class Squatter:
    def __init__(self, mode="liar", relay_port=None, port=None):
        self.mode = mode
        self.relay_port = relay_port
        self.port = port or free_port()
        self.lock = threading.Lock()
        self.requests = []  # each request as it arrived: request line, headers, body
        squatter = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                squatter.handle(self)

            def do_POST(self):
                squatter.handle(self)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def handle(self, request):
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        with self.lock:
            self.requests.append(request.requestline + "\n" + str(request.headers) + body.decode("utf-8", "replace"))
        if request.path.startswith("/api/hello"):
            answer = self.hello(request.path)
        else:
            answer = {"version": 1, "seq": 1, "comments": [], "streams": [], "ok": True, "expiresIn": 60,
                      "url": f"http://127.0.0.1:{self.port}/p/{'0' * 32}/?code={'1' * 32}"}
        data = json.dumps(answer).encode()
        request.send_response(200)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(data)))
        request.end_headers()
        request.wfile.write(data)

    def hello(self, path):
        if self.mode == "relay":
            direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            with direct.open(f"http://127.0.0.1:{self.relay_port}{path}", timeout=5) as answer:
                return json.loads(answer.read())
        return {"proof": secrets.token_hex(32)}

    def received(self):
        """Every request so far, as text."""
        with self.lock:
            return list(self.requests)

    def saw(self, secret):
        """Whether `secret` was in any request (line, headers or body)."""
        return any(secret in request for request in self.received())
