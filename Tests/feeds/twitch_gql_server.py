# SPDX-License-Identifier: GPL-2.0-or-later
"""A gql.twitch.tv-like HTTPS server: answers the `user(login:) { stream { createdAt viewersCount } }`
query as Twitch's GraphQL endpoint does (`{"data": {"user": {"stream": …}}, "extensions": …}`)
and records each request (path, headers, JSON body)."""
import http.server
import json
import re

from support.fakes import HTTPSServer


class FakeTwitchGQL:
    def __init__(self, test_ca):
        self.streams = {}  # login -> {"createdAt": ..., "viewersCount": ...} or None (offline)
        self.status = 200  # another status makes every answer fail
        self.requests = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                owner.requests.append((self.path, dict(self.headers), body))
                if owner.status != 200:
                    answer = json.dumps({"error": "Internal Server Error", "status": owner.status, "message": ""}).encode()
                    status = owner.status
                else:
                    status = 200
                    match = re.search(r'user\(login: *"([A-Za-z0-9_]+)"\)', (body or {}).get("query", ""))
                    login = match.group(1) if match else None
                    user = {"stream": owner.streams[login]} if login in owner.streams else None
                    answer = json.dumps({"data": {"user": user},
                                         "extensions": {"durationMilliseconds": 23, "requestID": "01HXTESTREQUEST"}}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = HTTPSServer(test_ca, Handler)
        self.port = self.server.port

    def close(self):
        self.server.close()
