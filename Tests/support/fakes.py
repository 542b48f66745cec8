# SPDX-License-Identifier: GPL-2.0-or-later
"""The shared parts of a loopback fake service: the servers it is made of (closed in reverse order
with it), the real host names each stands in for, and the renderer's environment that reaches
them (the test CA trusted, COMMENTBAR_CONNECT_TO routing those names to loopback)."""
import http.server
import threading

from support import tls


class LoopbackFake:
    def __init__(self, test_ca):
        self.test_ca = test_ca
        self.routes = []  # (real host, real port, local port)
        self._closers = []

    def serves(self, server, *hosts, port=443, local_port=None):
        """Registers `server` (closed with the fake) as `hosts` on `port`; returns it. Its local port
        is `local_port` or its `.port`."""
        local = local_port if local_port is not None else server.port
        self.routes.extend((host, port, local) for host in hosts)
        self._closers.append(server.close)
        return server

    def on_close(self, step):
        self._closers.append(step)

    def env(self, **extra):
        return tls.renderer_env(self.test_ca, *self.routes, **extra)

    def close(self):
        while self._closers:
            self._closers.pop()()


class HTTPSServer(http.server.ThreadingHTTPServer):
    """A threading HTTPS server on 127.0.0.1 with the test CA's certificate, serving in a daemon
    thread from construction; `.port`, `.close()`."""
    daemon_threads = True

    def __init__(self, test_ca, handler, port=0):
        super().__init__(("127.0.0.1", port), handler)
        self.socket = tls.server_context(test_ca).wrap_socket(self.socket, server_side=True)
        self.port = self.server_address[1]
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.shutdown()
        self.server_close()
