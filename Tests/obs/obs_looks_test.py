# SPDX-License-Identifier: GPL-2.0-or-later
"""The look in real OBS (issue 38): a theme file loaded from the properties changes the source's
frames, and one that cannot be used changes nothing but says why.
- the source's "Theme" list offers the built-in themes (OBS's own properties, through
  obs-websocket's GetInputPropertiesListPropertyItems);
- a bar reading a recorded chat looks like `commentbar render` of its settings (the dark bar);
- its `theme` set to a theme file (what the properties' "Load a theme file" picker does): the frames
  become the file's look, `commentbar render --theme FILE`'s, and the list names the file;
- a theme file with an unknown value: the frames stay the file's look before, and OBS's log names
  the file and the key;
- the built-in "ticker": the frames change again (one line, a different picture).
    obs_looks_test.py --plugin SO --data DIR --renderer BIN
In `make check` it shares one OBS with the other real-OBS tests (obs/shared_obs.py).
"""
import json
import os
import subprocess
import sys
import time

from PIL import Image

from obs import shared_obs
from obs.obs_state_test import HEIGHT, WIDTH, distance  # the same size: a bar's mean difference
from support.checks import check

NAME = "looks: a theme file loaded from the properties"
SOURCE = "Looks Bar"
LIGHT = {"bg_color": "#f4f1e8", "text_color": "#202020", "corner_radius": 0, "row_style": "bubble"}


def environment(work, cleanup, args):
    return {}


def render(args, work, fixture, settings_path, name, theme=None):
    out = os.path.join(work, f"ref-{name}.png")
    command = [os.path.abspath(args.renderer), "render", "--service", "file", "--stream", fixture, "--at", "60",
               "--settings", settings_path, "--out", out] + (["--theme", theme] if theme else [])
    subprocess.run(command, check=True, capture_output=True)
    return Image.open(out).convert("RGBA")


def closest(obs, references, expected, timeout=20):
    """Waits until `expected` is clearly the reference closest to the source's frames (or the time
    is up); (the closest, the distances)."""
    deadline = time.monotonic() + timeout
    scores = {}
    while time.monotonic() < deadline:
        shot = obs.image(SOURCE, WIDTH, HEIGHT)
        scores = {name: round(distance(shot, image), 2) for name, image in references.items()}
        if min(scores, key=scores.get) == expected and scores[expected] < 2.0:
            break
        time.sleep(0.2)
    return (min(scores, key=scores.get) if scores else None), scores


def theme_items(obs):
    answer = obs.request("GetInputPropertiesListPropertyItems", {"inputName": SOURCE, "propertyName": "theme"})
    return [item.get("itemValue") for item in answer.get("propertyItems", [])]


def run(obs, work, args, env, cleanup):
    fixture = os.path.join(work, "chat.jsonl")
    with open(fixture, "w", encoding="utf-8") as f:
        for index, (user, text) in enumerate([("さくら", "こんばんは！"), ("GamerJoe", "hi from Seattle"),
                                              ("たけし", "そのボス、右から回り込むと楽だよ"), ("Lena", "nice combo")]):
            f.write(json.dumps({"type": "comment", "at": index * 0.1, "id": f"c{index}", "user": user, "text": text},
                               ensure_ascii=False) + "\n")
    settings = {"service": "file", "stream_id": fixture, "width": WIDTH, "height": HEIGHT, "bg_opacity": 100}
    settings_path = os.path.join(work, "settings.json")
    with open(settings_path, "w") as f:
        json.dump(settings, f)
    light = os.path.join(work, "light-look.json")
    with open(light, "w") as f:
        json.dump(LIGHT, f)
    broken = os.path.join(work, "broken-look.json")
    with open(broken, "w") as f:
        json.dump({**LIGHT, "bg_color": "#102030", "layout": "grid"}, f)
    references = {"dark": render(args, work, fixture, settings_path, "dark"),
                  "light file": render(args, work, fixture, settings_path, "light", theme=light),
                  "ticker": render(args, work, fixture, settings_path, "ticker", theme="ticker")}

    obs.create_input(SOURCE, "comment_bar_source", settings)
    items = theme_items(obs)
    check(items[:4] == ["mirrativ", "light", "box-outline", "ticker"],
          "the properties' Theme list offers the built-in themes", f"{items}")
    seen, scores = closest(obs, references, "dark")
    check(seen == "dark", "the bar first shows the default look", f"closest {seen}: {scores}")

    # The properties' picker sets `theme` to the file it picked (CModules/plugin/properties/look.c).
    obs.request("SetInputSettings", {"inputName": SOURCE, "inputSettings": {"theme": light}})
    seen, scores = closest(obs, references, "light file")
    check(seen == "light file", "a theme file loaded from the properties changes the frames to its look",
          f"closest {seen}: {scores}")
    items = theme_items(obs)
    check(light in items, "the Theme list names the loaded file", f"{items}")

    obs.request("SetInputSettings", {"inputName": SOURCE, "inputSettings": {"theme": broken}})
    deadline = time.monotonic() + 15
    said = []
    while time.monotonic() < deadline and not said:
        said = [line.strip() for line in obs.log_text().splitlines() if broken in line and 'key "layout"' in line]
        time.sleep(0.2)
    check(bool(said), "a theme file that cannot be used is named in OBS's log with its file and key",
          said[0] if said else "nothing in the log")
    time.sleep(1.0)
    seen, scores = closest(obs, references, "light file", timeout=3)
    check(seen == "light file" and scores.get("light file", 99) < 8,
          "the look stays as it was (the status line says why)", f"closest {seen}: {scores}")

    obs.request("SetInputSettings", {"inputName": SOURCE, "inputSettings": {"theme": "ticker"}})
    time.sleep(1.5)
    shot = obs.image(SOURCE, WIDTH, HEIGHT)
    check(distance(shot, references["light file"]) > 10, "the built-in ticker theme changes the frames again",
          f"{distance(shot, references['light file']):.1f} from the light look")


if __name__ == "__main__":
    sys.exit(shared_obs.main([sys.modules[__name__]]))
