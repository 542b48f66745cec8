#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes docs/benchmarks.md and its plot from one run's results.json (run_bench.py)."""
import argparse
import json
import os
import statistics
import sys

import latency_legs
from compare_section import comparison_section, cpu_split_text, issue31_targets, memory_and_control_section

PLOT_NAME = "bench-cpu-latency.png"

TARGET_LATENCY_P99_MS = 100.0
TARGET_RSS_MIB = 40.0
TARGET_PSS_MIB_SMALL = 32.0  # the smaller renderer's target (issues 13, 31): PSS at 10 comments/s
IDLE_NEAR_ZERO = 1.0  # % of a core: what "next to nothing" is taken to mean


def fmt(v, digits=1, unit=""):
    if v is None:
        return "n/a"
    return f"{v:.{digits}f}{unit}"


def ratio(a, b, digits=1):
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.{digits}f}x"


def stdev(xs):
    return statistics.stdev(xs) if xs and len(xs) > 1 else 0.0


def group(r, name):
    if not r or "groups" not in r:
        return None
    return r["groups"].get(name)


def cpu_of(r, name):
    g = group(r, name)
    return g["cpu"] if g else None


def mib(kib):
    return None if kib is None else kib / 1024.0


def renderer_pss_mib(r):
    """The renderer's peak sampled PSS over a window, MiB; None for a run that sampled none."""
    g = group(r, "renderer")
    return mib(g.get("pss_kib_peak")) if g else None


class Page:
    def __init__(self):
        self.lines = []

    def add(self, *lines):
        self.lines.extend(lines)

    def table(self, header, rows):
        self.add("| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|")
        for row in rows:
            self.add("| " + " | ".join(str(c) for c in row) + " |")
        self.add("")

    def text(self):
        return "\n".join(self.lines).rstrip() + "\n"


def analyse(res):
    """The derived figures the page and the plot share."""
    cpu = res.get("cpu", {})
    e0, e1 = cpu.get("empty_start"), cpu.get("empty_end")
    empties = [x for x in (cpu_of(e0, "obs"), cpu_of(e1, "obs")) if x is not None]
    base = sum(empties) / len(empties) if empties else None
    a = {"base": base, "empty_start": cpu_of(e0, "obs"), "empty_end": cpu_of(e1, "obs")}
    for key in ("text_10", "bar_10", "bar_idle", "bar_1000", "image_still", "chromium_10"):
        r = cpu.get(key)
        if not r or "groups" not in r:
            a[key] = None
            continue
        obs = cpu_of(r, "obs")
        helper = cpu_of(r, "renderer") if key.startswith("bar") else cpu_of(r, "chromium")
        obs_added = obs - base if (obs is not None and base is not None) else None
        total_added = (obs_added or 0.0) + (helper or 0.0) if obs_added is not None else None
        a[key] = {"obs": obs, "helper": helper, "obs_added": obs_added, "total_added": total_added,
                  "obs_sd": stdev(group(r, "obs")["samples"]),
                  "helper_sd": stdev((group(r, "renderer") or group(r, "chromium") or {"samples": []})["samples"]),
                  "others": r.get("others_cpu"), "events": r.get("events_sent"), "seconds": r.get("seconds")}
    return a


def plot(res, a, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        return f"no plot: matplotlib is missing ({e})"
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8), gridspec_kw={"width_ratios": [3, 2]})
    names, obs_v, helper_v, obs_e, helper_e = [], [], [], [], []
    rows = [("empty_start", "Empty scene\n(start)"), ("text_10", "Text (FT2)\nchat log 10/s"),
            ("bar_10", "Comment Bar\n10/s"), ("bar_idle", "Comment Bar\nidle"),
            ("image_still", "control: still\nimage of the bar"),
            ("chromium_10", "Chromium page\n10/s (+OBS)"), ("empty_end", "Empty scene\n(end)")]
    cpu = res.get("cpu", {})
    for key, label in rows:
        r = cpu.get(key)
        if not r or "groups" not in r:
            continue
        names.append(label)
        g_obs = group(r, "obs")
        g_helper = group(r, "renderer") or group(r, "chromium")
        obs_v.append(g_obs["cpu"])
        obs_e.append(stdev(g_obs["samples"]))
        helper_v.append(g_helper["cpu"] if g_helper else 0.0)
        helper_e.append(stdev(g_helper["samples"]) if g_helper else 0.0)
    x = range(len(names))
    ax1.bar(x, obs_v, color="#4c72b0", label="OBS process")
    ax1.bar(x, helper_v, bottom=obs_v, color="#dd8452", label="renderer / browser processes")
    tops = [o + h for o, h in zip(obs_v, helper_v)]
    errs = [(oe ** 2 + he ** 2) ** 0.5 for oe, he in zip(obs_e, helper_e)]
    ax1.errorbar(list(x), tops, yerr=errs, fmt="none", ecolor="black", capsize=3, lw=1)
    for xi, t, e in zip(x, tops, errs):
        ax1.text(xi, t + e + max(tops + [1]) * 0.02, f"{t:.1f}", ha="center", fontsize=8)
    if a.get("base") is not None:
        ax1.axhline(a["base"], color="grey", ls=":", lw=1)
    ax1.set_xticks(list(x))
    ax1.set_xticklabels(names, fontsize=8)
    ax1.set_ylabel("CPU, % of one core (mean; bars: 1-s s.d.)")
    ax1.set_title("CPU at 10 comments/s, OBS 1280x720 @ 30 fps")
    ax1.legend(fontsize=8, loc="upper left")
    ax1.set_ylim(0, max(tops + [1]) * 1.25)

    lat = res.get("latency", {})
    labels, p50, p99, lo, hi = [], [], [], [], []
    for key, label in (("bar", "Comment Bar\nalone"), ("bar_loaded", "Comment Bar\namong 10/s"),
                       ("text", "Text (FreeType 2)\nchat log")):
        r = lat.get(key)
        if not r or r.get("p50_ms") is None:
            continue
        labels.append(label)
        p50.append(r["p50_ms"])
        p99.append(r["p99_ms"])
    if labels:
        xs = range(len(labels))
        w = 0.38
        ax2.bar([i - w / 2 for i in xs], p50, w, label="p50", color="#55a868")
        ax2.bar([i + w / 2 for i in xs], p99, w, label="p99", color="#c44e52")
        for i in xs:
            ax2.text(i - w / 2, p50[i] * 1.08, f"{p50[i]:.0f}", ha="center", fontsize=8)
            ax2.text(i + w / 2, p99[i] * 1.08, f"{p99[i]:.0f}", ha="center", fontsize=8)
        ax2.axhline(TARGET_LATENCY_P99_MS, color="black", ls="--", lw=1, label="target p99 100 ms")
        ax2.set_yscale("log")
        ax2.set_ylim(min(p50 + [TARGET_LATENCY_P99_MS]) / 3, max(p99 + [TARGET_LATENCY_P99_MS]) * 3)
        ax2.set_xticks(list(xs))
        ax2.set_xticklabels(labels, fontsize=8)
        ax2.legend(fontsize=8, loc="upper left")
    else:
        ax2.text(0.5, 0.5, "no latency measured", ha="center", transform=ax2.transAxes)
    ax2.set_ylabel("comment-to-screen latency, ms (log)")
    ax2.set_title("Comment-to-screen latency")
    fig.suptitle(f"make bench, {res.get('started', '')[:16].replace('T', ' ')}, "
                 f"{res.get('machine', {}).get('cpu', '')} ({res.get('machine', {}).get('cores')} cores)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return None


def conclusion(a, im, bb, share):
    """One sentence on what the control shows, only as far as this run's figures bear it out."""
    idle = a.get("bar_idle")
    drift = abs((a.get("empty_start") or 0) - (a.get("empty_end") or 0))
    noise = max(1.0, 2 * drift, bb.get("obs_sd", 0))
    same = idle is not None and abs(idle["obs_added"] - bb["obs_added"]) <= noise
    if share is None:
        return ""
    if share >= 0.8 and same:
        return (f"the bar costs OBS about the same idle as at 10 comments/s, and a still image of its size costs "
                f"{'more' if share > 1 else 'nearly as much'}: in this run, what the bar adds to OBS is the price of "
                "showing a 1280x360 layer here, not of its updates. ")
    return f"in this run a still image of that size costs {fmt(100 * share, 0)} % of what the live bar adds to OBS. "


def verdict(ok):
    return "**met**" if ok else "**missed**"


def soak_section(soak):
    """Markdown lines for a long stream's memory (Tests/bench/soak.py's JSON)."""
    if soak.get("skipped"):
        return ["## A long stream's memory (soak)", "", f"Not measured: {soak['skipped']}", ""]
    mib = lambda k: f"{k / 1024:.1f} MiB"
    return ["## A long stream's memory (soak)", "",
            f"`Tests/bench/soak.py`: {soak['comments']:,} comments at {soak['rate']:,.0f}/s "
            f"({soak['seconds']:.0f} s) drawn from {soak['kanji']:,} distinct kanji by {soak['users']:,} users, "
            "one in five with an emote (its picture fails and shows as text), one in twenty deleting an "
            "earlier comment; the renderer's VmRSS sampled every second.", "",
            "| | RSS |", "|---|---|",
            f"| first plateau (median, 10–20 % of the run) | {mib(soak['plateau_kib'])} |",
            f"| last 10 % (median) | {mib(soak['last10_median_kib'])} |",
            f"| last 10 % (peak) | {mib(soak['last10_peak_kib'])} |",
            f"| peak of the run | {mib(soak['peak_kib'])} |", "",
            f"Growth from the first plateau to the last 10 %: {soak['growth_percent']:+.1f} % "
            f"({'within' if soak['within_5_percent'] else 'over'} the 5 % the issue allows). "
            f"Peak against the {soak['target_mib']} MiB target: "
            f"{'under' if soak['under_target'] else 'over'}."
            + (f" Renderer: `{soak['build']}`." if soak.get("build") else ""), ""] + font_lines(soak, mib)


def font_lines(soak, mib):
    """The font files' share of that memory, at the end of the run."""
    fonts = soak.get("fonts")
    if not fonts or not fonts.get("mappings"):
        return []
    shared = fonts["pss_kib"] < 0.75 * fonts["rss_kib"]
    lines = [f"Font files at the end of the run: {fonts['files']} files mapped {fonts['mappings']} times, "
             f"Rss {mib(fonts['rss_kib'])}, Pss {mib(fonts['pss_kib'])}. A file mapped twice is mapped by "
             "FreeType (cairo draws with it) and by HarfBuzz (Pango shapes with a face of its own)"
             + ("; both mappings are the same read-only page-cache pages, which Pss counts once and Rss "
                "twice." if shared else "; Pss is close to Rss, so the two mappings hold mostly "
                "different pages (most likely outlines for FreeType, layout tables for HarfBuzz), not one "
                "font twice.")]
    if "rss_anon_kib" in fonts:
        lines.append(f"Of the renderer's RSS at the end, {mib(fonts['rss_anon_kib'])} is its own memory "
                     f"(RssAnon), {mib(fonts['rss_file_kib'])} file pages (RssFile: the font files above, "
                     f"the program and its libraries; clean pages the kernel can drop and read again) and "
                     f"{mib(fonts['rss_shmem_kib'])} the shared frame pool (RssShmem). A chat drawn from "
                     "thousands of distinct kanji reads most of a CJK font's outlines, so its pages are "
                     "what grows RSS past the target, not the renderer's tables.")
    return [" ".join(lines), ""]


def write_page(res, out_md, images_dir):
    a = analyse(res)
    m = res.get("machine", {})
    s = res.get("settings", {})
    cpu = res.get("cpu", {})
    lat = res.get("latency", {})
    p = Page()
    p.add("# Benchmarks: the Comment Bar against what streamers use today", "",
          "<!-- Written by `make bench` (Tests/bench/report.py) from one run. Do not edit by hand: run it again. -->", "",
          f"Measured side by side in one run of `{res.get('command', 'make bench')}` on {res.get('started', '?')}"
          f" (commit `{m.get('git', '?')}`{' (a work tree with uncommitted changes)' if str(m.get('git', '')).endswith('-dirty') else ''}, {res.get('duration_s', 0):.0f} s for the measurements"
          + (f", {res['make_total_s']:.0f} s for the whole `make bench`, builds and package checks included" if res.get("make_total_s") else "")
          + ")."
          " Every figure below comes from that run; nothing is copied from elsewhere.", "")
    if res.get("errors"):
        p.add("**This run had errors; the figures it could not measure are marked n/a:**", "")
        for e in res["errors"]:
            p.add(f"- {e}")
        p.add("")
    if res.get("notes"):
        p.add("**Where this page departs from one run:**", "")
        for note in res["notes"]:
            p.add(f"- {note}")
        p.add("")

    # ---- targets
    p.add("## Targets", "")
    rows = []
    t, b = a.get("text_10"), a.get("bar_10")
    if t and b:
        rows.append(["OBS CPU added by the bar at 10 comments/s is no more than the Text source's chat-log mode adds",
                     f"bar adds {fmt(b['obs_added'])} % of a core to OBS; Text adds {fmt(t['obs_added'])} %",
                     verdict(b["obs_added"] <= t["obs_added"])])
        rows.append(["(stricter: counting the renderer process too)",
                     f"bar adds {fmt(b['total_added'])} % (OBS + renderer); Text adds {fmt(t['total_added'])} %",
                     verdict(b["total_added"] <= t["total_added"])])
    else:
        rows.append(["OBS CPU added by the bar at 10 comments/s is no more than the Text source adds",
                     "not measured in this run", "**not measured**"])
    lb = lat.get("bar")
    ll = lat.get("bar_loaded")
    if lb and lb.get("p99_ms") is not None:
        worst = lb["p99_ms"]
        text = f"p99 {fmt(lb['p99_ms'], 0)} ms alone (screenshot bracket up to {fmt(lb['p99_upper_ms'], 0)} ms)"
        if ll and ll.get("p99_ms") is not None:
            worst = max(worst, ll["p99_ms"])
            text += (f"; {fmt(ll['p99_ms'], 0)} ms among 10 comments/s "
                     f"(bracket up to {fmt(ll['p99_upper_ms'], 0)} ms)")
        rows.append(["Comment-to-screen latency p99 at most 100 ms", text,
                     verdict(worst <= TARGET_LATENCY_P99_MS)])
    else:
        rows.append(["Comment-to-screen latency p99 at most 100 ms", "not measured in this run", "**not measured**"])
    rss = [mib(group(cpu.get(k), "renderer")["mem_kib_peak"]) for k in ("bar_10", "bar_idle", "bar_1000")
           if group(cpu.get(k), "renderer") and group(cpu.get(k), "renderer").get("mem_kib_peak")]
    if rss:
        rows.append(["Renderer resident memory at most 40 MiB (peak sampled RSS, 10 to 1,000 comments/s)",
                     f"{fmt(max(rss))} MiB", verdict(max(rss) <= TARGET_RSS_MIB)])
    else:
        rows.append(["Renderer resident memory at most 40 MiB", "not measured in this run", "**not measured**"])
    # PSS, not RSS: the pages the renderer shares with OBS (the frame pool, the libraries both map) count
    # half, which is what the renderer adds to the machine.
    pss10 = renderer_pss_mib(cpu.get("bar_10"))
    small = "The smaller renderer: proportional memory (PSS) at most 32 MiB at 10 comments/s (peak sampled PSS)"
    if pss10 is not None:
        rss10 = (group(cpu.get("bar_10"), "renderer") or {}).get("mem_kib_peak")
        rows.append([small, f"PSS {fmt(pss10)} MiB (RSS {fmt(mib(rss10))} MiB)", verdict(pss10 <= TARGET_PSS_MIB_SMALL)])
    else:
        rows.append([small, "not measured in this run (no PSS sampled)", "**not measured**"])
    bi = a.get("bar_idle")
    if bi:
        rows.append([f"An idle bar costs next to nothing (taken as at most {IDLE_NEAR_ZERO:.0f} % of a core added)",
                     f"idle bar adds {fmt(bi['total_added'])} % (OBS {fmt(bi['obs_added'])} %, renderer {fmt(bi['helper'])} %)",
                     verdict(bi["total_added"] <= IDLE_NEAR_ZERO)])
    two = cpu.get("two_streams_1000")
    if two and "groups" in two:
        hwm = two.get("renderer_hwm_kib")
        rows.append(["Two streams merged at 2 × 500 comments/s with every filter on (10,000 NG words): no stall, "
                     "bounded memory",
                     f"renderer {fmt(cpu_of(two, 'renderer'))} % of a core, OBS {fmt(cpu_of(two, 'obs'))} %; "
                     f"{two.get('events_sent', 0)} comments sent; renderer peak RSS {fmt(mib(hwm)) if hwm else 'n/a'} MiB",
                     "reported (the issue sets no figure)"])
    on, off, silent = cpu.get("mic_meter_on"), cpu.get("mic_meter_off"), cpu.get("mic_meter_silent")
    if on and off and "groups" in on and "groups" in off:
        cost = cpu_of(on, "obs") - cpu_of(off, "obs")
        rows.append(["The mic level meter costs OBS at most 1 % of a core (tone playing, meter on vs off)",
                     f"{fmt(cost)} points (OBS {fmt(cpu_of(on, 'obs'))} % on, {fmt(cpu_of(off, 'obs'))} % off; "
                     f"renderer {fmt(cpu_of(on, 'renderer'))} % on, {fmt(cpu_of(off, 'renderer'))} % off)",
                     verdict(cost <= 1.0)])
    if silent and "groups" in silent and bi:
        rows.append(["A silent mic makes no frames: the bar with the meter on and the mic muted costs what the idle bar does",
                     f"renderer {fmt(cpu_of(silent, 'renderer'))} % (idle bar: {fmt(bi['helper'])} %), "
                     f"OBS {fmt(cpu_of(silent, 'obs'))} %",
                     verdict(cpu_of(silent, "renderer") <= bi["helper"] + 0.5)])
    rows += [[target, measured, verdict(met)] for target, measured, met in issue31_targets(res)]
    p.table(["target", "measured in this run", "verdict"], rows)

    # ---- machine and command
    p.add("## Machine and command", "")
    pk = m.get("packages", {})
    p.table(["", ""], [
        ["command", f"`{res.get('command', 'make bench')}` (runs `Tests/bench/run_bench.py`, then `Tests/bench/report.py`)"],
        ["CPU", f"{m.get('cpu', '?')}, {m.get('cores', '?')} cores seen"],
        ["memory", f"{m.get('mem_gib', '?')} GiB"],
        ["system", f"{m.get('os', '?')}, Linux {m.get('kernel', '?')}"],
        ["OBS", f"{m.get('obs', '?')} (Debian `obs-studio` {pk.get('obs-studio') or '?'}), obs-websocket {m.get('obs_websocket', '?')}"],
        ["graphics", f"Xvfb {pk.get('xvfb') or '?'}, {res.get('obs_log_facts', {}).get('gl_adapter', 'Mesa llvmpipe')} "
                     f"(software OpenGL), Mesa {pk.get('libgl1-mesa-dri') or '?'}"],
        ["canvas", f"{s.get('canvas')} at {s.get('fps')} fps, preview off, isolated config"],
        ["Chromium", (cpu.get('chromium_10') or {}).get("version") or pk.get("chromium") or "not installed"],
        ["windows", f"{s.get('window_s', 0):.0f} s per CPU window after {s.get('warmup_s', 0):.0f} s of warm-up, "
                    f"sampled each second from /proc/PID/stat"],
    ])

    # ---- noise
    p.add("## How noisy this run was", "")
    e0, e1 = cpu.get("empty_start"), cpu.get("empty_end")
    noise_rows = []
    for key, label in (("empty_start", "empty scene, at the start"), ("empty_end", "empty scene, at the end")):
        r = cpu.get(key)
        if r and "groups" in r:
            noise_rows.append([label, fmt(cpu_of(r, "obs")), fmt(stdev(group(r, "obs")["samples"])),
                               fmt(r.get("others_cpu"), 0)])
    for key, label in (("text_10", "Text source, 10 lines/s"), ("bar_10", "Comment Bar, 10/s"),
                       ("bar_idle", "Comment Bar, idle"), ("bar_1000", "Comment Bar, 1,000/s"),
                       ("image_still", "still image of the bar"),
                       ("chromium_10", "Chromium page, 10/s")):
        r = cpu.get(key)
        if r and "groups" in r:
            noise_rows.append([label, fmt(cpu_of(r, "obs")), fmt(stdev(group(r, "obs")["samples"])),
                               fmt(r.get("others_cpu"), 0)])
    p.add("The empty scene is measured first and last; the baseline below is their mean. "
          "\"Others\" is what every other process on the machine used during the window "
          "(the whole machine from /proc/stat minus the processes measured), in % of one core; "
          f"the machine has {m.get('cores', '?')} cores, so {100 * (m.get('cores') or 1)} % is all of it.", "")
    p.table(["window", "OBS, % of a core", "s.d. of 1-s samples", "others on the machine, %"], noise_rows)
    windows = [r for r in cpu.values() if isinstance(r, dict) and "others_cpu" in r]
    busy = [r for r in windows if r["others_cpu"] > 50]
    if windows:
        p.add(f"{len(busy)} of {len(windows)} windows ran while other processes used more than half a core"
              + (" (the machine was shared): on a busy machine OBS's threads wait for a core more often, so treat "
                 "those figures as less certain than the quiet ones." if busy else ": a quiet machine.") + "", "")
    if a.get("empty_start") is not None and a.get("empty_end") is not None:
        p.add(f"Baseline drift: the empty scene cost {fmt(a['empty_start'])} % at the start and "
              f"{fmt(a['empty_end'])} % at the end ({fmt(abs(a['empty_start'] - a['empty_end']))} points apart). "
              "Differences smaller than that are within this run's noise.", "")

    # ---- CPU
    p.add("## CPU at 10 comments a second", "",
          "Percent of one core, mean over the window. \"Added\" is over the empty-scene baseline "
          f"({fmt(a.get('base'))} %). The Comment Bar's renderer (`commentbar serve`, a child of OBS) "
          "and Chromium's processes are separate from OBS and counted in their own column.", "")
    crow = []
    tt, bb = a.get("text_10"), a.get("bar_10")
    for key, label, helper_name in (("text_10", "OBS Text (FreeType 2), chat-log mode, file gets 10 lines/s", ""),
                                    ("bar_10", "Comment Bar, 10 comments/s (websocket feed)", "renderer"),
                                    ("bar_idle", "Comment Bar, no new comments (idle)", "renderer"),
                                    ("image_still", "control: a still 1280x360 image of the bar (OBS image source)", ""),
                                    ("chromium_10", "headless Chromium chat page, 10 lines/s", "Chromium, all processes")):
        x = a.get(key)
        if not x:
            note = (cpu.get(key) or {}).get("skipped", "not measured in this run")
            crow.append([label, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", note])
            continue
        if key == "chromium_10":
            # OBS only shows an empty scene here: what the page costs is Chromium's own CPU
            obs_added, total = None, x["helper"]
        else:
            obs_added, total = x["obs_added"], x["total_added"]
        helper = f"{fmt(x['helper'])} ({helper_name})" if x["helper"] is not None else "-"
        vs_text = ratio(total, tt["total_added"]) if tt and key != "text_10" else ("1.0x" if tt else "n/a")
        vs_bar = ratio(total, bb["total_added"]) if bb and key != "bar_10" else ("1.0x" if bb else "n/a")
        events = x.get("events")
        crow.append([label, fmt(x["obs"]), helper, fmt(obs_added) if obs_added is not None else "- (empty scene)",
                     fmt(total), vs_text, vs_bar,
                     f"{events} events sent" if events else ""])
    p.table(["scenario", "OBS", "other processes", "added to OBS", "added in all",
             "all, ratio to Text source", "all, ratio to Comment Bar 10/s", "note"], crow)
    im = a.get("image_still")
    if im and bb:
        share = im["obs_added"] / bb["obs_added"] if bb["obs_added"] > 0 else None
        p.add(f"The control row separates what the bar's size costs from what its updates cost. A still image of the "
              f"bar (the same 1280x360, translucent background included, drawn once by `commentbar render`) shown by "
              f"OBS's own image source adds {fmt(im['obs_added'])} % to OBS, against {fmt(bb['obs_added'])} % for the "
              f"live bar at 10 comments/s and {fmt(a['bar_idle']['obs_added']) if a.get('bar_idle') else 'n/a'} % idle. "
              "OBS here composites with software OpenGL (Mesa llvmpipe: the CPU does the GPU's work), so any layer "
              "that large costs CPU in every frame, whatever draws it; "
              + (conclusion(a, im, bb, share))
              + "A browser source of the same size would be such a layer too, on top of Chromium's own CPU. "
              "The Text source's texture covers only its glyphs. On a machine with a GPU, compositing costs GPU time "
              "instead; this benchmark cannot show that.", "")
    ch = cpu.get("chromium_10") or {}
    if ch.get("check"):
        c = ch["check"]
        if "lines_shown" in c:
            p.add(f"The Chromium page was checked over DevTools after its window: it showed {c['lines_shown']} chat lines, "
                  f"the last \"{c.get('last_line')}\". Chromium ran {ch.get('processes', '?')} processes; "
                  f"its proportional memory (PSS, summed) peaked at {fmt(mib(group(ch, 'chromium')['mem_kib_peak']), 0)} MiB.", "")
    p.add("What each draws: the Text source shows plain lines in one colour and one font; the Comment Bar draws "
          "a translucent rounded panel with coloured names and CJK text, a live badge and a ticking clock, the viewer "
          "and gift counts, the mic state and an avatar (the scene snapshots of a run are in `.build-bench-run/run-*/`). "
          "The Chromium page is a plain HTML list of the last six lines "
          "(no animations). It stands in for a browser-source chat widget: Debian's OBS has no browser source, "
          "so the cost of handing Chromium's frames to OBS is not in these figures: a real browser source costs more.", "")

    # ---- latency
    p.add("## Comment-to-screen latency", "")
    lrow = []
    lt = lat.get("text")
    for key, label in (("bar", "Comment Bar (websocket feed), one comment at a time"),
                       ("bar_loaded", "Comment Bar, among 10 comments/s"),
                       ("text", "OBS Text (FreeType 2), chat-log mode, one line at a time")):
        r = lat.get(key)
        if not r or r.get("p50_ms") is None:
            lrow.append([label, "n/a", "n/a", "n/a", "n/a", "n/a", "not measured in this run"])
            continue
        if key == "text":
            rr = "1.0x"
        else:
            rr = ratio(r["p99_ms"], lt["p99_ms"], 2) if lt and lt.get("p99_ms") else "n/a"
        lrow.append([label, fmt(r["p50_ms"], 0), fmt(r["p99_ms"], 0), fmt(r["max_ms"], 0),
                     f"{r['seen']} of {r['probes']}", fmt(r["bracket_ms_median"], 0), rr])
    p.table(["source", "p50, ms", "p99, ms", "max, ms", "probes seen", "screenshot bracket (median), ms",
             "p99 ratio to Text"], lrow)
    p.add("Method: one unique comment at a time is written to the feed (a websocket message for the bar, "
          "a line appended to the file for the Text source), after a random pause so the writes fall at every "
          "phase of the sources' own timers. The time is taken just before the write. obs-websocket's "
          "`GetSourceScreenshot` of the program scene (rendered by OBS as the request is handled, scaled to "
          f"{(lt or lat.get('bar') or {}).get('shot_size', '320x180')}) is then polled until enough pixels differ from the screenshot taken before the write. "
          "Pixels that change with no comment (the bar's clock) are learnt for 2.5 s first and ignored. "
          "The comment appeared after the start of the last screenshot that did not show it and before the reply "
          "of the first one that did: the figures are the midpoint of that bracket, whose median width is given "
          "(the polling resolution; half of it is the error either way). The encoder's output would follow "
          "within one more frame (33 ms at 30 fps).", "")
    p.add("Among 10 comments/s, the probes' names are magenta (`#ff00ff`, a colour no other comment uses), "
          "and a probe counts as shown when magenta pixels appear; each probe waits until the previous one has "
          "scrolled off. The Text source draws every line in one colour, so it can only be probed alone.", "")
    if lt and lt.get("p50_ms") is not None:
        p.add("The Text source reads its file once a second, so it is expected to be far slower.", "")
    legs = [(label, lat.get(key)) for key, label in (("legs", "one comment at a time"), ("legs_loaded", "among 10 comments/s"))
            if lat.get(key) and lat[key].get("seen")]
    if legs:
        p.add("### The same way in legs (the pool's latency probe, issue 49)", "")
        p.table(["Comment Bar", "sent → on the bar's rows, ms", "→ frame published, ms", "→ taken by OBS, ms",
                 "sent → taken by OBS, ms", "probes seen"],
                [[label] + latency_legs.describe(r) + [f"{r['seen']} of {r['probes']}"] for label, r in legs])
        p.add("Each cell is p50 / p99. `Tests/bench/latency_legs.py` reads the frame pool's probe fields "
              "(docs/pool-abi.md), every stamp `CLOCK_MONOTONIC`: when the renderer applied the comment to the bar's "
              "rows, when the frame first showing it was published, and when the shim's `video_tick` took that frame "
              "for OBS's next video frame, which OBS then draws and outputs in the same frame. No screenshots: the "
              "figures are exact to the microsecond, but they end when OBS takes the frame, not when an encoder "
              "or a screenshot has it. Among 10 comments/s, each probe is sent at least 30 ms after the last other "
              "comment, so the first frame carrying a change applied after it is the probe's.", "")

    # ---- memory and load
    p.add("## Renderer memory and CPU at 10 and at 1,000 comments a second", "")
    mrow = []
    for key, label in (("bar_idle", "idle"), ("bar_10", "10 comments/s"), ("bar_1000", "1,000 comments/s")):
        r = cpu.get(key)
        g = group(r, "renderer")
        if not g:
            mrow.append([label, "n/a", "n/a", "n/a", "n/a", "n/a", "not measured in this run"])
            continue
        pss = renderer_pss_mib(r)
        mrow.append([label, fmt(g["cpu"]), fmt(cpu_of(r, "obs")), fmt(mib(g["mem_kib_peak"])),
                     "-" if pss is None else fmt(pss), fmt(mib(r.get("renderer_hwm_kib"))),
                     f"{r.get('events_sent')} events sent"])
    ch_g = group(cpu.get("chromium_10"), "chromium")
    if ch_g:
        mrow.append(["Chromium page, 10 lines/s (peer)", fmt(ch_g["cpu"]), fmt(cpu_of(cpu.get("chromium_10"), "obs")),
                     "-", f"{fmt(mib(ch_g['mem_kib_peak']))} (all processes)", "-", ""])
    p.table(["feed rate", "renderer CPU, % of a core", "OBS CPU, %", "renderer RSS peak, MiB",
             "renderer PSS peak, MiB", "renderer VmHWM, MiB", "note"], mrow)
    parts = (cpu.get("bar_10") or {}).get("renderer_rss_parts_kib")
    if parts and parts.get("VmRSS"):
        p.add(f"Where the renderer's resident memory was at the end of the 10/s window: {fmt(mib(parts['VmRSS']))} MiB in all, "
              f"{fmt(mib(parts.get('RssAnon')))} MiB its own heap and stacks (RssAnon), "
              f"{fmt(mib(parts.get('RssFile')))} MiB mapped files: its executable and libraries (RssFile), "
              f"{fmt(mib(parts.get('RssShmem')))} MiB shared memory: the frame pool it shares with OBS (RssShmem)"
              + (f"; its proportional share (Pss: shared pages divided among the processes mapping them) "
                 f"{fmt(mib(parts['Pss']))} MiB." if parts.get("Pss") else "."), "")
    b10 = group(cpu.get("bar_10"), "renderer")
    if b10 and ch_g and b10.get("pss_kib_peak"):
        p.add(f"Memory ratio, Chromium page to renderer at 10/s (PSS to PSS): {ratio(ch_g['mem_kib_peak'], b10['pss_kib_peak'])}.", "")
    elif b10 and ch_g and b10.get("mem_kib_peak"):
        p.add(f"Memory ratio, Chromium page (PSS) to renderer (RSS) at 10/s: {ratio(ch_g['mem_kib_peak'], b10['mem_kib_peak'])}.", "")

    # ---- frame costs
    p.add("## Frame costs (`commentbar bench --json`)", "")
    fc = res.get("frame_costs") or {}
    if fc.get("runs", 1) > 1:
        p.add(f"Each figure is the median of {fc['runs']} runs of `commentbar bench`, one after the other.", "")
    if fc.get("rows"):
        keys = ["full_redraw_ms", "new_comment_ms", "clock_tick_ms", "unchanged_ms", "memcpy_ms"]

        def cell(row, k):
            p90 = row.get(k.replace("_ms", "_p90_ms"))
            return fmt(row.get(k), 3) + (f" ({fmt(p90, 3)})" if p90 is not None else "")
        frows = []
        for row in fc["rows"]:
            frows.append([f"{row.get('width')}x{row.get('height')}"] + [cell(row, k) for k in keys]
                         + [fmt(row.get("comments_per_second"), 0)])
        p.table(["size", "full redraw, ms", "new comment, ms", "clock tick, ms", "unchanged, ms", "memcpy, ms",
                 "comments/s sustained"], frows)
        p.add("Median (p90) over the renderer's own timed frames; memcpy of one frame is the floor.", "")
        p.add("At 30 fps a frame has 33.3 ms; each figure is the renderer's own time for that kind of frame.", "")
        for row in fc["rows"]:
            if row.get("emote_new_comment_ms") is not None:
                p.add(f"Emote-heavy chat at {row.get('width')}x{row.get('height')} (3 emotes a comment, one animated, "
                      f"pictures decoded): a new comment {fmt(row['emote_new_comment_ms'], 3)} ms "
                      f"(p90 {fmt(row.get('emote_new_comment_p90_ms'), 3)}; target at most 0.5 ms at 1280x360: "
                      f"{verdict(row['emote_new_comment_ms'] <= 0.5) if row.get('width') == 1280 else 'n/a'}); "
                      f"an animation step {fmt(row.get('emote_animation_frame_ms'), 3)} ms.", "")
        cost = fc["rows"][0].get("filter_us_per_comment")
        if cost is not None:
            p.add(f"Filters and highlights (known bots, !commands, 10,000 NG words, mentions, first messages): "
                  f"{fmt(cost, 2)} µs per comment (target at most 50 µs: {verdict(cost <= 50)}).", "")
    else:
        p.add(f"Not measured in this run: {fc.get('skipped', 'the renderer was not built')}.", "")

    p.add(*memory_and_control_section(res))

    # ---- parsers
    parsers = res.get("parsers") or {}
    p.add("## Platform parsers (`commentbar bench-parsers`)", "")
    if "youtube_events_per_second" in parsers:
        nico = parsers.get("niconico_messages_per_second") or 0
        p.table(["parser", "rate", "target"], [
            ["YouTube: recorded `get_live_chat` actions (chat-downloader's, MIT), JSON decoded and mapped",
             f"{fmt(parsers['youtube_events_per_second'], 0)} events/s", "(none given)"],
            ["niconico: NDGR segment of 1,000 messages written with the published schema, split, decoded, mapped",
             f"{fmt(nico, 0)} messages/s", f"at least 100,000/s: {verdict(nico >= 100_000)}"],
        ])
    else:
        p.add(f"Not measured in this run: {parsers.get('skipped', 'the renderer was not built')}.", "")

    # ---- the comment flow (issue 21)
    flow = res.get("flow") or {}
    p.add("## Comment flow: paced bursts and an idle bar (`Tests/bench/flow_cpu.py`)", "")
    if "paced" in flow:
        p.add("The renderer alone (no OBS) at 1280x360, 10 comments/s arriving as a YouTube poll brings them: "
              "20 timed comments every 2 s.", "")
        idle = flow["idle"]
        p.table(["case", "renderer CPU (% of one core)", "frames"], [
            ["pacing on (`pace_bursts`)", fmt(flow["paced"]["cpu_percent"], 1), str(flow["paced"]["frames"])],
            ["pacing off", fmt(flow["unpaced"]["cpu_percent"], 1), str(flow["unpaced"]["frames"])],
            [f"idle {fmt(idle['idle_seconds'], 0)} s (pacing on, 5 s delay, clock off)",
             fmt(idle["idle_cpu_percent"], 2), f"{idle['idle_frames']} (target 0: {verdict(idle['idle_frames'] == 0)})"],
        ])
        machine = [f"{label} {fmt(flow[name]['others_percent'], 1)} % ({fmt(flow[name]['steal_percent'], 1)} % stolen)"
                   for name, label in (("paced", "pacing on"), ("unpaced", "pacing off"))
                   if "others_percent" in flow[name]]
        if machine:
            p.add("The rest of the machine during each window (the feeder included; \"stolen\": the hypervisor's "
                  "steal time, when this machine's CPUs ran another guest), in % of one core: "
                  + "; ".join(machine) + ". A busy or stolen machine slows the renderer's own work too.", "")
        for name, label in (("paced", "pacing on"), ("unpaced", "pacing off")):
            split = flow[name].get("cpu_split")
            if split and split.get("process_ms"):
                p.add(f"Where the CPU went, {label} (the renderer's own clocks, `COMMENTBAR_CPU_TRACE`): "
                      f"{cpu_split_text(split)}.", "")
    else:
        p.add(f"Not measured in this run: {flow.get('skipped', 'the renderer was not built')}.", "")

    # ---- plot
    p.add("## Plot", "")
    os.makedirs(images_dir, exist_ok=True)
    err = plot(res, a, os.path.join(images_dir, PLOT_NAME))
    if err:
        p.add(err, "")
    else:
        rel = os.path.relpath(os.path.join(images_dir, PLOT_NAME), os.path.dirname(out_md))
        p.add(f"![CPU and latency, measured in this run]({rel})", "")

    # ---- method
    p.add("## How it is measured", "",
          "- OBS Studio from Debian runs headless under Xvfb with Mesa's llvmpipe (software OpenGL), with an isolated "
          "`XDG_CONFIG_HOME`: a 1280x720 canvas at 30 fps, preview off, obs-websocket on 127.0.0.1 only used by the "
          "benchmark. The freshly built plugin (`build/comment-bar.so` and `plugin/data`) is loaded through "
          "`OBS_PLUGINS_PATH` and `OBS_PLUGINS_DATA_PATH`, and it starts the freshly built renderer "
          "(`COMMENTBAR_RENDERER`).",
          "- Each scenario adds one source (at the top left of the empty scene), lets it warm up, then samples "
          "utime + stime of the OBS process (all threads), of the renderer process below it, or of every Chromium "
          "process, once a second. Sources are removed between scenarios.",
          f"- The chat is the same deterministic mix of Japanese and English names and messages for every peer, "
          f"at {s.get('rate', 10)} a second: websocket messages for the bar, lines appended to a file for the "
          "Text source, Server-Sent Events for the Chromium page, all from loopback servers the benchmark runs.",
          "- The Text source is set to `Noto Sans CJK JP` 26 px, chat-log mode, 6 lines; the bar and the page "
          "use the same font and size and also keep 6 lines.",
          "- Memory is the renderer's resident set (VmRSS) and its proportional set size (Pss from "
          "/proc/PID/smaps_rollup: a page shared with OBS, such as the frame pool or a library both map, counts "
          "half) sampled each second (peak), and its high-water mark (VmHWM); for Chromium it is the proportional "
          "set size summed over its processes.",
          "- Latency probes: 30 per row, one comment at a time, alone and (bar only) among 10 comments/s.",
          "- Raw figures (every 1-s sample, every probe) are in `.build-bench-run/results.json` after a run.", "")
    soak = res.get("soak")
    if soak:
        p.add(*soak_section(soak))
    p.add(*comparison_section(res, res.get("before")))
    # The packaging section (make bench-packaging) is measured elsewhere: kept on every regeneration.
    packaging = os.path.join(os.path.dirname(out_md) or ".", "benchmarks-packaging.md")
    if os.path.exists(packaging):
        p.add(open(packaging).read().rstrip("\n"), "")
    os.makedirs(os.path.dirname(out_md) or ".", exist_ok=True)
    with open(out_md, "w") as f:
        f.write(p.text())


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("results")
    ap.add_argument("--out", default="docs/benchmarks.md")
    ap.add_argument("--images", default="docs/images")
    ap.add_argument("--soak", help="Tests/bench/soak.py's --json-out (a long stream's memory)")
    ap.add_argument("--before", help="the previous run's folder (its results.json and soak.json): a before column")
    ap.add_argument("--make-started", type=float, help="unix time `make bench` started, to report its whole duration")
    args = ap.parse_args()
    with open(args.results) as f:
        res = json.load(f)
    if args.soak and os.path.exists(args.soak):
        with open(args.soak) as f:
            res["soak"] = json.load(f)
    if args.before and os.path.exists(os.path.join(args.before, "results.json")):
        with open(os.path.join(args.before, "results.json")) as f:
            res["before"] = json.load(f)
        if os.path.exists(os.path.join(args.before, "soak.json")):
            with open(os.path.join(args.before, "soak.json")) as f:
                res["before"]["soak"] = json.load(f)
    if args.make_started:
        import time
        res["make_total_s"] = time.time() - args.make_started
    write_page(res, args.out, args.images)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
