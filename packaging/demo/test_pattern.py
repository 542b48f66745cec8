#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a 1280x720 colour-bar test pattern PNG (stdlib only): what the demo's bar floats over.

    test_pattern.py OUT.png
"""
import struct
import sys
import zlib

WIDTH, HEIGHT = 1280, 720
# SMPTE-like bars: white, yellow, cyan, green, magenta, red, blue; a grey ramp below.
BARS = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0), (192, 0, 192), (192, 0, 0), (0, 0, 192)]


def row(y):
    if y < HEIGHT * 2 // 3:
        pixels = [BARS[x * len(BARS) // WIDTH] for x in range(WIDTH)]
    else:
        pixels = [(x * 255 // WIDTH,) * 3 for x in range(WIDTH)]
    return b"\x00" + bytes(c for p in pixels for c in p)


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def main():
    data = b"".join(row(y) for y in range(HEIGHT))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(data, 6)) + chunk(b"IEND", b""))
    with open(sys.argv[1], "wb") as f:
        f.write(png)


if __name__ == "__main__":
    main()
