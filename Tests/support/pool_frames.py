# SPDX-License-Identifier: GPL-2.0-or-later
"""`commentbar serve` on a memfd frame pool made here as the OBS shim makes it (docs/pool-abi.md),
with every published frame kept with the time it was seen: the tests read what the bar showed,
frame by frame. The pool is only watched, never taken from (no hand-off exchange): with no reader
taking slots, the renderer alternates between two slots, so the slot just published stays as it
is until the next one; a copy is kept only when the sequence did not move while it was copied.

    bar = ServedBar("path/to/commentbar", {**QUIET, "service": …}, env={…})"""
import fcntl
import json
import mmap
import os
import struct
import subprocess
import threading
import time

MAGIC = 0x4C4F4F5052414242
HEADER_SIZE = 4096
SLOTS = 3
F_ADD_SEALS, F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW = 1033, 0x1, 0x2, 0x4

# What every test bar shows: nothing that changes by itself (no clock, no mic badge), so each
# frame is a change of the rows.
QUIET = {"show_clock": False, "show_viewers": False, "show_gifts": False, "show_mic": False,
         "show_avatar": False, "show_badges": False, "bg_opacity": 100, "bg_color": 0xFF000000,
         "text_color": 0xFFFFFFFF, "fps": 30, "highlight_first": True,
         # No viewer memory: its first-time label (a viewer new to the channel) would widen a row.
         "remember": False}


class ServedBar:
    def __init__(self, binary, settings, width=640, height=240, env=None):
        """`binary`: the renderer to run; `settings`: its settings (width and height added);
        `env`: added to this process's environment."""
        self.width, self.height, self.stride = width, height, width * 4
        self.slot_size = (self.stride * height + 4095) // 4096 * 4096
        fd = os.memfd_create("commentbar-pool", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        os.ftruncate(fd, HEADER_SIZE + SLOTS * self.slot_size)
        self.pool = mmap.mmap(fd, HEADER_SIZE + SLOTS * self.slot_size)
        struct.pack_into("<QIIIIIIQQI", self.pool, 0, MAGIC, 1, HEADER_SIZE, width, height, self.stride, SLOTS,
                         self.slot_size, HEADER_SIZE + SLOTS * self.slot_size, 1)
        fcntl.fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
        os.set_inheritable(fd, True)
        self.frames = []  # (monotonic time seen, sequence, pixels)
        self.log = []
        self.proc = subprocess.Popen([binary, "serve", "--pool-fd", str(fd)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=[fd],
                                     env={**os.environ, **(env or {})})
        os.close(fd)
        self.stop_watching = threading.Event()
        threading.Thread(target=self._read_log, daemon=True).start()
        threading.Thread(target=self._watch, daemon=True).start()
        self.send({"settings": {"width": width, "height": height, **settings}})
        self.send({"active": True})

    def send(self, line):
        self.proc.stdin.write((json.dumps(line) + "\n").encode())
        self.proc.stdin.flush()

    def _read_log(self):
        for line in self.proc.stdout:
            self.log.append(line.decode(errors="replace").rstrip())

    def _watch(self):
        seen = 0
        while not self.stop_watching.is_set():
            sequence, = struct.unpack_from("<Q", self.pool, 56)
            if sequence != seen:
                slots = struct.unpack_from("<3Q", self.pool, 72)
                if sequence in slots:
                    start = HEADER_SIZE + slots.index(sequence) * self.slot_size
                    pixels = bytes(self.pool[start:start + self.stride * self.height])
                    if struct.unpack_from("<Q", self.pool, 56)[0] == sequence:
                        self.frames.append((time.monotonic(), sequence, pixels))
                seen = sequence
            time.sleep(0.002)

    def wait_log(self, text, timeout=45):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in self.log):
                return
            time.sleep(0.05)
        raise AssertionError(f"no log line with {text!r} within {timeout} s: {self.log[-20:]}")

    def stop(self):
        self.stop_watching.set()
        self.proc.stdin.close()
        code = self.proc.wait(timeout=15)
        return code

    # -- reading pixels (ARGB32 premultiplied, little-endian: B, G, R, A) -----------------------
    # Below the header (its LIVE badge has white text too) at the default 26 px font.
    COMMENTS_TOP = 60

    def bright_rows(self, pixels):
        """The pixel rows of the comments' area that hold white text (the text colour), top to bottom."""
        rows = []
        for y in range(self.COMMENTS_TOP, self.height):
            line = pixels[y * self.stride:(y + 1) * self.stride]
            if any(line[x] > 200 and line[x + 1] > 200 and line[x + 2] > 200 for x in range(0, self.stride, 8)):
                rows.append(y)
        return rows

    def text_lines(self, pixels):
        """Bands of rows holding text: [(top, bottom)], top to bottom."""
        bands = []
        for y in self.bright_rows(pixels):
            if bands and y - bands[-1][1] <= 3:
                bands[-1][1] = y
            else:
                bands.append([y, y])
        return [tuple(b) for b in bands]

    def right_edge(self, pixels, band):
        """The rightmost white pixel in a band of rows."""
        edge = -1
        for y in range(band[0], band[1] + 1):
            line = pixels[y * self.stride:(y + 1) * self.stride]
            for x in range(self.width - 1, edge, -1):
                i = x * 4
                if line[i] > 200 and line[i + 1] > 200 and line[i + 2] > 200:
                    edge = x
                    break
        return edge

    def has_tint(self, pixels, hue_check):
        """Whether any pixel passes hue_check(b, g, r) (a highlight pill's colour)."""
        return any(hue_check(pixels[i], pixels[i + 1], pixels[i + 2]) for i in range(0, len(pixels), 16))
