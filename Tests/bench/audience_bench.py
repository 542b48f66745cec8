#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What a poll's votes cost the renderer (issue 48): `commentbar serve` on a memfd pool (made as
the shim makes it) reading three loopback JSON relays (three streams), the control server and
the viewer memory on. Floods of 10,000 comments in about one second from 5,000 viewers (each
writes twice, spread over the three streams), each flood from viewers the renderer has not seen
(the memory writes 5,000 new viewers and 10,000 new rows every time), in this order: a warm-up,
no board open (`!vote N`, which the `!command` filter keeps off the bar), a four-option poll open
(the same votes), the 参加型 queue open (`!join`), and no board open again. A vote's cost is the
poll flood's CPU minus the mean of the two floods with no board, over the votes; a join's the
same with the queue's flood. Meanwhile an ordinary comment every 100 ms on the first stream: its
way from the relay to a published frame (the pool's latency probe, docs/pool-abi.md) says whether
the frame loop kept up. The counts must be exact (1,250 per option, 5,000 voters: the first vote
stands; the queue full at its 500 places); the renderer's RSS after each flood. Prints figures
and writes them to the page with --page; the counts are checked (exit 1 if wrong).

    COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/bench/audience_bench.py \\
        [--page docs/benchmarks.md]
"""
import argparse
import asyncio
import json
import os
import shutil
import struct
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from control.relay import Relay  # noqa: E402
from page_section import previous_cells, write_section  # noqa: E402
from renderer_rss import make_pool, private_xdg, stop_renderer  # noqa: E402
from support.processes import free_port  # noqa: E402

BEGIN = "<!-- audience-bench: written by Tests/bench/audience_bench.py -->"
END = "<!-- /audience-bench -->"
VIEWERS = 5000
VOTES = 10000
OPTIONS = ["A", "B", "C", "D"]
TICKS = os.sysconf("SC_CLK_TCK")
PROBE_EVERY = 0.1


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


QUEUE_PLACES = 500


def flood_lines(stream, phase, text):
    """What goes through relay `stream` (of 3) in flood `phase`: viewer v of that flood's own 5,000 writes
    text(v, round) twice (votes: v % 4 + 1, then another)."""
    lines = []
    for round_ in range(VOTES // VIEWERS):
        for viewer in range(stream, VIEWERS, 3):
            user = f"{phase}viewer{viewer}"
            lines.append(json.dumps({"type": "comment", "id": f"{phase}r{round_}v{viewer}", "user": user,
                                     "login": user, "text": text(viewer, round_)}))
    return lines


def vote(viewer, round_):
    return f"!vote {(viewer + round_) % len(OPTIONS) + 1}"


def join(viewer, round_):
    return "!join"


def blast(relay, lines, seconds):
    """Sends `lines` to the relay's clients spread over `seconds` (in 100 steps); returns a waitable."""
    async def run():
        start = asyncio.get_running_loop().time()
        step = max(1, len(lines) // 100)
        for index in range(0, len(lines), step):
            for text in lines[index:index + step]:
                for client in list(relay.clients):
                    await client.send(text)
            due = start + seconds * (index + step) / len(lines)
            await asyncio.sleep(max(0.0, due - asyncio.get_running_loop().time()))
    return asyncio.run_coroutine_threadsafe(run(), relay.loop)


class Probes:
    """An ordinary comment every 100 ms on the first relay; each one's way to a published frame,
    read from the pool header's stamps (slot_published_ns at 280, slot_changed_ns at 304)."""

    def __init__(self, relay, header):
        self.relay, self.header = relay, header
        self.ways_ms, self.missed = [], 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def published_after(self, sent_ns):
        """The publication time of a frame showing a change applied after sent_ns, if any now."""
        published = struct.unpack_from("<3Q", self.header, 280)
        changed = struct.unpack_from("<3Q", self.header, 304)
        times = [p for p, c in zip(published, changed) if c >= sent_ns and p >= c]
        return min(times) if times else None

    def run(self):
        index = 0
        while not self.stop.is_set():
            sent = time.monotonic_ns()
            self.relay.send({"type": "comment", "id": f"probe{index}", "user": "Probe", "login": "probe",
                             "text": f"ordinary comment {index}"})
            end = sent + 2_000_000_000
            seen = None
            while seen is None and time.monotonic_ns() < end:
                seen = self.published_after(sent)
                if seen is None:
                    time.sleep(0.0005)
            if seen is None:
                self.missed += 1
            else:
                self.ways_ms.append((seen - sent) / 1e6)
            index += 1
            self.stop.wait(max(0.0, PROBE_EVERY - (time.monotonic_ns() - sent) / 1e9))

    def finish(self):
        self.stop.set()
        self.thread.join(5)


class Bar:
    def __init__(self, renderer, relays):
        self.port = free_port()
        fd, self.header = make_pool(640, 240)
        self.env, self.home = private_xdg(os.environ)
        self.proc = subprocess.Popen([renderer, "serve", "--pool-fd", str(fd)], stdin=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=[fd], env=self.env)
        os.close(fd)
        feeds = [{"value": f"ws://127.0.0.1:{relay.port}/chat"} for relay in relays]
        settings = {"width": 640, "height": 240, "service": "websocket", "feeds": feeds, "remember": True,
                    "hide_commands": True, "control": True, "control_port": self.port}
        self.proc.stdin.write((json.dumps({"settings": settings}) + "\n{\"active\":true}\n").encode())
        self.proc.stdin.flush()
        token_path = os.path.join(self.env["XDG_CONFIG_HOME"], "comment-bar", "control-token")
        deadline = time.monotonic() + 30
        while not (os.path.exists(token_path) and all(relay.clients for relay in relays)):
            if time.monotonic() > deadline:
                raise RuntimeError("the bar did not connect to the three relays and open its control port in 30 s")
            time.sleep(0.05)
        with open(token_path) as file:
            self.token = file.read().strip()

    def call(self, method, path, body=None):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"Bearer {self.token}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def stop(self):
        stop_renderer(self.proc)
        shutil.rmtree(self.home, ignore_errors=True)


def flood(bar, relays, seconds, label, phase, text=vote):
    """One flood with the probes running: CPU seconds, the flood's length, the probes, the RSS after."""
    lines = [flood_lines(stream, phase, text) for stream in range(3)]
    time.sleep(1.0)
    probes = Probes(relays[0], bar.header)
    time.sleep(0.5)
    cpu_before, started = cpu_seconds(bar.proc.pid), time.monotonic()
    for waiting in [blast(relay, part, seconds) for relay, part in zip(relays, lines)]:
        waiting.result(120)
    sent_in = time.monotonic() - started
    time.sleep(2.0)  # what is still queued is worked off
    cpu = cpu_seconds(bar.proc.pid) - cpu_before
    probes.finish()
    ways = sorted(probes.ways_ms)
    worst = ways[-1] if ways else None
    p99 = ways[min(len(ways) - 1, int(len(ways) * 0.99))] if ways else None
    print(f"{label}: {VOTES} comments sent in {sent_in:.2f} s; renderer CPU {cpu * 1000:.0f} ms over the flood and 2 s after; "
          f"ordinary comments to a published frame p99 {p99} ms, worst {worst} ms, {probes.missed} missed; "
          f"RSS {rss_kib(bar.proc.pid) / 1024:.1f} MiB", flush=True)
    return {"cpu_s": cpu, "sent_in_s": sent_in, "probe_p99_ms": p99, "probe_max_ms": worst, "probe_missed": probes.missed,
            "probes": len(ways), "rss_kib": rss_kib(bar.proc.pid)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--renderer", default=os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar"))
    parser.add_argument("--seconds", type=float, default=1.0, help="the flood's length")
    parser.add_argument("--page")
    args = parser.parse_args()
    relays = [Relay(), Relay(), Relay()]
    bar = Bar(args.renderer, relays)
    try:
        rss_before = rss_kib(bar.proc.pid)
        # The first flood after start-up pays for code and caches the others find warm: not counted.
        flood(bar, relays, args.seconds, "warm-up, no board open", "w")
        without = flood(bar, relays, args.seconds, "no board open", "a")
        poll = bar.call("POST", "/api/poll", {"question": "Which one?", "options": OPTIONS})
        assert poll.get("open"), poll
        with_poll = flood(bar, relays, args.seconds, "a poll open", "p")
        poll = bar.call("POST", "/api/poll/close", {})
        queue = bar.call("POST", "/api/queue/open", {"capacity": QUEUE_PLACES})
        assert queue.get("open"), queue
        with_queue = flood(bar, relays, args.seconds, "the queue open", "q", join)
        queue = bar.call("GET", "/api/queue")
        bar.call("POST", "/api/queue/close", {})
        without_again = flood(bar, relays, args.seconds, "no board open, again", "b")
    finally:
        bar.stop()
        for relay in relays:
            relay.close()
    counts = [option["votes"] for option in poll["options"]]
    places = len(queue.get("waiting", []))
    exact = counts == [VIEWERS // len(OPTIONS)] * len(OPTIONS) and poll.get("voters") == VIEWERS and places == QUEUE_PLACES
    baseline = (without["cpu_s"] + without_again["cpu_s"]) / 2
    per_vote_us = (with_poll["cpu_s"] - baseline) / VOTES * 1e6
    per_join_us = (with_queue["cpu_s"] - baseline) / VOTES * 1e6
    print(f"a vote costs {per_vote_us:.1f} µs and a join {per_join_us:.1f} µs of the renderer's CPU (the board's flood minus "
          f"the mean of the two with none, per comment); counts {counts}, voters {poll.get('voters')}, "
          f"{places} waiting: {'exact' if exact else 'WRONG'}; RSS {rss_before / 1024:.1f} MiB before, "
          f"{without_again['rss_kib'] / 1024:.1f} MiB after", flush=True)
    if args.page:
        write_page(args.page, [without, with_poll, with_queue, without_again], per_vote_us, per_join_us, counts,
                   poll.get("voters"), places, exact, rss_before)
    return 0 if exact else 1


def write_page(page, floods, per_vote_us, per_join_us, counts, voters, places, exact, rss_before):
    without, with_poll, with_queue, without_again = floods
    before = previous_cells(page, BEGIN, END)

    def row(label, value):
        return f"| {label} | {value} | {before.get(label, '–')} |"

    def way(result):
        if result["probe_p99_ms"] is None:
            return "none seen"
        return f"p99 {result['probe_p99_ms']:.1f}, worst {result['probe_max_ms']:.1f} ({result['probes']} comments, {result['probe_missed']} missed)"
    lines = [
        BEGIN,
        "## A poll's votes (issue 48)",
        "",
        f"`Tests/bench/audience_bench.py` (`make bench-audience`, in `make bench`): the renderer reading three loopback JSON "
        f"relays (three streams of the relay protocol) with the viewer memory and the control server on; floods of "
        f"{VOTES:,} comments sent over about one second by {VIEWERS:,} viewers new to the renderer (each writes twice), after "
        f"a warm-up flood: with no board open (`!vote N`, kept off the bar by the `!command` filter), with a four-option poll "
        f"open (the same votes; the first vote stands), with the 参加型 queue open (`!join`: {QUEUE_PLACES} places, the API's "
        f"most, so the first {QUEUE_PLACES} join and the other joins are refused as full or already in), and with "
        f"no board again. A vote's or a join's cost is its flood's CPU minus the mean of the two floods with no board, per "
        f"comment. An ordinary comment every 100 ms meanwhile, timed from the relay to the frame that first shows it (the "
        f"pool's latency probe). Targets: at most 20 µs of the renderer's CPU per vote or join, exact counts, no frame later "
        f"than 50 ms, memory bounded.",
        "",
        "| | this run | the run before |",
        "|---|---|---|",
        row("a vote's cost (the poll's flood minus no board's, per vote)", f"{per_vote_us:.1f} µs"),
        row("a join's cost (the queue's flood minus no board's, per join)", f"{per_join_us:.1f} µs"),
        row("renderer CPU over each flood and 2 s after: no board, poll, queue, no board (ms)",
            ", ".join(f"{flood['cpu_s'] * 1000:.0f}" for flood in floods)),
        row("the floods' length (sent by the relays, s)", ", ".join(f"{flood['sent_in_s']:.2f}" for flood in floods)),
        row("counts per option, voters; waiting in the queue", f"{counts}, {voters}; {places}: {'exact' if exact else 'wrong'}"),
        row("an ordinary comment to its frame during the flood, no board (ms)", way(without)),
        row("an ordinary comment to its frame during the flood, a poll open (ms)", way(with_poll)),
        row("an ordinary comment to its frame during the flood, the queue open (ms)", way(with_queue)),
        row("renderer RSS before, then after each flood (MiB)",
            f"{rss_before / 1024:.1f}; " + ", ".join(f"{flood['rss_kib'] / 1024:.1f}" for flood in floods)),
        "",
        "Each flood costs the renderer about a second of CPU (the feed's decoding, the filters, the memory writing "
        "5,000 new viewers and 10,000 rows); a vote's or a join's cost is a difference of such windows, so it moves by "
        "some µs from run to run. An ordinary comment waits behind the comments sent before it on its stream, so its "
        "way to the screen during a flood is the flood's backlog, with or without a board. The RSS after each flood "
        "says whether the floods' new viewers keep the memory growing.",
        "",
        END,
    ]
    write_section(page, BEGIN, END, "\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
