# SPDX-License-Identifier: GPL-2.0-or-later
"""A chat relay on loopback for the control tests: a WebSocket server that the bar's `websocket`
feed reads; `send` gives every connected client one JSON event, `comment` one chat comment."""
import asyncio
import json
import threading

import websockets

from support.processes import free_port

BLUE = "#4fc3f7"  # the names' colour: nothing of a row is the pin strip's amber


class Relay:
    def __init__(self):
        self.port = free_port()
        self.clients = set()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.stopped = None
        threading.Thread(target=self._run, daemon=True).start()
        if not self.ready.wait(10):
            raise AssertionError("the relay did not start")

    def _run(self):
        asyncio.set_event_loop(self.loop)

        async def serve(socket, _path):
            self.clients.add(socket)
            try:
                await socket.wait_closed()
            finally:
                self.clients.discard(socket)

        async def main():
            self.stopped = asyncio.Event()
            async with websockets.serve(serve, "127.0.0.1", self.port):
                self.ready.set()
                await self.stopped.wait()

        self.loop.run_until_complete(main())

    def send(self, event):
        text = json.dumps(event, ensure_ascii=False)

        async def broadcast():
            for client in list(self.clients):
                await client.send(text)

        asyncio.run_coroutine_threadsafe(broadcast(), self.loop).result(5)

    def comment(self, id, user, text, colour=BLUE):
        self.send({"type": "comment", "id": id, "user": user, "login": user.lower(), "text": text, "color": colour})

    def close(self):
        """Stops serving (the bar's feed sees the relay go)."""
        self.loop.call_soon_threadsafe(self.stopped.set)
