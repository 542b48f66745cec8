# SPDX-License-Identifier: GPL-2.0-or-later
"""A loopback HTTPS server for picture tests: fixed answers by path (status, headers, body), a path
that never answers, and the requests it saw as (path, Host header). TLS with the run's test CA."""
import http.server
import time

from support.fakes import HTTPSServer


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.server.seen.append((self.path, self.headers.get("Host")))
        if self.path in self.server.silent:
            time.sleep(30)  # longer than any renderer deadline
            return
        status, headers, body = self.server.routes.get(self.path, (404, {}, b""))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass  # the client hung up on a body over its cap

    def log_message(self, *args):
        pass


def serve(routes, test_ca, silent=()):
    """Starts the server; `.seen`, `.port`, `.close()`."""
    server = HTTPSServer(test_ca, Handler)
    server.routes, server.silent, server.seen = routes, set(silent), []
    return server
