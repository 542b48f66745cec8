#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every install layout holds every file, where OBS 29 to 33 look (issue 50; docs/packaging.md, "Which OBS
# finds which path"): the .deb (unpacked, not installed), the tarball's install.sh, `make install`'s
# plugin/install.sh (into scratch XDG folders) and the Flatpak extension's install-extension.sh. In OBS
# 33's layout every file is a file; in the legacy one (OBS 29-32) each module is a copy of OBS 33's (a
# file of its own, not a link nor a hard link: OBS 33 opens both folders, and one file would be one
# library loaded twice) and every other file a link that resolves to OBS 33's. Each module's data
# folder has manifest.json of this VERSION, seen through the legacy links too. uninstall.sh and
# `plugin/install.sh uninstall` leave nothing. The lists are made from what is built (the locale
# files, the helpers, the dock's Qt libraries), so a file an install script forgets fails here.
# OBS 33 itself is not here: its search (the paths its loader gives libobs, libobs's own search, which
# this machine's libobs 29 has too) loads the .deb's and make install's OBS 33 layouts (libobs_find.py).
# First a layout with a file missing, a module linked instead of copied and a dangling link must fail.
#   Tests/packaging/test-layouts.sh DEB DIST_TARBALL PLUGIN_SO RENDERER [HELPER...]   (on a display: libobs)
# DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA (packaging.mk): the dock; ONECOMME_VUE: Vue's file.
set -uo pipefail
deb=$(realpath "$1") dist=$(realpath "$2") so=$(realpath "$3") renderer=$(realpath "$4")
shift 4
helpers=("$@")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
source "$here/../checks.sh"
work=$(mktemp -d /tmp/commentbar-layouts.XXXXXX)
trap 'rm -rf "$work"' EXIT
version=$(cat "$top/VERSION")
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
locales=$(cd "$top/plugin/data/locale" && ls *.ini)
helper_names=$(for h in ${helpers[@]+"${helpers[@]}"}; do basename "$h"; done)
qt_names=$(for l in ${DOCK_LIBRARIES:-}; do basename "$l"; done)
[ -n "$qt_names" ] || { echo "FAIL no DOCK_LIBRARIES: run it as make does"; echo "0 passed, 1 failed"; exit 1; }

# A layout's spec, one line each: `file PATH`, `copy PATH OF` (a file of its own with OF's bytes),
# `link PATH TO` (a link that resolves to TO), `manifest PATH` (a file or link: manifest.json of
# VERSION). Paths are relative to the layout's root. Prints what is wrong, one a line.
verify() { # ROOT < SPEC
	local root=$1 kind path of
	while read -r kind path of; do
		[ -n "$kind" ] || continue
		local at=$root/$path
		case $kind in
		file) [ -f "$at" ] && [ ! -L "$at" ] || echo "missing file $path" ;;
		copy)
			if [ -L "$at" ] || [ ! -f "$at" ]; then echo "not a file of its own: $path"
			elif ! cmp -s "$at" "$root/$of"; then echo "not a copy of $of: $path"
			elif [ "$(stat -c %d:%i "$at")" = "$(stat -c %d:%i "$root/$of")" ]; then echo "a hard link to $of: $path"
			fi ;;
		link)
			if [ ! -L "$at" ]; then echo "not a link: $path"
			elif [ "$(readlink -f "$at")" != "$(readlink -f "$root/$of")" ] || [ ! -f "$root/$of" ]; then
				echo "a link to $(readlink "$at"), not $of: $path"
			fi ;;
		manifest)
			python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["version"] != sys.argv[2])' "$at" "$version" \
				2>/dev/null || echo "no manifest.json of $version: $path" ;;
		esac
	done
}
data_spec() { # NEW OLD: a module's data folder in OBS 33's layout (files) and the legacy one (links to them)
	local f
	for f in $locales manifest.json; do
		[ "$f" = manifest.json ] || f=locale/$f
		echo "file $1/$f"
		echo "link $2/$f $1/$f"
	done
	echo "manifest $1/manifest.json"
	echo "manifest $2/manifest.json"
}
# The user layouts (the tarball's install.sh, make install): OBS 33's under data/, the legacy one under config/.
user_spec() {
	local new=data/obs-studio/plugins old=config/obs-studio/plugins f
	echo "file $new/comment-bar/comment-bar.so"
	echo "file $new/comment-bar/commentbar"
	for f in $helper_names; do echo "file $new/comment-bar/$f"; done
	[ -z "${ONECOMME_VUE:-}" ] || echo "file $new/comment-bar/vue.min.js"
	echo "copy $old/comment-bar/bin/64bit/comment-bar.so $new/comment-bar/comment-bar.so"
	echo "link $old/comment-bar/bin/64bit/commentbar $new/comment-bar/commentbar"
	echo "file $new/comment-bar-dock/comment-bar-dock.so"
	echo "copy $old/comment-bar-dock/bin/64bit/comment-bar-dock.so $new/comment-bar-dock/comment-bar-dock.so"
	for f in $qt_names; do
		echo "file $new/comment-bar-dock/comment-bar-dock/$f"
		echo "link $old/comment-bar-dock/bin/64bit/comment-bar-dock/$f $new/comment-bar-dock/comment-bar-dock/$f"
	done
	for module in comment-bar comment-bar-dock; do data_spec "$new/$module/data" "$old/$module/data"; done
}
deb_spec() {
	local lib=usr/lib/$multiarch/obs-modules/plugins data=usr/share/obs/obs-modules/plugins
	local old_lib=usr/lib/$multiarch/obs-plugins old_data=usr/share/obs/obs-plugins f
	echo "file usr/libexec/comment-bar/commentbar"
	for f in $helper_names; do echo "file usr/libexec/comment-bar/$f"; done
	echo "link usr/bin/commentbar usr/libexec/comment-bar/commentbar"
	for module in comment-bar comment-bar-dock; do
		echo "file $lib/$module.so"
		echo "copy $old_lib/$module.so $lib/$module.so"
		data_spec "$data/$module" "$old_data/$module"
	done
	for f in $qt_names; do
		echo "file $lib/comment-bar-dock/$f"
		echo "link $old_lib/comment-bar-dock/$f $lib/comment-bar-dock/$f"
	done
	if [ -n "${ONECOMME_VUE:-}" ]; then
		echo "file $data/comment-bar/onecomme/vue.min.js"
		echo "link $old_data/comment-bar/onecomme/vue.min.js $data/comment-bar/onecomme/vue.min.js"
	fi
}
flatpak_spec() {
	local id=com.obsproject.Studio.Plugin.CommentBar f
	echo "file lib/obs-plugins/comment-bar.so"
	echo "file lib/obs-plugins/comment-bar-dock.so"
	for f in $qt_names; do echo "file lib/obs-plugins/comment-bar-dock/$f"; done
	echo "file libexec/comment-bar/commentbar"
	for f in $helper_names; do echo "file libexec/comment-bar/$f"; done
	for module in comment-bar comment-bar-dock; do
		for f in $locales; do echo "file share/obs/obs-plugins/$module/locale/$f"; done
		echo "manifest share/obs/obs-plugins/$module/manifest.json"
	done
	[ -z "${ONECOMME_VUE:-}" ] || echo "file share/obs/obs-plugins/comment-bar/onecomme/vue.min.js"
	echo "file share/metainfo/$id.metainfo.xml"
	echo "file share/licenses/$id/LICENSE"
	echo "file share/licenses/$id/copyright"
}
report() { # WHAT: the check line of a layout whose problems are in $problems
	check "$1${problems:+ ($(head -3 <<<"$problems" | paste -sd ';' -)$([ "$(wc -l <<<"$problems")" -le 3 ] || echo "; …"))}" \
		'[ -z "$problems" ]'
}
leftovers() { find "$1" -path "*/obs-studio/plugins/comment-bar*" 2>/dev/null | head -3; }
# OBS 33's search for one of its locations, through this machine's libobs (libobs_find.py: the same
# find_modules_in_path). Checks that it loads both modules with their data folders, the source's name
# comes from the locale there, the shim's load line names LAYOUT and its renderer is RENDERER.
libobs_loads() { # WHAT ROOT BINARY DATA LAYOUT RENDERER
	local what=$1 root=$2 binary=$3 data=$4 layout=$5 expected_renderer=$6 out=$work/libobs-$RANDOM.txt
	python3 "$here/libobs_find.py" "$root" "$binary" "$data" >"$out" 2>&1
	local seen
	seen=$(tail -1 "$out" | python3 -c 'import json, sys
found = json.load(sys.stdin)
print(" ".join(sorted(m["name"] + ("" if m["loaded"] else "(failed)") for m in found.get("modules", []))),
      "|", found.get("source_name"))' 2>/dev/null)
	check "$what: libobs finds and loads both modules with OBS 33's paths ($seen)" \
		'[ "$seen" = "comment-bar comment-bar-dock | Comment Bar" ]'
	check "$what: the shim says it loaded from OBS 33's layout, and runs $expected_renderer" \
		'grep -q "\[comment-bar\] comment-bar $version loaded from $root/.*/comment-bar.so ($layout)" "$out" &&
		 grep -qF "[comment-bar] renderer executable: $expected_renderer" "$out"'
}

# ---- the checks can fail ----
mkdir -p "$work/bad/a" && echo x >"$work/bad/a/m.so" && ln -s m.so "$work/bad/a/link.so" && ln -s gone "$work/bad/a/dangling"
problems=$(verify "$work/bad" <<<"file a/missing.so
copy a/link.so a/m.so
link a/dangling a/m.so")
check "a missing file, a module linked instead of copied and a dangling link are each found ($(wc -l <<<"$problems") of 3)" \
	'[ "$(wc -l <<<"$problems")" = 3 ]'

# ---- the .deb ----
mkdir -p "$work/deb"
dpkg-deb -x "$deb" "$work/deb"
problems=$(deb_spec | verify "$work/deb")
report "the .deb: OBS 33's /usr/lib/$multiarch/obs-modules/plugins and /usr/share/obs/obs-modules/plugins, the legacy folders' copies and links, every file ($(deb_spec | wc -l) checked)"
# OBS 33's system location (kPlatformPluginModulePath, kPlatformPluginDataPath + /%module%/), in the unpacked root.
libobs_loads "the .deb" "$work/deb" "$work/deb/usr/lib/$multiarch/obs-modules/plugins" \
	"$work/deb/usr/share/obs/obs-modules/plugins/%module%/" "other folder, OBS 33 layout" \
	"$work/deb/usr/libexec/comment-bar/commentbar"

# ---- the tarball ----
mkdir -p "$work/dist" "$work/tarball"
tar -xzf "$dist" -C "$work/dist"
problems=$(XDG_CONFIG_HOME=$work/tarball/config XDG_DATA_HOME=$work/tarball/data "$work"/dist/*/install.sh 2>&1 >/dev/null)
problems+=$(user_spec | verify "$work/tarball")
report "the tarball's install.sh: OBS 33's ~/.local/share/obs-studio/plugins and the legacy ~/.config one, every file ($(user_spec | wc -l) checked)"
XDG_CONFIG_HOME=$work/tarball/config XDG_DATA_HOME=$work/tarball/data "$work"/dist/*/uninstall.sh >/dev/null 2>&1
problems=$(leftovers "$work/tarball")
report "the tarball's uninstall.sh leaves nothing of comment-bar or comment-bar-dock"

# ---- make install ----
mkdir -p "$work/make"
problems=$(XDG_CONFIG_HOME=$work/make/config XDG_DATA_HOME=$work/make/data \
	"$top/plugin/install.sh" install "$so" "$renderer" "$top/plugin/data" ${helpers[@]+"${helpers[@]}"} 2>&1 >/dev/null)
problems+=$(user_spec | verify "$work/make")
report "make install (plugin/install.sh): the same layouts, every file"
# OBS 33's per-user location ($XDG_DATA_HOME + /obs-studio/plugins/%module%/ and .../%module%/data/).
libobs_loads "make install" "$work/make" "$work/make/data/obs-studio/plugins/%module%/" \
	"$work/make/data/obs-studio/plugins/%module%/data/" "user plugin folder, OBS 33 layout" \
	"$work/make/data/obs-studio/plugins/comment-bar/commentbar"
XDG_CONFIG_HOME=$work/make/config XDG_DATA_HOME=$work/make/data "$top/plugin/install.sh" uninstall >/dev/null 2>&1
problems=$(leftovers "$work/make")
report "make uninstall (plugin/install.sh uninstall) leaves nothing of comment-bar or comment-bar-dock"

# ---- the Flatpak extension ----
problems=$("$top/packaging/flatpak/install-extension.sh" "$work/flatpak" "$so" "$renderer" ${helpers[@]+"${helpers[@]}"} 2>&1 >/dev/null)
problems+=$(flatpak_spec | verify "$work/flatpak")
report "the Flatpak extension (install-extension.sh): lib/obs-plugins, share/obs/obs-plugins, libexec/comment-bar, every file"
checks_verdict
