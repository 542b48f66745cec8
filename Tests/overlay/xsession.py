# SPDX-License-Identifier: GPL-2.0-or-later
"""Real X for the overlay tests: Xvfb and openbox (support.xserver), the full-screen test window,
screenshots and window facts through the Debian tools (xdotool, xwininfo, xprop, ffmpeg)."""
import os
import re
import subprocess
import time

from PIL import Image

from support.processes import stop, wait_for
from support.xserver import Xvfb

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH, HEIGHT = 1280, 720


class XSession:
    def __init__(self, work):
        self.work = work
        self.xvfb = Xvfb(work, WIDTH, HEIGHT)
        self.display = self.xvfb.display
        self.env = self.xvfb.env
        self.processes = []
        self.game = None
        self.game_log = os.path.join(work, f"game-{self.display[1:]}.log")

    def spawn(self, args, log, env=None):
        out = open(os.path.join(self.work, log), "ab")
        process = subprocess.Popen(args, env=env or self.env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
        self.processes.append(process)
        return process

    def run(self, args):
        return subprocess.run(args, env=self.env, capture_output=True, text=True)

    def start_wm(self):
        return self.xvfb.start_window_manager()

    def kill_wm(self):
        self.xvfb.kill_window_manager()

    def start_game(self, color="20a040"):
        self.game = self.spawn(["/usr/bin/python3", os.path.join(HERE, "fullscreen_window.py"), "--color", color,
                                "--log", self.game_log], "game.log")
        line = wait_for(lambda: next((l for l in self.game_lines() if l.startswith("window ")), None))
        self.game_window = int(line.split()[1], 16)
        # Full screen: the window covers the whole screen once the WM has honoured the state.
        wait_for(lambda: self.geometry(self.game_window)[2:] == (WIDTH, HEIGHT))
        time.sleep(0.3)
        return self.game_window

    def game_lines(self):
        try:
            with open(self.game_log) as f:
                return [l.strip() for l in f]
        except FileNotFoundError:
            return []

    def windows_named(self, name):
        out = self.run(["xdotool", "search", "--name", name]).stdout.split()
        return [int(w) for w in out]

    def viewable(self, window):
        return "IsViewable" in self.run(["xwininfo", "-id", str(window)]).stdout

    def geometry(self, window):
        """(x, y, width, height) on the screen, or None."""
        out = self.run(["xwininfo", "-id", str(window)]).stdout
        values = {}
        for key in ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height"):
            m = re.search(rf"{key}:\s+(-?\d+)", out)
            if not m:
                return None
            values[key] = int(m.group(1))
        return tuple(values[k] for k in ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height"))

    def override_redirect(self, window):
        return "Override Redirect State: yes" in self.run(["xwininfo", "-id", str(window)]).stdout

    def focused(self):
        out = self.run(["xdotool", "getwindowfocus", "-f"]).stdout.strip()
        return int(out) if out.isdigit() else None

    def screenshot(self, path):
        if os.path.exists(path):
            os.remove(path)
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "x11grab", "-draw_mouse", "0", "-video_size",
                        f"{WIDTH}x{HEIGHT}", "-i", self.display, "-frames:v", "1", path],
                       env=self.env, check=True, capture_output=True)
        return Image.open(path).convert("RGB")

    def close(self):
        for process in reversed(self.processes):
            stop(process, seconds=3)
        self.xvfb.stop()


def region_stats(image, rect, color, step=2):
    """(share of pixels near `color`, share of bright text-like pixels) inside rect (x, y, w, h)."""
    x0, y0, w, h = rect
    px = image.load()
    near = bright = total = 0
    for y in range(max(y0, 0), min(y0 + h, image.height), step):
        for x in range(max(x0, 0), min(x0 + w, image.width), step):
            r, g, b = px[x, y]
            total += 1
            near += abs(r - color[0]) + abs(g - color[1]) + abs(b - color[2]) < 30
            bright += min(r, g, b) > 200
    return near / max(total, 1), bright / max(total, 1)


def outside_share(image, rect, color, margin=3, step=4):
    """Share of the pixels outside rect (grown by margin) near `color`."""
    x0, y0, w, h = rect
    px = image.load()
    near = total = 0
    for y in range(0, image.height, step):
        for x in range(0, image.width, step):
            if x0 - margin <= x < x0 + w + margin and y0 - margin <= y < y0 + h + margin:
                continue
            r, g, b = px[x, y]
            total += 1
            near += abs(r - color[0]) + abs(g - color[1]) + abs(b - color[2]) < 30
    return near / max(total, 1)


class PoolWatch:
    """The frame pool's published sequence, read through /proc from the process that holds the memfd."""

    def __init__(self, pid, name="commentbar-overlay-pool"):
        self.path = None
        fd_dir = f"/proc/{pid}/fd"
        for fd in os.listdir(fd_dir):
            try:
                if name in os.readlink(os.path.join(fd_dir, fd)):
                    self.path = os.path.join(fd_dir, fd)
                    break
            except OSError:
                pass

    def sequence(self):
        if not self.path:
            return None
        with open(self.path, "rb") as f:
            header = f.read(64)
        return int.from_bytes(header[56:64], "little")
