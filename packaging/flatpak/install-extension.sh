#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs Comment Bar into PREFIX laid out as Flatpak OBS loads an extension: the extension point
# com.obsproject.Studio.Plugin (directory plugins, subdirectories, add-ld-path lib, merge-dirs
# lib/obs-plugins;share/obs/obs-plugins) mounts it at /app/plugins/<Name> and links each entry of its
# lib/obs-plugins and share/obs/obs-plugins into /app/plugins/lib/obs-plugins and
# /app/plugins/share/obs/obs-plugins, where OBS looks (flatpak common/flatpak-run.c,
# flatpak_run_add_extension_args; OBS 33 still loads these, marked Legacy: docs/packaging.md):
#   PREFIX/lib/obs-plugins/comment-bar.so                 the OBS module
#   PREFIX/lib/obs-plugins/comment-bar-dock.so, comment-bar-dock/comment-bar-dock-qt6.so   the dock
#   PREFIX/share/obs/obs-plugins/comment-bar/locale/, manifest.json   its data (the dock's likewise)
#   PREFIX/share/obs/obs-plugins/comment-bar/onecomme/vue.min.js   Vue 3 for OneComme's templates (ONECOMME_VUE)
#   PREFIX/libexec/comment-bar/commentbar                 the renderer (and helpers), found from the module
#   PREFIX/share/metainfo/<id>.metainfo.xml, PREFIX/share/licenses/<id>/
# The Flatpak manifest runs it with PREFIX=${FLATPAK_DEST}; the layout test with a temporary folder.
#   packaging/flatpak/install-extension.sh PREFIX PLUGIN_SO RENDERER [LIBEXEC_EXTRA...]
set -euo pipefail
prefix=$1 so=$2 renderer=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
id=com.obsproject.Studio.Plugin.CommentBar
install -d "$prefix/lib/obs-plugins" "$prefix/libexec/comment-bar" "$prefix/share/obs/obs-plugins/comment-bar/locale" \
	"$prefix/share/metainfo" "$prefix/share/licenses/$id"
install -m 0755 "$so" "$prefix/lib/obs-plugins/comment-bar.so"
install -m 0755 "$renderer" "$prefix/libexec/comment-bar/commentbar"
for extra in "$@"; do install -m 0755 "$extra" "$prefix/libexec/comment-bar/$(basename "$extra")"; done
# The OBS runtime has no Swift libraries either: the same check as the .deb's.
"$top/packaging/check-no-swift-runtime.sh" "$prefix/lib/obs-plugins/comment-bar.so" "$prefix"/libexec/comment-bar/*
install -m 0644 "$top"/plugin/data/locale/*.ini "$prefix/share/obs/obs-plugins/comment-bar/locale/"
# manifest.json (packaging/manifest.py; make flatpak-install builds it): what OBS 32's plugin manager reads.
install -m 0644 "$top/plugin/data/manifest.json" "$prefix/share/obs/obs-plugins/comment-bar/manifest.json"
if [ -n "${ONECOMME_VUE:-}" ]; then
	install -D -m 0644 "$ONECOMME_VUE" "$prefix/share/obs/obs-plugins/comment-bar/onecomme/vue.min.js"
fi
# The dock (DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA from packaging.mk; unset: none): Flatpak's OBS is
# built with Qt 6, so only the Qt 6 library is built (DOCK_MAJORS=6) and installed.
if [ -n "${DOCK_LOADER:-}" ]; then
	install -d "$prefix/lib/obs-plugins/comment-bar-dock" "$prefix/share/obs/obs-plugins/comment-bar-dock/locale"
	install -m 0755 "$DOCK_LOADER" "$prefix/lib/obs-plugins/comment-bar-dock.so"
	for library in ${DOCK_LIBRARIES:-}; do install -m 0755 "$library" "$prefix/lib/obs-plugins/comment-bar-dock/"; done
	install -m 0644 "$DOCK_DATA"/locale/*.ini "$prefix/share/obs/obs-plugins/comment-bar-dock/locale/"
	install -m 0644 "$DOCK_DATA/manifest.json" "$prefix/share/obs/obs-plugins/comment-bar-dock/manifest.json"
	"$top/packaging/check-no-swift-runtime.sh" "$prefix/lib/obs-plugins/comment-bar-dock.so" \
		"$prefix"/lib/obs-plugins/comment-bar-dock/*.so
fi
install -m 0644 "$here/$id.metainfo.xml" "$prefix/share/metainfo/$id.metainfo.xml"
install -m 0644 "$top/LICENSE" "$top/packaging/copyright" "$prefix/share/licenses/$id/"
