#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tarball: install.sh into a temporary XDG_CONFIG_HOME gives the layout `make install`
# gives, the real OBS (headless, no plugin path overrides) loads it from the user folder and
# renders the demo; a renderer that is not executable is named in the log; uninstall.sh
# removes everything.
#   Tests/packaging/test-dist.sh DIST_TARBALL PLUGIN_SO RENDERER [HELPER...]
# HELPERs are what `make install` puts beside the renderer (the overlay's programs).
set -uo pipefail
dist=$(realpath "$1") so=$(realpath "$2") renderer=$(realpath "$3")
shift 3
helpers=()
for helper in "$@"; do helpers+=("$(realpath "$helper")"); done
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/obs.sh"
obs_test_workdir test-dist
source "$(dirname "$0")/../checks.sh"
version=$(cat "$here/../../VERSION")
# The module's folder (make install's plugin/install.sh); the dock's folder is checked on its own.
layout() { (cd "$1/obs-studio/plugins/comment-bar" && find . -printf '%p %y %m\n' | LC_ALL=C sort); }

mkdir -p "$work/dist"
tar -xzf "$dist" -C "$work/dist"
check "the tarball holds install.sh, uninstall.sh, copyright and VERSION ($version)" \
	'for f in install.sh uninstall.sh copyright VERSION; do [ -f "$work"/dist/*/$f ] || exit 1; done &&
	 [ "$(cat "$work"/dist/*/VERSION)" = "$version" ]'
config=$work/config
XDG_CONFIG_HOME=$config "$work"/dist/*/install.sh >"$work/install.txt"
check "install.sh says where the renderer is and how to run commentbar overlay" \
	'grep -qF "$config/obs-studio/plugins/comment-bar/bin/64bit/commentbar" "$work/install.txt" &&
	 grep -qF "bin/64bit/commentbar overlay --stream" "$work/install.txt"'
XDG_CONFIG_HOME=$work/make-install "$here/../../plugin/install.sh" install "$so" "$renderer" "$here/../../plugin/data" "${helpers[@]}" >/dev/null
check "install.sh gives the layout make install gives (files, kinds, modes)" \
	'cmp -s <(layout "$config") <(layout "$work/make-install")'
dock=$config/obs-studio/plugins/comment-bar-dock
check "install.sh installs the dock: its module, the Qt 5 and Qt 6 libraries beside it, its locale" \
	'[ -f "$dock/bin/64bit/comment-bar-dock.so" ] && [ -f "$dock/bin/64bit/comment-bar-dock/comment-bar-dock-qt5.so" ] &&
	 [ -f "$dock/bin/64bit/comment-bar-dock/comment-bar-dock-qt6.so" ] && [ -f "$dock/data/locale/en-US.ini" ]'
user_so=$config/obs-studio/plugins/comment-bar/bin/64bit/comment-bar.so
user_renderer=$(dirname "$user_so")/commentbar

port=$(obs_free_port)
obs_configure "$config" "$port"
obs_start "$config" "$work/obs.out"
shot=$(obs_screenshot "$port" "$work/user.png")
check "a Comment Bar source renders the demo from the user folder ($shot)" 'grep -q "\"seconds\"" <<<"$shot"'
log=$(obs_newest_log "$config")
expected="comment-bar $version loaded from $user_so (user plugin folder)"
if [ -e /usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/obs-plugins/comment-bar.so ]; then
	expected="comment-bar $version" # the system package is installed too: test-deb checks which one wins
fi
check "OBS loads comment-bar from the user plugin folder and the log names $version" 'grep -qF "$expected" "$log"'
check "the shim runs the renderer beside the .so" 'grep -qF "renderer executable: $user_renderer" "$log"'
obs_stop

chmod -x "$user_renderer"
obs_start "$config" "$work/obs.out"
for _ in $(seq 100); do
	log=$(obs_newest_log "$config")
	grep -q "cannot start the renderer" "$log" 2>/dev/null && break
	sleep 0.1
done
check "a renderer that is not executable is named in the log" \
	'grep -qF "no usable renderer: $user_renderer is not executable;" "$log" && grep -q "reinstall Comment Bar" "$log"'
obs_stop
chmod +x "$user_renderer"

XDG_CONFIG_HOME=$config "$work"/dist/*/uninstall.sh >/dev/null
check "uninstall.sh leaves no comment-bar or comment-bar-dock folder" \
	'[ ! -e "$config/obs-studio/plugins/comment-bar" ] && [ ! -e "$dock" ]'
checks_verdict
