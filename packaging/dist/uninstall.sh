#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Removes what install.sh put into OBS's user plugin folder, and only that.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest="${XDG_CONFIG_HOME:-$HOME/.config}/obs-studio/plugins/comment-bar"
[ -d "$dest" ] || { echo "nothing installed at $dest"; exit 0; }
for bin in "$here"/comment-bar/bin/64bit/*; do rm -f "$dest/bin/64bit/$(basename "$bin")"; done
for ini in "$here"/comment-bar/data/locale/*.ini; do rm -f "$dest/data/locale/$(basename "$ini")"; done
rmdir "$dest/bin/64bit" "$dest/bin" "$dest/data/locale" "$dest/data" "$dest" 2>/dev/null || true
echo "removed $dest"
dock="${XDG_CONFIG_HOME:-$HOME/.config}/obs-studio/plugins/comment-bar-dock"
if [ -d "$here/comment-bar-dock" ] && [ -d "$dock" ]; then
	rm -f "$dock/bin/64bit/comment-bar-dock.so"
	for library in "$here"/comment-bar-dock/bin/64bit/comment-bar-dock/*.so; do
		rm -f "$dock/bin/64bit/comment-bar-dock/$(basename "$library")"
	done
	for ini in "$here"/comment-bar-dock/data/locale/*.ini; do rm -f "$dock/data/locale/$(basename "$ini")"; done
	rmdir "$dock/bin/64bit/comment-bar-dock" "$dock/bin/64bit" "$dock/bin" "$dock/data/locale" "$dock/data" "$dock" \
		2>/dev/null || true
	echo "removed $dock"
fi
