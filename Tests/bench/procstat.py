# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU and memory of processes from /proc, sampled over a fixed window."""
import os
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat_fields(pid):
    """Fields of /proc/PID/stat after the command name (index 0 is field 3, the state)."""
    with open(f"/proc/{pid}/stat") as f:
        s = f.read()
    return s[s.rindex(")") + 2:].split()


def cpu_ticks(pid):
    """utime + stime of a process (all its threads), in clock ticks; None if gone."""
    try:
        f = _stat_fields(pid)
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return None
    return int(f[11]) + int(f[12])


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def all_pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


# Indices into _stat_fields: the parent pid (field 4 of /proc/PID/stat) and the session id (field 6).
STAT_PPID, STAT_SESSION = 1, 3


def pids_where(index, value):
    """Every process whose _stat_fields(pid)[index] is `value`: pids_where(STAT_PPID, pid) are its direct
    children, pids_where(STAT_SESSION, sid) a process tree started with start_new_session."""
    out = []
    for p in all_pids():
        try:
            f = _stat_fields(p)
        except (OSError, ValueError):
            continue
        if int(f[index]) == value:
            out.append(p)
    return out


def status_kib(pid, key):
    """A kB value from /proc/PID/status (VmRSS, VmHWM), None if absent."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def pss_kib(pid):
    """Proportional set size (shared pages divided among sharers), from smaps_rollup."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def machine_ticks():
    """(busy, total) jiffies over all CPUs from /proc/stat."""
    with open("/proc/stat") as f:
        parts = f.readline().split()[1:]
    vals = [int(x) for x in parts[:8]]
    idle = vals[3] + vals[4]
    return sum(vals) - idle, sum(vals)


def machine_steal_ticks():
    """Jiffies over all CPUs the hypervisor gave to others while this machine wanted them (/proc/stat's steal)."""
    with open("/proc/stat") as f:
        parts = f.readline().split()[1:]
    return int(parts[7]) if len(parts) > 7 else 0


class Group:
    """A named set of processes whose CPU is summed. `finder` returns the current pids. `memory` is what
    the window's memory figures are (summed RSS or PSS); `pss_too` samples PSS as well, beside RSS (one
    smaps_rollup read a second, in this process: the sampled process pays nothing for it)."""

    def __init__(self, name, finder, memory="rss", pss_too=False):
        self.name = name
        self.finder = finder
        self.memory = memory
        self.pss_too = pss_too


def measure(groups, seconds, interval=1.0):
    """Samples every group each `interval` for `seconds`.

    Returns, per group: cpu (percent of one core, mean over the window), the
    per-interval percents, the peak and last memory (kB; RSS, or PSS summed for
    multi-process groups), for a group with pss_too also the peak and last PSS
    (pss_kib_peak, pss_kib_last), the pids seen; and the machine: busy percent of one
    core summed over all cores, and `others`, what the rest of the machine used.
    """
    n = max(1, int(round(seconds / interval)))
    prev = {}
    for g in groups:
        prev[g.name] = {p: cpu_ticks(p) for p in g.finder()}
    mbusy0, mtotal0 = machine_ticks()
    t_start = time.monotonic()
    samples = {g.name: [] for g in groups}
    mem = {g.name: [] for g in groups}
    pss = {g.name: [] for g in groups}
    seen = {g.name: set(prev[g.name]) for g in groups}
    mach = []
    last_t = t_start
    last_m = mbusy0
    for i in range(1, n + 1):
        target = t_start + i * interval
        time.sleep(max(0.0, target - time.monotonic()))
        now = time.monotonic()
        mb, _ = machine_ticks()
        mach.append((mb - last_m) / CLK_TCK / (now - last_t) * 100.0)
        last_m = mb
        for g in groups:
            cur = {}
            delta = 0
            for p in g.finder():
                t = cpu_ticks(p)
                if t is None:
                    continue
                cur[p] = t
                before = prev[g.name].get(p)
                delta += t - (before if before is not None else 0) if p in prev[g.name] else t
                seen[g.name].add(p)
            prev[g.name] = cur
            samples[g.name].append(delta / CLK_TCK / (now - last_t) * 100.0)
            if cur:
                if g.memory == "pss":
                    mem[g.name].append(sum(pss_kib(p) or 0 for p in cur))
                else:
                    mem[g.name].append(sum(status_kib(p, "VmRSS") or 0 for p in cur))
                if g.pss_too:
                    pss[g.name].append(sum(pss_kib(p) or 0 for p in cur))
        last_t = now
    elapsed = last_t - t_start
    mbusy1, _ = machine_ticks()
    out = {"seconds": elapsed, "groups": {}}
    ours = 0.0
    for g in groups:
        s = samples[g.name]
        mean = sum(s) / len(s) if s else 0.0
        ours += mean
        out["groups"][g.name] = {
            "cpu": mean,
            "samples": s,
            "mem_kib_peak": max(mem[g.name]) if mem[g.name] else None,
            "mem_kib_last": mem[g.name][-1] if mem[g.name] else None,
            "mem_kind": g.memory,
            "pids": sorted(seen[g.name]),
        }
        if g.pss_too:
            out["groups"][g.name]["pss_kib_peak"] = max(pss[g.name]) if pss[g.name] else None
            out["groups"][g.name]["pss_kib_last"] = pss[g.name][-1] if pss[g.name] else None
    machine = (mbusy1 - mbusy0) / CLK_TCK / elapsed * 100.0
    out["machine_cpu"] = machine
    out["machine_samples"] = mach
    out["others_cpu"] = max(0.0, machine - ours)
    return out
