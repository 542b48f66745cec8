# SPDX-License-Identifier: GPL-2.0-or-later
"""A bare WebSocket server for tests that need exact control over what each TCP write
holds: it answers the opening handshake itself (RFC 6455 accept key), then hands the
socket and the ready 101 response to a script, so the script can send the response
and the first frames in one write, as fast relays do. Threads, 127.0.0.1 only."""
import base64
import hashlib
import socket
import struct
import threading

from support.tls import server_context

ACCEPT_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def frame(payload, opcode=TEXT, fin=True):
    """One unmasked server frame."""
    if isinstance(payload, str):
        payload = payload.encode("utf-8")
    first = (0x80 if fin else 0) | opcode
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", first, length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", first, 126, length)
    else:
        header = struct.pack("!BBQ", first, 127, length)
    return header + payload


def _read_exact(conn, buffer, count):
    while len(buffer) < count:
        chunk = conn.recv(65536)
        if not chunk:
            raise EOFError
        buffer.extend(chunk)
    data = bytes(buffer[:count])
    del buffer[:count]
    return data


def read_frame(conn, buffer):
    """One (masked) client frame as (opcode, payload); EOFError when the client is gone."""
    first, second = _read_exact(conn, buffer, 2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", _read_exact(conn, buffer, 2))[0]
    elif length == 127:
        length = struct.unpack("!Q", _read_exact(conn, buffer, 8))[0]
    mask = _read_exact(conn, buffer, 4) if second & 0x80 else b"\0\0\0\0"
    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(_read_exact(conn, buffer, length)))
    return first & 0x0F, payload


class RawWebSocketServer:
    """Accepts connections on 127.0.0.1; for each, reads the upgrade request, then calls
    `script(conn, response, index)`, which must send `response` (the 101 bytes) itself.
    Afterwards every client frame is recorded in `received` as (connection index, opcode,
    payload) until the client goes away; pings are answered. With `test_ca` it
    speaks TLS (wss), and one script write is one TLS record."""

    def __init__(self, script, test_ca=None):
        self.script = script
        self.tls = server_context(test_ca) if test_ca else None
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.requests = []  # request lines ("GET /path HTTP/1.1")
        self.received = []
        self.cond = threading.Condition()
        self.conns = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with self.cond:
                index = len(self.requests)
                self.requests.append(None)
                self.conns.append(conn)
            threading.Thread(target=self._handle, args=(conn, index), daemon=True).start()

    def _handle(self, conn, index):
        buffer = bytearray()
        try:
            if self.tls:
                conn = self.tls.wrap_socket(conn, server_side=True)
            while b"\r\n\r\n" not in buffer:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                buffer.extend(chunk)
            head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
            buffer = bytearray(rest)
            lines = head.decode("latin-1").split("\r\n")
            headers = {name.strip().lower(): value.strip()
                       for name, _, value in (line.partition(":") for line in lines[1:])}
            accept = base64.b64encode(hashlib.sha1(headers["sec-websocket-key"].encode() + ACCEPT_GUID).digest())
            response = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
            with self.cond:
                self.requests[index] = lines[0]
                self.cond.notify_all()
            if self.tls:
                # One TLS object must not be read and written from two threads: script first.
                self.script(conn, response, index)
                self._read_frames(conn, buffer, index)
            else:
                # Frames are read while the script writes, so a close frame the client sends in
                # the middle of a long write is still seen (the write then fails, which is fine).
                reader = threading.Thread(target=self._read_frames, args=(conn, buffer, index), daemon=True)
                reader.start()
                try:
                    self.script(conn, response, index)
                except OSError:
                    pass
                reader.join()
        except (EOFError, OSError):
            return
        finally:
            with self.cond:
                self.cond.notify_all()
            conn.close()

    def _read_frames(self, conn, buffer, index):
        try:
            while True:
                opcode, payload = read_frame(conn, buffer)
                with self.cond:
                    self.received.append((index, opcode, payload))
                    self.cond.notify_all()
                if opcode == PING:
                    conn.sendall(frame(payload, PONG))
                elif opcode == CLOSE:
                    conn.sendall(frame(payload[:2], CLOSE))
                    return
        except (EOFError, OSError):
            return
        finally:
            with self.cond:
                self.cond.notify_all()

    def wait_received(self, predicate, timeout):
        with self.cond:
            if not self.cond.wait_for(lambda: any(predicate(item) for item in self.received), timeout):
                raise AssertionError(f"no matching client frame within {timeout} s: {self.received!r:.500}")
            return next(item for item in self.received if predicate(item))

    def close(self):
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() above
        except OSError:
            pass
        self.listener.close()
        with self.cond:
            conns = list(self.conns)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
