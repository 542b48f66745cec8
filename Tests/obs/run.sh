#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-obs: renders the reference with `commentbar render`, runs obs_host on the display the
# caller gives (make runs it under `python3 -m support.xserver`), and cleans up.
#   Tests/obs/run.sh OBS_HOST PLUGIN_SO RENDERER FIXTURES_DIR
#   Tests/obs/run.sh --bench-upload OBS_HOST   (upload cost on this GPU; no test)
set -uo pipefail
bench=
if [ "${1:-}" = --bench-upload ]; then bench=1; shift; fi
host=$1 plugin=${2:-} renderer=${3:-} fixtures=${4:-}
work=$(mktemp -d /tmp/commentbar-test-obs.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ -z "${DISPLAY:-}" ]; then
	echo "FAIL no DISPLAY: run it as make does, under python3 -m support.xserver"
	echo "0 passed, 1 failed"
	exit 1
fi

if [ -n "$bench" ]; then
	"$host" --bench-upload 2>"$work/obs.log"
	exit
fi

fixture=$(realpath "$fixtures/chat-a.jsonl")
renderer=$(realpath "$renderer")
# Serialized by json.dumps: the fixture path may hold any character.
python3 -c 'import json, sys
json.dump({"service": "file", "stream_id": sys.argv[2], "width": 640, "height": 200, "show_clock": False},
          open(sys.argv[1], "w"))' "$work/settings.json" "$fixture"
if ! "$renderer" render --service file --stream "$fixture" --at 60 --settings "$work/settings.json" \
	--width 640 --height 200 --out "$work/reference.png" 2>"$work/render.log"; then
	echo "FAIL commentbar render: $(head -c 500 "$work/render.log")"
	echo "0 passed, 1 failed"
	exit 1
fi

# The mic badge's three states, and a WAV for a device-less audio source.
for mic in on muted none; do
	if ! "$renderer" render --service file --stream "$fixture" --at 60 --settings "$work/settings.json" \
		--width 640 --height 200 --obs-mic $mic --out "$work/mic-$mic.png" 2>"$work/render.log"; then
		echo "FAIL commentbar render --obs-mic $mic: $(head -c 500 "$work/render.log")"
		echo "0 passed, 1 failed"
		exit 1
	fi
done
python3 -c 'import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(48000)
    out.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / 48000)))
                             for i in range(48000)))' "$work/tone.wav"

export COMMENTBAR_RENDERER="$renderer"
export LIBGL_ALWAYS_SOFTWARE=1
mkdir -p build/obs
"$host" --plugin "$plugin" --data plugin/data --fixture "$fixture" --reference "$work/reference.png" \
	--mic-wav "$work/tone.wav" --mic-on "$work/mic-on.png" --mic-muted "$work/mic-muted.png" --mic-none "$work/mic-none.png" \
	--save build/obs/output.png 2>build/obs/obs.log
status=$?
if [ $status -ne 0 ]; then
	echo "(libobs log: build/obs/obs.log; composited output: build/obs/output.png)"
	grep -E "comment-bar|error" build/obs/obs.log | tail -20
fi
exit $status
