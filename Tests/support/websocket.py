# SPDX-License-Identifier: GPL-2.0-or-later
"""WebSocket client and server for the benchmark's plain threads, on the `websockets` library.

Debian 12's python3-websockets (10.4) has only the asyncio API, so one asyncio event
loop runs in a daemon thread and these classes hand it coroutines, waiting for each
result. Every connection is set up as the benchmark needs it: no compression (no
extension is negotiated: the renderer reads plain text frames), no keepalive pings
(the renderer pings a silent server itself; OBS and Chromium need none), and no
message size limit (a full-size screenshot is megabytes of base64).
"""
import asyncio
import threading

import websockets
import websockets.exceptions

# What a connection can fail with beyond OSError (refused, reset, TimeoutError).
Error = websockets.exceptions.WebSocketException
OPTIONS = {"compression": None, "ping_interval": None, "max_size": None, "close_timeout": 2}

_loop = None
_loop_lock = threading.Lock()


def _event_loop():
    global _loop
    with _loop_lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="websockets", daemon=True).start()
        return _loop


def run(coro, timeout=None):
    """Runs `coro` on the loop thread and returns its result (or raises its exception).

    After `timeout` seconds it is cancelled and TimeoutError raised; an interrupt
    (the run's deadline alarm) cancels it too."""
    fut = asyncio.run_coroutine_threadsafe(coro, _event_loop())
    try:
        return fut.result(timeout)
    except BaseException:
        fut.cancel()
        raise


class Client:
    """One client connection; every call waits at most `timeout` seconds."""

    def __init__(self, uri, timeout=10.0):
        self.timeout = timeout

        async def open_():
            return await websockets.connect(uri, open_timeout=timeout, **OPTIONS)
        self.ws = run(open_())

    def recv_text(self):
        return run(self.ws.recv(), self.timeout)

    def ask(self, text, answer):
        """Sends `text`, then reads messages until `answer(message)` returns something other
        than None, and returns that: a request and its reply in one trip to the loop thread."""
        async def exchange():
            await self.ws.send(text)
            while True:
                found = answer(await self.ws.recv())
                if found is not None:
                    return found
        return run(exchange(), self.timeout)

    def close(self):
        try:
            run(self.ws.close(), self.timeout)
        except (OSError, Error):
            pass


class Server:
    """A loopback server that broadcasts text to every connected client; what clients send is dropped."""

    def __init__(self, host="127.0.0.1", port=0):
        self.clients = set()  # changed on the loop thread only

        async def start():
            return await websockets.serve(self._handle, host, port, **OPTIONS)
        self.server = run(start(), 10)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _handle(self, ws):
        self.clients.add(ws)
        try:
            async for _ in ws:
                pass
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            self.clients.discard(ws)

    def client_count(self):
        return len(self.clients)

    def broadcast(self, text):
        """Queues `text` for every open client, in order, without waiting for the loop thread (a feed at
        1,000 comments/s would spend most of its time in the hand-over); returns how many clients are open."""
        _event_loop().call_soon_threadsafe(self._broadcast, text)
        return sum(1 for c in list(self.clients) if c.open)

    def _broadcast(self, text):
        websockets.broadcast(self.clients, text)  # skips clients that are not open

    def close(self):
        async def stop():
            self.server.close()
            await self.server.wait_closed()
        try:
            run(stop(), 10)
        except (OSError, Error):
            pass
