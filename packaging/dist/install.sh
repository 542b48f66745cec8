#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs Comment Bar into OBS's user plugin folder, the layout `make install` makes:
#   ${XDG_CONFIG_HOME:-~/.config}/obs-studio/plugins/comment-bar/bin/64bit/{comment-bar.so,commentbar}
#   ${XDG_CONFIG_HOME:-~/.config}/obs-studio/plugins/comment-bar/data/locale/*.ini
#   ${XDG_CONFIG_HOME:-~/.config}/obs-studio/plugins/comment-bar-dock/ (the dock: its module, Qt libraries, locale)
# Needs OBS Studio 29+, Cairo, Pango and gdk-pixbuf from your distribution; no Swift.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest="${XDG_CONFIG_HOME:-$HOME/.config}/obs-studio/plugins/comment-bar"
install -d "$dest/bin/64bit" "$dest/data/locale"
# The module, the renderer and any helper the bundle has.
install -m 0755 "$here"/comment-bar/bin/64bit/* "$dest/bin/64bit/"
install -m 0644 "$here"/comment-bar/data/locale/*.ini "$dest/data/locale/"
echo "installed into $dest; restart OBS"
# The renderer is OBS's, but it also runs on its own: say where it is.
echo "the renderer: $dest/bin/64bit/commentbar"
echo "  e.g. the bar above a full-screen game without OBS: $dest/bin/64bit/commentbar overlay --stream URL"
# The dock (View, Docks, Comment Bar): a plugin folder of its own, its Qt libraries in a subfolder.
if [ -d "$here/comment-bar-dock" ]; then
	dock="${XDG_CONFIG_HOME:-$HOME/.config}/obs-studio/plugins/comment-bar-dock"
	install -d "$dock/bin/64bit/comment-bar-dock" "$dock/data/locale"
	install -m 0755 "$here"/comment-bar-dock/bin/64bit/comment-bar-dock.so "$dock/bin/64bit/"
	install -m 0755 "$here"/comment-bar-dock/bin/64bit/comment-bar-dock/*.so "$dock/bin/64bit/comment-bar-dock/"
	install -m 0644 "$here"/comment-bar-dock/data/locale/*.ini "$dock/data/locale/"
	echo "installed the dock into $dock"
fi
