#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the "Reading the chat aloud" section of docs/benchmarks.md from the JSON that
`Tests/speech/obs_speech_test.py --bench` wrote (one run; nothing copied from elsewhere).

    speech_page.py SPEECH.json --renderer BIN --page docs/benchmarks.md
"""
import argparse
import datetime
import json
import subprocess

from page_section import write_section

BEGIN, END = "<!-- speech-bench: written by Tests/bench/speech_page.py -->", "<!-- /speech-bench -->"


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def package_version(name):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True, text=True,
                              check=False).stdout.strip() or "?"
    except OSError:
        return "?"


def section(results, renderer):
    on, off = results.get("speech_on", {}), results.get("speech_off", {})
    latency = results.get("latency_ms")
    if latency:
        verdict = "**met**" if latency["p50"] <= 300 else "**missed**"
        latency_cell = f"p50 {latency['p50']:.1f} ms, p99 {latency['p99']:.1f} ms ({latency['count']} items)"
    else:
        verdict, latency_cell = "not measured (no trace line in the OBS log)", "–"
    added = on.get("Rss", 0) - off.get("Rss", 0)
    lines = [
        BEGIN,
        "## Reading the chat aloud (issue 20)",
        "",
        f"Measured on {datetime.date.today().isoformat()} by `make bench` with `Tests/speech/obs_speech_test.py "
        f"--bench`: real OBS under Xvfb, a 320x64 Comment Bar with a `file` feed and eSpeak NG "
        f"({package_version('libespeak-ng1')}); renderer `{renderer}`"
        + (" (a debug build)." if "/debug/" in renderer else "."),
        "",
        "| measure | speech on | speech off | target |",
        "|---|---:|---:|---|",
        f"| item arrival in the renderer → first audio sample handed to OBS, 20 comments 3 s apart | "
        f"{latency_cell} | – | p50 ≤ 300 ms: {verdict} |",
        f"| renderer CPU while reading 2 comments/s (20 s, /proc utime+stime) | {on.get('cpu_percent', '–')} % of a "
        f"core | {off.get('cpu_percent', '–')} % | – |",
        f"| renderer memory while reading 2 comments/s (smaps_rollup) | RSS {mib(on.get('Rss', 0))}, PSS "
        f"{mib(on.get('Pss', 0))} | RSS {mib(off.get('Rss', 0))}, PSS {mib(off.get('Pss', 0))} | nothing added "
        f"when off |",
        "",
        "The latency is the shim's `COMMENTBAR_SPEECH_TRACE` line: from the renderer's `CLOCK_MONOTONIC` mark "
        "when the row reached speech (the ring's `utterance_ns`) to the shim's audio thread handing the first "
        "frame to `obs_source_output_audio`; it includes synthesis and the ring, not the feed's own delay or "
        "OBS's audio buffering. The first item of a bar costs more: libespeak-ng is opened and initialised then. "
        "\"Off\" is the same renderer with `speech` off: libespeak-ng not loaded, no speech thread, the audio "
        "ring's pages never touched; nothing of speech runs, so \"nothing added when off\" is shown by that, "
        f"not by a figure. Speech on added {mib(added)} of RSS here, mostly libespeak-ng and its voice data.",
        END,
    ]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--renderer", required=True)
    ap.add_argument("--page", required=True)
    args = ap.parse_args()
    with open(args.results) as f:
        results = json.load(f)
    text = section(results, args.renderer)
    write_section(args.page, BEGIN, END, text)
    print(text)


if __name__ == "__main__":
    main()
