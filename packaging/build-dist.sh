#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds comment-bar-<VERSION>-linux-<arch>.tar.gz for other distributions: install.sh and
# uninstall.sh for OBS's user plugin folders (plugin/install.sh, `make install`'s, as plugin-install.sh),
# and the modules as OBS 33's plugin bundles.
#   packaging/build-dist.sh PLUGIN_SO RENDERER OUT_DIR [LIBEXEC_EXTRA...]
# LIBEXEC_EXTRA: further executables (helpers), installed beside the renderer. ONECOMME_VUE: Vue 3's
# browser build for OneComme's templates, as comment-bar/vue.min.js.
set -euo pipefail
so=$(realpath "$1") renderer=$(realpath "$2") out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
version=$(cat "$top/VERSION")
arch=$(dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null || echo amd64)
name=comment-bar-$version-linux-$arch
work=$(mktemp -d "${TMPDIR:-/tmp}/comment-bar-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/$name
# comment-bar/ and comment-bar-dock/ are OBS 33's plugin bundles (NAME/NAME.so, NAME/data/), as install.sh
# (plugin/install.sh, shipped as plugin-install.sh) installs them; it adds the legacy layout for OBS 29-32.
bundle=$root/comment-bar
install -d "$bundle/data/locale"
install -m 0755 "$so" "$bundle/comment-bar.so"
install -m 0755 "$renderer" "$bundle/commentbar"
executables=("$bundle/commentbar")
for extra in "$@"; do
	install -m 0755 "$extra" "$bundle/$(basename "$extra")"
	executables+=("$bundle/$(basename "$extra")")
done
# The dock (DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA from packaging.mk; unset: none): a plugin bundle of its
# own, its Qt 5 and Qt 6 libraries in comment-bar-dock/comment-bar-dock/, where the module looks.
dock_files=()
if [ -n "${DOCK_LOADER:-}" ]; then
	dock=$root/comment-bar-dock
	install -d "$dock/comment-bar-dock" "$dock/data/locale"
	install -m 0755 "$DOCK_LOADER" "$dock/comment-bar-dock.so"
	dock_files+=("$dock/comment-bar-dock.so")
	for library in ${DOCK_LIBRARIES:-}; do
		install -m 0755 "$library" "$dock/comment-bar-dock/$(basename "$library")"
		dock_files+=("$dock/comment-bar-dock/$(basename "$library")")
	done
	install -m 0644 "$DOCK_DATA"/locale/*.ini "$dock/data/locale/"
	install -m 0644 "$DOCK_DATA/manifest.json" "$dock/data/manifest.json"
fi
# Stripped here, so install.sh needs no binutils on the user's machine.
for so_file in "$bundle/comment-bar.so" ${dock_files[@]+"${dock_files[@]}"}; do
	strip --strip-unneeded --remove-section=.comment --remove-section=.note "$so_file"
done
for exe in "${executables[@]}"; do strip --remove-section=.comment --remove-section=.note "$exe"; done
# What is packed: no Swift shared library, no RUNPATH.
"$here/check-no-swift-runtime.sh" "$bundle/comment-bar.so" "${executables[@]}" ${dock_files[@]+"${dock_files[@]}"}
# The module's data: its locale files and manifest.json (packaging/manifest.py, beside the locale folder).
install -m 0644 "$top"/plugin/data/locale/*.ini "$bundle/data/locale/"
install -m 0644 "$top/plugin/data/manifest.json" "$bundle/data/manifest.json"
# Vue 3 for OneComme's templates, beside the renderer: where the renderer looks first.
if [ -n "${ONECOMME_VUE:-}" ]; then
	install -m 0644 "$ONECOMME_VUE" "$bundle/vue.min.js"
fi
install -m 0755 "$here/dist/install.sh" "$here/dist/uninstall.sh" "$root/"
install -m 0755 "$top/plugin/install.sh" "$root/plugin-install.sh"
install -m 0644 "$here/dist/README" "$here/copyright" "$root/"
install -m 0644 "$here/debian/changelog" "$root/changelog"
echo "$version" >"$root/VERSION"
mkdir -p "$out"
epoch=$(dpkg-parsechangelog -l"$here/debian/changelog" -STimestamp)
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$work" -cf - "$name" |
	gzip -9n >"$out/$name.tar.gz"
echo "built $out/$name.tar.gz"
