# SPDX-License-Identifier: GPL-2.0-or-later
"""sway headless for the overlay tests, run as an ordinary user the test creates (sway refuses
root), with grim for screenshots (docs: /work/shared/notes/overlay-and-speech.md)."""
import os
import pwd
import shutil
import subprocess
import tempfile
import time

from PIL import Image

from support.processes import stop

USER = "commentbar-sway"
WIDTH, HEIGHT = 1280, 720


def ensure_user():
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "-m", "-s", "/usr/sbin/nologin", USER], check=True)
        return pwd.getpwnam(USER)


class SwaySession:
    def __init__(self, work, xwayland=False):
        self.user = ensure_user()
        self.work = work
        self.runtime = tempfile.mkdtemp(prefix="commentbar-sway-")
        os.chown(self.runtime, self.user.pw_uid, self.user.pw_gid)
        os.chmod(self.runtime, 0o700)
        config = os.path.join(self.runtime, "config")
        with open(config, "w") as f:
            f.write(f"output HEADLESS-1 mode {WIDTH}x{HEIGHT} bg #000000 solid_color\n"
                    "default_border none\n"
                    'for_window [app_id="fullscreen-test"] fullscreen enable\n'
                    f"xwayland {'enable' if xwayland else 'disable'}\n")
        os.chown(config, self.user.pw_uid, self.user.pw_gid)
        self.log = open(os.path.join(work, "sway.log"), "ab")
        self.sway = subprocess.Popen(
            ["runuser", "-u", USER, "--", "env", f"XDG_RUNTIME_DIR={self.runtime}", "WLR_BACKENDS=headless",
             "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman", "sway", "-c", config],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.socket = None
        for _ in range(100):
            sockets = [n for n in os.listdir(self.runtime) if n.startswith("wayland-") and not n.endswith(".lock")]
            if sockets:
                self.socket = sorted(sockets)[0]
                break
            time.sleep(0.1)
        if not self.socket:
            raise RuntimeError("sway did not start (see sway.log)")
        time.sleep(0.5)
        self.env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        self.env.update(XDG_RUNTIME_DIR=self.runtime, WAYLAND_DISPLAY=self.socket)
        self.processes = []

    def display(self):
        """XWayland's DISPLAY, once sway has started it (xwayland enable)."""
        return next((f":{n[1:]}" for n in os.listdir("/tmp/.X11-unix") if n.startswith("X")), None)

    def spawn(self, args, log, env=None):
        process = subprocess.Popen(args, env=env or self.env, stdout=open(os.path.join(self.work, log), "ab"),
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.processes.append(process)
        return process

    def screenshot(self, path):
        shot = os.path.join(self.runtime, "shot.png")
        subprocess.run(["runuser", "-u", USER, "--", "env", f"XDG_RUNTIME_DIR={self.runtime}",
                        f"WAYLAND_DISPLAY={self.socket}", "grim", shot], check=True, capture_output=True)
        shutil.copy(shot, path)
        return Image.open(path).convert("RGB")

    def close(self):
        for process in self.processes:
            stop(process, seconds=3)
        stop(self.sway)
        shutil.rmtree(self.runtime, ignore_errors=True)
