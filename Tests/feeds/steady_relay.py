#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""websocketd program: a relay that keeps talking, one comment every 0.2 s (ids r1, r2, …), with
its viewer count and stream start, so a merged bar shows it flowing while another stream is down."""
import json
import sys
import time

print(json.dumps({"type": "start", "time": 1700000000}), flush=True)
print(json.dumps({"type": "viewers", "count": 5}), flush=True)
for n in range(1, 100000):
    sys.stdout.write(json.dumps({"type": "comment", "id": f"r{n}", "user": "relay", "text": f"relay {n}"}) + "\n")
    sys.stdout.flush()
    time.sleep(0.2)
