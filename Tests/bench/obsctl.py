# SPDX-License-Identifier: GPL-2.0-or-later
"""Real OBS Studio, headless: Xvfb, an isolated config, obs-websocket 5 control.

Facts this relies on are in shared/notes/obs-on-linux.md: a `LastVersion` in
global.ini skips the first-run wizard, `[OBSWebSocket]` turns the server on,
SIGINT stops OBS cleanly (it ignores SIGTERM).
"""
import ctypes
import glob
import json
import os
import select
import signal
import socket
import subprocess
import time

import wsloop

OBS_VERSION_29 = (29 << 24) | (0 << 16) | 2


_libc = ctypes.CDLL("libc.so.6", use_errno=True)  # loaded before any fork


def die_with_parent(sig=signal.SIGKILL):
    """A preexec_fn: the child gets `sig` when the benchmark dies, even by SIGKILL (PR_SET_PDEATHSIG)."""
    def fn():
        _libc.prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG
    return fn


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Xvfb:
    def __init__(self, logdir):
        r, w = os.pipe()
        self.log = open(os.path.join(logdir, "xvfb.log"), "w")
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=(w,), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=die_with_parent(signal.SIGTERM))
        os.close(w)
        # Xvfb writes the number, then "\n" in a second write: read up to the newline
        # before closing, or its second write fails and it exits.
        buf = b""
        deadline = time.monotonic() + 15
        while not buf.endswith(b"\n"):
            ready, _, _ = select.select([r], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(r, 64) if ready else b""
            if not chunk:
                break
            buf += chunk
        os.close(r)
        num = buf.decode().strip()
        if not buf.endswith(b"\n") or self.proc.poll() is not None:
            self.stop()
            raise RuntimeError("Xvfb did not start in 15 s")
        if not num:
            self.stop()
            raise RuntimeError("Xvfb gave no display number")
        self.display = ":" + num

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def write_config(home, port, width=1280, height=720, fps=30):
    """An isolated XDG_CONFIG_HOME for OBS: profile, empty scene collection, websocket on."""
    cfg = os.path.join(home, "obs-studio")
    os.makedirs(os.path.join(cfg, "basic", "profiles", "Bench"), exist_ok=True)
    os.makedirs(os.path.join(cfg, "basic", "scenes"), exist_ok=True)
    with open(os.path.join(cfg, "global.ini"), "w") as f:
        f.write(f"""[General]
FirstRun=true
LastVersion={OBS_VERSION_29}
EnableAutoUpdates=false
[Basic]
Profile=Bench
ProfileDir=Bench
SceneCollection=Bench
SceneCollectionFile=Bench
[BasicWindow]
PreviewEnabled=false
SysTrayEnabled=false
ShowTransitions=false
[OBSWebSocket]
FirstLoad=false
ServerEnabled=true
ServerPort={port}
AuthRequired=false
AlertsEnabled=false
""")
    with open(os.path.join(cfg, "basic", "profiles", "Bench", "basic.ini"), "w") as f:
        f.write(f"""[General]
Name=Bench
[Video]
BaseCX={width}
BaseCY={height}
OutputCX={width}
OutputCY={height}
FPSType=0
FPSCommon={fps}
ScaleType=bicubic
ColorFormat=NV12
[Audio]
SampleRate=48000
ChannelSetup=Stereo
""")
    collection = {
        "name": "Bench",
        "current_scene": "Empty",
        "current_program_scene": "Empty",
        "scene_order": [{"name": "Empty"}],
        "sources": [{
            "id": "scene", "versioned_id": "scene", "name": "Empty",
            "settings": {"items": [], "id_counter": 0, "custom_size": False},
        }],
        "transitions": [],
        "current_transition": "Cut",
        "transition_duration": 0,
    }
    with open(os.path.join(cfg, "basic", "scenes", "Bench.json"), "w") as f:
        json.dump(collection, f)


class OBS:
    """One OBS process plus its websocket connection."""

    def __init__(self, home, display, logdir, env_extra=None):
        self.home = home
        self.port = free_port()
        write_config(home, self.port)
        env = dict(os.environ)
        env.update({
            "XDG_CONFIG_HOME": home,
            "DISPLAY": display,
            "LIBGL_ALWAYS_SOFTWARE": "1",
            "QT_QPA_PLATFORM": "xcb",
            "OBS_USE_EGL": "1",
        })
        env.pop("WAYLAND_DISPLAY", None)
        if env_extra:
            env.update(env_extra)
        self.stdout = open(os.path.join(logdir, "obs-stdout.log"), "w")
        self.proc = subprocess.Popen(
            ["obs", "--multi", "--collection", "Bench", "--profile", "Bench", "--scene", "Empty",
             "--disable-missing-files-check"],
            env=env, stdout=self.stdout, stderr=subprocess.STDOUT, start_new_session=True,
            cwd=home, preexec_fn=die_with_parent())
        self.pid = self.proc.pid
        self.ws = None
        self._next_id = 0
        deadline = time.monotonic() + 40
        last_err = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"OBS exited with {self.proc.returncode} during start; see {self.log_path()}")
            try:
                self.ws = wsloop.Client(f"ws://127.0.0.1:{self.port}", timeout=30)
                hello = json.loads(self.ws.recv_text())
                assert hello["op"] == 0, hello
                ident = self.ws.ask(json.dumps({"op": 1, "d": {"rpcVersion": 1, "eventSubscriptions": 0}}),
                                    json.loads)
                assert ident["op"] == 2, ident
                break
            except (OSError, wsloop.Error, AssertionError) as e:
                last_err = e
                if self.ws is not None:
                    self.ws.close()
                self.ws = None
                time.sleep(0.25)
        if self.ws is None:
            self.stop()
            raise RuntimeError(f"obs-websocket did not answer on 127.0.0.1:{self.port}: {last_err}")

    def log_path(self):
        logs = sorted(glob.glob(os.path.join(self.home, "obs-studio", "logs", "*.txt")))
        return logs[-1] if logs else None

    def request(self, kind, data=None, check=True):
        self._next_id += 1
        rid = str(self._next_id)
        msg = {"op": 6, "d": {"requestType": kind, "requestId": rid}}
        if data is not None:
            msg["d"]["requestData"] = data

        def reply_to_this(text):
            reply = json.loads(text)
            if reply.get("op") == 7 and reply["d"].get("requestId") == rid:
                return reply["d"]
            return None
        d = self.ws.ask(json.dumps(msg), reply_to_this)
        status = d["requestStatus"]
        if check and not status["result"]:
            raise RuntimeError(f"{kind} failed: {status.get('code')} {status.get('comment')}")
        return d.get("responseData", {}) if status["result"] else status

    def create_input(self, name, kind, settings, scene="Empty"):
        return self.request("CreateInput", {"sceneName": scene, "inputName": name, "inputKind": kind,
                                            "inputSettings": settings, "sceneItemEnabled": True})

    def remove_input(self, name):
        self.request("RemoveInput", {"inputName": name}, check=False)
        time.sleep(0.1)  # the name stays taken for about 20 ms

    def screenshot(self, source="Empty", width=None, height=None, fmt="png", quality=None):
        """Returns (t_request_sent, t_reply, raw image bytes) or (t, t, None) if no frame exists yet.

        `quality` is obs-websocket's imageCompressionQuality: for PNG, 100 writes it uncompressed
        (fastest), 0 smallest; None leaves Qt's default."""
        data = {"sourceName": source, "imageFormat": fmt}
        if quality is not None:
            data["imageCompressionQuality"] = quality
        if width:
            data["imageWidth"] = width
        if height:
            data["imageHeight"] = height
        t0 = time.monotonic()
        d = self.request("GetSourceScreenshot", data, check=False)
        t1 = time.monotonic()
        img = d.get("imageData")
        if not img:
            return t0, t1, None
        import base64
        return t0, t1, base64.b64decode(img.split(",", 1)[1])

    def stop(self):
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        # whatever OBS left behind in its session (a renderer child) goes too
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.stdout.close()
        return self.proc.returncode
