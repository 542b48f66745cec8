#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds comment-bar-<VERSION>-linux-<arch>.tar.gz for other distributions: install.sh and
# uninstall.sh for OBS's user plugin folder, and the bundle in the layout `make install` makes.
#   packaging/build-dist.sh PLUGIN_SO RENDERER OUT_DIR [LIBEXEC_EXTRA...]
# LIBEXEC_EXTRA: further executables (helpers), installed beside the renderer.
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
install -d "$root/comment-bar/bin/64bit" "$root/comment-bar/data/locale"
install -m 0755 "$so" "$root/comment-bar/bin/64bit/comment-bar.so"
install -m 0755 "$renderer" "$root/comment-bar/bin/64bit/commentbar"
executables=("$root/comment-bar/bin/64bit/commentbar")
for extra in "$@"; do
	install -m 0755 "$extra" "$root/comment-bar/bin/64bit/$(basename "$extra")"
	executables+=("$root/comment-bar/bin/64bit/$(basename "$extra")")
done
# The dock (DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA from packaging.mk; unset: none): a plugin folder of
# its own (OBS opens only NAME/bin/64bit/NAME.so there), its Qt 5 and Qt 6 libraries in
# bin/64bit/comment-bar-dock/, where the module looks.
dock_files=()
if [ -n "${DOCK_LOADER:-}" ]; then
	dock=$root/comment-bar-dock
	install -d "$dock/bin/64bit/comment-bar-dock" "$dock/data/locale"
	install -m 0755 "$DOCK_LOADER" "$dock/bin/64bit/comment-bar-dock.so"
	dock_files+=("$dock/bin/64bit/comment-bar-dock.so")
	for library in ${DOCK_LIBRARIES:-}; do
		install -m 0755 "$library" "$dock/bin/64bit/comment-bar-dock/$(basename "$library")"
		dock_files+=("$dock/bin/64bit/comment-bar-dock/$(basename "$library")")
	done
	install -m 0644 "$DOCK_DATA"/locale/*.ini "$dock/data/locale/"
fi
# Stripped here, so install.sh needs no binutils on the user's machine.
for so_file in "$root/comment-bar/bin/64bit/comment-bar.so" ${dock_files[@]+"${dock_files[@]}"}; do
	strip --strip-unneeded --remove-section=.comment --remove-section=.note "$so_file"
done
for exe in "${executables[@]}"; do strip --remove-section=.comment --remove-section=.note "$exe"; done
# What is packed: no Swift shared library, no RUNPATH.
"$here/check-no-swift-runtime.sh" "$root/comment-bar/bin/64bit/comment-bar.so" "${executables[@]}" \
	${dock_files[@]+"${dock_files[@]}"}
install -m 0644 "$top"/plugin/data/locale/*.ini "$root/comment-bar/data/locale/"
install -m 0755 "$here/dist/install.sh" "$here/dist/uninstall.sh" "$root/"
install -m 0644 "$here/dist/README" "$here/copyright" "$root/"
install -m 0644 "$here/debian/changelog" "$root/changelog"
echo "$version" >"$root/VERSION"
mkdir -p "$out"
epoch=$(dpkg-parsechangelog -l"$here/debian/changelog" -STimestamp)
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$work" -cf - "$name" |
	gzip -9n >"$out/$name.tar.gz"
echo "built $out/$name.tar.gz"
