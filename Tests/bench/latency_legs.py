# SPDX-License-Identifier: GPL-2.0-or-later
"""A comment's way to OBS in three legs, read from the frame pool's latency probe (issue 49;
docs/pool-abi.md, offsets 280 to 359). Every stamp is CLOCK_MONOTONIC, as time.monotonic_ns():

- sent -> on the bar: the tool sent the comment; the renderer applied it to the bar's rows
  (the WebSocket, the JSON, the flow: `slot_changed_ns` of the first frame that shows it);
- on the bar -> published: the frame showing it is drawn and handed over (`slot_published_ns`);
- published -> taken by OBS: the shim's `video_tick` takes the frame for OBS's next video frame
  (`taken_ns`), which OBS then draws and outputs.

The pool is read through the shim's memfd (/proc/OBS/fd), mapped read-only: nothing is written.
A probe counts when the frame OBS took carries a row change applied after the probe was sent.
"""
import mmap
import os
import random
import struct
import time

import numpy as np

POOL_MAGIC = 0x4C4F4F5052414242
TAKEN_AT = 328  # taken_published_ns, taken_changed_ns, taken_ns, taken_sequence
# Among other comments, a probe sent this long after the last of them cannot be mistaken for it.
QUIET_BEFORE_S = 0.030


def find_pool(pid):
    """The Comment Bar's pool among `pid`'s open files: a memfd whose header says BBARPOOL."""
    folder = f"/proc/{pid}/fd"
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        try:
            if not os.readlink(path).startswith("/memfd:"):
                continue
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            if os.fstat(fd).st_size < 4096:
                continue
            view = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ)
        finally:
            os.close(fd)
        if struct.unpack_from("<Q", view, 0)[0] == POOL_MAGIC:
            return PoolProbe(view)
        view.close()
    raise RuntimeError(f"no Comment Bar pool among process {pid}'s files")


class PoolProbe:
    def __init__(self, view):
        self.view = view

    def taken(self):
        """(sequence, changed_ns, published_ns, taken_ns) of the frame OBS took last, read whole."""
        while True:
            before = struct.unpack_from("<Q", self.view, TAKEN_AT + 24)[0]
            published, changed, taken = struct.unpack_from("<QQQ", self.view, TAKEN_AT)
            if struct.unpack_from("<Q", self.view, TAKEN_AT + 24)[0] == before:
                return before, changed, published, taken

    def close(self):
        self.view.close()


def pct(values, q):
    return float(np.percentile(np.array(values), q)) if values else None


def measure(probe, write, probes, label, log, timeout=3.0, jitter=0.3, quiet_since=None):
    """`write(i)` sends probe i and returns time.monotonic() just before sending. `quiet_since()`
    (among other comments): when the last other comment was sent; each probe waits until
    QUIET_BEFORE_S after it."""
    rng = random.Random(2049)
    legs = {"feed": [], "draw": [], "obs": [], "total": []}
    misses = 0
    for i in range(probes):
        time.sleep(rng.uniform(0.0, jitter))  # a random phase against OBS's frame clock
        if quiet_since:
            while time.monotonic() - quiet_since() < QUIET_BEFORE_S:
                time.sleep(0.002)
        sent = int(write(i) * 1e9)
        end = sent + int(timeout * 1e9)
        found = None
        while time.monotonic_ns() < end:
            _sequence, changed, published, taken = probe.taken()
            if changed >= sent and taken >= published >= changed:
                found = (changed, published, taken)
                break
            time.sleep(0.0005)
        if not found:
            misses += 1
            log(f"  {label} probe {i}: no frame OBS took showed it within {timeout:.0f} s")
            continue
        changed, published, taken = found
        legs["feed"].append((changed - sent) / 1e6)
        legs["draw"].append((published - changed) / 1e6)
        legs["obs"].append((taken - published) / 1e6)
        legs["total"].append((taken - sent) / 1e6)
    result = {"label": label, "probes": probes, "seen": len(legs["total"]), "missed": misses}
    for name, values in legs.items():
        result[name] = {"p50_ms": pct(values, 50), "p99_ms": pct(values, 99), "max_ms": max(values) if values else None}
    if legs["total"]:
        log(f"  {label}: sent->OBS p50 {result['total']['p50_ms']:.1f} ms, p99 {result['total']['p99_ms']:.1f} ms "
            f"(feed p99 {result['feed']['p99_ms']:.2f}, draw p99 {result['draw']['p99_ms']:.2f}, "
            f"OBS's tick p99 {result['obs']['p99_ms']:.1f}), {misses} missed")
    return result


def describe(result):
    """One table row's cells: each leg's p50/p99 and the sum's."""
    def cell(name):
        leg = result.get(name) or {}
        if leg.get("p50_ms") is None:
            return "–"
        return f"{leg['p50_ms']:.2f} / {leg['p99_ms']:.2f}"
    return [cell("feed"), cell("draw"), cell("obs"), cell("total")]
