#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The overlay on real X (issue 24): Xvfb with openbox managing it, a full-screen window of a
known colour that logs its clicks and focus, and `commentbar overlay --service demo`.
  - the whole-screen screenshot shows the bar at the chosen corner and scale above the
    full-screen window, and the window's colour everywhere else;
  - a click on the overlay lands in the full-screen window; the focus never moves to it;
  - raising the full-screen window again leaves the overlay above it;
  - killing the window manager, losing the display, or starting with no display at all leaves
    the renderer publishing frames (the pool's sequence keeps growing), with one log line.
    overlay_x11_test.py --renderer BIN --helpers DIR --work DIR
Prints "ok"/"FAIL" lines and "N passed, M failed"; exits non-zero on a failure."""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

from overlay.xsession import HEIGHT, WIDTH, PoolWatch, XSession, outside_share, region_stats
from support.checks import check, finish
from support.processes import stop, wait_for

GAME = (0x20, 0xA0, 0x40)
FRAME = (1280, 360)  # the settings table's default source size


def expected_rect(corner, scale, margin):
    w, h = FRAME[0] * scale // 100, FRAME[1] * scale // 100
    x = margin if corner.endswith("left") else WIDTH - w - margin
    y = margin if corner.startswith("top") else HEIGHT - h - margin
    return (x, y, w, h)


class OverlayRun:
    def __init__(self, args, env, name, options):
        self.log_path = os.path.join(args.work, f"{name}.log")
        env = dict(env, COMMENTBAR_OVERLAY_DIR=os.path.abspath(args.helpers))
        self.process = subprocess.Popen([args.renderer, "overlay", "--service", "demo", "--stream", "demo"] + options,
                                        env=env, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "wb"))
        self.pool = wait_for(lambda: PoolWatch(self.process.pid) if PoolWatch(self.process.pid).path else None)

    def sequence(self):
        return self.pool.sequence() if self.pool else None

    def frames_flow(self, seconds=2.5):
        before = self.sequence() or 0
        time.sleep(seconds)
        after = self.sequence() or 0
        return after > before, f"sequence {before} -> {after}"

    def log_lines(self):
        with open(self.log_path, errors="replace") as f:
            return f.read().splitlines()

    def stop(self):
        stop(self.process, signal.SIGINT)


def overlay_window(x):
    def shown():
        windows = [w for w in x.windows_named("Comment Bar overlay") if x.viewable(w)]
        return windows[0] if windows else None
    return wait_for(shown, 15)


def check_placement(x, run, corner, scale, margin, shot_name):
    window = overlay_window(x)
    if not check(window, f"{corner} {scale}%: the overlay window is shown"):
        print("\n".join(run.log_lines()[-10:]))
        return None, None
    rect = expected_rect(corner, scale, margin)
    geometry = wait_for(lambda: x.geometry(window) if x.geometry(window) == rect else None, 3) or x.geometry(window)
    check(geometry == rect, f"{corner} {scale}%: the window is at the corner, the frame scaled",
          f"{geometry} expected {rect}")
    time.sleep(0.5)
    shot = x.screenshot(os.path.join(x.work, shot_name))
    green_inside, bright_inside = region_stats(shot, rect, GAME)
    check(green_inside < 0.02, f"{corner} {scale}%: the screenshot shows the overlay above the full-screen window",
          f"{green_inside:.1%} of its area has the window's colour")
    check(bright_inside > 0.002, f"{corner} {scale}%: the bar's text is drawn in it", f"{bright_inside:.2%} light pixels")
    outside = outside_share(shot, rect, GAME)
    check(outside > 0.995, f"{corner} {scale}%: the window's colour everywhere else", f"{outside:.2%}")
    return window, rect


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--renderer", required=True)
    parser.add_argument("--helpers", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    args.renderer = os.path.abspath(args.renderer)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    x = XSession(args.work)
    try:
        check(x.start_wm(), "openbox manages the screen")
        game = x.start_game("%02x%02x%02x" % GAME)
        check(x.geometry(game) == (0, 0, WIDTH, HEIGHT), "the test window is full screen")

        run = OverlayRun(args, x.env, "overlay-top-left", ["--corner", "top_left", "--scale", "50", "--margin", "24"])
        window, rect = check_placement(x, run, "top_left", 50, 24, "overlay-top-left.png")
        if window:
            check(x.override_redirect(window), "no window manager frames, lists or focuses it (override-redirect)")
            # A click in the middle of the overlay.
            cx, cy = rect[0] + rect[2] // 2, rect[1] + rect[3] // 2
            clicks_before = len([l for l in x.game_lines() if l.startswith("click")])
            x.run(["xdotool", "mousemove", str(cx), str(cy), "click", "1"])
            got = wait_for(lambda: [l for l in x.game_lines() if l.startswith("click")][clicks_before:], 3)
            check(got and got[0] == f"click {cx} {cy} 1", "a click on the overlay lands in the full-screen window",
                  f"{got}")
            focus = x.focused()
            check(focus != window, "the focus is not on the overlay", f"focus {focus}, overlay {window}")
            check(focus == game, "the full-screen window keeps the focus", f"focus {focus}, game {game}")
            # The game raises itself again (as a game does on focus): the overlay comes back on top.
            x.run(["xdotool", "windowactivate", "--sync", str(game)])
            x.run(["xdotool", "windowraise", str(game)])
            time.sleep(0.7)
            shot = x.screenshot(os.path.join(args.work, "after-raise.png"))
            green, _ = region_stats(shot, rect, GAME)
            check(green < 0.02, "raising the full-screen window leaves the overlay above it", f"{green:.1%} covered")
            check(x.focused() != window, "the focus is still not on the overlay")

            ok, detail = run.frames_flow()
            check(ok, "frames flow with the overlay on", detail)
            x.kill_wm()
            ok, detail = run.frames_flow()
            check(ok, "the window manager killed: the renderer keeps publishing frames", detail)
            check(x.viewable(window), "the window manager killed: the overlay stays")
            check(run.process.poll() is None, "the renderer is still running")
        run.stop()
        check(wait_for(lambda: not x.windows_named("Comment Bar overlay"), 5) is True or
              not [w for w in x.windows_named("Comment Bar overlay") if x.viewable(w)],
              "the overlay goes with the renderer")

        # Another corner and scale, under a fresh window manager.
        check(x.start_wm(), "openbox manages the screen again")
        run = OverlayRun(args, x.env, "overlay-bottom-right",
                         ["--corner", "bottom_right", "--scale", "25", "--margin", "10", "--opacity", "100"])
        check_placement(x, run, "bottom_right", 25, 10, "overlay-bottom-right.png")
        run.stop()
    finally:
        x.close()

    # No display at all: one clear line, frames flow, the renderer keeps trying quietly.
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    run = OverlayRun(args, env, "overlay-no-display", [])
    ok, detail = run.frames_flow(4)
    check(ok, "no display: the renderer publishes frames", detail)
    check(run.process.poll() is None, "no display: the renderer runs on")
    lines = [l for l in run.log_lines() if "cannot open the X display" in l]
    check(len(lines) == 1, "no display: said once in the log", f"{lines}")
    run.stop()

    # The display goes away under a running overlay.
    x = XSession(args.work)
    try:
        run = OverlayRun(args, x.env, "overlay-display-gone", [])
        check(overlay_window(x), "a display to lose: the overlay is shown")
        x.xvfb.kill()
        ok, detail = run.frames_flow(3)
        check(ok, "display gone: the renderer keeps publishing frames", detail)
        lines = [l for l in run.log_lines() if "overlay:" in l and "lost" in l]
        check(len(lines) == 1, "display gone: one line in the log", f"{lines}")
        check(run.process.poll() is None, "display gone: the renderer runs on")
        run.stop()
    finally:
        x.close()

    return finish()


if __name__ == "__main__":
    sys.exit(main())
