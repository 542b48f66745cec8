#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Comment Bar plugin into OBS's user plugin folder, or removes it.
#   plugin/install.sh install PLUGIN_SO RENDERER DATA_DIR [HELPER...]
#   plugin/install.sh uninstall
# HELPERs (the overlay's commentbar-overlay-* programs) go beside the renderer, where it finds them.
# OBS looks in ${XDG_CONFIG_HOME:-~/.config}/obs-studio/plugins/NAME/bin/64bit/NAME.so
# and NAME/data/; the renderer sits beside the .so, where the shim looks for it. Vue's file for OneComme's
# templates (docs/doors.md), when the build put it beside the renderer, goes in NAME/data/onecomme/.
set -euo pipefail
NAME=comment-bar
DEST="${XDG_CONFIG_HOME:-$HOME/.config}/obs-studio/plugins/$NAME"

case "${1:-}" in
install)
	[ $# -ge 4 ] || { echo "usage: $0 install PLUGIN_SO RENDERER DATA_DIR [HELPER...]" >&2; exit 2; }
	so=$2 renderer=$3 data=$4
	shift 4
	for f in "$so" "$renderer" "$@"; do [ -f "$f" ] || { echo "$f: not built" >&2; exit 1; }; done
	install -d "$DEST/bin/64bit" "$DEST/data/locale"
	# Installed stripped: the renderer's debug symbols are most of its 110 MB, and OBS needs none.
	install -m 0755 -s "$so" "$DEST/bin/64bit/$NAME.so"
	install -m 0755 -s "$renderer" "$DEST/bin/64bit/commentbar"
	for helper in "$@"; do install -m 0755 -s "$helper" "$DEST/bin/64bit/$(basename "$helper")"; done
	install -m 0644 "$data"/locale/*.ini "$DEST/data/locale/"
	vue="$(dirname "$renderer")/vue.min.js"
	if [ -f "$vue" ]; then install -D -m 0644 "$vue" "$DEST/data/onecomme/vue.min.js"; fi
	echo "installed into $DEST"
	;;
uninstall)
	# Only our own folder, and only what we put there.
	if [ -d "$DEST" ]; then
		rm -f "$DEST/bin/64bit/$NAME.so" "$DEST/bin/64bit/commentbar" "$DEST"/bin/64bit/commentbar-overlay-* \
			"$DEST"/data/locale/*.ini "$DEST/data/onecomme/vue.min.js"
		rmdir "$DEST/bin/64bit" "$DEST/bin" "$DEST/data/locale" "$DEST/data/onecomme" "$DEST/data" "$DEST" 2>/dev/null || true
		echo "removed $DEST"
	else
		echo "nothing installed at $DEST"
	fi
	;;
*)
	echo "usage: $0 install PLUGIN_SO RENDERER DATA_DIR [HELPER...] | uninstall" >&2
	exit 2
	;;
esac
