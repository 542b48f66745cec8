#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the bundle into a throwaway XDG_CONFIG_HOME and starts the real OBS
# (headless, on its own Xvfb) with a scene collection holding a Comment Bar.
# Checks that OBS loads the plugin, the installed renderer runs as OBS's child
# and logs through it, and that nothing is left after OBS quits (SIGINT).
#   Tests/smoke/smoke-test.sh PLUGIN_SO RENDERER   (make smoke-install)
set -uo pipefail
so=$(realpath "$1") renderer=$(realpath "$2")
root=$(mktemp -d /tmp/commentbar-smoke.XXXXXX)
xvfb_pid= obs_pid=
cleanup() {
	[ -n "$obs_pid" ] && kill -INT "$obs_pid" 2>/dev/null
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$root"
}
trap cleanup EXIT
source "$(dirname "$0")/../checks.sh"

export XDG_CONFIG_HOME=$root/config
bundle=$(dirname "$0")/../../plugin # install.sh and data/: what `make install` uses
"$bundle/install.sh" install "$so" "$renderer" "$bundle/data" >/dev/null
obs_dir=$XDG_CONFIG_HOME/obs-studio
mkdir -p "$obs_dir/basic/scenes" "$obs_dir/basic/profiles/Smoke"
cat >"$obs_dir/global.ini" <<INI
[General]
FirstRun=true
LastVersion=486539266
[Basic]
SceneCollection=Smoke
SceneCollectionFile=Smoke
Profile=Smoke
ProfileDir=Smoke
INI
cat >"$obs_dir/basic/profiles/Smoke/basic.ini" <<INI
[General]
Name=Smoke
[Video]
BaseCX=1280
BaseCY=720
OutputCX=1280
OutputCY=720
INI
# The scene collection, serialized by json.dumps (no JSON written by hand).
python3 -c '
import json, sys
bar, scene = "6f1b7f0e-0000-4000-8000-000000000001", "6f1b7f0e-0000-4000-8000-000000000002"
collection = {
    "name": "Smoke", "current_scene": "Scene", "current_program_scene": "Scene",
    "scene_order": [{"name": "Scene"}],
    "sources": [
        {"id": "comment_bar_source", "versioned_id": "comment_bar_source", "name": "Bar", "uuid": bar,
         "settings": {"service": "demo", "width": 640, "height": 200}},
        {"id": "scene", "versioned_id": "scene", "name": "Scene", "uuid": scene,
         "settings": {"items": [{"name": "Bar", "source_uuid": bar, "visible": True, "pos": {"x": 0, "y": 0},
                                "scale": {"x": 1, "y": 1}, "id": 1}], "id_counter": 1}},
    ],
}
with open(sys.argv[1], "w") as out:
    out.write(json.dumps(collection))
' "$obs_dir/basic/scenes/Smoke.json"

Xvfb -displayfd 9 -screen 0 1280x720x24 -nolisten tcp 9>"$root/display" 2>/dev/null &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$root/display" ] && break; sleep 0.05; done
export DISPLAY=":$(head -1 "$root/display")"
obs --multi --collection Smoke --profile Smoke >"$root/obs.out" 2>&1 &
obs_pid=$!

# The pid of OBS's child whose command line is the installed renderer's (no procps needed).
find_renderer_child() {
	local dir stat cmd
	for dir in /proc/[0-9]*; do
		stat=$(cat "$dir/stat" 2>/dev/null) || continue
		stat=${stat##*) }
		set -- $stat
		[ "$2" = "$obs_pid" ] || continue
		cmd=$(tr '\0' ' ' <"$dir/cmdline" 2>/dev/null)
		case $cmd in *"/comment-bar/bin/64bit/commentbar serve --pool-fd 3 "*) echo "${dir#/proc/}"; return ;; esac
	done
}
# The renderer's pid once OBS has started it (up to 15 s), else empty.
wait_for_renderer_child() {
	for _ in $(seq 150); do
		find_renderer_child | grep . && return
		sleep 0.1
	done
}
child=$(wait_for_renderer_child)
check "OBS starts the installed renderer as its child (bin/64bit/commentbar serve --pool-fd 3)" '[ -n "$child" ]'
sleep 2
log=$(ls -t "$obs_dir/logs/"*.txt 2>/dev/null | head -1)
check "OBS loaded comment-bar from the user plugin folder" 'grep -q "comment-bar" "$log" 2>/dev/null'
check "the renderer's stderr is in the OBS log" 'grep -q "\[comment-bar\] renderer: " "$log" 2>/dev/null'
check "the renderer reports its status" 'grep -q "renderer status: live" "$log" 2>/dev/null'
check "the shim logs the renderer attaching with its producer_pid" \
	'grep -q "renderer pid $child attached to its pool (producer_pid $child)" "$log" 2>/dev/null'

kill -INT "$obs_pid"
for _ in $(seq 100); do kill -0 "$obs_pid" 2>/dev/null || break; sleep 0.1; done
wait "$obs_pid"; status=$?
obs_pid=
check "OBS quits cleanly on SIGINT" '[ $status -eq 0 ]'
gone() { # no such process, or a zombie waiting for a reaper that is not OBS
	[ -n "$1" ] && { ! kill -0 "$1" 2>/dev/null || [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]; }
}
check "the renderer is gone after OBS quits" 'gone "$child"'

# OBS killed outright: the renderer's stdin reaches EOF and it must exit by itself.
obs --multi --collection Smoke --profile Smoke >>"$root/obs.out" 2>&1 &
obs_pid=$!
child=$(wait_for_renderer_child)
kill -KILL "$obs_pid"
wait "$obs_pid" 2>/dev/null
obs_pid=
for _ in $(seq 30); do gone "$child" && break; sleep 0.1; done
check "after kill -9 of OBS the renderer exits within 3 s (stdin EOF)" 'gone "$child"'
[ -n "${SMOKE_KEEP_LOG:-}" ] && cp "$log" "$SMOKE_KEEP_LOG"
if [ $failed -ne 0 ]; then
	echo "--- OBS log ($log):"; grep -iE "comment-bar|error|warning" "$log" 2>/dev/null | tail -20
fi
checks_verdict
