#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a private OBS configuration: global.ini (no first-run wizard), a profile and a
scene collection holding a Comment Bar on the demo stream, over a test pattern if given.

    obs_config.py --config XDG_CONFIG_HOME --name NAME [--websocket-port N] [--pattern PNG]

OBS is then started with XDG_CONFIG_HOME=... obs --multi --profile NAME --collection NAME,
so the user's own configuration is never read or written. JSON is written by json.dumps.
"""
import argparse
import json
import os

CANVAS = (1280, 720)
BAR = (1280, 360)
BAR_UUID = "6f1b7f0e-0000-4000-8000-00000000b001"
PATTERN_UUID = "6f1b7f0e-0000-4000-8000-00000000b002"
SCENE_UUID = "6f1b7f0e-0000-4000-8000-00000000b003"


def item(name, uuid, number, y):
    return {"name": name, "source_uuid": uuid, "visible": True, "pos": {"x": 0, "y": y},
            "scale": {"x": 1, "y": 1}, "id": number}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True, help="the XDG_CONFIG_HOME OBS will run with")
    parser.add_argument("--name", required=True, help="profile and scene collection name")
    parser.add_argument("--websocket-port", type=int)
    parser.add_argument("--pattern", help="a PNG to show under the bar")
    args = parser.parse_args()
    obs = os.path.join(args.config, "obs-studio")
    os.makedirs(os.path.join(obs, "basic", "scenes"), exist_ok=True)
    os.makedirs(os.path.join(obs, "basic", "profiles", args.name), exist_ok=True)
    # LastVersion makes OBS 29 skip its first-run wizard.
    general = ["[General]", "FirstRun=true", "LastVersion=486539266", "[Basic]",
               f"SceneCollection={args.name}", f"SceneCollectionFile={args.name}",
               f"Profile={args.name}", f"ProfileDir={args.name}"]
    if args.websocket_port:
        general += ["[OBSWebSocket]", "FirstLoad=false", "ServerEnabled=true", f"ServerPort={args.websocket_port}",
                    "AuthRequired=false", "AlertsEnabled=false"]
    with open(os.path.join(obs, "global.ini"), "w") as f:
        f.write("\n".join(general) + "\n")
    with open(os.path.join(obs, "basic", "profiles", args.name, "basic.ini"), "w") as f:
        f.write("\n".join(["[General]", f"Name={args.name}", "[Video]", f"BaseCX={CANVAS[0]}", f"BaseCY={CANVAS[1]}",
                           f"OutputCX={CANVAS[0]}", f"OutputCY={CANVAS[1]}"]) + "\n")
    sources = [{"id": "comment_bar_source", "versioned_id": "comment_bar_source", "name": "Comment Bar",
                "uuid": BAR_UUID,
                "settings": {"service": "demo", "stream_id": "demo", "width": BAR[0], "height": BAR[1]}}]
    items = [item("Comment Bar", BAR_UUID, 2, CANVAS[1] - BAR[1])]
    if args.pattern:
        sources.append({"id": "image_source", "versioned_id": "image_source", "name": "Test pattern",
                        "uuid": PATTERN_UUID, "settings": {"file": os.path.abspath(args.pattern)}})
        items.insert(0, item("Test pattern", PATTERN_UUID, 1, 0))
    sources.append({"id": "scene", "versioned_id": "scene", "name": "Scene", "uuid": SCENE_UUID,
                    "settings": {"items": items, "id_counter": 2}})
    collection = {"name": args.name, "current_scene": "Scene", "current_program_scene": "Scene",
                  "scene_order": [{"name": "Scene"}], "sources": sources}
    with open(os.path.join(obs, "basic", "scenes", args.name + ".json"), "w") as f:
        f.write(json.dumps(collection, indent=1))


if __name__ == "__main__":
    main()
