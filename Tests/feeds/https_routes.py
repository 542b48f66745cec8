# SPDX-License-Identifier: GPL-2.0-or-later
"""A loopback HTTPS server for picture tests: fixed answers by path (status, headers, body), a path
that never answers, and the requests it saw as (path, Host header). TLS with the run's test CA."""
import http.server
import ssl
import threading
import time


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
    """Starts the server; `.seen`, `.server_port`, `.shutdown()`."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.routes, server.silent, server.seen = routes, set(silent), []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(test_ca["cert"], test_ca["key"])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
