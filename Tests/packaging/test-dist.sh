#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tarball: install.sh into a temporary XDG_CONFIG_HOME and XDG_DATA_HOME gives the layout
# `make install` gives (OBS 33's and the legacy one, the dock's too), the real OBS (headless, no
# plugin path overrides) loads it from the user folder's legacy layout (OBS 29) and renders the
# demo; a renderer that is not executable is named in the log; uninstall.sh removes everything.
#   Tests/packaging/test-dist.sh DIST_TARBALL PLUGIN_SO RENDERER [HELPER...]
# HELPERs are what `make install` puts beside the renderer (the overlay's programs); DOCK_LOADER,
# DOCK_LIBRARIES and DOCK_DATA (packaging.mk) the dock it installs.
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
# Both user plugin folders (make install's plugin/install.sh): files, kinds and modes (a link's target names
# its own root, so not compared; test-layouts checks where each points).
layout() { (cd "$1" && find config/obs-studio data/obs-studio -printf '%p %y %m\n' | LC_ALL=C sort); }

mkdir -p "$work/dist"
tar -xzf "$dist" -C "$work/dist"
check "the tarball holds install.sh, uninstall.sh, plugin-install.sh, copyright and VERSION ($version)" \
	'for f in install.sh uninstall.sh plugin-install.sh copyright VERSION; do [ -f "$work"/dist/*/$f ] || exit 1; done &&
	 [ "$(cat "$work"/dist/*/VERSION)" = "$version" ]'
user=$work/user config=$work/user/config
as_user() { XDG_CONFIG_HOME=$1/config XDG_DATA_HOME=$1/data "${@:2}"; }
as_user "$user" "$work"/dist/*/install.sh >"$work/install.txt"
check "install.sh says where the renderer is (OBS 33's folder) and how to run commentbar overlay" \
	'grep -qF "$user/data/obs-studio/plugins/comment-bar/commentbar" "$work/install.txt" &&
	 grep -qF "comment-bar/commentbar overlay --stream" "$work/install.txt"'
# (The dock's files from the environment, as make install gives them: DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA.)
as_user "$work/make-install" "$here/../../plugin/install.sh" install "$so" "$renderer" "$here/../../plugin/data" "${helpers[@]}" >/dev/null
check "install.sh gives the layout make install gives (files, kinds, modes, both layouts)" \
	'[ -n "$(layout "$user")" ] && cmp -s <(layout "$user") <(layout "$work/make-install")'
cmp -s <(layout "$user") <(layout "$work/make-install") || diff <(layout "$user") <(layout "$work/make-install") | head -10
dock=$config/obs-studio/plugins/comment-bar-dock
check "install.sh installs the dock: its module, the Qt 5 and Qt 6 libraries beside it, its locale (legacy layout)" \
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
expected="comment-bar $version loaded from $user_so (user plugin folder, legacy layout)"
if [ -e /usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/obs-plugins/comment-bar.so ]; then
	expected="comment-bar $version" # the system package is installed too: test-deb checks which one wins
fi
check "OBS loads comment-bar from the user plugin folder's legacy layout and the log names $version and the layout" \
	'grep -qF "$expected" "$log"'
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

as_user "$user" "$work"/dist/*/uninstall.sh >/dev/null
check "uninstall.sh leaves no comment-bar or comment-bar-dock folder in either layout" \
	'[ -z "$(find "$user" -path "*/obs-studio/plugins/comment-bar*" -print -quit)" ]'
checks_verdict
