# SPDX-License-Identifier: GPL-2.0-or-later
"""A small benchmark, printed rather than asserted on time: a Twitch-like server sends
1,000 chat messages a second for a few seconds; how fast does `tail` handle them, and
how much memory does it peak at? (Run alone: `make bench-feeds`.)"""
import os
import time

from conftest import EVENTUALLY, free_port
from twitch_server import FakeTwitch

RATE = 1000
SECONDS = 5
BATCH = 50


def status_field(pid, name):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(name + ":"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_burst_of_1000_messages_a_second(test_ca, tail_factory, capsys):
    twitch = FakeTwitch(free_port(), test_ca)
    try:
        tail = tail_factory("--service", "twitch", "--stream", "bench", "--server", f"wss://localhost:{twitch.port}",
                            env={"COMMENTBAR_CA_FILE": test_ca["ca"]})
        tail.wait_stderr("status: live")
        twitch.wait_joined()
        rss_before = status_field(tail.proc.pid, "VmRSS")
        cpu_before = cpu_seconds(tail.proc.pid)
        total = RATE * SECONDS
        started = time.monotonic()
        for batch in range(total // BATCH):
            lines = [f"@id=b{batch * BATCH + i};color=#00ff00;display-name=Bench{i} :bench{i}!bench{i}@b.tmi.twitch.tv "
                     f"PRIVMSG #bench :message {batch * BATCH + i} ベンチマーク {'x' * 80}" for i in range(BATCH)]
            twitch.send(*lines, batch=False)
            time.sleep(max(0.0, started + (batch + 1) * BATCH / RATE - time.monotonic()))
        sent_in = time.monotonic() - started
        tail.wait_event(lambda e: e.get("id") == f"b{total - 1}", timeout=EVENTUALLY + 60)
        handled_in = time.monotonic() - started
        received = sum(1 for e in tail.comments() if e["id"].startswith("b"))
        peak_kib = status_field(tail.proc.pid, "VmHWM")
        cpu = cpu_seconds(tail.proc.pid) - cpu_before
        assert tail.stop() == 0
        with capsys.disabled():
            print(f"\n[bench-feeds] sent {total} messages in {sent_in:.2f} s ({total / sent_in:.0f}/s); "
                  f"tail printed {received} in {handled_in:.2f} s ({received / handled_in:.0f} events/s); "
                  f"tail CPU {cpu:.2f} s ({cpu / handled_in * 100:.0f}% of one core); "
                  f"RSS {rss_before / 1024:.1f} MiB before, peak {peak_kib / 1024:.1f} MiB")
        assert received == total
    finally:
        twitch.close()
