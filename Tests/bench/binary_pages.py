#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Which pages of the renderer's own binary a running process has resident, and why: per ELF
section (from /proc/PID/pagemap, which needs root for the present bits of file pages), and for
.text the part the link order file placed first (linker/commentbar.order: the functions a callgrind
run of `serve` executed) against the rest. A resident page of .text past the ordered part holds no
function `serve` was seen to run: the kernel mapped it around a fault (fault-around maps up to
16 cached neighbours of a faulting page), or the order file is stale. renderer_rss.py
--binary-pages prints this; alone:

    python3 Tests/bench/binary_pages.py PID BINARY [--order linker/commentbar.order] [--json]
"""
import argparse
import json
import os
import re
import struct
import subprocess

PAGE = os.sysconf("SC_PAGE_SIZE")


def sections(binary):
    """[(name, file offset, size)] of the sections the loader maps (SHF_ALLOC, not NOBITS)."""
    out = []
    text = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    for m in re.finditer(r"^\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+\S+\s+(\S*A\S*)\s",
                         text, re.M):
        name, kind, _addr, off, size, _flags = m.groups()
        if kind != "NOBITS" and int(size, 16):
            out.append((name, int(off, 16), int(size, 16)))
    return out


def section_address(binary, name):
    """(address, file offset) of a section."""
    text = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    m = re.search(rf"^\s*\[\s*\d+\]\s+{re.escape(name)}\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s", text, re.M)
    return (int(m.group(1), 16), int(m.group(2), 16)) if m else (None, None)


def ordered_end(binary, order_file):
    """The file offset where the functions of the order file end in .text (lld puts them first)."""
    if not order_file or not os.path.exists(order_file):
        return None
    wanted = set(open(order_file).read().split())
    addr, off = section_address(binary, ".text")
    end = None
    nm = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] in wanted:
            last = int(parts[0], 16) + int(parts[1], 16)
            end = last if end is None or last > end else end
    return None if end is None else end - addr + off


def resident_file_pages(pid, binary):
    """The set of file page numbers of `binary` that PID has mapped and present."""
    real = os.path.realpath(binary)
    present = set()
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in maps:
            parts = line.split()
            if len(parts) < 6 or os.path.realpath(parts[5]) != real:
                continue
            start, end = (int(x, 16) for x in parts[0].split("-"))
            offset = int(parts[2], 16)
            pagemap.seek(start // PAGE * 8)
            entries = pagemap.read((end - start) // PAGE * 8)
            for i in range(len(entries) // 8):
                entry, = struct.unpack_from("<Q", entries, i * 8)
                if entry >> 63 & 1:
                    present.add(offset // PAGE + i)
    return present


def breakdown(pid, binary, order_file=None):
    """KiB resident per section, with .text split at the end of the ordered functions."""
    present = resident_file_pages(pid, binary)
    hot_end = ordered_end(binary, order_file)
    out = {}
    counted = set()
    for name, off, size in sections(binary):
        pages = range(off // PAGE, (off + size + PAGE - 1) // PAGE)
        if name == ".text" and hot_end is not None:
            split = (hot_end + PAGE - 1) // PAGE
            groups = {".text (ordered: functions serve ran)": range(pages.start, split),
                      ".text (the rest)": range(split, pages.stop)}
        else:
            groups = {name: pages}
        for label, span in groups.items():
            new = [p for p in span if p not in counted]
            counted.update(new)
            out[label] = {"resident_kib": sum(1 for p in new if p in present) * PAGE // 1024,
                          "size_kib": len(new) * PAGE // 1024}
    out["(between sections)"] = {"resident_kib": len(present - counted) * PAGE // 1024, "size_kib": 0}
    return out


def print_breakdown(parts):
    for name, d in sorted(parts.items(), key=lambda kv: -kv[1]["resident_kib"]):
        if d["resident_kib"]:
            print(f"    {d['resident_kib'] / 1024:6.1f} MiB of {d['size_kib'] / 1024:6.1f}  {name}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pid", type=int)
    ap.add_argument("binary")
    ap.add_argument("--order", default=os.path.join(os.path.dirname(__file__), "..", "..", "linker", "commentbar.order"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    parts = breakdown(args.pid, args.binary, args.order)
    if args.json:
        print(json.dumps(parts, indent=1))
    else:
        print_breakdown(parts)


if __name__ == "__main__":
    main()
