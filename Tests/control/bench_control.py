#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the control server costs (issue 30): `commentbar serve` reading a loopback relay at
10 comments/s, with the control page off, then on with one page open in headless chromium.
Prints figures (CPU as % of one core, threads, listening sockets); asserts nothing about speed.

    PYTHONPATH=Tests COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 Tests/control/bench_control.py [SECONDS] [--json]

--json prints the figures as one JSON object instead (`make bench` writes them into docs/benchmarks.md)."""
import json
import os
import subprocess
import sys
import tempfile
import time

from control.test_control_page import BIN, QUIET, Relay, ServedBar, browser, free_port, listening

RATE = 10
AS_JSON = "--json" in sys.argv[1:]
ARGS = [arg for arg in sys.argv[1:] if arg != "--json"]
SECONDS = float(ARGS[0]) if ARGS else 30
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid, task=None):
    """User + system CPU time of a process (or one of its threads)."""
    path = f"/proc/{pid}/task/{task}/stat" if task else f"/proc/{pid}/stat"
    with open(path) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def threads(pid):
    found = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/comm") as comm:
            found[task] = comm.read().strip()
    return found


def run(relay, bar, seconds, label):
    """Sends RATE comments a second for `seconds`; the renderer's CPU over that time."""
    start_cpu, start = cpu_seconds(bar.proc.pid), time.monotonic()
    sent = 0
    while time.monotonic() - start < seconds:
        relay.comment(f"{label}{sent}", f"Viewer{sent % 50}", f"comment {sent}: ラーメン食べたい、初見です")
        sent += 1
        time.sleep(max(0.0, start + sent / RATE - time.monotonic()))
    elapsed = time.monotonic() - start
    return (cpu_seconds(bar.proc.pid) - start_cpu) / elapsed * 100, sent


def main():
    config = tempfile.mkdtemp(prefix="control-bench-")
    relay = Relay()
    port = free_port()
    settings = {**QUIET, "service": "websocket", "stream_id": "bench", "server": f"ws://127.0.0.1:{relay.port}/chat",
                "control": False, "control_port": port}
    env = {"XDG_CONFIG_HOME": config, "XDG_DATA_HOME": os.path.join(config, "data")}
    started = time.monotonic()
    bar = ServedBar(BIN, settings, width=640, height=360, env=env)
    while not relay.clients:
        time.sleep(0.05)
    pid = bar.proc.pid
    # The renderer lets start-up's code go 2 s and 60 s after it starts (RendererMemory): what it
    # still runs faults back in, a one-off cost that would land in the "on" window.
    run(relay, bar, max(3.0, 62 - (time.monotonic() - started)), "warm")
    off_threads = threads(pid)
    off_cpu, off_sent = run(relay, bar, SECONDS, "off")
    off_listening = listening(port)

    bar.send({"settings": {"width": 640, "height": 360, **settings, "control": True}})
    bar.wait_log(f"control page: on port {port} ")
    server_threads = {task: name for task, name in threads(pid).items() if task not in off_threads}
    link = subprocess.run([BIN, "control-url", "--port", str(port)], env={**os.environ, **env},
                          capture_output=True, text=True, check=True).stdout.strip()
    driver = browser()
    try:
        driver.get(link)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and "Connected" not in driver.find_element("id", "connection").text:
            time.sleep(0.05)
        run(relay, bar, 3, "warmon")
        server_start = sum(cpu_seconds(pid, task) for task in server_threads)
        on_cpu, on_sent = run(relay, bar, SECONDS, "on")
        server_cpu = (sum(cpu_seconds(pid, task) for task in server_threads) - server_start) / SECONDS * 100
        rows = len(driver.find_elements("css selector", "li.comment"))
    finally:
        driver.quit()
    bar.stop()

    if AS_JSON:
        print(json.dumps({"rate": RATE, "seconds": SECONDS, "off_cpu_percent": off_cpu, "off_sent": off_sent,
                          "off_threads": len(off_threads), "off_listening_sockets": len(off_listening),
                          "on_cpu_percent": on_cpu, "on_sent": on_sent, "server_threads": sorted(server_threads.values()),
                          "server_cpu_percent": server_cpu, "page_rows": rows}))
        return
    print(f"control server benchmark ({BIN}), {RATE} comments/s for {SECONDS:.0f} s each")
    print(f"  off: renderer {off_cpu:.2f} % of a core ({off_sent} comments), {len(off_threads)} threads "
          f"({sum(1 for n in off_threads.values() if n.startswith(('NIO-ELT', 'NIO-SGLTN')))} NIO), "
          f"listening on port {port}: {len(off_listening)} sockets")
    own = (f"the server's own thread{'s' if len(server_threads) != 1 else ''} "
           f"({', '.join(sorted(server_threads.values()))}): {server_cpu:.3f} % of a core"
           if server_threads else "no thread of its own (the doors' shared loop)")
    print(f"  on, one page open: renderer {on_cpu:.2f} % of a core ({on_sent} comments); {own}; the page kept {rows} rows")
    print(f"  difference on - off: {on_cpu - off_cpu:+.2f} % of a core (noise: the machine's other load)")


if __name__ == "__main__":
    main()
