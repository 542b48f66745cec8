#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The overlay's costs (issue 24), measured on the renderer as OBS runs it: this script plays the
shim (it creates the memfd frame pool and runs `commentbar serve --pool-fd` with settings lines
on stdin) under Xvfb, with the bench's WebSocket chat as the feed.
  - renderer CPU with `overlay` off and on, idle (the clock ticks every second) and at 10
    comments/s; the helper's own CPU beside it;
  - memory: the renderer's RSS off vs on, and the helper's RSS (what the overlay adds);
  - comment-to-overlay latency: a comment sent on the feed until the X server reports damage to
    the overlay window (XDamage), clock and viewers off so only the comment changes the bar.
    overlay_bench.py --renderer BIN --helpers DIR [--window S] [--json OUT] [--page docs/benchmarks.md]
Prints the figures and, with --page, puts them in that page's overlay section (between the
markers below, added at the end the first time); asserts nothing about them."""
import argparse
import json
import mmap
import os
import statistics
import shutil
import struct
import subprocess
import sys
import time

import chat
import procstat
from page_section import write_section
from renderer_rss import private_xdg
from support import websocket as wsloop
from support.processes import wait_for
from support.xserver import Xvfb

WIDTH, HEIGHT = 1280, 360
BEGIN, END = "<!-- overlay-bench: written by Tests/bench/overlay_bench.py -->", "<!-- /overlay-bench -->"


def make_pool(width, height):
    """A pool laid out as commentbar_pool.h says, as the shim makes it."""
    slot = (width * 4 * height + 4095) // 4096 * 4096
    size = 4096 + 3 * slot
    fd = os.memfd_create("commentbar-bench-pool", 0)
    os.ftruncate(fd, size)
    with mmap.mmap(fd, size) as m:
        m[0:48] = struct.pack("<QIIIIIIQQ", 0x4C4F4F5052414242, 1, 4096, width, height, width * 4, 3, slot, size)
        m[48:52] = struct.pack("<I", 1)
    return fd


class Renderer:
    def __init__(self, args, settings, log):
        self.pool = make_pool(WIDTH, HEIGHT)
        # Its viewer memory (on by default) in folders of its own, never the user's.
        env, self.xdg_home = private_xdg(dict(os.environ, COMMENTBAR_OVERLAY_DIR=os.path.abspath(args.helpers)))
        self.proc = subprocess.Popen([args.renderer, "serve", "--pool-fd", str(self.pool)], stdin=subprocess.PIPE,
                                     pass_fds=[self.pool], env=env, stdout=subprocess.DEVNULL,
                                     stderr=open(log, "ab"))
        self.send(settings)

    def send(self, settings):
        self.proc.stdin.write((json.dumps({"settings": settings}) + "\n").encode())
        self.proc.stdin.flush()

    def helpers(self):
        return procstat.pids_where(procstat.STAT_PPID, self.proc.pid)

    def stop(self):
        self.proc.stdin.close()
        self.proc.wait(10)
        os.close(self.pool)
        shutil.rmtree(self.xdg_home, ignore_errors=True)


def cpu_percent(pids, seconds):
    before = {p: procstat.cpu_ticks(p) or 0 for p in pids}
    t0 = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - t0
    return {p: ((procstat.cpu_ticks(p) or 0) - before[p]) / procstat.CLK_TCK / elapsed * 100 for p in pids}


def measure_cpu(args, server, overlay, rate, log):
    settings = {"service": "websocket", "stream_id": "bench", "server": f"ws://127.0.0.1:{server.port}/bench",
                "width": WIDTH, "height": HEIGHT, "overlay": overlay}
    r = Renderer(args, settings, log)
    try:
        wait_for(lambda: server.client_count() > 0, 20)
        server.broadcast(json.dumps({"type": "start", "time": time.time() - 3600}))
        feeder = chat.Feeder(lambda line: server.broadcast(chat.comment_event(line)), rate,
                             limit=args.window + args.warmup + 5) if rate else None
        time.sleep(args.warmup)
        helpers = r.helpers()
        cpu = cpu_percent([r.proc.pid] + helpers, args.window)
        rss = procstat.status_kib(r.proc.pid, "VmRSS")
        helper_rss = sum(procstat.status_kib(p, "VmRSS") or 0 for p in helpers)
        helper_pss = sum(procstat.pss_kib(p) or 0 for p in helpers)
        if feeder:
            feeder.stop()
        return {"renderer_cpu": cpu[r.proc.pid], "helper_cpu": sum(cpu[p] for p in helpers),
                "renderer_rss_kib": rss, "helper_rss_kib": helper_rss, "helper_pss_kib": helper_pss, "helpers": len(helpers)}
    finally:
        r.stop()
        while server.client_count() > 0:
            time.sleep(0.1)


def measure_latency(args, server, display, log, probes):
    from Xlib import X, display as xdisplay
    from Xlib.ext import damage
    settings = {"service": "websocket", "stream_id": "bench", "server": f"ws://127.0.0.1:{server.port}/bench",
                "width": WIDTH, "height": HEIGHT, "overlay": True, "show_clock": False, "show_viewers": False}
    r = Renderer(args, settings, log)
    d = xdisplay.Display(display)
    try:
        wait_for(lambda: server.client_count() > 0, 20)
        server.broadcast(chat.comment_event(chat.Lines(seed=1).next()))

        def overlay_window():
            for w in d.screen().root.query_tree().children:
                try:
                    if w.get_wm_name() == "Comment Bar overlay" and w.get_attributes().map_state == X.IsViewable:
                        return w
                except Exception:
                    pass
            return None
        window = wait_for(overlay_window, 20)
        if not window:
            raise RuntimeError("no overlay window")
        d.damage_query_version()
        watch = window.damage_create(damage.DamageReportNonEmpty)
        d.sync()
        lines = chat.Lines(seed=9)
        latencies = []
        time.sleep(1.0)
        for _ in range(probes):
            # Damage is reported once until it is subtracted: subtract before each probe.
            d.damage_subtract(watch)
            d.sync()
            while d.pending_events():
                d.next_event()
            sent = time.monotonic()
            server.broadcast(chat.comment_event(lines.next()))
            deadline = sent + 2
            got = None
            while time.monotonic() < deadline and got is None:
                if d.pending_events():
                    e = d.next_event()
                    # python-xlib registers a copy of the event class per display: compare names.
                    if type(e).__name__ == "DamageNotify":
                        got = time.monotonic()
                else:
                    time.sleep(0.0005)
            if got is not None:
                latencies.append((got - sent) * 1000)
            time.sleep(0.25)
            while d.pending_events():
                d.next_event()
        return latencies
    finally:
        d.close()
        r.stop()


def section(results, window, renderer):
    def row(name):
        off, on = results[f"{name}, overlay off"], results[f"{name}, overlay on"]
        return (f"| {name} | {off['renderer_cpu']:.2f} % | {on['renderer_cpu']:.2f} % | "
                f"{on['renderer_cpu'] - off['renderer_cpu']:+.2f} % | {on['helper_cpu']:.2f} % | "
                f"{(on['renderer_rss_kib'] - off['renderer_rss_kib']) / 1024:+.1f} MiB | "
                f"{on['helper_rss_kib'] / 1024:.1f} MiB ({on['helper_pss_kib'] / 1024:.1f} MiB PSS) |")
    lat = results["latency_ms"]
    fmt = lambda v: f"{v:.1f} ms" if v is not None else "–"  # noqa: E731
    return "\n".join([
        BEGIN,
        "## The overlay on the streamer's screen (issue 24)",
        "",
        f"`Tests/bench/overlay_bench.py`: `commentbar serve` run as the shim runs it (a memfd pool, settings on "
        f"stdin) under Xvfb 1920x1080 without a compositor, a 1280x360 bar fed by the bench's loopback WebSocket "
        f"chat; overlay at its defaults (50 %, bottom right). CPU in % of one core over {window:.0f} s; "
        "the helper is `commentbar-overlay-x11`, its own process. Targets (issue 24): at most 0.5 % of a core "
        "more, at most 4 MiB more, latency p99 at most one frame (33 ms at 30 fps) + 20 ms.",
        "",
        f"Renderer measured: `{renderer}`"
        + (" (a debug build: the renderer's own CPU is higher than a release build's; the difference is "
           "the overlay's)." if "/debug/" in renderer else "."),
        "",
        "| load | renderer, overlay off | renderer, overlay on | renderer difference | helper CPU "
        "| renderer RSS difference | helper RSS (PSS) |",
        "|---|---|---|---|---|---|---|",
        row("idle"),
        row("10 comments/s"),
        "",
        f"Comment-to-overlay latency (a comment sent on the WebSocket until the X server reports damage to the "
        f"overlay window; clock and viewers off): p50 {fmt(lat['p50'])}, p99 {fmt(lat['p99'])}, max "
        f"{fmt(lat['max'])} over {lat['answered']} of {lat['probes']} probes.",
        "",
        "With `overlay` off the renderer starts no helper and maps no display library: the off column is "
        "the renderer as it was.",
        END,
    ])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--renderer", required=True)
    ap.add_argument("--helpers", required=True)
    ap.add_argument("--window", type=float, default=20)
    ap.add_argument("--warmup", type=float, default=4)
    ap.add_argument("--probes", type=int, default=100)
    ap.add_argument("--json")
    ap.add_argument("--page")
    ap.add_argument("--from-json", help="write --page from an earlier run's --json instead of measuring")
    ap.add_argument("--work", default="build/overlay/bench")
    args = ap.parse_args()
    shown = os.path.relpath(os.path.abspath(args.renderer))
    args.renderer = os.path.abspath(args.renderer)
    if args.from_json:
        with open(args.from_json) as f:
            results = json.load(f)
        write_section(args.page, BEGIN, END, section(results, args.window, shown))
        return 0
    os.makedirs(args.work, exist_ok=True)
    log = os.path.join(args.work, "renderer.log")
    xvfb = Xvfb(args.work, 1920, 1080)
    os.environ["DISPLAY"] = xvfb.display
    os.environ.pop("WAYLAND_DISPLAY", None)
    server = wsloop.Server()
    results = {}
    try:
        for rate, name in [(0, "idle"), (10, "10 comments/s")]:
            for overlay in (False, True):
                key = f"{name}, overlay {'on' if overlay else 'off'}"
                results[key] = measure_cpu(args, server, overlay, rate, log)
                print(key, json.dumps(results[key]), flush=True)
        latencies = measure_latency(args, server, xvfb.display, log, args.probes)
        latencies.sort()
        results["latency_ms"] = {
            "probes": args.probes, "answered": len(latencies),
            "p50": statistics.median(latencies) if latencies else None,
            "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else None,
            "max": latencies[-1] if latencies else None}
        print("comment-to-overlay latency", json.dumps(results["latency_ms"]), flush=True)
    finally:
        server.close()
        xvfb.stop()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if args.page:
        write_section(args.page, BEGIN, END, section(results, args.window, shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
