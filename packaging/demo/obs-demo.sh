#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo's OBS part. With $DISPLAY: OBS opens with a private profile and scene collection
# (XDG_CONFIG_HOME=DEMO_DIR/config, never the user's own) showing a Comment Bar on the demo
# stream over a test pattern; close OBS to end. Without a display: the same in headless OBS
# on its own Xvfb, and a screenshot of the scene in obs-demo.png.
#   packaging/demo/obs-demo.sh PLUGIN_SO RENDERER DEMO_DIR
set -euo pipefail
so=$(realpath "$1") renderer=$(realpath "$2") demo=$(mkdir -p "$3" && realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
source "$top/Tests/packaging/headless-obs.sh"
config=$demo/config
rm -rf "$config"
# The freshly built plugin, in the private config's user plugin folder (make install's layout).
XDG_CONFIG_HOME=$config "$top/plugin/install.sh" install "$so" "$renderer" "$top/plugin/data" >/dev/null
python3 "$here/test_pattern.py" "$demo/test-pattern.png"
port=$(obs_free_port)
python3 "$here/obs_config.py" --config "$config" --name "$OBS_PROFILE" --websocket-port "$port" \
	--pattern "$demo/test-pattern.png"

if [ -n "${DISPLAY:-}" ]; then
	echo "opening OBS with a private profile (config in $config); close OBS to end the demo"
	env -u OBS_PLUGINS_PATH -u OBS_PLUGINS_DATA_PATH -u COMMENTBAR_RENDERER XDG_CONFIG_HOME="$config" \
		obs --multi --profile "$OBS_PROFILE" --collection "$OBS_PROFILE" >"$demo/obs.out" 2>&1
	exit
fi

trap 'obs_stop; obs_stop_xvfb' EXIT
obs_start_xvfb "$demo"
obs_start "$config" "$demo/obs.out"
if ! shot=$(obs_screenshot "$port" "$demo/bar-in-obs.png"); then
	echo "OBS did not show the bar: $shot (log: $(obs_newest_log "$config"))" >&2
	exit 1
fi
# The whole scene, the bar over the test pattern, as OBS composites it, once the demo has comments.
sleep 5
/usr/bin/python3 - "$port" "$top/obs-demo.png" <<'PY'
import asyncio, base64, json, sys
import websockets

async def main(port, out):
    async with websockets.connect(f"ws://127.0.0.1:{port}", max_size=None, compression=None) as ws:
        await ws.recv()
        await ws.send(json.dumps({"op": 1, "d": {"rpcVersion": 1, "eventSubscriptions": 0}}))
        await ws.recv()
        await ws.send(json.dumps({"op": 6, "d": {"requestType": "GetSourceScreenshot", "requestId": "1",
                                                 "requestData": {"sourceName": "Scene", "imageFormat": "png"}}}))
        reply = json.loads(await ws.recv())["d"]
        open(out, "wb").write(base64.b64decode(reply["responseData"]["imageData"].split(",", 1)[1]))

asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
PY
echo "wrote obs-demo.png (the bar in headless OBS over a test pattern; first frame after ${shot})"
