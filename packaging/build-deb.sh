#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds comment-bar_<version>_<arch>.deb with Debian's tools: dpkg-shlibdeps computes
# Depends, dpkg-gencontrol writes the control file (and Installed-Size), dpkg-deb builds.
#   packaging/build-deb.sh PLUGIN_SO RENDERER OUT_DIR PACKAGE_VERSION [LIBEXEC_EXTRA...]
# DEB_COMPRESSION: dpkg-deb's -Z (default xz; the upgrade test's older package needs none).
# ONECOMME_VUE: Vue 3's browser build for OneComme's templates (packaging/fetch-vue.py), installed as
# /usr/share/obs/obs-modules/plugins/comment-bar/onecomme/vue.min.js (and, through the legacy folder's
# link, /usr/share/obs/obs-plugins/comment-bar/onecomme/vue.min.js, where the renderer looks).
# A PACKAGE_VERSION other than the VERSION file's (the upgrade test's older package) gets a
# one-entry changelog of its own. LIBEXEC_EXTRA: further executables (helpers) installed
# beside the renderer. Binaries are stripped; their debug symbols are left out (the
# renderer's are ~100 MB).
#
# Depends: libobs comes from `obs-studio (>= 29)` (debian/control), never from libobs0:
# the OBS PPA's obs-studio carries libobs.so.0 itself and conflicts with libobs0, so a
# Depends on libobs0 would make apt remove the user's OBS. Debian's obs-studio depends on
# libobs0, so the one relation holds on both. dpkg-shlibdeps leaves libobs0 out, and the
# shim may need nothing but libobs and libc (checked here).
set -euo pipefail
so=$(realpath "$1") renderer=$(realpath "$2") out=$3 version=$4
shift 4
extras=()
for extra in "$@"; do extras+=("$(realpath "$extra")"); done
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
release=$(cat "$top/VERSION")
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
# Two layouts, one set of files (docs/packaging.md, "Which OBS finds which path"): OBS 33 looks for a
# system plugin in /usr/lib/<triplet>/obs-modules/plugins/NAME.so, its data in
# /usr/share/obs/obs-modules/plugins/NAME/ (obs-studio PR #13594, PluginModuleLoader_Linux.cpp);
# OBS 29 to 32 in /usr/lib/<triplet>/obs-plugins/ and /usr/share/obs/obs-plugins/NAME/, which OBS 33
# still loads, marked Legacy. The files are in OBS 33's folders; the legacy folders hold a copy of each
# module (a symlink would let OBS 33, which opens both, map the one library twice and run its load twice
# on the same statics; a copy is a second module that finds the first loaded and stays idle) and
# relative symlinks to everything else.
plugin_dir=usr/lib/$multiarch/obs-modules/plugins data_dir=usr/share/obs/obs-modules/plugins
legacy_plugin_dir=usr/lib/$multiarch/obs-plugins legacy_data_dir=usr/share/obs/obs-plugins
install -d "$pkg/DEBIAN" "$pkg/$plugin_dir" "$pkg/usr/libexec/$name" "$pkg/$data_dir/$name/locale" \
	"$pkg/usr/share/doc/$name" "$pkg/usr/share/lintian/overrides" "$pkg/usr/bin" "$pkg/usr/share/man/man1"
install -m 0644 "$so" "$pkg/$plugin_dir/$name.so"
# The renderer (and its helpers) in a private folder, where the shim looks; on $PATH as a link
# (`commentbar overlay` from a terminal): it finds its helpers from /proc/self/exe, the real file.
install -m 0755 "$renderer" "$pkg/usr/libexec/$name/commentbar"
ln -s "../libexec/$name/commentbar" "$pkg/usr/bin/commentbar"
gzip -9n <"$here/commentbar.1" >"$pkg/usr/share/man/man1/commentbar.1.gz"
chmod 0644 "$pkg/usr/share/man/man1/commentbar.1.gz"
executables=("debian/$name/usr/libexec/$name/commentbar")
for extra in ${extras[@]+"${extras[@]}"}; do
	install -m 0755 "$extra" "$pkg/usr/libexec/$name/$(basename "$extra")"
	executables+=("debian/$name/usr/libexec/$name/$(basename "$extra")")
done
# The dock (DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA from packaging.mk; unset: none): the OBS module
# comment-bar-dock beside comment-bar, its Qt 5 and Qt 6 libraries in comment-bar-dock/ beside it (a
# folder OBS never opens: the module opens the one matching OBS's Qt), its locale files as its data.
dock_files=()
if [ -n "${DOCK_LOADER:-}" ]; then
	install -d "$pkg/$plugin_dir/comment-bar-dock" "$pkg/$data_dir/comment-bar-dock/locale"
	install -m 0644 "$DOCK_LOADER" "$pkg/$plugin_dir/comment-bar-dock.so"
	dock_files+=("debian/$name/$plugin_dir/comment-bar-dock.so")
	for library in ${DOCK_LIBRARIES:-}; do
		install -m 0644 "$library" "$pkg/$plugin_dir/comment-bar-dock/$(basename "$library")"
		dock_files+=("debian/$name/$plugin_dir/comment-bar-dock/$(basename "$library")")
	done
	install -m 0644 "$DOCK_DATA"/locale/*.ini "$pkg/$data_dir/comment-bar-dock/locale/"
	install -m 0644 "$DOCK_DATA/manifest.json" "$pkg/$data_dir/comment-bar-dock/manifest.json"
fi
# As dh_strip does: shared objects lose unneeded symbols, executables all; no .comment/.note.
for so_file in "debian/$name/$plugin_dir/$name.so" ${dock_files[@]+"${dock_files[@]}"}; do
	strip --strip-unneeded --remove-section=.comment --remove-section=.note "$work/$so_file"
done
for exe in "${executables[@]}"; do strip --remove-section=.comment --remove-section=.note "$work/$exe"; done
# What is packed, not what was given: no Swift shared library, no RUNPATH.
(cd "$work" && "$here/check-no-swift-runtime.sh" "debian/$name/$plugin_dir/$name.so" "${executables[@]}" \
	${dock_files[@]+"${dock_files[@]}"})
shim_needs=$(readelf -d "$pkg/$plugin_dir/$name.so" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' |
	grep -vxE 'libobs\.so\.0|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|ld-linux.*' || true)
if [ -n "$shim_needs" ]; then
	echo "build-deb: the shim needs $(echo $shim_needs), which Depends would not cover (only libobs and libc):" \
		"add them to debian/control or to the dpkg-shlibdeps list" >&2
	exit 1
fi
install -m 0644 "$top"/plugin/data/locale/*.ini "$pkg/$data_dir/$name/locale/"
# manifest.json (packaging/manifest.py): what OBS 32's plugin manager reads from the module's data folder.
install -m 0644 "$top/plugin/data/manifest.json" "$pkg/$data_dir/$name/manifest.json"
if [ -n "${ONECOMME_VUE:-}" ]; then
	install -D -m 0644 "$ONECOMME_VUE" "$pkg/$data_dir/$name/onecomme/vue.min.js"
fi
# The legacy layout: the modules copied (stripped above), every other file a relative symlink. The
# renderer's Vue lookup (/usr/libexec/comment-bar/../../share/obs/obs-plugins/comment-bar/onecomme/)
# goes through them.
for module in "$name" comment-bar-dock; do
	[ -f "$pkg/$plugin_dir/$module.so" ] || continue
	install -D -m 0644 "$pkg/$plugin_dir/$module.so" "$pkg/$legacy_plugin_dir/$module.so"
	(cd "$pkg" && { find "$plugin_dir/$module" "$data_dir/$module" -type f 2>/dev/null || true; }) | while read -r file; do
		case $file in
		"$plugin_dir"/*) legacy=$legacy_plugin_dir/${file#"$plugin_dir"/} ;;
		*) legacy=$legacy_data_dir/${file#"$data_dir"/} ;;
		esac
		install -d "$pkg/$(dirname "$legacy")"
		ln -s "$(realpath -m --relative-to="/$(dirname "$legacy")" "/$file")" "$pkg/$legacy"
	done
done
install -m 0644 "$here/copyright" "$pkg/usr/share/doc/$name/copyright"
# A native package: its changelog is changelog.gz.
gzip -9n <"$work/debian/changelog" >"$pkg/usr/share/doc/$name/changelog.gz"
install -m 0644 "$here/lintian-overrides" "$pkg/usr/share/lintian/overrides/$name"

cd "$work"
dpkg-shlibdeps -Tdebian/$name.substvars "${executables[@]}"
# The shim's libc version, as shim:Depends; libobs0 left out (-x), and on a machine whose
# libobs.so.0 is the PPA's obs-studio's (no shlibs information) it is only a warning.
dpkg-shlibdeps -pshim -xlibobs0 --ignore-missing-info -Tdebian/$name.substvars "debian/$name/$plugin_dir/$name.so"
grep -q '^shim:Depends=' debian/$name.substvars || echo 'shim:Depends=' >>debian/$name.substvars
# The dock's libc and libstdc++, as dock:Depends. Not its Qt nor libobs: whichever OBS is installed
# brings the Qt it is built with (Debian's OBS 29 Qt 5, the PPA's OBS 30+ Qt 6), and the dock opens
# only that one's library; a Depends on both majors would install the other Qt for nothing.
dock_qt=(libqt5core5a libqt5gui5 libqt5gui5-gles libqt5widgets5 libqt5network5 libqt6core6 libqt6gui6 libqt6widgets6
	libqt6network6)
if [ ${#dock_files[@]} -gt 0 ]; then
	dpkg-shlibdeps -pdock -xlibobs0 "${dock_qt[@]/#/-x}" --ignore-missing-info -Tdebian/$name.substvars "${dock_files[@]}"
fi
grep -q '^dock:Depends=' debian/$name.substvars || echo 'dock:Depends=' >>debian/$name.substvars
if grep -E '^dock:Depends=' debian/$name.substvars | grep -qiE 'qt|libobs'; then
	echo "build-deb: Depends would name a Qt or libobs for the dock: $(grep '^dock:Depends=' debian/$name.substvars)" >&2
	exit 1
fi
if grep -qE '(^|[ ,=])libobs0([ ,]|$)' debian/$name.substvars; then
	echo "build-deb: Depends would name libobs0 (apt would remove the OBS PPA's obs-studio): $(cat debian/$name.substvars)" >&2
	exit 1
fi
dpkg-gencontrol -p$name -P"debian/$name" -Tdebian/$name.substvars -v"$version"
(cd "$pkg" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$pkg/DEBIAN/md5sums"
cd - >/dev/null
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" --build "$pkg" "$out/${name}_${version}_$arch.deb"
