# SPDX-License-Identifier: GPL-2.0-or-later
"""A private X display for a test: Xvfb on a display it picks itself (-displayfd, so parallel
groups never collide), optionally an openbox window manager on it.

    python3 -m support.xserver [--size WxH] [--wm] -- COMMAND [ARG...]
runs COMMAND with DISPLAY set to a fresh Xvfb (and openbox, with --wm), stops them after, and
exits with COMMAND's status: how the shell tests get a display."""
import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from support.processes import die_with_parent, stop, wait_for


class Xvfb:
    def __init__(self, logdir, width=1280, height=720):
        self.width, self.height = width, height
        self.log = open(os.path.join(logdir, "xvfb.log"), "ab")
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=(w,), stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, preexec_fn=die_with_parent(signal.SIGTERM))
        os.close(w)
        # Xvfb writes the number, then "\n" in a second write: read up to the newline before
        # closing, or its second write fails and it exits.
        buf = b""
        deadline = time.monotonic() + 15
        while not buf.endswith(b"\n"):
            ready, _, _ = select.select([r], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(r, 64) if ready else b""
            if not chunk:
                break
            buf += chunk
        os.close(r)
        number = buf.decode().strip()
        if not buf.endswith(b"\n") or not number or self.proc.poll() is not None:
            self.stop()
            raise RuntimeError(f"Xvfb did not start in 15 s (log: {self.log.name})")
        self.display = ":" + number
        self.wm = None

    @property
    def env(self):
        """This environment with DISPLAY on this server (and no Wayland)."""
        env = dict(os.environ, DISPLAY=self.display)
        env.pop("WAYLAND_DISPLAY", None)
        return env

    def start_window_manager(self, seconds=10):
        """openbox on this display; true once it manages the screen (_NET_SUPPORTING_WM_CHECK)."""
        self.wm = subprocess.Popen(["openbox", "--sm-disable"], env=self.env, stdout=self.log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   preexec_fn=die_with_parent(signal.SIGTERM))
        return bool(wait_for(lambda: "_NET_SUPPORTING_WM_CHECK(WINDOW)" in subprocess.run(
            ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=self.env, capture_output=True, text=True).stdout,
            seconds))

    def kill_window_manager(self):
        if self.wm is not None:
            self.wm.kill()
            self.wm.wait()
            self.wm = None

    def kill(self):
        """The display goes away at once (what a crashed X server does to its clients)."""
        self.proc.kill()
        self.proc.wait()

    def stop(self):
        if self.wm is not None:
            stop(self.wm, seconds=3)
            self.wm = None
        stop(self.proc)
        self.log.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--wm", action="store_true", help="start openbox too")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no COMMAND")
    width, height = (int(v) for v in args.size.split("x"))
    logdir = tempfile.mkdtemp(prefix="commentbar-xvfb.")
    xvfb = Xvfb(logdir, width, height)
    try:
        if args.wm and not xvfb.start_window_manager():
            print("support.xserver: openbox did not manage the screen", file=sys.stderr)
            return 1
        child = subprocess.Popen(command, env=xvfb.env)
        signal.signal(signal.SIGTERM, lambda *_: child.terminate())
        while True:
            try:
                return child.wait()
            except KeyboardInterrupt:
                child.send_signal(signal.SIGINT)
    finally:
        xvfb.stop()
        shutil.rmtree(logdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
