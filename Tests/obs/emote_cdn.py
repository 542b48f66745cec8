# SPDX-License-Identifier: GPL-2.0-or-later
"""A loopback HTTPS "CDN" for the real-OBS tests: a CA made with openssl for this run, a server
certificate for static-cdn.jtvnw.net, and the test emotes of Tests/CommentBarRenderTests/Emotes.
The renderer reaches it through COMMENTBAR_CONNECT_TO with COMMENTBAR_CA_FILE: TLS stays verified."""
import http.server
import os
import ssl
import subprocess
import threading

HOST = "static-cdn.jtvnw.net"
EMOTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "CommentBarRenderTests", "Emotes")


def make_ca(directory):
    def run(*args):
        subprocess.run(args, cwd=directory, check=True, capture_output=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("openssl", "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=CommentBar OBS test CA")
    run("openssl", "req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", f"/CN={HOST}")
    with open(os.path.join(directory, "server.ext"), "w") as f:
        f.write(f"basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
                f"subjectAltName=DNS:{HOST}\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.pem", "-days", "2", "-extfile", "server.ext")
    return {"ca": os.path.join(directory, "ca.pem"), "server": os.path.join(directory, "server.pem"),
            "key": os.path.join(directory, "server.key")}


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


class EmoteCDN:
    def __init__(self, directory):
        self.files = make_ca(directory)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.files["server"], self.files["key"])
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def env(self):
        return {"COMMENTBAR_CA_FILE": self.files["ca"],
                "COMMENTBAR_CONNECT_TO": f"{HOST}:443:127.0.0.1:{self.server.server_address[1]}"}

    def stop(self):
        self.server.shutdown()
