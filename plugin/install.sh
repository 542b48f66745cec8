#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs Comment Bar (and its dock) for the user, where OBS 29 to 33 and later find it, or removes it.
#   plugin/install.sh install PLUGIN_SO RENDERER DATA_DIR [HELPER...]
#   plugin/install.sh uninstall
# `make install` runs it; the tarball ships it as plugin-install.sh (its install.sh and uninstall.sh
# run it). DOCK_LOADER, DOCK_LIBRARIES and DOCK_DATA name the dock's files (CModules/dock/dock.mk;
# unset: no dock). HELPERs (the overlay's programs) go beside the renderer, where it finds them;
# Vue's file for OneComme's templates, when beside RENDERER, goes beside the installed renderer too
# (it looks there first). INSTALL_STRIP=no installs the files as they are (the tarball's are stripped).
#
# Two layouts, one set of files (docs/packaging.md, "Which OBS finds which path"):
#   OBS 33's  ${XDG_DATA_HOME:-~/.local/share}/obs-studio/plugins/NAME/NAME.so and NAME/data/
#             (obs-studio PR #13594, frontend/plugin-manager/PluginModuleLoader_Linux.cpp): the files.
#   legacy    ${XDG_CONFIG_HOME:-~/.config}/obs-studio/plugins/NAME/bin/64bit/NAME.so and NAME/data/,
#             which OBS 29 to 32 read and OBS 33 still loads, marked Legacy: NAME.so is a copy of the
#             module (a symlink would let OBS 33, which opens both folders, map the one library twice
#             and run its load twice on the same statics; a copy is a second module that finds the
#             first loaded and stays idle), everything else a symlink into OBS 33's folder.
set -euo pipefail
NAME=comment-bar
DOCK=comment-bar-dock
NEW="${XDG_DATA_HOME:-$HOME/.local/share}/obs-studio/plugins"
LEGACY="${XDG_CONFIG_HOME:-$HOME/.config}/obs-studio/plugins"

put() { # MODE SOURCE TARGET: a file of OBS 33's layout
	local strip=()
	[ "$1" = 0644 ] || [ "${INSTALL_STRIP:-yes}" = no ] || strip=(-s)
	install -D -m "$1" "${strip[@]}" "$2" "$3"
}
copy() { # SOURCE TARGET: the legacy layout's copy of a module (SOURCE is put's TARGET)
	install -d "$(dirname "$2")"
	install -m 0755 "$1" "$2"
}
link() { # SOURCE TARGET: the legacy layout's symlink to a file of OBS 33's layout
	install -d "$(dirname "$2")"
	ln -sfn "$1" "$2"
}
# Empty folders of ours, deepest first; never a folder that still holds something.
prune() { for dir in "$@"; do rmdir "$dir" 2>/dev/null || true; done; }

case "${1:-}" in
install)
	[ $# -ge 4 ] || { echo "usage: $0 install PLUGIN_SO RENDERER DATA_DIR [HELPER...]" >&2; exit 2; }
	so=$2 renderer=$3 data=$4
	shift 4
	for f in "$so" "$renderer" "$data/manifest.json" "$@"; do [ -f "$f" ] || { echo "$f: not built" >&2; exit 1; }; done
	# Stripped unless INSTALL_STRIP=no: the renderer's debug symbols are most of its 110 MB, and OBS needs none.
	bundle=$NEW/$NAME old=$LEGACY/$NAME
	put 0755 "$so" "$bundle/$NAME.so"
	put 0755 "$renderer" "$bundle/commentbar"
	for helper in "$@"; do put 0755 "$helper" "$bundle/$(basename "$helper")"; done
	vue="$(dirname "$renderer")/vue.min.js"
	if [ -f "$vue" ]; then put 0644 "$vue" "$bundle/vue.min.js"; fi
	for file in "$data"/locale/*.ini "$data/manifest.json"; do put 0644 "$file" "$bundle/data/${file#"$data"/}"; done
	copy "$bundle/$NAME.so" "$old/bin/64bit/$NAME.so"
	# What an install before OBS 33's layout put there and the legacy folder no longer needs.
	rm -f "$old"/bin/64bit/commentbar-overlay-* "$old/data/onecomme/vue.min.js"
	prune "$old/data/onecomme"
	# The legacy copy runs the renderer beside it, a link: the renderer then sees OBS 33's folder as its
	# own (/proc/self/exe) and finds its helpers and Vue there.
	link "$bundle/commentbar" "$old/bin/64bit/commentbar"
	for file in "$bundle"/data/locale/*.ini "$bundle/data/manifest.json"; do link "$file" "$old/data/${file#"$bundle/data/"}"; done
	echo "installed into $bundle (OBS 33 and later) and $old (OBS 29 to 32); restart OBS"
	# The renderer is OBS's, but it also runs on its own: say where it is.
	echo "the renderer: $bundle/commentbar"
	echo "  e.g. the bar above a full-screen game without OBS: $bundle/commentbar overlay --stream URL"
	# The dock: a plugin folder of its own, its Qt libraries in a subfolder the module opens (OBS never does).
	if [ -n "${DOCK_LOADER:-}" ]; then
		bundle=$NEW/$DOCK old=$LEGACY/$DOCK
		put 0755 "$DOCK_LOADER" "$bundle/$DOCK.so"
		for library in ${DOCK_LIBRARIES:-}; do put 0755 "$library" "$bundle/$DOCK/$(basename "$library")"; done
		for file in "$DOCK_DATA"/locale/*.ini "$DOCK_DATA/manifest.json"; do
			put 0644 "$file" "$bundle/data/${file#"$DOCK_DATA"/}"
		done
		copy "$bundle/$DOCK.so" "$old/bin/64bit/$DOCK.so"
		for library in "$bundle/$DOCK"/*.so; do link "$library" "$old/bin/64bit/$DOCK/$(basename "$library")"; done
		for file in "$bundle"/data/locale/*.ini "$bundle/data/manifest.json"; do
			link "$file" "$old/data/${file#"$bundle/data/"}"
		done
		echo "installed the dock into $bundle and $old"
	fi
	;;
uninstall)
	# Only our own folders, and only what install puts there.
	for root in "$NEW" "$LEGACY"; do
		for module in $NAME $DOCK; do
			[ -d "$root/$module" ] || continue
			for dir in "$root/$module" "$root/$module/bin/64bit"; do
				rm -f "$dir/$module.so" "$dir/commentbar" "$dir"/commentbar-overlay-* "$dir/vue.min.js" \
					"$dir/$DOCK"/$DOCK-qt*.so
				prune "$dir/$DOCK"
			done
			rm -f "$root/$module"/data/locale/*.ini "$root/$module/data/manifest.json" "$root/$module/data/onecomme/vue.min.js"
			prune "$root/$module/bin/64bit" "$root/$module/bin" "$root/$module/data/locale" "$root/$module/data/onecomme" \
				"$root/$module/data" \
				"$root/$module"
			echo "removed $root/$module"
		done
	done
	;;
*)
	echo "usage: $0 install PLUGIN_SO RENDERER DATA_DIR [HELPER...] | uninstall" >&2
	exit 2
	;;
esac
