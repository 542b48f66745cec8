#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The overlay on Wayland (issue 24): sway headless (run as a user the test creates), a
full-screen GTK client of a known colour, and `commentbar overlay --service demo`: a grim
screenshot shows the bar on the overlay layer at the chosen corner and scale, above the
full-screen client, and the client's colour everywhere else.
    overlay_wayland_test.py --renderer BIN --helpers DIR --work DIR
Prints "ok"/"FAIL" lines and "N passed, M failed"; exits non-zero on a failure."""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

from overlay.swaysession import HEIGHT, WIDTH, SwaySession
from overlay.xsession import outside_share, region_stats
from support.checks import check, finish
from support.processes import wait_for

GAME = (0x20, 0xA0, 0x40)
FRAME = (1280, 360)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--renderer", required=True)
    parser.add_argument("--helpers", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    sway = SwaySession(args.work)
    try:
        sway.spawn(["/usr/bin/python3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "wayland_fullscreen.py"),
                    "%02x%02x%02x" % GAME], "client.log")
        full = wait_for(lambda: region_stats(sway.screenshot(os.path.join(args.work, "client.png")),
                                             (0, 0, WIDTH, HEIGHT), GAME, step=16)[0] > 0.99, 10, 0.3)
        check(full, "the client is full screen")
        scale, margin = 50, 24
        w, h = FRAME[0] * scale // 100, FRAME[1] * scale // 100
        rect = (WIDTH - w - margin, HEIGHT - h - margin, w, h)
        log_path = os.path.join(args.work, "overlay.log")
        env = dict(sway.env, COMMENTBAR_OVERLAY_DIR=os.path.abspath(args.helpers))
        overlay = subprocess.Popen([os.path.abspath(args.renderer), "overlay", "--service", "demo", "--stream", "demo",
                                    "--corner", "bottom_right", "--scale", str(scale), "--margin", str(margin)],
                                   env=env, stdout=subprocess.DEVNULL, stderr=open(log_path, "wb"))
        shot_path = os.path.join(args.work, "overlay-sway.png")

        def shown():
            shot = sway.screenshot(shot_path)
            green, bright = region_stats(shot, rect, GAME)
            return (shot, green, bright) if green < 0.5 else None
        result = wait_for(shown, 15, 0.5)
        shot = result[0] if result else sway.screenshot(shot_path)
        time.sleep(1)
        shot = sway.screenshot(shot_path)
        green, bright = region_stats(shot, rect, GAME)
        # The bar is drawn translucent over the client here (a compositor blends it): the client
        # shows through its transparent parts, so the test asks for most of the rectangle, not all.
        check(green < 0.5, "the bar is above the full-screen client at the bottom right, at half size",
              f"{green:.1%} of its rectangle has the client's colour")
        check(bright > 0.002, "the bar's text is drawn", f"{bright:.2%} light pixels")
        outside = outside_share(shot, rect, GAME)
        check(outside > 0.995, "the client's colour everywhere else", f"{outside:.2%}")
        with open(log_path, errors="replace") as f:
            log = f.read()
        check("commentbar-overlay-wayland" in log, "the Wayland helper (layer shell) shows it",
              log.strip().splitlines()[-1] if log.strip() else "empty log")
        overlay.send_signal(signal.SIGINT)
        overlay.wait(5)
        time.sleep(0.5)
        shot = sway.screenshot(os.path.join(args.work, "after-exit.png"))
        check(outside_share(shot, (0, 0, 0, 0), GAME) > 0.995, "the overlay goes with the renderer")
    finally:
        sway.close()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
