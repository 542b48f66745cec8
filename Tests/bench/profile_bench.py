#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where the renderer's time goes at 10 comments/s (issue 49), before any change is made for it:
`commentbar serve` on a memfd pool (as the shim makes it) reading a loopback WebSocket chat at 10
comments/s with the viewer memory on, sampled by Debian's `perf record -g` (cpu-clock, 4 kHz) for
`--seconds`; `perf report` then gives each part of a comment's path its share of the renderer's
samples, inclusive of what it calls (so those shares overlap: a row's text is made inside its
frame), and the C libraries' and the kernel's own time. Prints the figures; with --page writes them in docs/benchmarks.md. Asserts nothing.

    COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/bench/profile_bench.py [--seconds 40] \\
        [--page docs/benchmarks.md]
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from chat import Lines
from doors_bench import cpu_seconds
from page_section import previous_cells, write_section
from renderer_rss import make_pool, private_xdg, stop_renderer
from support import websocket as ws_support

BEGIN = "<!-- profile-bench: written by Tests/bench/profile_bench.py -->"
END = "<!-- /profile-bench -->"
RATE = 10
# Each part of a comment's path, and the Swift symbols whose samples, with what they call, are that
# part (Swift's mangled names hold the module and type names as text). Inclusive shares need the
# callers' frames, which the Swift code keeps; the C libraries (Pango, HarfBuzz, Cairo, pixman,
# FreeType, SQLite, glibc) are built without frame pointers, so they are summed by their own time.
INCLUSIVE = [
    ("frames: Renderer.render (a new row's frame, the clock's ticks)", r"CommentBarRender0B8RendererC6render"),
    ("a row's text made: RowText (markup, emotes, badges)", r"CommentBarRender7RowTextV_"),
    ("the feed's task: WebSocket read, JSON decoding, and the hand-over below", r"JSONWebSocketPlatform0aB4FeedV3run"),
    ("the session, within it: a comment applied to the bar and its parts", r"SessionC8received"),
    ("the frame loop, the waits and wake-ups included", r"SessionC9frameLoop"),
]
SELF = [
    ("own time in Pango, HarfBuzz, Cairo, pixman, FreeType, fontconfig", r"^_?(pango|hb|cairo|pixman|FT|Fc|fc|af|tt|ps|cff)_", "."),
    ("own time in SQLite (the viewer memory)", r"^sqlite3", "."),
    ("own time in the Swift runtime (retain/release, metadata, casts)", r"^_?swift|^__swift|tryCast|getCache", "."),
    ("own time in malloc, free and memmove", r"malloc|^cfree|^free|memmove|memcpy|^_int_", "."),
    ("own time in the kernel (system calls, scheduling)", r".", "k"),
]


def perf_shares(data, children):
    """(symbol, kind '.' or 'k') -> % of the samples: inclusive (`children`) or the symbol's own."""
    report = subprocess.run(["perf", "report", "-i", data, "--children" if children else "--no-children", "--sort", "sym",
                             "--stdio", "-g", "none"], capture_output=True, text=True, check=True).stdout
    shares = {}
    pattern = r"\s+([\d.]+)%\s+[\d.]+%\s+\[([.k])\]\s+(\S+)" if children else r"\s+([\d.]+)%\s+\[([.k])\]\s+(\S+)"
    for line in report.splitlines():
        match = re.match(pattern, line)
        if match:
            shares.setdefault((match.group(3), match.group(2)), float(match.group(1)))
    return shares


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--renderer", default=os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--page")
    args = parser.parse_args()
    if not shutil.which("perf"):
        raise SystemExit("profile_bench: perf is not installed (Debian's linux-perf)")

    chat = ws_support.Server()
    fd, _header = make_pool(1280, 360)
    env, home = private_xdg(os.environ)
    work = tempfile.mkdtemp(prefix="commentbar-profile.")
    data = os.path.join(work, "perf.data")
    proc = subprocess.Popen([args.renderer, "serve", "--pool-fd", str(fd)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=[fd], env=env)
    os.close(fd)
    settings = {"width": 1280, "height": 360, "service": "websocket", "stream_id": "bench", "remember": True,
                "server": f"ws://127.0.0.1:{chat.port}/chat"}
    proc.stdin.write((json.dumps({"settings": settings}) + "\n" + '{"active":true}\n').encode())
    proc.stdin.flush()
    while not chat.client_count():
        time.sleep(0.05)
    lines = Lines()

    def send_for(seconds):
        start, sent = time.monotonic(), 0
        while time.monotonic() - start < seconds:
            chat.broadcast(json.dumps({"type": "comment", **lines.next()}))
            sent += 1
            time.sleep(max(0.0, start + sent / RATE - time.monotonic()))
        return sent

    try:
        send_for(3)
        perf = subprocess.Popen(["perf", "record", "-F", "4000", "-g", "-p", str(proc.pid), "-o", data],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        start, start_cpu = time.monotonic(), cpu_seconds(proc.pid)
        sent = send_for(args.seconds)
        cpu = (cpu_seconds(proc.pid) - start_cpu) / (time.monotonic() - start) * 100
        perf.send_signal(signal.SIGINT)
        perf.wait(timeout=30)
        inclusive, own = perf_shares(data, True), perf_shares(data, False)
    finally:
        stop_renderer(proc)
        chat.close()
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)

    rows = []
    for label, pattern in INCLUSIVE:
        found = [share for (symbol, _kind), share in inclusive.items() if re.search(pattern, symbol)]
        rows.append((label, max(found) if found else 0.0))
    for label, pattern, kind in SELF:
        rows.append((label, sum(share for (symbol, found), share in own.items() if found == kind and re.search(pattern, symbol))))
    print(f"renderer profile at {RATE} comments/s, {sent} comments, {args.seconds:.0f} s, {cpu:.2f} % of a core "
          "(perf's sampling included); share of its samples:")
    for label, share in rows:
        print(f"  {share:5.1f} %  {label}")
    if args.page:
        before = previous_cells(args.page, BEGIN, END)
        text = "\n".join([
            BEGIN,
            "## Where the renderer's time goes at 10 comments/s (issue 49)",
            "",
            f"`Tests/bench/profile_bench.py` (in `make bench`): the renderer reading a loopback chat at {RATE} comments/s "
            f"with the viewer memory on, sampled by `perf record -g` (cpu-clock, 4 kHz) for {args.seconds:.0f} s; each "
            "part's share of the renderer's samples: the Swift parts inclusive of what they call (they overlap: a row's "
            "text is made inside its frame), the C libraries and the kernel by their own time (they are built without "
            "frame pointers, so their callers cannot be told). The renderer used "
            f"{cpu:.2f} % of a core meanwhile, perf's sampling included.",
            "",
            "| part | share of the renderer's samples (%) | the run before |",
            "|---|---|---|",
            *[f"| {label} | {share:.1f} | {before.get(label, '–')} |" for label, share in rows],
            "",
            END,
        ])
        write_section(args.page, BEGIN, END, text)


if __name__ == "__main__":
    main()
