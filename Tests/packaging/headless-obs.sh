# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the packaging tests and the demo: the real OBS binary, headless on its own Xvfb,
# with a private XDG_CONFIG_HOME written by packaging/demo/obs_config.py. No plugin path
# overrides: OBS finds modules where a user's OBS would.
#   obs_test_workdir NAME        a fresh $work folder; OBS, Xvfb and the folder are cleaned up at exit
#   obs_start_xvfb WORK          Xvfb on a free display; exports DISPLAY
#   obs_configure CONFIG PORT    the "CommentBar" profile and scene collection, obs-websocket on PORT
#   obs_start CONFIG OUT [NAME=VALUE...]  OBS with XDG_CONFIG_HOME=CONFIG (and only the variables given); sets obs_pid
#   obs_stop                     SIGINT (OBS ignores SIGTERM) and wait
#   obs_newest_log CONFIG        the path of OBS's newest log
#   obs_free_port                a free TCP port on 127.0.0.1
#   obs_screenshot PORT OUT [SINCE]  waits for a drawn bar (obs_screenshot.py); prints its JSON line
OBS_HELPERS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OBS_CONFIG_PY=$OBS_HELPERS_DIR/../../packaging/demo/obs_config.py
OBS_PROFILE=CommentBar
xvfb_pid= obs_pid=

obs_test_workdir() {
	work=$(mktemp -d "/tmp/commentbar-$1.XXXXXX")
	trap 'obs_stop; obs_stop_xvfb; rm -rf "$work"' EXIT
}

obs_start_xvfb() {
	Xvfb -displayfd 9 -screen 0 1280x720x24 -nolisten tcp 9>"$1/display" 2>"$1/xvfb.log" &
	xvfb_pid=$!
	for _ in $(seq 100); do [ -s "$1/display" ] && break; sleep 0.05; done
	[ -s "$1/display" ] || return 1
	export DISPLAY=":$(head -1 "$1/display")"
}

obs_configure() {
	python3 "$OBS_CONFIG_PY" --config "$1" --name "$OBS_PROFILE" --websocket-port "$2"
}

obs_start() {
	# Only the environment a user's OBS would have: no plugin paths, no renderer override,
	# unless the test gives them (the Flatpak layout's OBS_PLUGINS_PATH).
	env -u OBS_PLUGINS_PATH -u OBS_PLUGINS_DATA_PATH -u COMMENTBAR_RENDERER XDG_CONFIG_HOME="$1" "${@:3}" \
		LIBGL_ALWAYS_SOFTWARE=1 obs --multi --profile "$OBS_PROFILE" --collection "$OBS_PROFILE" >>"$2" 2>&1 &
	obs_pid=$!
}

obs_stop() {
	[ -n "$obs_pid" ] || return 0
	kill -INT "$obs_pid" 2>/dev/null || true
	for _ in $(seq 100); do kill -0 "$obs_pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$obs_pid" 2>/dev/null || true
	wait "$obs_pid" 2>/dev/null || true
	obs_pid=
}

obs_stop_xvfb() {
	[ -z "$xvfb_pid" ] || { kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null; } || true
	xvfb_pid=
}

obs_newest_log() {
	ls -t "$1"/obs-studio/logs/*.txt 2>/dev/null | head -1
}

obs_free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

obs_screenshot() {
	/usr/bin/python3 "$OBS_HELPERS_DIR/obs_screenshot.py" --port "$1" --source "Comment Bar" --out "$2" --timeout 60 \
		${3:+--since "$3"}
}
