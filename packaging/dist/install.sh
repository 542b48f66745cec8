#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs Comment Bar for this user, where OBS Studio 29 and later find it (the layout `make install`
# makes, by the same script, plugin-install.sh):
#   ${XDG_DATA_HOME:-~/.local/share}/obs-studio/plugins/comment-bar/        OBS 33's layout: the files
#   ${XDG_DATA_HOME:-~/.local/share}/obs-studio/plugins/comment-bar-dock/   (these two folders, as in here)
#   ${XDG_CONFIG_HOME:-~/.config}/obs-studio/plugins/comment-bar{,-dock}/  OBS 29 to 32's: a copy of each
#                                                                           module, links to the rest
# Needs OBS Studio 29+, Cairo, Pango and gdk-pixbuf from your distribution; no Swift, no binutils.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bundle=$here/comment-bar
helpers=()
for helper in "$bundle"/commentbar-overlay-*; do [ -f "$helper" ] && helpers+=("$helper"); done
dock=()
if [ -d "$here/comment-bar-dock" ]; then
	dock=(DOCK_LOADER="$here/comment-bar-dock/comment-bar-dock.so" DOCK_DATA="$here/comment-bar-dock/data"
		DOCK_LIBRARIES="$(echo "$here"/comment-bar-dock/comment-bar-dock/*.so)")
fi
env INSTALL_STRIP=no "${dock[@]}" "$here/plugin-install.sh" install "$bundle/comment-bar.so" "$bundle/commentbar" \
	"$bundle/data" "${helpers[@]}"
