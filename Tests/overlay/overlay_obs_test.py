#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The overlay in real OBS (issue 24): a Comment Bar source with `overlay` on shows its bar in a
click-through window at the chosen corner; SetInputSettings of overlay_corner / overlay_scale
over obs-websocket moves and resizes that window within a second; `overlay` off removes it; the
source keeps making frames in OBS when the overlay's display connection is refused.
    overlay_obs_test.py --plugin SO --data DIR --renderer BIN --helpers DIR
Prints "ok"/"FAIL" lines and "N passed, M failed"; exits non-zero on a failure."""
import os
import shutil
import subprocess
import sys
import time

from obs import shared_obs
from support.checks import check

NAME = "the overlay in real OBS"
WIDTH, HEIGHT = 800, 240  # the source's size; the Xvfb screen of support.obs.session is 1920x1080
SCREEN = (1920, 1080)


def expected(corner, scale, margin):
    w, h = WIDTH * scale // 100, HEIGHT * scale // 100
    x = margin if corner.endswith("left") else SCREEN[0] - w - margin
    y = margin if corner.startswith("top") else SCREEN[1] - h - margin
    return (x, y, w, h)


class Windows:
    def __init__(self, display):
        self.env = dict(os.environ, DISPLAY=display)

    def run(self, args):
        return subprocess.run(args, env=self.env, capture_output=True, text=True).stdout

    def overlay_geometries(self):
        found = []
        for window in self.run(["xdotool", "search", "--name", "Comment Bar overlay"]).split():
            info = self.run(["xwininfo", "-id", window])
            if "IsViewable" not in info:
                continue
            values = [int(line.split(":")[1]) for line in info.splitlines()
                      if line.strip().startswith(("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height"))]
            found.append(tuple(values))
        return found

    def wait_geometry(self, wanted, seconds):
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            if self.overlay_geometries() == wanted:
                return True, time.monotonic() - start
            time.sleep(0.05)
        return False, time.monotonic() - start


def frames_flow(obs, source, seconds=2.0):
    """Two screenshots of the source `seconds` apart differ (its clock ticks): OBS still gets frames."""
    _, _, first = obs.screenshot(source, WIDTH, HEIGHT)
    time.sleep(seconds)
    _, _, second = obs.screenshot(source, WIDTH, HEIGHT)
    return first is not None and second is not None and first != second


def environment(work, cleanup, args):
    return {"COMMENTBAR_OVERLAY_DIR": os.path.abspath(args.helpers)}


def run(obs, work, args, env, cleanup):
    windows = Windows(obs.display)
    settings = {"service": "demo", "stream_id": "demo", "width": WIDTH, "height": HEIGHT, "overlay": False}
    obs.create_input("Comment Bar", "comment_bar_source", settings)
    time.sleep(2)
    check(windows.overlay_geometries() == [], "overlay off (the default): no window")

    obs.request("SetInputSettings", {"inputName": "Comment Bar", "inputSettings": {
        "overlay": True, "overlay_corner": "top_left", "overlay_scale": 50}})
    ok, took = windows.wait_geometry([expected("top_left", 50, 24)], 10)
    check(ok, "overlay on: the bar's window at the top left, half size", f"{windows.overlay_geometries()} after {took:.2f} s")

    obs.request("SetInputSettings", {"inputName": "Comment Bar", "inputSettings": {"overlay_corner": "bottom_right"}})
    ok, took = windows.wait_geometry([expected("bottom_right", 50, 24)], 1.0)
    check(ok, "overlay_corner bottom_right moves it within a second", f"{windows.overlay_geometries()} after {took:.2f} s")

    obs.request("SetInputSettings", {"inputName": "Comment Bar", "inputSettings": {"overlay_scale": 100}})
    ok, took = windows.wait_geometry([expected("bottom_right", 100, 24)], 1.0)
    check(ok, "overlay_scale 100 resizes it within a second", f"{windows.overlay_geometries()} after {took:.2f} s")

    shot = os.path.join(work, "screen.png")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "x11grab", "-draw_mouse", "0", "-video_size",
                    f"{SCREEN[0]}x{SCREEN[1]}", "-i", obs.display, "-frames:v", "1", shot], check=False)
    if os.path.exists(shot):
        shutil.copy(shot, os.path.join(args.helpers, "test-obs-screen.png"))

    check(frames_flow(obs, "Comment Bar"), "with the overlay on, the source still makes frames in OBS")

    obs.request("SetInputSettings", {"inputName": "Comment Bar", "inputSettings": {"overlay": False}})
    ok, took = windows.wait_geometry([], 1.0)
    check(ok, "overlay off removes the window within a second", f"{windows.overlay_geometries()} after {took:.2f} s")
    check(frames_flow(obs, "Comment Bar"), "with the overlay off, the source makes frames")
    log = open(obs.log_path(), errors="replace").read() if obs.log_path() else ""
    check("overlay on: commentbar-overlay-x11" in log, "the OBS log says the overlay started")


if __name__ == "__main__":
    sys.exit(shared_obs.main([sys.modules[__name__]]))
