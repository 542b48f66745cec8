# SPDX-License-Identifier: GPL-2.0-or-later
"""A tool's WebSocket on the control server's /api/events, as the control tests use it."""
import json
import threading

from support import websocket


class EventClient:
    """A tool's WebSocket on /api/events (bearer token, no Origin): every message read as it comes."""

    def __init__(self, port, token):
        self.client = websocket.Client(f"ws://127.0.0.1:{port}/api/events", timeout=1,
                                       extra_headers={"Authorization": f"Bearer {token}"})
        self.events, self.bad = [], []
        self.open = True
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while self.open:
            try:
                text = self.client.recv_text()
            except TimeoutError:
                continue
            except (OSError, websocket.Error):
                break
            try:
                self.events.append(json.loads(text))
            except ValueError:
                self.bad.append(text)

    def comments(self):
        return [event for event in list(self.events) if event.get("type") == "comment"]

    def close(self):
        self.open = False
        self.client.close()
