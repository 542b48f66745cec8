# SPDX-License-Identifier: GPL-2.0-or-later
"""Real OBS Studio for the tests, headless: its private configuration, the plugin staged for it,
the one way it is started and stopped, and obs-websocket 5 requests.

Facts this relies on: a `LastVersion` in global.ini skips OBS 29's first-run wizard,
`[OBSWebSocket]` turns the server on, SIGINT stops OBS cleanly (it ignores SIGTERM), and
OBS_PLUGINS_PATH / OBS_PLUGINS_DATA_PATH (both needed) add a plugin folder.

From the shell tests (Tests/support/headless-obs.sh wraps these):
    python3 -m support.obs config --config DIR [--websocket-port N] [--bar JSON] [--pattern PNG]
    python3 -m support.obs exec --config DIR [--window] [NAME=VALUE...]   becomes OBS (exec), on $DISPLAY
    python3 -m support.obs screenshot --port N --out PNG [--source S] [--timeout S] [--since T] [--any]
"""
import argparse
import base64
import contextlib
import glob
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time

from support import websocket
from support.processes import Cleanup, die_with_parent, free_port, stop
from support.xserver import Xvfb

PROFILE = "CommentBar"  # the profile's, the scene collection's name
SCENE = "Scene"
OBS_VERSION_29 = (29 << 24) | (0 << 16) | 2  # LastVersion: no first-run wizard
BAR_KIND = "comment_bar_source"
# Variables that point OBS or the shim somewhere else: a test gives them explicitly, or OBS
# runs as a user's would (the packages' tests).
OVERRIDES = ("OBS_PLUGINS_PATH", "OBS_PLUGINS_DATA_PATH", "COMMENTBAR_RENDERER", "COMMENTBAR_OVERLAY_DIR")


# ---- configuration ----

def bar_source(settings, name="Comment Bar", uuid="6f1b7f0e-0000-4000-8000-00000000b001", y=0):
    """A Comment Bar in the scene collection, at (0, y)."""
    return {"id": BAR_KIND, "versioned_id": BAR_KIND, "name": name, "uuid": uuid, "settings": settings, "y": y}


def image_source(path, name="Test pattern", uuid="6f1b7f0e-0000-4000-8000-00000000b002"):
    return {"id": "image_source", "versioned_id": "image_source", "name": name, "uuid": uuid,
            "settings": {"file": os.path.abspath(path)}, "y": 0}


def write_config(config_home, websocket_port=None, sources=(), canvas=(1280, 720), fps=30, headless=True):
    """A private XDG_CONFIG_HOME for OBS: global.ini, the profile, a scene collection whose one scene
    holds `sources` (bottom first), and obs-websocket on `websocket_port` without auth."""
    obs = os.path.join(config_home, "obs-studio")
    os.makedirs(os.path.join(obs, "basic", "profiles", PROFILE), exist_ok=True)
    os.makedirs(os.path.join(obs, "basic", "scenes"), exist_ok=True)
    general = ["[General]", "FirstRun=true", f"LastVersion={OBS_VERSION_29}", "EnableAutoUpdates=false",
               "[Basic]", f"Profile={PROFILE}", f"ProfileDir={PROFILE}", f"SceneCollection={PROFILE}",
               f"SceneCollectionFile={PROFILE}"]
    if headless:
        general += ["[BasicWindow]", "PreviewEnabled=false", "SysTrayEnabled=false", "ShowTransitions=false"]
    if websocket_port:
        general += ["[OBSWebSocket]", "FirstLoad=false", "ServerEnabled=true", f"ServerPort={websocket_port}",
                    "AuthRequired=false", "AlertsEnabled=false"]
    with open(os.path.join(obs, "global.ini"), "w") as f:
        f.write("\n".join(general) + "\n")
    width, height = canvas
    with open(os.path.join(obs, "basic", "profiles", PROFILE, "basic.ini"), "w") as f:
        f.write("\n".join(["[General]", f"Name={PROFILE}", "[Video]", f"BaseCX={width}", f"BaseCY={height}",
                           f"OutputCX={width}", f"OutputCY={height}", "FPSType=0", f"FPSCommon={fps}",
                           "ScaleType=bicubic", "ColorFormat=NV12", "[Audio]", "SampleRate=48000",
                           "ChannelSetup=Stereo"]) + "\n")
    items, described = [], []
    for number, source in enumerate(sources, 1):
        source = dict(source)
        y = source.pop("y", 0)
        described.append(source)
        items.append({"name": source["name"], "source_uuid": source["uuid"], "visible": True, "pos": {"x": 0, "y": y},
                      "scale": {"x": 1, "y": 1}, "id": number})
    described.append({"id": "scene", "versioned_id": "scene", "name": SCENE,
                      "uuid": "6f1b7f0e-0000-4000-8000-00000000b0ff",
                      "settings": {"items": items, "id_counter": len(items), "custom_size": False}})
    collection = {"name": PROFILE, "current_scene": SCENE, "current_program_scene": SCENE,
                  "scene_order": [{"name": SCENE}], "sources": described, "transitions": [],
                  "current_transition": "Cut", "transition_duration": 0}
    with open(os.path.join(obs, "basic", "scenes", PROFILE + ".json"), "w") as f:
        json.dump(collection, f, indent=1)


def stage_plugin(work, plugin, data):
    """The freshly built module and its data as a plugin folder of `work`; the variables that make
    OBS load it (OBS_PLUGINS_PATH and OBS_PLUGINS_DATA_PATH: both are needed)."""
    plugins, plugin_data = os.path.join(work, "plugins"), os.path.join(work, "plugin-data")
    for folder in (plugins, plugin_data):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    shutil.copy(plugin, os.path.join(plugins, "comment-bar.so"))
    shutil.copytree(data, os.path.join(plugin_data, "comment-bar"))
    return {"OBS_PLUGINS_PATH": plugins, "OBS_PLUGINS_DATA_PATH": plugin_data}


# ---- the process ----

def command():
    return ["obs", "--multi", "--collection", PROFILE, "--profile", PROFILE, "--scene", SCENE,
            "--disable-missing-files-check"]


def environment(config_home, extra=None, display=None, headless=True):
    """OBS's environment: this one less the plugin and renderer overrides (OBS then runs as a
    user's would), the private config, `extra` (overrides included); headless, software OpenGL
    on X11 (Xvfb has no GPU)."""
    env = {k: v for k, v in os.environ.items() if k not in OVERRIDES and (k != "WAYLAND_DISPLAY" or not headless)}
    env["XDG_CONFIG_HOME"] = os.path.abspath(config_home)
    # The renderer's memory (the chat log) and its secrets next to that config, never the user's.
    env["XDG_DATA_HOME"] = os.path.join(os.path.abspath(config_home), "data")
    if headless:
        env.update({"LIBGL_ALWAYS_SOFTWARE": "1", "QT_QPA_PLATFORM": "xcb", "OBS_USE_EGL": "1"})
    if display:
        env["DISPLAY"] = display
    env.update(extra or {})
    return env


def newest_log(config_home):
    logs = sorted(glob.glob(os.path.join(config_home, "obs-studio", "logs", "*.txt")))
    return logs[-1] if logs else None


class Client:
    """An obs-websocket 5 connection (no auth), one request at a time."""

    def __init__(self, port, seconds=40, alive=lambda: True):
        deadline = time.monotonic() + seconds
        self.ws, self._next_id, last = None, 0, None
        self.inputs = []  # made through this connection, in order
        while self.ws is None:
            if not alive():
                raise RuntimeError("OBS exited during its start")
            try:
                self.ws = websocket.Client(f"ws://127.0.0.1:{port}", timeout=30)
                hello = json.loads(self.ws.recv_text())
                if hello.get("op") != 0:
                    raise RuntimeError(f"not obs-websocket's Hello: {hello}")
                ident = self.ws.ask(json.dumps({"op": 1, "d": {"rpcVersion": 1, "eventSubscriptions": 0}}), json.loads)
                if ident.get("op") != 2:
                    raise RuntimeError(f"not Identified: {ident}")
            except (OSError, websocket.Error, RuntimeError) as error:
                last = error
                if self.ws is not None:
                    self.ws.close()
                self.ws = None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"obs-websocket did not answer on 127.0.0.1:{port}: {last}") from None
                time.sleep(0.25)

    def request(self, kind, data=None, check=True):
        """The response data; with check=False a failed request gives its requestStatus."""
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

    def create_input(self, name, kind, settings, scene=SCENE):
        made = self.request("CreateInput", {"sceneName": scene, "inputName": name, "inputKind": kind,
                                            "inputSettings": settings, "sceneItemEnabled": True})
        self.inputs.append(name)
        return made

    def remove_input(self, name):
        self.request("RemoveInput", {"inputName": name}, check=False)
        if name in self.inputs:
            self.inputs.remove(name)
        time.sleep(0.1)  # the name stays taken for about 20 ms

    def remove_inputs(self):
        """Removes every input made through this connection: the next test in the same OBS starts
        from an empty scene (no bar, no looping tone, no hotkey of another bar)."""
        for name in list(self.inputs):
            self.remove_input(name)

    def screenshot(self, source=SCENE, width=None, height=None, fmt="png", quality=None):
        """(t_request_sent, t_reply, image bytes), or (t, t, None) while the source has no frame.

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
        return t0, t1, base64.b64decode(img.split(",", 1)[1])

    def close(self):
        if self.ws is not None:
            self.ws.close()
            self.ws = None


class OBS(Client):
    """One OBS process with its own config in `home` and an obs-websocket connection to it.
    `env_extra` adds variables (the staged plugin, the renderer, a test CA...)."""

    def __init__(self, home, display, logdir, env_extra=None, canvas=(1280, 720)):
        self.home = home
        self.display = display
        self.port = free_port()
        write_config(home, self.port, canvas=canvas)
        self.stdout = open(os.path.join(logdir, "obs-stdout.log"), "a")
        self.proc = subprocess.Popen(command(), env=environment(home, env_extra, display), stdout=self.stdout,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                                     cwd=home, preexec_fn=die_with_parent())
        self.pid = self.proc.pid
        try:
            super().__init__(self.port, alive=lambda: self.proc.poll() is None)
        except RuntimeError as error:
            self.stop()
            raise RuntimeError(f"{error}; see {self.log_path()}") from None

    def log_path(self):
        return newest_log(self.home)

    def log_text(self):
        path = self.log_path()
        if not path:
            return ""
        with open(path, errors="replace") as f:
            return f.read()

    def stop(self):
        self.close()
        stop(self.proc, signal.SIGINT, 10)
        # whatever OBS left behind in its session (a renderer child) goes too
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.stdout.close()
        return self.proc.returncode


@contextlib.contextmanager
def session(work, plugin, data, renderer, env_extra=None, screen=(1920, 1080)):
    """Xvfb (`screen`), the plugin staged in `work`, and OBS loading it with `renderer`; yields the
    OBS (its `.display` is the Xvfb's); everything stops after, in reverse order."""
    with Cleanup() as cleanup:
        xvfb = Xvfb(work, *screen)
        cleanup.add(xvfb.stop)
        home = os.path.join(work, "home")
        os.makedirs(home, exist_ok=True)
        env = {**stage_plugin(work, plugin, data), "COMMENTBAR_RENDERER": os.path.abspath(renderer), "HOME": home,
               "XDG_CACHE_HOME": os.path.join(home, ".cache"), **(env_extra or {})}
        obs = OBS(home, xvfb.display, work, env)
        cleanup.add(obs.stop)
        yield obs


def add_arguments(parser):
    """The real-OBS tests' common options."""
    parser.add_argument("--plugin", required=True, help="the built module (comment-bar.so)")
    parser.add_argument("--data", required=True, help="its data folder (plugin/data)")
    parser.add_argument("--renderer", required=True, help="the renderer OBS's module runs")


# ---- a drawn bar ----

MIN_COVERAGE = 0.5
MIN_COLOURS = 50


def drawn(png):
    """(is a drawn bar, description): most of the frame covered (the bar's background) and many
    colours (anti-aliased text); an empty source screenshots fully transparent."""
    from PIL import Image
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    alpha = image.getchannel("A")
    covered = sum(alpha.histogram()[1:]) / (image.width * image.height)
    colours = len(image.getcolors(maxcolors=image.width * image.height))
    facts = {"width": image.width, "height": image.height, "coverage": round(covered, 3), "colours": colours}
    return covered >= MIN_COVERAGE and colours >= MIN_COLOURS, facts


def wait_for_bar(client, source, out, timeout=60, since=None, width=640, any_frame=False):
    """Saves the first screenshot of `source` that shows a drawn bar (or any frame); returns its
    facts with the seconds since `since` (time.time(); default now), or {"error": ...}."""
    start = since or time.time()
    deadline = time.monotonic() + timeout
    last = "no screenshot yet"
    while time.monotonic() < deadline:
        _, _, png = client.screenshot(source, width=width)
        if png:
            ok, facts = drawn(png)
            last = f"{facts['width']}x{facts['height']}, {facts['coverage']:.0%} covered, {facts['colours']} colours"
            if ok or any_frame:
                with open(out, "wb") as f:
                    f.write(png)
                return {"seconds": round(time.time() - start, 2), **facts}
        time.sleep(0.25)
    return {"error": f"no drawn bar within {timeout} s: {last}"}


# ---- the shell tests' commands ----

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    config = commands.add_parser("config", help="write a private OBS configuration")
    config.add_argument("--config", required=True, help="the XDG_CONFIG_HOME OBS will run with")
    config.add_argument("--websocket-port", type=int)
    config.add_argument("--bar", help="a Comment Bar's settings (JSON) in the scene")
    config.add_argument("--bar-y", type=int, default=0)
    config.add_argument("--pattern", help="a PNG under the bar")
    config.add_argument("--window", action="store_true", help="for a person: preview and tray on")
    run = commands.add_parser("exec", help="become OBS with that configuration")
    run.add_argument("--config", required=True)
    run.add_argument("--window", action="store_true", help="for a person: the desktop's own display and OpenGL")
    run.add_argument("variables", nargs="*", metavar="NAME=VALUE")
    shot = commands.add_parser("screenshot", help="wait for a drawn bar and save it")
    shot.add_argument("--port", type=int, required=True)
    shot.add_argument("--source", default="Comment Bar")
    shot.add_argument("--out", required=True)
    shot.add_argument("--timeout", type=float, default=60)
    shot.add_argument("--since", type=float, help="time.time() to count seconds from (default: now)")
    shot.add_argument("--width", type=int, default=640)
    shot.add_argument("--any", action="store_true", help="the first frame, drawn bar or not")
    args = parser.parse_args()

    if args.command == "config":
        sources = [image_source(args.pattern)] if args.pattern else []
        if args.bar:
            sources.append(bar_source(json.loads(args.bar), y=args.bar_y))
        write_config(args.config, args.websocket_port, sources, headless=not args.window)
        return 0
    if args.command == "exec":
        extra = dict(v.split("=", 1) for v in args.variables)
        os.execvpe(command()[0], command(), environment(args.config, extra, headless=not args.window))
    since = args.since or time.time()
    try:
        client = Client(args.port, seconds=args.timeout)
    except RuntimeError as error:
        print(json.dumps({"error": str(error)}))
        return 1
    try:
        facts = wait_for_bar(client, args.source, args.out, args.timeout, since, args.width, args.any)
    finally:
        client.close()
    print(json.dumps(facts))
    return 0 if "seconds" in facts else 1


if __name__ == "__main__":
    sys.exit(main())
