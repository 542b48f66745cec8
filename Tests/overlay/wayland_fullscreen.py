#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A full-screen Wayland client of a known colour (GTK 3 through python3-gi), the stand-in for
a game under sway.   wayland_fullscreen.py RRGGBB"""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402

color = Gdk.RGBA()
color.parse("#" + (sys.argv[1] if len(sys.argv) > 1 else "20a040"))
GLib = gi.repository.GLib
GLib.set_prgname("fullscreen-test")
window = Gtk.Window(title="fullscreen test window")
window.override_background_color(Gtk.StateFlags.NORMAL, color)
window.connect("destroy", Gtk.main_quit)
window.fullscreen()
window.show_all()
Gtk.main()
