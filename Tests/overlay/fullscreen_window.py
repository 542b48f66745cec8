#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A stand-in for a full-screen game under a real X window manager: one window of a known
colour that asks for _NET_WM_STATE_FULLSCREEN, and writes each click and focus change it gets
as a line to a log ("click X Y BUTTON", "focus in", "focus out"), flushed at once.
    fullscreen_window.py --color RRGGBB --log FILE
Its window id is the log's first line ("window 0x…")."""
import argparse
import sys

from Xlib import X, display

parser = argparse.ArgumentParser()
parser.add_argument("--color", default="20a040")
parser.add_argument("--log", required=True)
args = parser.parse_args()

d = display.Display()
screen = d.screen()
rgb = int(args.color, 16)
pixel = screen.default_colormap.alloc_color((rgb >> 16 & 0xff) * 257, (rgb >> 8 & 0xff) * 257, (rgb & 0xff) * 257).pixel
window = screen.root.create_window(
    0, 0, screen.width_in_pixels, screen.height_in_pixels, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
    background_pixel=pixel,
    event_mask=X.ButtonPressMask | X.FocusChangeMask | X.ExposureMask | X.StructureNotifyMask)
window.set_wm_name("fullscreen test window")
window.set_wm_class("fullscreen-test", "FullscreenTest")
window.set_wm_hints(flags=1, input=1)  # InputHint: it takes the focus, as a game does
net_wm_state = d.intern_atom("_NET_WM_STATE")
fullscreen = d.intern_atom("_NET_WM_STATE_FULLSCREEN")
window.change_property(net_wm_state, d.intern_atom("ATOM"), 32, [fullscreen])
window.map()
d.sync()
log = open(args.log, "a", buffering=1)
log.write(f"window {window.id:#x}\n")
while True:
    event = d.next_event()
    if event.type == X.ButtonPress:
        log.write(f"click {event.event_x} {event.event_y} {event.detail}\n")
    elif event.type == X.FocusIn:
        log.write("focus in\n")
    elif event.type == X.FocusOut:
        log.write("focus out\n")
    sys.stdout.flush()
