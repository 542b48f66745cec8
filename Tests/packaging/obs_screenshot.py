#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Waits until an OBS source shows a drawn bar, through obs-websocket (5.x, no auth), and saves it.

    obs_screenshot.py --port N --source Bar --out bar.png [--timeout 60] [--width 640]

A frame counts as the bar when most of it is covered (the bar's background) and it
has many colours (anti-aliased text): an empty source screenshots fully transparent.
Prints one JSON line: {"seconds": time to that frame, "coverage": ..., "colours": ...}.
Exits 1 on timeout. Uses Debian's python3-websockets (asyncio client).
"""
import argparse
import asyncio
import base64
import json
import os
import sys
import time

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png_pixels  # noqa: E402

MIN_COVERAGE = 0.5
MIN_COLOURS = 50


async def connect(port, deadline):
    while True:
        try:
            ws = await websockets.connect(f"ws://127.0.0.1:{port}", max_size=None, compression=None,
                                          ping_interval=None)
            hello = json.loads(await ws.recv())
            assert hello["op"] == 0, hello
            await ws.send(json.dumps({"op": 1, "d": {"rpcVersion": 1, "eventSubscriptions": 0}}))
            identified = json.loads(await ws.recv())
            assert identified["op"] == 2, identified
            return ws
        except (OSError, websockets.exceptions.WebSocketException):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def request(ws, kind, data, number):
    await ws.send(json.dumps({"op": 6, "d": {"requestType": kind, "requestId": str(number), "requestData": data}}))
    while True:
        reply = json.loads(await ws.recv())
        if reply["op"] == 7 and reply["d"]["requestId"] == str(number):
            return reply["d"]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--since", type=float, help="time.time() to count --seconds from (default: now)")
    args = parser.parse_args()
    start = args.since if args.since else time.time()
    deadline = time.monotonic() + args.timeout
    ws = await connect(args.port, deadline)
    number, last = 0, "no screenshot yet"
    while time.monotonic() < deadline:
        number += 1
        reply = await request(ws, "GetSourceScreenshot", {"sourceName": args.source, "imageFormat": "png", "imageWidth": 640}, number)
        if reply["requestStatus"]["result"]:
            png = base64.b64decode(reply["responseData"]["imageData"].split(",", 1)[1])
            width, height, coverage, colours = png_pixels.stats(png)
            last = f"{width}x{height}, {coverage:.0%} covered, {colours} colours"
            if coverage >= MIN_COVERAGE and colours >= MIN_COLOURS:
                with open(args.out, "wb") as f:
                    f.write(png)
                print(json.dumps({"seconds": round(time.time() - start, 2), "width": width, "height": height,
                                  "coverage": round(coverage, 3), "colours": colours}))
                await ws.close()
                return 0
        else:
            # 702 until the source has its first frame.
            last = reply["requestStatus"].get("comment") or f"code {reply['requestStatus']['code']}"
        await asyncio.sleep(0.25)
    print(json.dumps({"error": f"no drawn bar within {args.timeout} s: {last}"}))
    await ws.close()
    return 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
