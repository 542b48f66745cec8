#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the doors cost the renderer (issue 39): `commentbar serve` on a memfd pool (made as the
shim makes it) reading a loopback WebSocket chat at 10 comments/s, its CPU (% of one core) with
the doors off, then with all three on: every comment a Streamer.bot action (`comment=Log`, to a
fake HTTP server on loopback), the OneComme server with one `/sub` page reading, and comment.xml.
Each phase alternates twice, so a busy machine's noise shows. Prints figures; asserts nothing.

    COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/bench/doors_bench.py [--seconds 60] \\
        [--page docs/benchmarks.md]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import threading

from chat import Lines
from page_section import previous_cells, write_section
from renderer_rss import make_pool, private_xdg, stop_renderer
from support import websocket as ws_support
from support.processes import free_port

BEGIN = "<!-- doors-bench: written by Tests/bench/doors_bench.py -->"
END = "<!-- /doors-bench -->"
RATE = 10
# Seconds after its start by which the renderer has let start-up's code go (RendererMemory.releaseAfterSeconds).
STARTUP_RELEASED = 62
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def wake_ups(pid):
    """Times the renderer's threads went to sleep and were woken (each costs a switch in and out)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as status:
                total += sum(int(line.split()[1]) for line in status if line.startswith("voluntary_ctxt_switches"))
        except OSError:
            pass  # a thread that ended meanwhile
    return total


class ActionSink:
    """Streamer.bot's HTTP server, as the doors' tests fake it: counts the DoActions, answers 204."""

    def __init__(self):
        sink = self
        self.count = 0

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keeps the connection open, as Streamer.bot's server does

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                sink.count += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--renderer", default=os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--page")
    parser.add_argument("--rate", type=float, default=RATE, help="comments a second (above 10 only to profile: the row is at 10)")
    parser.add_argument("--doors", default="actions,onecomme,xml", help="which doors the 'on' phase opens")
    parser.add_argument("--rules", default="comment=Log",
                        help="the actions' rules, comma-separated (comment=Log: every comment an action, the worst case)")
    args = parser.parse_args()
    chosen = set(args.doors.split(","))
    if args.page and args.rate != RATE:
        parser.error(f"--page writes the row at {RATE} comments/s; --rate is for profiling")

    chat = ws_support.Server()
    sink = ActionSink()
    port = free_port()
    xml_folder = tempfile.mkdtemp(prefix="commentbar-doors-bench.")
    fd, _header = make_pool(1280, 360)
    env, home = private_xdg(os.environ)
    started = time.monotonic()
    proc = subprocess.Popen([args.renderer, "serve", "--pool-fd", str(fd)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=[fd], env=env)
    os.close(fd)
    base = {"width": 1280, "height": 360, "service": "websocket", "stream_id": "bench", "remember": True,
            "server": f"ws://127.0.0.1:{chat.port}/chat"}
    doors = {}
    if "actions" in chosen:
        doors.update({"actions_target": f"http://127.0.0.1:{sink.port}/DoAction", "actions": [{"value": rule} for rule in args.rules.split(",")],
                      "actions_per_second": max(100, int(args.rate) * 2)})
    if "onecomme" in chosen:
        doors.update({"onecomme": True, "onecomme_port": port})
    if "xml" in chosen:
        doors["comment_xml_path"] = os.path.join(xml_folder, "comment.xml")

    def settings(values):
        proc.stdin.write((json.dumps({"settings": values}) + "\n").encode())
        proc.stdin.flush()

    settings(base)
    proc.stdin.write(b'{"active":true}\n')
    proc.stdin.flush()
    while not chat.client_count():
        time.sleep(0.05)
    lines = Lines()

    wakes = {"off": [], "on": []}

    def run(seconds, phase=None):
        start, start_cpu, start_wakes, sent = time.monotonic(), cpu_seconds(proc.pid), wake_ups(proc.pid), 0
        while time.monotonic() - start < seconds:
            chat.broadcast(json.dumps({"type": "comment", **lines.next()}))
            sent += 1
            time.sleep(max(0.0, start + sent / args.rate - time.monotonic()))
        if phase:
            wakes[phase].append((wake_ups(proc.pid) - start_wakes) / sent)
        return (cpu_seconds(proc.pid) - start_cpu) / (time.monotonic() - start) * 100

    page = None
    results = {"off": [], "on": []}
    try:
        # The renderer lets start-up's code go 2 s and 60 s after it starts (RendererMemory), and
        # what it still runs faults back in: a one-off cost that would land in one phase.
        run(max(3.0, STARTUP_RELEASED - (time.monotonic() - started)))
        for _ in range(2):
            settings(base)
            if page:
                page.close()
                page = None
            time.sleep(1)
            results["off"].append(run(args.seconds / 2, "off"))
            settings({**base, **doors})
            time.sleep(1)
            if "onecomme" in chosen:
                page = ws_support.Client(f"ws://127.0.0.1:{port}/sub?p=comments,deleted", origin=f"http://127.0.0.1:{port}")
            run(1)
            results["on"].append(run(args.seconds / 2, "on"))
    finally:
        if page:
            page.close()
        stop_renderer(proc)
        chat.close()
        sink.server.shutdown()
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(xml_folder, ignore_errors=True)
    off = sum(results["off"]) / len(results["off"])
    on = sum(results["on"]) / len(results["on"])
    print(f"renderer CPU at {args.rate:g} comments/s, doors off: {off:.2f} % of a core ({', '.join(f'{v:.2f}' for v in results['off'])})")
    print(f"renderer CPU at {args.rate:g} comments/s, all three doors on: {on:.2f} % ({', '.join(f'{v:.2f}' for v in results['on'])})")
    print(f"added by the doors: {on - off:+.2f} % of a core; {sink.count} actions received")
    wakes_off, wakes_on = (sum(wakes[phase]) / len(wakes[phase]) for phase in ("off", "on"))
    print(f"threads woken per comment: {wakes_off:.1f} doors off, {wakes_on:.1f} on ({wakes_on - wakes_off:+.1f})")
    if args.page:
        before = previous_cells(args.page, BEGIN, END)
        text = "\n".join([
            BEGIN,
            "## The doors to other tools (issue 39)",
            "",
            f"`make bench-doors` (Tests/bench/doors_bench.py): the renderer reading a loopback chat at {RATE} comments/s, "
            f"{args.seconds:.0f} s per setting in two alternating halves; \"on\" is every comment a Streamer.bot action "
            "(HTTP, to a loopback fake), the OneComme server with one `/sub` page reading, and comment.xml. The phases "
            f"begin once the renderer has let its start-up code go ({STARTUP_RELEASED} s after it started), a one-off "
            "cost that would otherwise fall in one of them. The target: at most 0.5 % of a core added.",
            "",
            "| | renderer CPU (% of one core) | the run before |",
            "|---|---|---|",
            f"| doors off | {off:.2f} | {before.get('doors off', '–')} |",
            f"| all three doors on | {on:.2f} | {before.get('all three doors on', '–')} |",
            f"| **added by the doors** | **{on - off:+.2f}** | {before.get('added by the doors', '–')} |",
            "",
            "The target (at most +0.50) is " + ("met." if on - off <= 0.5 else "not met in this run."),
            "",
            END,
        ])
        write_section(args.page, BEGIN, END, text)


if __name__ == "__main__":
    sys.exit(main())
