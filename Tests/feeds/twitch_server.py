# SPDX-License-Identifier: GPL-2.0-or-later
"""A Twitch-like chat server for tests: Twitch's tagged IRC lines over a TLS WebSocket
(irc-ws.chat.twitch.tv style), run in a background asyncio thread on 127.0.0.1."""
import asyncio
import threading

from websockets.asyncio.server import serve

from support.tls import server_context


class FakeTwitch:
    def __init__(self, port, test_ca=None):
        self.port = port
        self.ssl = server_context(test_ca) if test_ca else None
        self.received = []  # every line any client sent
        self.connections = 0
        self.clients = set()
        self.joined = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(timeout=30)

    async def _start(self):
        return await serve(self._handle, "127.0.0.1", self.port, ssl=self.ssl, max_size=2 ** 20)

    async def _handle(self, websocket):
        with self.joined:
            self.connections += 1
        nick = None
        try:
            async for message in websocket:
                for line in message.split("\r\n"):
                    if not line:
                        continue
                    with self.joined:
                        self.received.append(line)
                        self.joined.notify_all()
                    command, _, rest = line.partition(" ")
                    if command == "CAP":
                        await websocket.send(f":tmi.twitch.tv CAP * ACK :{rest.partition(':')[2]}")
                    elif command == "NICK":
                        nick = rest
                        # Several lines in one WebSocket message, as Twitch does.
                        await websocket.send("\r\n".join([
                            f":tmi.twitch.tv 001 {nick} :Welcome, GLHF!",
                            f":tmi.twitch.tv 002 {nick} :Your host is tmi.twitch.tv",
                            f":tmi.twitch.tv 376 {nick} :>",
                        ]) + "\r\n")
                    elif command == "JOIN":
                        channel = rest
                        await websocket.send("\r\n".join([
                            f":{nick}!{nick}@{nick}.tmi.twitch.tv JOIN {channel}",
                            f":{nick}.tmi.twitch.tv 353 {nick} = {channel} :{nick}",
                            f":{nick}.tmi.twitch.tv 366 {nick} {channel} :End of /NAMES list",
                        ]) + "\r\n")
                        with self.joined:
                            self.clients.add(websocket)
                            self.joined.notify_all()
        finally:
            with self.joined:
                self.clients.discard(websocket)

    def wait_joined(self, count=1, timeout=45):
        """Waits until `count` connections in total have joined (counting reconnects)."""
        with self.joined:
            ok = self.joined.wait_for(lambda: sum(1 for l in self.received if l.startswith("JOIN ")) >= count,
                                      timeout=timeout)
        assert ok, f"no JOIN #{count} within {timeout} s; received {self.received[-10:]}"

    def wait_received(self, line, timeout=45):
        """Waits until a client has sent exactly this line."""
        with self.joined:
            ok = self.joined.wait_for(lambda: line in self.received, timeout=timeout)
        assert ok, f"no {line!r} from the client within {timeout} s; received {self.received[-10:]}"

    def send(self, *lines, batch=True):
        """Sends lines to every joined client: in one WebSocket message, or one message each."""
        async def go():
            for client in list(self.clients):
                if batch:
                    await client.send("\r\n".join(lines) + "\r\n")
                else:
                    for line in lines:
                        await client.send(line + "\r\n")
        asyncio.run_coroutine_threadsafe(go(), self.loop).result(timeout=30)

    def send_raw(self, payload):
        async def go():
            for client in list(self.clients):
                await client.send(payload)
        asyncio.run_coroutine_threadsafe(go(), self.loop).result(timeout=30)

    def close(self):
        async def go():
            self.server.close()
            await self.server.wait_closed()
        asyncio.run_coroutine_threadsafe(go(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
