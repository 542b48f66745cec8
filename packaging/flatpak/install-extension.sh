#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs Comment Bar into PREFIX laid out as Flatpak OBS loads an extension
# (/app/plugins/<Name>, OBS looking in /app/plugins/*/lib/obs-plugins):
#   PREFIX/lib/obs-plugins/comment-bar.so                 the OBS module
#   PREFIX/share/obs/obs-plugins/comment-bar/locale/      its data
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
install -m 0644 "$here/$id.metainfo.xml" "$prefix/share/metainfo/$id.metainfo.xml"
install -m 0644 "$top/LICENSE" "$top/packaging/copyright" "$prefix/share/licenses/$id/"
