#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The looks' costs (issue 38), printed and, with --page, put in docs/benchmarks.md's looks section:
  - an enter frame and a fade frame against a memcpy of the frame (1280x360, target at most 1.0x),
    and a ticker frame (1280x72), from `commentbar bench --only enter --only fade --only ticker --json`;
  - the renderer's CPU without OBS (`commentbar serve` on a memfd pool made as the shim makes it,
    the benchmark's WebSocket chat): the ticker theme at 1280x72 and 30 fps with a comment a second
    (target at most 1 % of a core), and the default theme at 1280x360 with 10 comments/s (target:
    no worse than before, 1.1 %);
  - OBS's added CPU (real OBS, headless) for a `box-outline` bar at 480x900 with 10 comments/s,
    beside a still image of the same bar (the control), each over the empty scene.
    looks_bench.py --renderer BIN [--plugin SO --data DIR] [--window S] [--json OUT] [--before OLD.json]
                   [--page docs/benchmarks.md]
--before: an earlier run's --json (another renderer's: `BENCH_RENDERER=…`), shown as a before column.
Asserts nothing about the figures.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import chat
import procstat
from page_section import write_section
from renderer_rss import make_pool, pool_progress, private_xdg, stop_renderer
from support.websocket import Server

BEGIN, END = "<!-- looks-bench: written by Tests/bench/looks_bench.py -->", "<!-- /looks-bench -->"
FONT = {"face": "Noto Sans CJK JP", "flags": 0, "size": 26, "style": "Regular"}


def frame_costs(renderer):
    """The in-process frame costs: enter and fade at 1280x360, the ticker at 1280x72."""
    out = {}
    for size, cases in (("1280x360", ["enter", "fade", "memcpy", "new", "full"]), ("1280x72", ["ticker"])):
        # A renderer from before the looks knows only the default theme's cases: those, then.
        for wanted in (cases, [case for case in cases if case in ("memcpy", "new", "full")]):
            if not wanted:
                continue
            command = [renderer, "bench", "--json", "--size", size] + [a for case in wanted for a in ("--only", case)]
            done = subprocess.run(command, capture_output=True, text=True, timeout=300)
            if done.returncode == 0:
                out[size] = json.loads(done.stdout)[0]
                break
    return out


def serve_cpu(renderer, settings, rate, seconds, warmup):
    """`commentbar serve` alone with `settings`, fed `rate` comments a second: its CPU (% of one core)
    and the frames it made a second over `seconds`."""
    fd, header = make_pool(settings["width"], settings["height"])
    server = Server()
    settings = {**settings, "service": "websocket", "stream_id": "bench",
                "server": f"ws://127.0.0.1:{server.port}/bench", "font": FONT}
    env, xdg_home = private_xdg(dict(os.environ))
    proc = subprocess.Popen([renderer, "serve", "--pool-fd", str(fd)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=[fd],
                            start_new_session=True, env=env)
    os.close(fd)
    feeder = None
    try:
        proc.stdin.write((json.dumps({"settings": settings}) + "\n").encode() + b'{"active":true}\n')
        proc.stdin.flush()
        deadline = time.monotonic() + 20
        while server.client_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        if server.client_count() == 0:
            raise RuntimeError("the renderer did not connect to the feed")
        feeder = chat.Feeder(lambda line: server.broadcast(chat.comment_event(line)), rate,
                             limit=warmup + seconds + 10, seed=23)
        time.sleep(warmup)
        ticks0, (_, frames0, _), t0 = procstat.cpu_ticks(proc.pid), pool_progress(header), time.monotonic()
        time.sleep(seconds)
        ticks1, (_, frames1, _), t1 = procstat.cpu_ticks(proc.pid), pool_progress(header), time.monotonic()
        return {"cpu_percent": (ticks1 - ticks0) / os.sysconf("SC_CLK_TCK") / (t1 - t0) * 100,
                "frames_per_second": (frames1 - frames0) / (t1 - t0), "rate": rate, "seconds": t1 - t0}
    finally:
        if feeder:
            feeder.stop()
        stop_renderer(proc)
        server.close()
        shutil.rmtree(xdg_home, ignore_errors=True)


def obs_cpu(args, seconds, warmup):
    """OBS's CPU over the empty scene for a box-outline bar at 480x900 and 10 comments/s, and for a
    still image of the same bar."""
    from support import obs as real_obs
    work = tempfile.mkdtemp(prefix="looks-bench-")
    still = os.path.join(work, "box-outline.png")
    subprocess.run([args.renderer, "render", "--theme", "box-outline", "--width", "480", "--height", "900",
                    "--out", still], check=True, capture_output=True, timeout=60)
    result = {}
    try:
        with real_obs.session(work, args.plugin, args.data, args.renderer) as obs:
            group = procstat.Group("obs", lambda: [obs.pid])

            def window(label):
                time.sleep(warmup)
                measured = procstat.measure([group], seconds)
                print(f"  OBS, {label}: {measured['groups']['obs']['cpu']:.1f} %", flush=True)
                return measured["groups"]["obs"]["cpu"]

            time.sleep(2.0)
            result["empty"] = window("empty scene")
            server = Server()
            obs.create_input("Looks Bar", real_obs.BAR_KIND, {
                "service": "websocket", "stream_id": "bench", "server": f"ws://127.0.0.1:{server.port}/bench",
                "width": 480, "height": 900, "theme": "box-outline"})
            feeder = chat.Feeder(lambda line: server.broadcast(chat.comment_event(line)), 10,
                                 limit=warmup + seconds + 10, seed=29)
            try:
                result["box_outline_10"] = window("box-outline 480x900, 10 comments/s")
            finally:
                feeder.stop()
                obs.remove_input("Looks Bar")
                server.close()
            obs.create_input("Bar still", "image_source", {"file": still})
            try:
                result["still_image"] = window("still image of the same bar")
            finally:
                obs.remove_input("Bar still")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result


def section(results, before, shown):
    def figure(path, digits=2, unit=""):
        value = results
        for key in path:
            value = (value or {}).get(key) if isinstance(value, dict) else None
        old = before
        for key in path:
            old = (old or {}).get(key) if isinstance(old, dict) else None
        text = "n/a" if value is None else f"{value:.{digits}f}{unit}"
        return text, ("n/a" if old is None else f"{old:.{digits}f}{unit}")

    rows = [
        ("enter frame (fade in), 1280x360", ("frames", "1280x360", "enter_frame_ms"), " ms"),
        ("  against a memcpy of the frame (target at most 1.0x)", ("frames", "1280x360", "enter_frame_vs_memcpy"), "x"),
        ("fade frame (fade out), 1280x360", ("frames", "1280x360", "fade_frame_ms"), " ms"),
        ("  against a memcpy of the frame (target at most 1.0x)", ("frames", "1280x360", "fade_frame_vs_memcpy"), "x"),
        ("new comment frame, default theme, 1280x360", ("frames", "1280x360", "new_comment_ms"), " ms"),
        ("full redraw, default theme, 1280x360", ("frames", "1280x360", "full_redraw_ms"), " ms"),
        ("ticker frame, 1280x72", ("frames", "1280x72", "ticker_frame_ms"), " ms"),
        ("  30 of them a second (% of a core)", ("frames", "1280x72", "ticker_cpu_percent_at_30fps"), " %"),
        ("renderer CPU, ticker 1280x72, 30 fps, 1 comment/s (target at most 1 %)", ("serve", "ticker", "cpu_percent"), " %"),
        ("  frames a second it made", ("serve", "ticker", "frames_per_second"), ""),
        ("renderer CPU, default theme 1280x360, 10 comments/s (target at most 1.1 %)", ("serve", "default_10", "cpu_percent"), " %"),
        ("OBS CPU, empty scene", ("obs", "empty"), " %"),
        ("OBS CPU, box-outline 480x900 at 10 comments/s", ("obs", "box_outline_10"), " %"),
        ("OBS CPU, a still image of that bar (control)", ("obs", "still_image"), " %"),
    ]
    lines = [BEGIN, "## Looks: layouts, motion and themes (issue 38)", "",
             "Measured by `Tests/bench/looks_bench.py` (`make bench-looks`; `make bench` runs it too). The enter "
             "and fade frames rewrite one row's rectangle on the last frame; the ticker rewrites its line. OBS's "
             "added CPU is the window's mean over the empty scene's.", "",
             f"Renderer measured: `{shown}`.", "",
             "| measure | now | before |", "|---|---|---|"]
    for label, path, unit in rows:
        now, old = figure(path, 3 if unit == " ms" else 2, unit)
        lines.append(f"| {label} | {now} | {old} |")
    obs = results.get("obs") or {}
    if obs.get("empty") is not None:
        added = [obs.get(k, 0) - obs["empty"] for k in ("box_outline_10", "still_image")]
        lines += ["", f"OBS's added CPU: box-outline bar {added[0]:.1f} % against {added[1]:.1f} % for the still image."]
    lines.append(END)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--renderer", required=True)
    ap.add_argument("--plugin", help="the built module: with --data, OBS's added CPU is measured too")
    ap.add_argument("--data")
    ap.add_argument("--window", type=float, default=20)
    ap.add_argument("--warmup", type=float, default=3)
    ap.add_argument("--json")
    ap.add_argument("--before")
    ap.add_argument("--page")
    args = ap.parse_args()
    shown = os.path.relpath(os.path.abspath(args.renderer))
    args.renderer = os.path.abspath(args.renderer)
    results = {"frames": frame_costs(args.renderer)}
    for size, row in results["frames"].items():
        print(size, json.dumps({k: v for k, v in row.items() if v is not None}), flush=True)
    base = {"max_lines": 6, "fps": 30, "show_clock": True}
    results["serve"] = {
        "ticker": serve_cpu(args.renderer, {**base, "width": 1280, "height": 72, "theme": "ticker"}, 1,
                            args.window, args.warmup),
        "default_10": serve_cpu(args.renderer, {**base, "width": 1280, "height": 360}, 10, args.window, args.warmup),
    }
    for name, row in results["serve"].items():
        print(f"serve {name}: CPU {row['cpu_percent']:.2f} % of a core, {row['frames_per_second']:.1f} frames/s",
              flush=True)
    if args.plugin and args.data:
        results["obs"] = obs_cpu(args, args.window, args.warmup)
    before = json.load(open(args.before)) if args.before and os.path.exists(args.before) else {}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if args.page:
        write_section(args.page, BEGIN, END, section(results, before, shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
