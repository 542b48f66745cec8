#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The comment flow's cost (issue 21), without OBS: `commentbar serve` on a memfd pool made as the
shim makes it (renderer_rss.make_pool), fed by the benchmark's WebSocket server (support/websocket.py) with
10 comments/s that come as a YouTube poll brings them: a burst every 2 s of 20 comments carrying
their send times (`sent`). Measured twice, pacing on and off: the renderer's CPU and its frames.
Then the bar idle (pacing on, a 5 s moderation delay, the clock off): the frames made while no
comment is due, which must be none. With `COMMENTBAR_CPU_TRACE` the renderer logs running totals
of its CPU (the whole process, and its frame loop's releasing of due comments, laying out of rows
and writing of frames): the difference over the window says where the CPU went (`cpu_split`).

    python3 Tests/bench/flow_cpu.py --renderer .build/release/commentbar [--seconds 20] [--json]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from chat import COLORS, TEXTS, USERS
from compare_section import cpu_split_text
from procstat import cpu_ticks, machine_steal_ticks, machine_ticks
from renderer_rss import make_pool, pool_progress, private_xdg, stop_renderer
from support.websocket import Server

RATE = 10
BURST_EVERY = 2.0


CPU_LINE = re.compile(r"cpu: process ([\d.]+) ms, releasing ([\d.]+) ms, laying out ([\d.]+) ms \((\d+) rows\), "
                      r"frames ([\d.]+) ms \((\d+) frames\)")
CPU_FIELDS = ("process_ms", "release_ms", "layout_ms", "rows", "frames_ms", "frames")


def last_cpu_totals(log):
    """The renderer's newest `cpu:` line in its log so far, as numbers (None: none yet)."""
    log.flush()
    with open(log.name, errors="replace") as f:
        found = CPU_LINE.findall(f.read())
    return dict(zip(CPU_FIELDS, map(float, found[-1]))) if found else None


def run_case(renderer, seconds, settings, idle_seconds=0.0):
    fd, header = make_pool(settings["width"], settings["height"])
    server = Server()
    settings = {**settings, "service": "websocket", "stream_id": "bench", "server": f"ws://127.0.0.1:{server.port}/bench"}
    log = tempfile.NamedTemporaryFile(prefix="flow-cpu-", suffix=".log")
    # Its viewer memory (on by default) in folders of its own, never the user's.
    env, xdg_home = private_xdg({**os.environ, "COMMENTBAR_CPU_TRACE": "1"})
    proc = subprocess.Popen([renderer, "serve", "--pool-fd", str(fd)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=log, pass_fds=[fd], start_new_session=True, env=env)
    os.close(fd)
    try:
        proc.stdin.write((json.dumps({"settings": settings}) + "\n").encode())
        proc.stdin.write(b'{"active":true}\n')
        proc.stdin.flush()
        deadline = time.monotonic() + 20
        while server.client_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        if server.client_count() == 0:
            sys.exit("the renderer did not connect to the feed")
        time.sleep(1.0)
        ticks0, (_, frames0, _) = cpu_ticks(proc.pid), pool_progress(header)
        (busy0, _), steal0 = machine_ticks(), machine_steal_ticks()
        totals0 = last_cpu_totals(log)
        started = time.monotonic()
        sent = 0
        bursts = int(seconds / BURST_EVERY)
        for burst in range(bursts):
            # One poll's answer: the comments of the last 2 s, with the times they were written.
            wall = time.time()
            for i in range(int(RATE * BURST_EVERY)):
                user = sent % len(USERS)
                server.broadcast(json.dumps({"type": "comment", "id": f"b{sent}", "user": USERS[user],
                                             "text": TEXTS[sent % len(TEXTS)], "color": COLORS[user % len(COLORS)],
                                             "sent": wall - BURST_EVERY + i / RATE}, ensure_ascii=False))
                sent += 1
            time.sleep(max(0.0, started + (burst + 1) * BURST_EVERY - time.monotonic()))
        elapsed = time.monotonic() - started
        ticks1, (_, frames1, _) = cpu_ticks(proc.pid), pool_progress(header)
        (busy1, _), steal1 = machine_ticks(), machine_steal_ticks()
        percent = lambda ticks: ticks / os.sysconf("SC_CLK_TCK") / elapsed * 100
        # What else the machine did meanwhile (this feeder included), and what the host took: a
        # busy or stolen machine makes the renderer's own work slower (cold caches).
        result = {"comments": sent, "seconds": elapsed, "cpu_percent": percent(ticks1 - ticks0),
                  "frames": frames1 - frames0, "others_percent": max(0.0, percent(busy1 - busy0 - (ticks1 - ticks0))),
                  "steal_percent": percent(steal1 - steal0)}
        # The trace's totals are logged about once a second: the split covers the window give or take one.
        totals1 = last_cpu_totals(log)
        if totals0 and totals1 and totals1["process_ms"] > totals0["process_ms"]:
            result["cpu_split"] = {key: totals1[key] - totals0[key] for key in CPU_FIELDS}
        if idle_seconds:
            time.sleep(6.0)  # what the delay still holds is shown
            _, idle0, _ = pool_progress(header)
            ticks_idle0 = cpu_ticks(proc.pid)
            time.sleep(idle_seconds)
            _, idle1, _ = pool_progress(header)
            result.update(idle_seconds=idle_seconds, idle_frames=idle1 - idle0,
                          idle_cpu_percent=(cpu_ticks(proc.pid) - ticks_idle0) / os.sysconf("SC_CLK_TCK")
                          / idle_seconds * 100)
        return result
    finally:
        stop_renderer(proc)
        server.close()
        log.close()
        shutil.rmtree(xdg_home, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--renderer", default=".build/release/commentbar")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--idle-seconds", type=float, default=10)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    base = {"width": 1280, "height": 360, "max_lines": 6, "fps": 30, "show_clock": True,
            "font": {"face": "Noto Sans CJK JP", "flags": 0, "size": 26, "style": "Regular"}}
    result = {
        "paced": run_case(args.renderer, args.seconds, {**base, "pace_bursts": True}),
        "unpaced": run_case(args.renderer, args.seconds, {**base, "pace_bursts": False}),
        "idle": run_case(args.renderer, BURST_EVERY * 2, {**base, "show_clock": False, "pace_bursts": True,
                                                          "delay_seconds": 5}, idle_seconds=args.idle_seconds),
    }
    if args.json:
        print(json.dumps(result))
        return
    for name in ("paced", "unpaced"):
        r = result[name]
        print(f"{name:8s} {r['comments']} comments in {r['seconds']:.1f} s: renderer CPU {r['cpu_percent']:.1f}% "
              f"of one core, {r['frames']} frames")
        if "cpu_split" in r:
            print("         where the CPU went: " + cpu_split_text(r["cpu_split"]))
    r = result["idle"]
    print(f"idle     {r['idle_frames']} frames in {r['idle_seconds']:.0f} s with nothing due "
          f"(pacing on, 5 s delay, clock off), renderer CPU {r['idle_cpu_percent']:.2f}%")


if __name__ == "__main__":
    main()
