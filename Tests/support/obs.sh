# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the shell tests and the demo: real OBS through support.obs (the one launcher),
# on the display the caller gives ($DISPLAY: the Makefile runs these tests under
# `python3 -m support.xserver`), with a private XDG_CONFIG_HOME.
#   obs_test_workdir NAME        a fresh $work folder; OBS and the folder are cleaned up at exit
#   obs_configure CONFIG [PORT] [BAR_JSON [Y]]  the profile and scene collection: a Comment Bar
#                                (default: the demo, 1280x360 at y 360), obs-websocket on PORT
#   obs_start CONFIG OUT [NAME=VALUE...]  OBS with XDG_CONFIG_HOME=CONFIG as a user's would run
#                                (no plugin path or renderer overrides but the ones given); sets obs_pid
#   obs_stop                     SIGINT (OBS ignores SIGTERM), wait, then SIGKILL after 10 s
#   obs_newest_log CONFIG        the path of OBS's newest log
#   obs_free_port                a free TCP port on 127.0.0.1
#   obs_screenshot PORT OUT [SINCE]  waits for a drawn bar in "Comment Bar"; prints its JSON line
SUPPORT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
support_python() { PYTHONPATH=$(dirname "$SUPPORT_DIR") PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 "$@"; }
OBS_DEMO_BAR='{"service": "demo", "stream_id": "demo", "width": 1280, "height": 360}'
obs_pid=

obs_test_workdir() {
	work=$(mktemp -d "/tmp/commentbar-$1.XXXXXX")
	trap 'obs_stop; rm -rf "$work"' EXIT
	if [ -z "${DISPLAY:-}" ]; then
		echo "FAIL no DISPLAY: run it as make does, under python3 -m support.xserver"
		echo "0 passed, 1 failed"
		exit 1
	fi
}

obs_configure() {
	support_python -m support.obs config --config "$1" ${2:+--websocket-port "$2"} \
		--bar "${3:-$OBS_DEMO_BAR}" --bar-y "${4:-360}"
}

obs_start() {
	# A simple command (not the support_python function), so that $! is python's pid, which
	# becomes OBS's when it execs: obs_stop signals OBS itself, /proc/$obs_pid is OBS's.
	PYTHONPATH=$(dirname "$SUPPORT_DIR") PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m support.obs exec --config "$1" \
		"${@:3}" >>"$2" 2>&1 &
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

obs_newest_log() {
	ls -t "$1"/obs-studio/logs/*.txt 2>/dev/null | head -1
}

obs_free_port() {
	support_python -c 'from support.processes import free_port; print(free_port())'
}

obs_screenshot() {
	support_python -m support.obs screenshot --port "$1" --out "$2" --timeout 60 ${3:+--since "$3"}
}
