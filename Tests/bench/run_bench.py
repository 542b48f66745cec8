#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`make bench`: the Comment Bar against what streamers use today, side by side in one run.

Starts real OBS Studio headless (Xvfb, llvmpipe, 1280x720 at 30 fps, preview
off) with an isolated config, then measures in order:
  empty scene (baseline) -> Text (FreeType 2) chat-log at 10 lines/s ->
  Comment Bar at 10 comments/s -> the same bar idle -> the bar at 1,000/s ->
  a still image of the bar (control) -> headless Chromium chat page at 10 lines/s -> empty scene again ->
  comment-to-screen latency of the Text source and of the bar ->
  `commentbar bench --json` frame costs.
Writes results.json into the run folder; report.py turns it into docs/benchmarks.md.
Every process it starts is stopped on exit, whatever happens.
"""
import argparse
import datetime
import json
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

import chat
import latency_legs
import procstat
import shots
from support import websocket as wsloop
from support.obs import OBS, SCENE, stage_plugin
from support.processes import die_with_parent, wait_for
from support.xserver import Xvfb

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

BAR_KIND = "comment_bar_source"
TEXT_KIND = "text_ft2_source_v2"


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


class Cleanup:
    """Stops what was started, last first, on any exit."""

    def __init__(self):
        self.items = []

    def add(self, name, fn):
        self.items.append((name, fn))
        return fn

    def remove(self, fn):
        self.items = [(n, f) for n, f in self.items if f is not fn]

    def run(self):
        while self.items:
            name, fn = self.items.pop()
            try:
                fn()
            except Exception as e:  # keep stopping the rest
                log(f"cleanup of {name} failed: {e}")


def descendants(pid):
    """Every process below pid (children, grandchildren, ...)."""
    parent = {}
    for p in procstat.all_pids():
        try:
            parent[p] = int(procstat._stat_fields(p)[procstat.STAT_PPID])
        except (OSError, ValueError):
            continue
    out, frontier = [], [pid]
    while frontier:
        nxt = [p for p, pp in parent.items() if pp in frontier]
        out += nxt
        frontier = nxt
    return out


def cpu_window(groups, warmup, window, label):
    time.sleep(warmup)
    log(f"measuring {label} for {window:.0f} s")
    r = procstat.measure(groups, window)
    parts = ", ".join(f"{k} {v['cpu']:.1f} %" for k, v in r["groups"].items())
    log(f"  {label}: {parts}; whole machine {r['machine_cpu']:.0f} %, others {r['others_cpu']:.0f} %")
    return r


def machine_info():
    info = {"kernel": platform.release(), "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info["cores"] = os.cpu_count()
    try:
        with open("/proc/meminfo") as f:
            info["mem_gib"] = round(int(f.readline().split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    info["os"] = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass

    def pkg(name):
        try:
            return subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True,
                                  text=True, timeout=10).stdout.strip() or None
        except (OSError, subprocess.TimeoutExpired):
            return None
    info["packages"] = {p: pkg(p) for p in ["obs-studio", "libgl1-mesa-dri", "xvfb", "chromium", "fonts-noto-cjk"]}
    try:
        info["git"] = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True,
                                     timeout=10, cwd=HERE).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    return info


def obs_log_facts(path):
    facts = {}
    if not path:
        return facts
    try:
        with open(path, errors="replace") as f:
            for line in f:
                if "Loading up OpenGL on adapter" in line:
                    facts["gl_adapter"] = line.split("adapter", 1)[1].strip()
                elif "OpenGL loaded successfully" in line:
                    facts["gl_version"] = line.split("version", 1)[1].strip()
                elif "comment-bar" in line.lower() and "module" in line.lower() and "plugin_module" not in facts:
                    facts["plugin_module"] = line.strip()
    except OSError:
        pass
    return facts


# ---------------------------------------------------------------- phases

def phase_text_cpu(obs, work, args, results, groups):
    path = os.path.join(work, "chat-cpu.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("")
    obs.create_input("Chat log", TEXT_KIND, text_settings(path))
    feeder = chat.Feeder(chat.file_appender(path), args.rate, limit=args.warmup + args.window + 10)
    try:
        r = cpu_window(groups, args.warmup, args.window, "Text (FreeType 2) chat log, 10 lines/s")
        save_shot(obs, os.path.join(work, "scene-text_10.png"))
    finally:
        r_sent = feeder.stop()
        obs.remove_input("Chat log")
    r["events_sent"] = r_sent
    results["cpu"]["text_10"] = r


def text_settings(path):
    return {
        "from_file": True, "text_file": path, "log_mode": True, "log_lines": 6,
        "font": {"face": "Noto Sans CJK JP", "style": "Regular", "size": 26, "flags": 0},
        "color1": 0xFFFFFFFF, "color2": 0xFFFFFFFF,
    }


def bar_settings(server_port):
    return {"service": "websocket", "stream_id": "bench", "server": f"ws://127.0.0.1:{server_port}/bench",
            "width": 1280, "height": 360}


def renderer_pids(obs):
    return [p for p in descendants(obs.pid) if (procstat.comm(p) or "").startswith("commentbar")]


def save_shot(obs, path):
    """A full-size PNG of the program scene, for a person to look at after the run."""
    try:
        _, _, img = obs.screenshot(SCENE, None, None, "png")
        if img:
            with open(path, "wb") as f:
                f.write(img)
    except Exception as e:
        log(f"screenshot {path} failed: {e}")


def start_bar(obs, server):
    obs.create_input("Comment Bar", BAR_KIND, bar_settings(server.port))
    if not wait_for(lambda: renderer_pids(obs), 20):
        raise RuntimeError("no `commentbar` renderer process appeared under OBS in 20 s")
    if not wait_for(lambda: server.client_count() > 0, 20):
        raise RuntimeError("the renderer did not connect to the bench's websocket feed in 20 s")
    # a live stream: started an hour ago (the clock ticks every second), with viewers. The clock then reads
    # 01:00:00, so in the latency phase (about 20 s) only its seconds change: shots.learn_mask learns and
    # ignores those pixels, and no minute digit can change mid-phase and pass for a comment.
    server.broadcast(json.dumps({"type": "start", "time": time.time() - 3600}))
    server.broadcast(json.dumps({"type": "viewers", "count": 1234}))


def phase_bar_cpu(obs, work, args, results, groups_for):
    server = wsloop.Server()
    try:
        start_bar(obs, server)
        log(f"renderer pid(s) {renderer_pids(obs)}; feed clients {server.client_count()}")
        groups = groups_for(lambda: renderer_pids(obs))
        for rate, key, label in [(args.rate, "bar_10", "Comment Bar, 10 comments/s"),
                                 (0, "bar_idle", "Comment Bar, idle"),
                                 (1000, "bar_1000", "Comment Bar, 1,000 comments/s")]:
            feeder = None
            if rate:
                feeder = chat.Feeder(lambda line: server.broadcast(chat.comment_event(line)), rate,
                                     limit=args.warmup + args.window + 10, seed=7 + rate)
            try:
                r = cpu_window(groups, args.warmup, args.window, label)
                save_shot(obs, os.path.join(work, f"scene-{key}.png"))
            finally:
                if feeder:
                    r_sent = feeder.stop()
            r["events_sent"] = r_sent if feeder else 0
            seen = r["groups"]["renderer"]["pids"]
            if len(seen) != 1:
                raise RuntimeError(f"{label}: expected one renderer process through the window, saw {seen}")
            r["rate"] = rate
            rp = renderer_pids(obs)
            r["renderer_hwm_kib"] = max([procstat.status_kib(p, "VmHWM") or 0 for p in rp] or [0]) or None
            if rp:
                r["renderer_rss_parts_kib"] = {k: procstat.status_kib(rp[0], k)
                                               for k in ("VmRSS", "RssAnon", "RssFile", "RssShmem")}
                r["renderer_rss_parts_kib"]["Pss"] = procstat.pss_kib(rp[0])
            results["cpu"][key] = r
            if rate == args.rate:
                time.sleep(1.0)  # let the last comments land before the idle window's warmup
    finally:
        obs.remove_input("Comment Bar")
        server.close()


def write_speech_like_tone(path, seconds=4):
    """A 220 Hz tone whose loudness swings three times a second, like speech: the meter keeps moving."""
    import math
    import struct
    import wave
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(48000)
        out.writeframes(b"".join(
            struct.pack("<h", int(12000 * (0.55 + 0.45 * math.sin(2 * math.pi * 3 * i / 48000))
                                  * math.sin(2 * math.pi * 220 * i / 48000)))
            for i in range(48000 * seconds)))


def phase_mic_cpu(obs, work, args, results, groups_for):
    """The mic level meter: OBS and renderer CPU with a tone playing, meter off and on, and with the mic
    muted (a silent meter must make no frames)."""
    tone = os.path.join(work, "speech-like.wav")
    write_speech_like_tone(tone)
    server = wsloop.Server()
    obs.create_input("Mic", "ffmpeg_source", {"is_local_file": True, "local_file": tone, "looping": True})
    try:
        start_bar(obs, server)
        groups = groups_for(lambda: renderer_pids(obs))
        for key, meter, muted, label in [("mic_meter_off", False, False, "bar, tone playing, meter off"),
                                         ("mic_meter_on", True, False, "bar, tone playing, meter on"),
                                         ("mic_meter_silent", True, True, "bar, meter on, mic muted")]:
            obs.request("SetInputSettings", {"inputName": "Comment Bar",
                                             "inputSettings": {"mic_source": "Mic", "mic_meter": meter}})
            obs.request("SetInputMute", {"inputName": "Mic", "inputMuted": muted})
            r = cpu_window(groups, args.warmup, args.window, label)
            results["cpu"][key] = r
    finally:
        obs.remove_input("Comment Bar")
        obs.remove_input("Mic")
        server.close()


def phase_two_streams_cpu(obs, work, args, results, groups_for):
    """Two relays merged on one bar at 500 comments/s each, with every filter on and 10,000 NG words:
    no stall (comments keep arriving), renderer CPU and memory."""
    servers = [wsloop.Server(), wsloop.Server()]
    settings = dict(bar_settings(servers[0].port))
    settings["feeds"] = [{"value": f"ws://127.0.0.1:{s.port}/bench"} for s in servers]
    settings["ng_words"] = [{"value": f"ngword{i}"} for i in range(10_000)]
    settings["highlight_names"] = [{"value": "streamer"}]
    obs.create_input("Comment Bar", BAR_KIND, settings)
    feeders = []
    try:
        if not wait_for(lambda: renderer_pids(obs), 20) or not wait_for(
                lambda: all(s.client_count() > 0 for s in servers), 20):
            raise RuntimeError("the renderer did not connect to both relays in 20 s")
        groups = groups_for(lambda: renderer_pids(obs))
        for n, server in enumerate(servers):
            feeders.append(chat.Feeder(lambda line, server=server: server.broadcast(chat.comment_event(line)), 500,
                                       limit=args.warmup + args.window + 10, seed=100 + n))
        r = cpu_window(groups, args.warmup, args.window, "Comment Bar, two streams at 500 comments/s each, filters on")
        save_shot(obs, os.path.join(work, "scene-two_streams.png"))
        r["events_sent"] = sum(f.stop() for f in feeders)
        feeders = []
        rp = renderer_pids(obs)
        r["renderer_hwm_kib"] = max([procstat.status_kib(p, "VmHWM") or 0 for p in rp] or [0]) or None
        results["cpu"]["two_streams_1000"] = r
    finally:
        for f in feeders:
            f.stop()
        obs.remove_input("Comment Bar")
        for s in servers:
            s.close()


def phase_image_cpu(obs, work, args, results, groups):
    """Control: a still image of the bar, same size, as OBS's own image source: what showing (compositing)
    a 1280x360 layer costs in this OBS, with no updates at all."""
    exe = args.renderer
    png = os.path.join(work, "bar-still.png")
    p = subprocess.run([exe, "render", "--service", "demo", "--stream", "demo", "--at", "20", "--out", png],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0 or not os.path.exists(png):
        raise RuntimeError(f"commentbar render failed: {p.stderr.strip()[:300]}")
    obs.create_input("Bar still", "image_source", {"file": png})
    try:
        r = cpu_window(groups, args.warmup, args.window, "control: still image of the bar (image source)")
        save_shot(obs, os.path.join(work, "scene-image_still.png"))
    finally:
        obs.remove_input("Bar still")
    results["cpu"]["image_still"] = r


def chromium_binary():
    for b in ["chromium", "chromium-browser"]:
        p = shutil.which(b)
        if p:
            return p
    return None


class DevTools:
    """Chromium's DevTools protocol on loopback, for the page target: set its viewport, check what it shows."""

    def __init__(self, profile):
        import urllib.request
        deadline = time.monotonic() + 20
        port = None
        while time.monotonic() < deadline and port is None:
            try:
                with open(os.path.join(profile, "DevToolsActivePort")) as f:
                    port = int(f.readline())
            except (OSError, ValueError):
                time.sleep(0.2)
        if port is None:
            raise RuntimeError("chromium wrote no DevToolsActivePort")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as resp:
            targets = json.load(resp)
        page = next(t for t in targets if t.get("type") == "page")
        path = page["webSocketDebuggerUrl"].split(str(port), 1)[1]
        self.conn = wsloop.Client(f"ws://127.0.0.1:{port}{path}")
        self.next_id = 0

    def call(self, method, params=None):
        self.next_id += 1
        i = self.next_id

        def reply_to_this(text):
            m = json.loads(text)
            return m if m.get("id") == i else None
        m = self.conn.ask(json.dumps({"id": i, "method": method, "params": params or {}}), reply_to_this)
        if "error" in m:
            raise RuntimeError(f"{method}: {m['error']}")
        return m.get("result", {})

    def check(self, png_path):
        """How many chat lines the page shows, and a screenshot of it."""
        import base64
        ev = self.call("Runtime.evaluate", {"expression": "[document.querySelectorAll('.line').length, "
                                            "(document.querySelector('.line:last-child')||{}).textContent]",
                                            "returnByValue": True})
        shot = self.call("Page.captureScreenshot", {"format": "png"})
        if shot.get("data"):
            with open(png_path, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        value = ev.get("result", {}).get("value") or [0, None]
        return {"lines_shown": value[0], "last_line": value[1], "screenshot": os.path.basename(png_path)}

    def close(self):
        self.conn.close()


def phase_chromium_cpu(obs, work, args, results, cleanup, obs_group):
    binary = chromium_binary()
    if not binary:
        results["cpu"]["chromium_10"] = {"skipped": "chromium is not installed (Debian package `chromium`)"}
        log("chromium not installed: skipped")
        return
    server = chat.ChatPageServer()
    profile = tempfile.mkdtemp(prefix="chromium-", dir=work)
    logf = open(os.path.join(work, "chromium.log"), "w")
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    proc = subprocess.Popen(
        [binary, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,360",
         "--force-device-scale-factor=1", f"--user-data-dir={profile}", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
         "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
         "--disable-backgrounding-occluded-windows", "--remote-debugging-port=0",
         f"http://127.0.0.1:{server.port}/"],
        stdout=logf, stderr=subprocess.STDOUT, start_new_session=True, env=env,
        preexec_fn=die_with_parent())

    def stop():
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        logf.close()
        server.close()
    cleanup.add("chromium", stop)
    try:
        if not wait_for(lambda: server.client_count() > 0, 30):
            raise RuntimeError("headless chromium did not open the chat page's event stream in 30 s")
        devtools = DevTools(profile)
        cleanup.add("devtools", devtools.close)
        # the viewport of a 1280x360 browser source (headless windows lose height to browser UI)
        devtools.call("Emulation.setDeviceMetricsOverride",
                      {"width": 1280, "height": 360, "deviceScaleFactor": 1, "mobile": False})
        time.sleep(2.0)  # let start-up work settle
        feeder = chat.Feeder(server.emit, args.rate, limit=args.warmup + args.window + 10)
        groups = [obs_group, procstat.Group("chromium", lambda: procstat.pids_where(procstat.STAT_SESSION, proc.pid), memory="pss")]
        try:
            r = cpu_window(groups, args.warmup, args.window, "headless Chromium chat page, 10 lines/s")
        finally:
            sent = feeder.stop()
        r["events_sent"] = sent
        r["processes"] = len(r["groups"]["chromium"]["pids"])
        try:
            r["check"] = devtools.check(os.path.join(work, "chromium-page.png"))
        except Exception as e:  # a check, not a measure: report and go on
            r["check"] = {"error": str(e)}
        log(f"  chromium page check: {r['check']}")
        try:
            r["version"] = subprocess.run([binary, "--version"], capture_output=True, text=True,
                                          timeout=20).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            pass
        results["cpu"]["chromium_10"] = r
    finally:
        stop()
        cleanup.remove(stop)


def phase_text_latency(obs, work, args, results):
    path = os.path.join(work, "chat-latency.txt")
    lines = chat.Lines(seed=11)
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(6):
            f.write(chat.text_line(lines.next()) + "\n")
    obs.create_input("Chat log", TEXT_KIND, text_settings(path))
    time.sleep(2.0)  # the first read of the file, before the mask of still pixels is learnt
    try:
        def write(i):
            with open(path, "a", encoding="utf-8") as f:
                t = time.monotonic()
                f.write(f"probe{i:03d}: {chat.text_line(lines.next())}\n")
            return t
        r = shots.latency(obs, SCENE, write, args.probes, timeout=6.0, jitter=1.0, log=log,
                          label="Text (FreeType 2)")
    finally:
        obs.remove_input("Chat log")
    results["latency"]["text"] = r


# Probes of the legs: each costs a few hundred milliseconds, no screenshots.
LEG_PROBES = 100


def phase_bar_latency(obs, work, args, results):
    server = wsloop.Server()
    lines = chat.Lines(seed=13)
    try:
        start_bar(obs, server)
        time.sleep(2.0)

        def write(i):
            line = lines.next()
            line["id"] = f"probe{i}"
            line["text"] = f"probe {i:03d} {line['text']}"
            msg = chat.comment_event(line)
            t = time.monotonic()
            server.broadcast(msg)
            return t
        r = shots.latency(obs, SCENE, write, args.probes, timeout=3.0, jitter=0.3, log=log,
                          label="Comment Bar")
        results["latency"]["bar"] = r
        # The same way in legs, fine to a microsecond: the pool's latency probe (issue 49).
        # (New ids: a probe's id again would be an edit of the earlier row.)
        probe = latency_legs.find_pool(obs.pid)
        results["latency"]["legs"] = latency_legs.measure(probe, lambda i: write(1000 + i), args.leg_probes,
                                                          "Comment Bar, legs", log)

        # the same, while the chat flows at 10 comments/s: probes are told apart by their magenta name
        def write_marked(i):
            line = lines.next()
            line.update(id=f"marked{i}", user="PROBE", color="#ff00ff", text=f"probe {i:03d} {line['text']}")
            msg = chat.comment_event(line)
            t = time.monotonic()
            server.broadcast(msg)
            return t
        feeder = chat.Feeder(lambda line: server.broadcast(chat.comment_event(line)), args.rate,
                             limit=args.probes * 6 + 10, seed=17)
        try:
            time.sleep(1.0)
            results["latency"]["bar_loaded"] = shots.latency_marked(
                obs, SCENE, write_marked, args.probes, timeout=3.0, jitter=0.3, log=log,
                label=f"Comment Bar among {args.rate} comments/s")
        finally:
            feeder.stop()
        feeder = chat.Feeder(lambda line: server.broadcast(chat.comment_event(line)), args.rate,
                             limit=args.leg_probes + 10, seed=19)
        try:
            time.sleep(1.0)
            results["latency"]["legs_loaded"] = latency_legs.measure(
                probe, lambda i: write_marked(1000 + i), args.leg_probes, f"Comment Bar among {args.rate} comments/s, legs", log,
                quiet_since=lambda: feeder.last_emit)
        finally:
            feeder.stop()
            probe.close()
    finally:
        obs.remove_input("Comment Bar")
        server.close()


FRAME_COST_RUNS = 3


def median_rows(runs):
    """`commentbar bench --json`'s rows (one a frame size) from several runs: each number the runs'
    median, anything else the first run's."""
    rows = []
    for index, first in enumerate(runs[0]):
        row = dict(first)
        for key, value in first.items():
            values = [run[index].get(key) for run in runs if index < len(run)]
            if isinstance(value, (int, float)) and not isinstance(value, bool) and all(
                    isinstance(v, (int, float)) for v in values):
                row[key] = statistics.median(values)
        rows.append(row)
    return rows


def phase_frame_costs(args, results):
    exe = args.renderer
    if not exe or not os.path.exists(exe):
        results["frame_costs"] = {"skipped": f"renderer {exe} not built"}
        return
    try:
        # Three runs, each figure their median: one run's figures all move together when the
        # machine slows for a moment (a 1.7x slower "unchanged" frame in one run).
        runs = []
        for _ in range(FRAME_COST_RUNS):
            p = subprocess.run([exe, "bench", "--json"], capture_output=True, text=True, timeout=180)
            data = json.loads(p.stdout)
            if not isinstance(data, list) or not data:
                raise ValueError("expected a non-empty JSON list")
            runs.append(data)
        results["frame_costs"] = {"rows": median_rows(runs), "runs": len(runs)}
        log(f"frame costs: {len(runs[0])} sizes, median of {len(runs)} runs")
    except (OSError, subprocess.TimeoutExpired, ValueError) as e:
        results["frame_costs"] = {"skipped": f"`commentbar bench --json` gave no usable JSON: {e}"}
        log(results["frame_costs"]["skipped"])
    try:
        p = subprocess.run([exe, "bench-parsers", "--json"], capture_output=True, text=True, timeout=180)
        results["parsers"] = json.loads(p.stdout)
        log(f"parsers: {results['parsers']}")
    except (OSError, subprocess.TimeoutExpired, ValueError) as e:
        results["parsers"] = {"skipped": f"`commentbar bench-parsers --json` gave no usable JSON: {e}"}
    # The comment flow (issue 21): pacing on vs off at 10 comments/s, and an idle bar's frames.
    try:
        p = subprocess.run([sys.executable, os.path.join(HERE, "flow_cpu.py"), "--renderer", exe, "--json"],
                           capture_output=True, text=True, timeout=300)
        results["flow"] = json.loads(p.stdout)
        log(f"flow: {results['flow']}")
    except (OSError, subprocess.TimeoutExpired, ValueError) as e:
        results["flow"] = {"skipped": f"flow_cpu.py gave no usable JSON: {e}"}
    # The viewer memory (issue 29) and the control server (issue 30), from their own benchmarks.
    results["viewer_memory"] = json_of("commentbar bench-memory", [exe, "bench-memory", "--json",
                                       "--folder", args.out], timeout=900)
    # The bar while the control page searches a 200,000-row log and changes viewers of a locked one (issue 37).
    results["memory_freeze"] = json_of("Tests/memory/memory_freeze_test.py", [
        sys.executable, os.path.join(HERE, "..", "memory", "memory_freeze_test.py"), "--json"],
        timeout=600, env={**os.environ, "COMMENTBAR_BIN": os.path.abspath(exe)})
    results["control"] = json_of("Tests/control/bench_control.py", [
        sys.executable, os.path.join(HERE, "..", "control", "bench_control.py"), "20", "--json"],
        timeout=300, env={**os.environ, "COMMENTBAR_BIN": os.path.abspath(exe)})


def json_of(name, command, timeout, env=None):
    """The JSON object the last `{` line of `command`'s output holds, or why there is none."""
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
        lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
        if p.returncode != 0 or not lines:
            raise ValueError(f"exit {p.returncode}, {p.stderr.strip()[-300:]}")
        data = json.loads(lines[-1])
        log(f"{name}: {data}")
        return data
    except (OSError, subprocess.TimeoutExpired, ValueError) as e:
        log(f"{name} gave no usable JSON: {e}")
        return {"skipped": f"{name} gave no usable JSON: {e}"}


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=".build-bench-run", help="run folder (results.json, logs)")
    ap.add_argument("--home", help="XDG_CONFIG_HOME for OBS (default: OUT/home); the plugin may be installed there")
    ap.add_argument("--renderer", default=".build/release/commentbar")
    ap.add_argument("--plugin", help="the built module (comment-bar.so), staged for OBS in OUT")
    ap.add_argument("--data", help="its data folder (plugin/data)")
    ap.add_argument("--window", type=float, default=20.0, help="seconds of each CPU window")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--rate", type=int, default=10, help="comments a second")
    ap.add_argument("--probes", type=int, default=30, help="latency probes per source")
    ap.add_argument("--leg-probes", type=int, default=LEG_PROBES, help="the pool probe's latency probes, alone and among 10/s")
    ap.add_argument("--only", default="", help="comma list of phases to run (empty,text,bar,two-streams,mic,image,chromium,latency-text,"
                                              "latency-bar,frames); default all")
    ap.add_argument("--no-bar", action="store_true", help="skip every Comment Bar phase")
    ap.add_argument("--command", default="make bench", help="how this run was started, for the page")
    ap.add_argument("--deadline", type=float, default=900.0, help="abort after this many seconds (the run takes about 10 minutes)")
    args = ap.parse_args()

    only = set(filter(None, args.only.split(",")))

    def want(p):
        if args.no_bar and p in ("bar", "latency-bar"):
            return False
        return not only or p in only

    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="run-", dir=out)
    home = os.path.abspath(args.home) if args.home else os.path.join(work, "home")
    os.makedirs(home, exist_ok=True)

    cleanup = Cleanup()

    def on_signal(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
        signal.signal(s, on_signal)
    signal.alarm(int(args.deadline))

    t_begin = time.monotonic()
    results = {
        "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": args.command,
        "settings": {"window_s": args.window, "warmup_s": args.warmup, "rate": args.rate,
                     "probes": args.probes, "canvas": "1280x720", "fps": 30, "preview": False},
        "machine": machine_info(),
        "cpu": {}, "latency": {}, "errors": [],
    }
    ok = True
    try:
        xvfb = Xvfb(work, 1920, 1080)
        cleanup.add("Xvfb", xvfb.stop)
        log(f"Xvfb on {xvfb.display}")
        env_extra = {}
        if args.plugin:
            env_extra.update(stage_plugin(out, args.plugin, args.data))
            # The staged plugin finds no renderer beside it: the one measured is named to OBS
            # (support.obs.environment leaves out this process's own COMMENTBAR_RENDERER).
            if args.renderer:
                env_extra["COMMENTBAR_RENDERER"] = os.path.abspath(args.renderer)
        t = time.monotonic()
        obs = OBS(home, xvfb.display, work, env_extra)
        cleanup.add("OBS", obs.stop)
        results["obs_start_s"] = time.monotonic() - t
        ver = obs.request("GetVersion")
        results["machine"]["obs"] = ver.get("obsVersion")
        results["machine"]["obs_websocket"] = ver.get("obsWebSocketVersion")
        results["video"] = obs.request("GetVideoSettings")
        kinds = obs.request("GetInputKindList").get("inputKinds", [])
        bar_ok = BAR_KIND in kinds
        results["bar_available"] = bar_ok
        if not bar_ok:
            log(f"OBS has no `{BAR_KIND}` input kind: the plugin did not load; Comment Bar phases skipped")
            if not args.no_bar:
                ok = False
                results["errors"].append(f"the plugin did not load (no `{BAR_KIND}` in OBS): Comment Bar not measured")
        log(f"OBS {ver.get('obsVersion')} pid {obs.pid} up in {results['obs_start_s']:.1f} s")

        obs_group = procstat.Group("obs", lambda: [obs.pid])

        def groups_for(renderer_finder=None):
            g = [obs_group]
            if renderer_finder:
                g.append(procstat.Group("renderer", renderer_finder, pss_too=True))
            return g

        def phase(name, fn, *a):
            nonlocal ok
            try:
                fn(*a)
            except KeyboardInterrupt:
                raise
            except Exception as e:
                ok = False
                msg = f"{name}: {e}"
                results["errors"].append(msg)
                log("FAILED " + msg)
                traceback.print_exc()
                if obs.proc.poll() is not None:
                    raise RuntimeError(f"OBS exited ({obs.proc.returncode}) during {name}")

        time.sleep(2.0)  # start-up settles
        if want("empty"):
            phase("empty (start)", lambda: results["cpu"].__setitem__(
                "empty_start", cpu_window(groups_for(), 0, args.window, "empty scene (start)")))
        if want("text"):
            phase("text", phase_text_cpu, obs, work, args, results, groups_for())
        if want("bar") and bar_ok:
            phase("bar", phase_bar_cpu, obs, work, args, results, groups_for)
        if want("two-streams") and bar_ok:
            phase("two streams", phase_two_streams_cpu, obs, work, args, results, groups_for)
        if want("mic") and bar_ok:
            phase("mic", phase_mic_cpu, obs, work, args, results, groups_for)
        if want("image") and os.path.exists(args.renderer or ""):
            phase("image", phase_image_cpu, obs, work, args, results, groups_for())
        if want("chromium"):
            phase("chromium", phase_chromium_cpu, obs, work, args, results, cleanup, obs_group)
        if want("empty"):
            phase("empty (end)", lambda: results["cpu"].__setitem__(
                "empty_end", cpu_window(groups_for(), 2.0, args.window, "empty scene (end)")))
        if want("latency-text"):
            phase("latency-text", phase_text_latency, obs, work, args, results)
        if want("latency-bar") and bar_ok:
            phase("latency-bar", phase_bar_latency, obs, work, args, results)
        results["obs_log_facts"] = obs_log_facts(obs.log_path())
        rc = obs.stop()
        cleanup.remove(obs.stop)
        results["obs_exit"] = rc
        if rc not in (0, None):
            ok = False
            results["errors"].append(f"OBS exited with status {rc}")
        log_copy = os.path.join(out, "obs-last.log")
        if obs.log_path():
            shutil.copy(obs.log_path(), log_copy)
        if want("frames"):
            phase_frame_costs(args, results)
    except KeyboardInterrupt as e:
        ok = False
        results["errors"].append(f"interrupted: {e or 'deadline or Ctrl-C'}")
        log(f"interrupted: {e}")
    except Exception as e:
        ok = False
        results["errors"].append(str(e))
        log(f"FAILED: {e}")
        traceback.print_exc()
    finally:
        signal.alarm(0)
        cleanup.run()
    results["duration_s"] = time.monotonic() - t_begin
    path = os.path.join(out, "results.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)
    log(f"wrote {path} after {results['duration_s']:.0f} s{'' if ok else ' (with errors)'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
