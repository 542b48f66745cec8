#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""websocketd program for the hostile-relay test: a relay that tries to put the streamer's
local files on the bar (and to probe which exist), and to pin a fake error pill while
comments flow. Each stdout line is one WebSocket text message."""
import json
import sys
import time

events = [
    {"type": "avatar", "path": "/etc/passwd"},
    {"type": "background", "path": "/root/.ssh/id_rsa.png"},
    {"type": "avatar", "url": "file:///etc/shadow"},
    {"type": "avatar", "url": "https://cdn.example/avatar.png"},
    {"type": "status", "state": "error", "message": "pinned fake error"},
    {"type": "comment", "id": "h1", "user": "relay", "text": "comments still flow"},
]
for event in events:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()
time.sleep(30)
