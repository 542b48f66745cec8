# SPDX-License-Identifier: GPL-2.0-or-later
"""A loopback HTTPS "CDN" for the real-OBS tests: a test CA made for this run (support.tls), a
server certificate for static-cdn.jtvnw.net, and the test emotes of Tests/CommentBarRenderTests/Emotes.
The renderer reaches it through COMMENTBAR_CONNECT_TO with COMMENTBAR_CA_FILE: TLS stays verified."""
import http.server
import os

from support.fakes import HTTPSServer, LoopbackFake
from support.tls import make_test_ca

HOST = "static-cdn.jtvnw.net"
EMOTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "CommentBarRenderTests", "Emotes")


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        name = os.path.basename(self.path)
        path = os.path.join(EMOTES, name)
        if not name or not os.path.isfile(path):
            self.send_response(404)
            self.end_headers()
            return
        with open(path, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class EmoteCDN(LoopbackFake):
    def __init__(self, directory):
        super().__init__(make_test_ca(directory, [HOST]))
        self.serves(HTTPSServer(self.test_ca, Handler), HOST)
