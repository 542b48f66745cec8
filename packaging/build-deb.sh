#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds comment-bar_<version>_<arch>.deb with Debian's tools: dpkg-shlibdeps computes
# Depends, dpkg-gencontrol writes the control file (and Installed-Size), dpkg-deb builds.
#   packaging/build-deb.sh PLUGIN_SO RENDERER OUT_DIR [PACKAGE_VERSION]
# PACKAGE_VERSION defaults to the VERSION file; another one (the upgrade test's older
# package) gets a one-entry changelog of its own. Binaries are stripped; their debug
# symbols are left out (the renderer's are ~100 MB).
set -euo pipefail
so=$(realpath "$1") renderer=$(realpath "$2") out=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
release=$(cat "$top/VERSION")
version=${4:-$release}
name=comment-bar
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
work=$(mktemp -d "${TMPDIR:-/tmp}/comment-bar-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/debian" "$out"
cp "$here/debian/control" "$work/debian/control"
if [ "$version" = "$release" ]; then
	cp "$here/debian/changelog" "$work/debian/changelog"
else
	printf '%s (%s) unstable; urgency=medium\n\n  * Test build.\n\n -- %s  %s\n' "$name" "$version" \
		"$(sed -n 's/^Maintainer: //p' "$here/debian/control")" "$(date -R)" >"$work/debian/changelog"
fi
# File dates from the changelog: the same inputs give the same package.
export SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l"$work/debian/changelog" -STimestamp)

pkg=$work/debian/$name
plugin_dir=usr/lib/$multiarch/obs-plugins
install -d "$pkg/DEBIAN" "$pkg/$plugin_dir" "$pkg/usr/libexec/$name" "$pkg/usr/share/obs/obs-plugins/$name/locale" \
	"$pkg/usr/share/doc/$name" "$pkg/usr/share/lintian/overrides"
# OBS finds modules in its system plugin folder, data in /usr/share/obs/obs-plugins/NAME/.
install -m 0644 "$so" "$pkg/$plugin_dir/$name.so"
# The renderer in a private folder, where the shim looks (nothing in $PATH).
install -m 0755 "$renderer" "$pkg/usr/libexec/$name/commentbar"
# As dh_strip does: shared objects lose unneeded symbols, executables all; no .comment/.note.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/$plugin_dir/$name.so"
strip --remove-section=.comment --remove-section=.note "$pkg/usr/libexec/$name/commentbar"
install -m 0644 "$top"/plugin/data/locale/*.ini "$pkg/usr/share/obs/obs-plugins/$name/locale/"
install -m 0644 "$here/copyright" "$pkg/usr/share/doc/$name/copyright"
# A native package: its changelog is changelog.gz.
gzip -9n <"$work/debian/changelog" >"$pkg/usr/share/doc/$name/changelog.gz"
install -m 0644 "$here/lintian-overrides" "$pkg/usr/share/lintian/overrides/$name"

cd "$work"
dpkg-shlibdeps -Tdebian/$name.substvars "debian/$name/$plugin_dir/$name.so" "debian/$name/usr/libexec/$name/commentbar"
dpkg-gencontrol -p$name -P"debian/$name" -Tdebian/$name.substvars -v"$version"
(cd "$pkg" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$pkg/DEBIAN/md5sums"
cd - >/dev/null
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$out/${name}_${version}_$arch.deb"
