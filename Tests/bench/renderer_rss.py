#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The renderer's memory without OBS: runs `commentbar serve --pool-fd N` on a memfd pool made
here as the shim makes it (CModules/plugin/frame-pool.c), feeds it settings and `{"active":true}`
on stdin and a chat at RATE comments/s (a WebSocket feed served here, or the demo service), and
after SECONDS reports VmHWM/VmRSS and where the resident pages are (smaps): anonymous memory,
the renderer's own binary, fonts, the pool memfd, shared libraries.

    python3 Tests/bench/renderer_rss.py --renderer .build/release/commentbar --seconds 30
    python3 Tests/bench/renderer_rss.py --renderer ... --env MALLOC_ARENA_MAX=1 --json

The chat is the benchmark's (chat.py), served by the benchmark's WebSocket server (support/websocket.py, over
Debian's python3-websockets).
"""
import argparse
import json
import mmap
import os
import random
import struct
import subprocess
import sys
import time

import binary_pages
from chat import COLORS, TEXTS, USERS
from support.websocket import Server

ORDER_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "linker", "commentbar.order")

# commentbar_pool.h
CB_POOL_MAGIC = 0x4C4F4F5052414242
CB_POOL_VERSION = 1
CB_POOL_HEADER_SIZE = 4096
CB_POOL_SLOTS = 3
F_ADD_SEALS, F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW = 1033, 0x1, 0x2, 0x4

def make_pool(width, height):
    """The memfd as the shim makes it: sized, header written, handoff = 1, sealed."""
    slot_size = (width * 4 * height + 4095) // 4096 * 4096
    pool_size = CB_POOL_HEADER_SIZE + CB_POOL_SLOTS * slot_size
    fd = os.memfd_create("commentbar-pool", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    os.ftruncate(fd, pool_size)
    header = mmap.mmap(fd, CB_POOL_HEADER_SIZE)  # only the header: the slots stay the renderer's pages
    struct.pack_into("<QIIIIIIQQI", header, 0, CB_POOL_MAGIC, CB_POOL_VERSION, CB_POOL_HEADER_SIZE,
                     width, height, width * 4, CB_POOL_SLOTS, slot_size, pool_size, 1)
    import fcntl
    fcntl.fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
    os.set_inheritable(fd, True)
    return fd, header


def pool_progress(header):
    """(producer_pid, sequence, heartbeat_ns)"""
    pid, = struct.unpack_from("<I", header, 52)
    seq, hb = struct.unpack_from("<QQ", header, 56)
    return pid, seq, hb


def private_xdg(env):
    """`env` with XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME and XDG_CACHE_HOME in a new temporary
    folder (returned too, for the caller to remove): the renderer's viewer memory (on by default, a
    SQLite file), its secrets and its picture cache start empty and never touch the user's."""
    import tempfile
    home = tempfile.mkdtemp(prefix="commentbar-bench-xdg.")
    env = dict(env)
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        env[f"XDG_{name}_HOME"] = os.path.join(home, name.lower())
        os.makedirs(env[f"XDG_{name}_HOME"])
    return env, home


def stop_renderer(proc):
    """Closes its stdin (the shim's way to end it) and waits; killed if it lingers."""
    proc.stdin.close()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def classify(path, renderer):
    if not path:
        return "anon"
    if path == "[heap]":
        return "anon"
    if path.startswith("[stack"):
        return "stack"
    if path.startswith("/memfd:commentbar-pool"):
        return "pool memfd"
    if path.startswith("["):
        return "other"
    if os.path.realpath(path) == renderer:
        return "binary"
    if "/fonts/" in path or path.endswith((".ttf", ".otf", ".ttc")) or "fontconfig" in path:
        return "fonts"
    if ".so" in path:
        return "shared libs"
    return "other files"


def smaps_breakdown(pid, renderer):
    """KiB resident per class; for file mappings also the private dirty (copied-on-write) part."""
    out = {}
    detail = {}
    path = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if not parts[0].endswith(":") or "-" in parts[0]:  # a mapping's first line
                path = " ".join(parts[5:]) if len(parts) > 5 else ""
                continue
            key = parts[0][:-1]
            if key in ("Rss", "Anonymous", "Private_Dirty"):
                cls = classify(path, renderer)
                d = out.setdefault(cls, {"Rss": 0, "Anonymous": 0, "Private_Dirty": 0})
                d[key] += int(parts[1])
                if key == "Rss":
                    detail[path] = detail.get(path, 0) + int(parts[1])
    return out, detail


def status(pid):
    vals = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmHWM", "VmRSS", "RssAnon", "RssFile", "RssShmem", "VmSize", "Threads"):
                vals[k] = int(v.split()[0])
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("Pss", "Private_Clean", "Private_Dirty"):
                vals[k] = int(v.split()[0])
    vals["USS"] = vals.pop("Private_Clean", 0) + vals.pop("Private_Dirty", 0)
    return vals


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--renderer", default=".build/release/commentbar")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--rate", type=float, default=10, help="comments a second (websocket feed)")
    ap.add_argument("--service", default="websocket", choices=["websocket", "demo"])
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=360)
    ap.add_argument("--text", default="bench", choices=["bench", "kanji"],
                    help="bench: the benchmark's 20 lines (few distinct glyphs); kanji: 12 random CJK ideographs "
                         "per comment, as a long varied chat would show (the fonts' resident pages grow with it)")
    ap.add_argument("--env", action="append", default=[], help="KEY=VALUE for the renderer's environment")
    ap.add_argument("--top", type=int, default=0, help="also list the N biggest mappings")
    ap.add_argument("--shm-copy", action="store_true",
                    help="run a copy in /dev/shm (tmpfs: 4 KiB pages, no readahead), so the binary's resident "
                         "size does not depend on how its file sits in the page cache (large folios on ext4 "
                         "vary it by ~2 MiB from one copy of the file to the next)")
    ap.add_argument("--wrap", default="", help="a command to run the renderer under, e.g. for the link order file: "
                    "'valgrind --tool=callgrind --demangle=no --callgrind-out-file=cg.out' (memory figures are then "
                    "valgrind's)")
    ap.add_argument("--binary-pages", action="store_true",
                    help="also where the binary's resident pages are, per section, and how much of .text lies past "
                         "the functions of the link order file (binary_pages.py; needs root for pagemap)")
    ap.add_argument("--mark", default="", help="a command run once, MARK_AFTER seconds into the chat ({pid}: the "
                    "renderer's), e.g. 'callgrind_control --dump=start-up {pid}': what ran before is start-up")
    ap.add_argument("--mark-after", type=float, default=5.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    renderer = os.path.realpath(args.renderer)
    if args.shm_copy:
        import shutil
        import tempfile
        copy_dir = tempfile.mkdtemp(prefix="renderer_rss.", dir="/dev/shm")
        renderer = shutil.copy2(renderer, os.path.join(copy_dir, "commentbar"))

    fd, header = make_pool(args.width, args.height)
    server = Server() if args.service == "websocket" else None
    settings = {"avatar_path": "", "background_path": "", "bg_color": 4280161300, "bg_opacity": 78,
                "corner_radius": 20, "font": {"face": "Noto Sans CJK JP", "flags": 0, "size": 26, "style": "Regular"},
                "fps": 30, "height": args.height, "max_lines": 6, "server": "", "service": "demo",
                "show_avatar": True, "show_clock": True, "show_gifts": True, "show_mic": True,
                "show_viewers": True, "stream_id": "", "text_color": 4294967295, "width": args.width}
    if server:
        settings.update(service="websocket", stream_id="bench", server=f"ws://127.0.0.1:{server.port}/bench")
    env, xdg_home = private_xdg(os.environ)
    for kv in args.env:
        k, _, v = kv.partition("=")
        env[k] = v
    log = open(f"/tmp/renderer_rss.{os.getpid()}.log", "wb")
    import shlex
    proc = subprocess.Popen(shlex.split(args.wrap) + [renderer, "serve", "--pool-fd", str(fd)], stdin=subprocess.PIPE, stdout=log,
                            stderr=subprocess.STDOUT, pass_fds=[fd], env=env, start_new_session=True)
    os.close(fd)
    proc.stdin.write((json.dumps({"settings": settings}, separators=(",", ":")) + "\n").encode())
    proc.stdin.write(b'{"active":true}\n')
    proc.stdin.flush()

    t0 = time.monotonic()
    rng = random.Random(5)
    sent = 0
    samples = []
    if server:
        deadline = t0 + (120 if args.wrap else 20)
        while server.client_count() == 0 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        if server.client_count() == 0:
            sys.exit(f"the renderer did not connect to the feed (log: {log.name})")
        server.broadcast(json.dumps({"type": "start", "time": time.time() - 3600}))
        server.broadcast(json.dumps({"type": "viewers", "count": 1234}))
        t0 = time.monotonic()
    next_sample = t0
    marked = not args.mark
    while time.monotonic() - t0 < args.seconds:
        if proc.poll() is not None:
            sys.exit(f"the renderer exited with {proc.returncode} (log: {log.name})")
        now = time.monotonic()
        if server:
            while sent < int((now - t0) * args.rate) + 1:
                i = rng.randrange(len(USERS))
                text = (rng.choice(TEXTS) if args.text == "bench"
                        else "".join(chr(rng.randrange(0x4E00, 0x9FA0)) for _ in range(12)))
                server.broadcast(json.dumps({"type": "comment", "id": f"b{sent}", "user": USERS[i],
                                             "text": text, "color": COLORS[i % len(COLORS)]},
                                            ensure_ascii=False))
                sent += 1
        if not marked and now - t0 >= args.mark_after:
            subprocess.run(shlex.split(args.mark.replace("{pid}", str(proc.pid))), check=True)
            marked = True
        if now >= next_sample:
            samples.append(status(proc.pid)["VmRSS"])
            next_sample += 1
        time.sleep(0.01)

    st = status(proc.pid)
    parts, detail = smaps_breakdown(proc.pid, renderer)
    binary_parts = binary_pages.breakdown(proc.pid, renderer, ORDER_FILE) if args.binary_pages else None
    _, seq, _ = pool_progress(header)
    stop_renderer(proc)
    import shutil
    shutil.rmtree(xdg_home, ignore_errors=True)
    binary_bytes = os.path.getsize(renderer)
    if args.shm_copy:
        os.unlink(renderer)
        os.rmdir(os.path.dirname(renderer))
    result = {"renderer": renderer, "binary_bytes": binary_bytes, "seconds": args.seconds,
              "service": args.service, "comments_sent": sent, "frames": seq, "env": args.env,
              "status_kib": st, "rss_min_max_kib": [min(samples), max(samples)], "rss_samples_kib": samples,
              "smaps_kib": parts, "exit": proc.returncode}
    if binary_parts:
        result["binary_pages_kib"] = binary_parts
    if args.top:
        result["top_mappings_kib"] = sorted(detail.items(), key=lambda kv: -kv[1])[:args.top]
    if args.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return
    mib = lambda k: f"{k / 1024:6.1f}"
    print(f"{args.renderer} ({binary_bytes / 2**20:.1f} MiB), {args.service}, {sent} comments, "
          f"{seq} frames in {args.seconds:g} s, env {args.env or '-'}")
    print(f"VmHWM {mib(st['VmHWM'])} MiB  VmRSS {mib(st['VmRSS'])}  RssAnon {mib(st['RssAnon'])}  "
          f"RssFile {mib(st['RssFile'])}  RssShmem {mib(st['RssShmem'])}  Pss {mib(st['Pss'])}  USS {mib(st['USS'])}  "
          f"threads {st['Threads']}")
    for cls, d in sorted(parts.items(), key=lambda kv: -kv[1]["Rss"]):
        print(f"  {cls:12s} Rss {mib(d['Rss'])} MiB  (anonymous/CoW {mib(d['Anonymous'])})")
    for path, kib in result.get("top_mappings_kib", []):
        print(f"    {mib(kib)}  {path or '[anon]'}")
    if binary_parts:
        print("  the binary's resident pages, by section:")
        binary_pages.print_breakdown(binary_parts)


if __name__ == "__main__":
    main()
