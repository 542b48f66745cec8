# SPDX-License-Identifier: GPL-2.0-or-later
"""Loopback fakes of the speech servers, speaking their real wire formats (written by us from
the documented shapes: SOURCES.md). Each records what it received.

- VOICEVOX engine: POST /audio_query?text=&speaker= answers a query JSON; POST /synthesis?speaker=
  with that JSON answers a 16-bit mono WAV (a tone whose length follows the text).
- 棒読みちゃん: TCP, the talk command (little-endian Int16 command 1, speed, tone, volume, voice,
  UInt8 encoding, Int32 length, then the text).
Modes: "ok", "stall" (accepts, never answers), "close" (closes at once).
"""
import http.server
import io
import json
import math
import socket
import socketserver
import struct
import threading
import urllib.parse
import wave


def tone_wav(seconds, rate=24000):
    frames = int(seconds * rate)
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<h", int(12000 * math.sin(i * 2 * math.pi * 440 / rate)))
                               for i in range(frames)))
    return out.getvalue()


class Fake:
    def __init__(self):
        self.mode = "ok"
        self.texts = []
        self.requests = []
        self.lock = threading.Lock()
        self.server = None

    @property
    def address(self):
        host, port = self.server.server_address[:2]
        return f"{host}:{port}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class Voicevox(Fake):
    def start(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                if fake.mode == "stall":
                    threading.Event().wait(60)
                    return
                if fake.mode == "close":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                url = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(url.query)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with fake.lock:
                    fake.requests.append((url.path, query, body))
                if url.path == "/audio_query":
                    text = query["text"][0]
                    with fake.lock:
                        fake.texts.append(text)
                    # The fields VOICEVOX 0.14+'s AudioQuery has (its OpenAPI schema); accent
                    # phrases left empty: the fake does not analyse the text.
                    answer = json.dumps({"accent_phrases": [], "speedScale": 1.0, "pitchScale": 0.0,
                                         "intonationScale": 1.0, "volumeScale": 1.0, "prePhonemeLength": 0.1,
                                         "postPhonemeLength": 0.1, "outputSamplingRate": 24000,
                                         "outputStereo": False, "kana": text}).encode()
                    kind = "application/json"
                elif url.path == "/synthesis":
                    spoken = json.loads(body)["kana"]
                    answer = tone_wav(0.3 + 0.05 * len(spoken))
                    kind = "audio/wav"
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self


class BouyomiChan(Fake):
    HEADER = struct.Struct("<hhhhhBi")

    def start(self):
        fake = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                if fake.mode == "stall":
                    threading.Event().wait(60)
                    return
                if fake.mode == "close":
                    return
                data = b""
                while True:
                    chunk = self.request.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                command, speed, tone, volume, voice, encoding, length = fake.HEADER.unpack_from(data)
                text = data[fake.HEADER.size:fake.HEADER.size + length]
                with fake.lock:
                    fake.requests.append((command, speed, tone, volume, voice, encoding, length, len(data)))
                    fake.texts.append(text.decode("utf-8"))

        class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self
