#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo's OBS part. With $DISPLAY: OBS opens with a private profile and scene collection
# (XDG_CONFIG_HOME=DEMO_DIR/config, never the user's own) showing a Comment Bar on the demo
# stream over a test pattern; close OBS to end. Without a display: the same in headless OBS
# on an Xvfb of its own, and a screenshot of the scene in obs-demo.png.
#   packaging/demo/obs-demo.sh PLUGIN_SO RENDERER DEMO_DIR
set -euo pipefail
so=$(realpath "$1") renderer=$(realpath "$2") demo=$(mkdir -p "$3" && realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
source "$top/Tests/support/obs.sh"
if [ -z "${DISPLAY:-}" ] && [ -z "${COMMENTBAR_DEMO_HEADLESS:-}" ]; then
	COMMENTBAR_DEMO_HEADLESS=1 exec env PYTHONPATH="$top/Tests" /usr/bin/python3 -m support.xserver -- "$0" "$@"
fi
config=$demo/config
rm -rf "$config" "$demo/data"
# The freshly built plugin, in the private config's user plugin folder (make install's layouts: OBS 33's
# under XDG_DATA_HOME, private too, never the user's own).
XDG_CONFIG_HOME=$config XDG_DATA_HOME=$demo/data "$top/plugin/install.sh" install "$so" "$renderer" "$top/plugin/data" >/dev/null
python3 "$here/test_pattern.py" "$demo/test-pattern.png"
port=$(obs_free_port)
bar='{"service": "demo", "stream_id": "demo", "width": 1280, "height": 360}'

if [ -z "${COMMENTBAR_DEMO_HEADLESS:-}" ]; then
	support_python -m support.obs config --config "$config" --websocket-port "$port" --bar "$bar" --bar-y 360 \
		--pattern "$demo/test-pattern.png" --window
	echo "opening OBS with a private profile (config in $config); close OBS to end the demo"
	support_python -m support.obs exec --config "$config" --window >"$demo/obs.out" 2>&1
	exit
fi

support_python -m support.obs config --config "$config" --websocket-port "$port" --bar "$bar" --bar-y 360 \
	--pattern "$demo/test-pattern.png"
trap 'obs_stop' EXIT
obs_start "$config" "$demo/obs.out"
if ! shot=$(obs_screenshot "$port" "$demo/bar-in-obs.png"); then
	echo "OBS did not show the bar: $shot (log: $(obs_newest_log "$config"))" >&2
	exit 1
fi
# The whole scene, the bar over the test pattern, as OBS composites it, once the demo has comments.
sleep 5
support_python -m support.obs screenshot --port "$port" --source Scene --width 1280 --any --out "$top/obs-demo.png" \
	>/dev/null
echo "wrote obs-demo.png (the bar in headless OBS over a test pattern; first frame after ${shot})"
