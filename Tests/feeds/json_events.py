#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""websocketd program for the `websocket` service test: each stdout line is one WebSocket
text message. It sends valid and malformed JSON events, then ends the connection after
a moment so the feed has to reconnect by itself."""
import json
import os
import sys
import time

events = [
    {"type": "comment", "id": "w1", "user": "ws", "text": "uri=" + os.environ.get("REQUEST_URI", "")},
    "this is not json",
    {"type": "nosuchtype", "id": "x"},
    {"type": "comment", "id": "w2"},
    {"type": "comment", "id": "w3", "user": "さくら", "text": "こんばんは", "color": "#ff7eb6", "badges": ["vip"]},
    {"type": "gift", "id": "w4", "user": "Giver", "gift": "Rose", "count": 3},
    {"type": "viewers", "count": 42},
    {"type": "mic", "on": False},
    {"type": "delete", "id": "w3"},
    {"type": "comment", "id": "w5", "user": "ws", "text": "last"},
]
for event in events:
    sys.stdout.write((event if isinstance(event, str) else json.dumps(event, ensure_ascii=False)) + "\n")
    sys.stdout.flush()
time.sleep(float(os.environ.get("HOLD_SECONDS", "1")))
