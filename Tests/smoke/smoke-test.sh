#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the bundle into a throwaway XDG_CONFIG_HOME and starts the real OBS (headless, on
# the display make gives it) with a scene collection holding a Comment Bar.
# Checks that OBS loads the plugin, the installed renderer runs as OBS's child
# and logs through it, and that nothing is left after OBS quits (SIGINT).
#   Tests/smoke/smoke-test.sh PLUGIN_SO RENDERER   (make smoke-install)
set -uo pipefail
so=$(realpath "$1") renderer=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/obs.sh"
obs_test_workdir smoke
source "$here/../checks.sh"

config=$work/config
bundle=$here/../../plugin # install.sh and data/: what `make install` uses
XDG_CONFIG_HOME=$config "$bundle/install.sh" install "$so" "$renderer" "$bundle/data" >/dev/null
obs_configure "$config" "" '{"service": "demo", "width": 640, "height": 200}' 0
obs_start "$config" "$work/obs.out"

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
log=$(obs_newest_log "$config")
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
obs_start "$config" "$work/obs.out"
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
