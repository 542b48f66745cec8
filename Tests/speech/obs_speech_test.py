# SPDX-License-Identifier: GPL-2.0-or-later
"""Speech in real OBS (headless, over obs-websocket): a Comment Bar with `speech` on and a file
feed is recorded (StartRecord/StopRecord) and the recording's audio, decoded with ffmpeg, is loud
after each comment and silent between them; with `speech` off it is silent throughout.
    obs_speech_test.py --plugin SO --data DIR --renderer BIN [--bench OUT.json]
With --bench it also measures (figures only, no verdict): comment to first audio sample in OBS
(the shim's COMMENTBAR_SPEECH_TRACE lines), the renderer's CPU while reading 2 comments/s, and
its memory with speech on and off. Prints "ok"/"FAIL" lines and "N passed, M failed". In `make
check` it shares one OBS with the other real-OBS tests (obs/shared_obs.py).
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

from obs import shared_obs
from speech import fakes
from support.checks import check

NAME = "speech in real OBS"
RATE = 8000  # the decoded audio's rate: enough to tell loud from silent
WINDOW = 0.1
TOLERANCE = 0.5  # seconds: how far a sound's time in the recording may be from the wall clock's


def fixture(path, times, prefix, texts=None):
    with open(path, "w") as f:
        f.write(json.dumps({"type": "recording", "time": 1700000000}) + "\n")
        for index, at in enumerate(times):
            text = texts[index] if texts else f"comment number {index + 1}"
            f.write(json.dumps({"type": "comment", "at": at, "id": f"{prefix}{index}", "user": "viewer",
                                "text": text}) + "\n")


def trigger_hotkey(obs, name):
    """Presses a hotkey as OBS's own hotkey router does (obs-websocket's TriggerHotkeyByName:
    the first hotkey of that name, so only one Comment Bar may exist while it is used)."""
    obs.request("TriggerHotkeyByName", {"hotkeyName": name})


def loud_between(levels, start, end):
    return max(levels[int(start / WINDOW):int(end / WINDOW)], default=0)


def bursts(levels, quiet=0.002, gap=0.8):
    """The recording's sounds as (start, end) seconds: runs of windows louder than `quiet`, runs
    less than `gap` apart (a reading's pauses between words) counted as one."""
    found = []
    for index, level in enumerate(levels):
        if level < quiet:
            continue
        at = index * WINDOW
        if found and at - found[-1][1] < gap:
            found[-1] = (found[-1][0], at + WINDOW)
        else:
            found.append((at, at + WINDOW))
    return found


def start_recording(obs):
    """Starts recording; returns the monotonic time of the recording's first moment: now less the
    duration OBS says it has recorded. (The moment its output was seen active is later by however
    long OBS took to answer: about a second when other builds and tests load the machine, which
    moved every window this test times.)"""
    obs.request("StartRecord")
    for _ in range(100):
        status = obs.request("GetRecordStatus")
        if status.get("outputActive"):
            return time.monotonic() - max(0, status.get("outputDuration") or 0) / 1000
        time.sleep(0.05)
    return time.monotonic()


def stop_recording(obs):
    path = obs.request("StopRecord").get("outputPath")
    for _ in range(100):
        if not obs.request("GetRecordStatus").get("outputActive"):
            break
        time.sleep(0.1)
    return path


def record(obs, seconds):
    start = start_recording(obs)
    time.sleep(seconds)
    return start, stop_recording(obs)


def loudness(path):
    """RMS of each 100 ms window of the recording's audio, as a fraction of full scale."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-vn", "-ac", "1", "-ar", str(RATE), "-f", "s16le", "-"],
                         capture_output=True, check=True).stdout
    samples = memoryview(raw).cast("h")
    step = int(RATE * WINDOW)
    out = []
    for start in range(0, len(samples) - step + 1, step):
        chunk = samples[start:start + step]
        out.append((sum(s * s for s in chunk) / step) ** 0.5 / 32768)
    return out


def renderer_pid(obs_pid):
    for children in glob.glob(f"/proc/{obs_pid}/task/*/children"):
        for pid in open(children).read().split():
            try:
                if os.path.basename(os.readlink(f"/proc/{pid}/exe")) == "commentbar":
                    return int(pid)
            except OSError:
                pass
    return None


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pid):
    values = {}
    for line in open(f"/proc/{pid}/smaps_rollup"):
        name, _, rest = line.partition(":")
        if name in ("Rss", "Pss"):
            values[name] = int(rest.split()[0])
    return values


def environment(work, cleanup, args):
    return {"COMMENTBAR_SPEECH_TRACE": "1"}


def run(obs, work, args, env, cleanup):
    obs.request("SetRecordDirectory", {"recordDirectory": work}, check=False)
    base = {"service": "file", "width": 320, "height": 64, "speech_engine": "espeak"}

    # Speech on: three comments, 6 s apart.
    times = [3, 9, 15]
    on_fixture = os.path.join(work, "on.jsonl")
    fixture(on_fixture, times, "on")
    rec_start = start_recording(obs)
    # The source is made somewhere between the request and its answer: a reading may begin no
    # earlier than its comment after the first, and must begin within 3 s of its comment after the
    # second. The recording's start is known to a few video frames (OBS counts its duration in
    # frames, and a loaded machine lags them) and a sound to a 100 ms window: TOLERANCE for both.
    asked = time.monotonic() - rec_start
    obs.create_input("Speech Bar", "comment_bar_source", {**base, "stream_id": on_fixture, "speech": True})
    created = time.monotonic() - rec_start
    time.sleep(times[-1] + 4)
    path = stop_recording(obs)
    levels = loudness(path)
    loud = 0.01
    for at in times:
        after = levels[int((created + at) / WINDOW):int((created + at + 3) / WINDOW)]
        check(max(after, default=0) > loud, f"speech on: loud within 3 s after the comment at {at} s",
              f"peak RMS {max(after, default=0):.3f}")
    # Silent before, between and after: every sound in the recording is one of the three readings,
    # each begun within 3 s of its comment and over before the next comment (a reading takes about
    # 2 s). Timed from the sounds themselves, not from fixed windows: a renderer that starts a
    # second late on a loaded machine moves every reading by that second.
    sounds = bursts(levels)
    heard = ", ".join(f"{start - asked:.1f}-{end - asked:.1f}" for start, end in sounds)
    check(len(sounds) == len(times), f"speech on: {len(times)} sounds, one per comment, silence around them",
          f"sounds at {heard} s after the source was asked for (comments at {times}; OBS answered after "
          f"{created - asked:.2f} s)")
    for (start, end), at, following in zip(sounds, times, times[1:] + [times[-1] + 6]):
        check(asked + at - TOLERANCE <= start <= created + at + 3 and end <= created + following - 0.2,
              f"speech on: the reading of the comment at {at} s begins within 3 s and ends before the next",
              f"{start - asked:.1f}-{end - asked:.1f} s after the source was asked for")
    traces = [float(m) for m in re.findall(r"speech trace: first sample ([0-9.]+) ms",
                                            open(obs.log_path(), errors="replace").read())]
    check(len(traces) == len(times), "the shim's trace saw each comment's first sample", f"{traces}")
    # eSpeak NG runs as a child process (`espeak-ng`): viewer text never reaches a library in the
    # renderer, so a crash in the engine cannot take the bar with it.
    pid = renderer_pid(obs.pid)
    mapped = open(f"/proc/{pid}/maps").read() if pid else ""
    check(pid and "libespeak" not in mapped, "the renderer that spoke has no libespeak-ng in its memory",
          f"pid {pid}")
    obs.remove_input("Speech Bar")

    # Speech off: the same kind of bar, silent.
    off_fixture = os.path.join(work, "off.jsonl")
    fixture(off_fixture, [2, 5, 8], "off")
    obs.create_input("Quiet Bar", "comment_bar_source", {**base, "stream_id": off_fixture, "speech": False})
    _, off_path = record(obs, 11)
    off_levels = loudness(off_path)
    check(off_levels and max(off_levels) < 0.002, "speech off: the recording is silent",
          f"peak RMS {max(off_levels, default=0):.4f} over {len(off_levels)} windows")
    obs.remove_input("Quiet Bar")

    # A VOICEVOX engine that stalls: one status line, then reading goes on once it answers.
    engine = fakes.Voicevox().start()
    cleanup.add(engine.stop)
    engine.mode = "stall"
    stall_fixture = os.path.join(work, "stall.jsonl")
    fixture(stall_fixture, [1, 3, 16], "stall")
    obs.create_input("Stalled Bar", "comment_bar_source", {**base, "stream_id": stall_fixture, "speech": True,
                                                           "speech_engine": "voicevox",
                                                           "speech_server": engine.address})
    time.sleep(14)
    engine.mode = "ok"
    time.sleep(6)
    text = open(obs.log_path(), errors="replace").read()
    problems = re.findall(r"speech \(voicevox\): [^\n]*", text)
    check(len(problems) == 1, "a stalled engine makes one status line in the OBS log", f"{problems}")
    check(engine.texts == ["viewer: comment number 3"], "reading goes on: the next comment reaches the engine once it answers",
          f"{engine.texts}")
    obs.remove_input("Stalled Bar")

    hotkeys(obs, work, base)
    monitor_only(obs, work, base)

    if args.bench:
        bench(obs, work, base, traces, args.bench)


def hotkeys(obs, work, base):
    """The source's hotkeys, pressed through OBS's hotkey router: "Pause reading" holds the
    comments (silence) until pressed again, then they are read; "Skip reading" cuts the item
    being read short."""
    long_text = " ".join(["this comment is long enough to be read for many seconds"] * 5)
    path = os.path.join(work, "hotkeys.jsonl")
    fixture(path, [3, 12], "hot", ["paused comment", long_text])
    rec_start = start_recording(obs)
    obs.create_input("Hotkey Bar", "comment_bar_source", {**base, "stream_id": path, "speech": True,
                                                          "speech_names": False, "speech_max_chars": 400})
    created = time.monotonic() - rec_start
    names = obs.request("GetHotkeyList").get("hotkeys", [])
    check("comment_bar.skip_reading" in names and "comment_bar.pause_reading" in names,
          "the source registers its two reading hotkeys with OBS", f"{[n for n in names if 'comment_bar' in n]}")

    def at(seconds):  # sleeps until `seconds` after the source was created
        time.sleep(max(0, rec_start + created + seconds - time.monotonic()))

    at(1)
    trigger_hotkey(obs, "comment_bar.pause_reading")
    at(7)
    trigger_hotkey(obs, "comment_bar.pause_reading")
    at(15)
    trigger_hotkey(obs, "comment_bar.skip_reading")
    at(22)
    levels = loudness(stop_recording(obs))
    obs.remove_input("Hotkey Bar")
    paused = loud_between(levels, created + 3, created + 7 - TOLERANCE)
    check(paused < 0.002, "pause reading: silent while paused though a comment came", f"peak RMS {paused:.4f}")
    resumed = loud_between(levels, created + 7, created + 10)
    check(resumed > 0.01, "pressed again: the held comment is read", f"peak RMS {resumed:.3f}")
    reading = loud_between(levels, created + 12, created + 15)
    skipped = loud_between(levels, created + 15.8, created + 21.5)
    check(reading > 0.01 and skipped < 0.002, "skip reading: the long comment stops at once",
          f"peak RMS {reading:.3f} before the key, {skipped:.4f} after (it reads for about 15 s unskipped)")


def monitor_only(obs, work, base):
    """Monitor Only in OBS's mixer: the source still makes its audio (the shim hands each
    comment's samples to OBS), and the stream and recordings carry none of it."""
    path = os.path.join(work, "monitor.jsonl")
    fixture(path, [2, 5], "mon")
    log = obs.log_path()
    traces_before = len(re.findall(r"speech trace: first sample", open(log, errors="replace").read()))
    obs.create_input("Monitor Bar", "comment_bar_source", {**base, "stream_id": path, "speech": True})
    obs.request("SetInputAudioMonitorType", {"inputName": "Monitor Bar",
                                             "monitorType": "OBS_MONITORING_TYPE_MONITOR_ONLY"})
    monitor = obs.request("GetInputAudioMonitorType", {"inputName": "Monitor Bar"}).get("monitorType")
    _, recorded = record(obs, 9)
    levels = loudness(recorded)
    traces = len(re.findall(r"speech trace: first sample", open(log, errors="replace").read())) - traces_before
    obs.remove_input("Monitor Bar")
    check(monitor == "OBS_MONITORING_TYPE_MONITOR_ONLY" and traces == 2,
          "Monitor Only: the source still handed each comment's audio to OBS", f"{monitor}, {traces} items")
    check(levels and max(levels) < 0.002, "Monitor Only: the recording (what the stream gets) is silent",
          f"peak RMS {max(levels, default=0):.4f} over {len(levels)} windows")


def bench(obs, work, base, first_traces, out):
    """Figures only: latency of 20 comments 3 s apart, CPU at 2 comments/s, memory on vs off."""
    results = {}
    spaced = os.path.join(work, "spaced.jsonl")
    fixture(spaced, [2 + 3 * i for i in range(20)], "lat")
    log = obs.log_path()
    seen_before = len(re.findall(r"speech trace: first sample", open(log, errors="replace").read()))
    obs.create_input("Latency Bar", "comment_bar_source", {**base, "stream_id": spaced, "speech": True})
    time.sleep(2 + 3 * 20 + 2)
    traces = [float(m) for m in re.findall(r"speech trace: first sample ([0-9.]+) ms",
                                            open(log, errors="replace").read())][seen_before:]
    obs.remove_input("Latency Bar")
    traces.sort()
    if traces:
        results["latency_ms"] = {"count": len(traces), "p50": statistics.median(traces),
                                 "p99": traces[min(len(traces) - 1, int(round(0.99 * (len(traces) - 1))))]}
    for speech in (True, False):
        busy = os.path.join(work, f"busy-{speech}.jsonl")
        fixture(busy, [1 + 0.5 * i for i in range(80)], f"busy{speech}")
        name = f"Busy Bar {speech}"
        obs.create_input(name, "comment_bar_source", {**base, "stream_id": busy, "speech": speech})
        time.sleep(6)
        pid = renderer_pid(obs.pid)
        c0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(20)
        cpu = (cpu_seconds(pid) - c0) / (time.monotonic() - t0)
        results[f"speech_{'on' if speech else 'off'}"] = {"cpu_percent": round(100 * cpu, 1), **memory(pid)}
        obs.remove_input(name)
        time.sleep(1)
    with open(out, "w") as f:
        json.dump(results, f, indent=2)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    sys.exit(shared_obs.main([sys.modules[__name__]]))
