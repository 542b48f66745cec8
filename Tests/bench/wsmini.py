"""A minimal RFC 6455 WebSocket client and server (text frames), standard library only.

Enough for the benchmark: a client for obs-websocket 5 (JSON requests, large
screenshot replies) and a loopback server that pushes feed events to the
Comment Bar renderer's `websocket` service. No extensions, no TLS.
"""
import base64
import hashlib
import os
import socket
import struct
import threading

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Closed(Exception):
    pass


def _recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise Closed("connection closed")
        buf += chunk
    return bytes(buf)


def _read_http_head(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise Closed("closed during handshake")
        data += chunk
        if len(data) > 65536:
            raise Closed("handshake too large")
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return lines[0], headers, rest


def _frame(opcode, payload, mask):
    header = bytearray([0x80 | opcode])
    n = len(payload)
    mbit = 0x80 if mask else 0
    if n < 126:
        header.append(mbit | n)
    elif n < 65536:
        header.append(mbit | 126)
        header += struct.pack("!H", n)
    else:
        header.append(mbit | 127)
        header += struct.pack("!Q", n)
    if mask:
        key = os.urandom(4)
        header += key
        # XOR with a repeated key, fast via int arithmetic
        rep = (key * (n // 4 + 1))[:n]
        payload = (int.from_bytes(payload, "big") ^ int.from_bytes(rep, "big")).to_bytes(n, "big") if n else b""
    return bytes(header) + payload


class Conn:
    """One WebSocket connection over a connected socket."""

    def __init__(self, sock, is_client, leftover=b""):
        self.sock = sock
        self.is_client = is_client
        self._buf = bytearray(leftover)
        self._send_lock = threading.Lock()

    def _read(self, n):
        while len(self._buf) < n:
            chunk = self.sock.recv(max(65536, n - len(self._buf)))
            if not chunk:
                raise Closed("connection closed")
            self._buf += chunk
        out = bytes(self._buf[:n])
        del self._buf[:n]
        return out

    def send_text(self, text):
        data = _frame(0x1, text.encode("utf-8"), self.is_client)
        with self._send_lock:
            self.sock.sendall(data)

    def recv_text(self):
        """The next text message (continuation frames joined); answers pings."""
        parts = []
        while True:
            b0, b1 = self._read(2)
            opcode = b0 & 0x0F
            fin = b0 & 0x80
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            key = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if key:
                rep = (key * (n // 4 + 1))[:n]
                payload = (int.from_bytes(payload, "big") ^ int.from_bytes(rep, "big")).to_bytes(n, "big") if n else b""
            if opcode == 0x8:
                raise Closed("close frame")
            if opcode == 0x9:
                with self._send_lock:
                    self.sock.sendall(_frame(0xA, payload, self.is_client))
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8")

    def close(self):
        try:
            with self._send_lock:
                self.sock.sendall(_frame(0x8, struct.pack("!H", 1000), self.is_client))
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass


def connect(host, port, path="/", timeout=10.0):
    sock = socket.create_connection((host, port), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    req = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
    sock.sendall(req.encode())
    status, headers, rest = _read_http_head(sock)
    if " 101 " not in status + " ":
        raise Closed(f"handshake refused: {status}")
    want = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
    if headers.get("sec-websocket-accept") != want:
        raise Closed("bad Sec-WebSocket-Accept")
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return Conn(sock, True, rest)


class Server:
    """A loopback WebSocket server that broadcasts text to every connected client.

    Clients' own messages are read and dropped. `paths` records each request path.
    """

    def __init__(self, host="127.0.0.1", port=0):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((host, port))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.clients = []
        self.paths = []
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self._stop = False
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def _accept_loop(self):
        while not self._stop:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._handshake, args=(sock,), daemon=True).start()

    def _handshake(self, sock):
        try:
            sock.settimeout(10)
            status, headers, rest = _read_http_head(sock)
            key = headers.get("sec-websocket-key")
            if not key:
                sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                sock.close()
                return
            accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            sock.sendall((f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
            sock.settimeout(None)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = Conn(sock, False, rest)
            with self.lock:
                self.clients.append(conn)
                self.paths.append(status.split(" ")[1] if " " in status else "")
            self.connected.set()
            while True:
                conn.recv_text()
        except (Closed, OSError, UnicodeDecodeError):
            pass
        finally:
            with self.lock:
                self.clients = [c for c in self.clients if c.sock is not sock]
            try:
                sock.close()
            except OSError:
                pass

    def client_count(self):
        with self.lock:
            return len(self.clients)

    def broadcast(self, text):
        """Sends to every client; returns how many got it."""
        with self.lock:
            clients = list(self.clients)
        sent = 0
        for c in clients:
            try:
                c.send_text(text)
                sent += 1
            except OSError:
                pass
        return sent

    def close(self):
        self._stop = True
        try:
            self.listener.close()
        except OSError:
            pass
        with self.lock:
            clients = list(self.clients)
        for c in clients:
            c.close()
