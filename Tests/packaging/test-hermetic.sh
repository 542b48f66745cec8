#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hermetic package builds: `make deb` and `make dist` pack the Makefile's renderer
# (.build-release/static/commentbar: the release build's objects linked with the static Swift
# runtime, no RUNPATH), never the dynamic link SwiftPM leaves beside it in .build-release/release
# (checked below: no libswift* NEEDED, no RUNPATH), whatever another command left in
# .build/release. The test puts there what a plain `swift build -c release` leaves (a Swift
# executable linked against libswiftCore.so, with a RUNPATH into the toolchain: a small one,
# built here with swiftc, so the test needs no second release build), runs `make deb` and
# `make dist`, and checks what they packed with readelf; lintian stays clean. The file that
# was at .build/release/commentbar is put back afterwards, even on failure.
# The check the package scripts run (check-no-swift-runtime.sh) must reject that binary.
#   Tests/packaging/test-hermetic.sh DEB DIST   (the names of the packages make builds; this test builds its own)
set -uo pipefail
deb=$1 dist=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
source "$here/../checks.sh"
SWIFTC=${SWIFTC:-swiftc}
work=$(mktemp -d /tmp/commentbar-hermetic.XXXXXX)
left=$top/.build/release/commentbar
restore() {
	if [ -e "$work/left-before" ] || [ -L "$work/left-before" ]; then mv -f "$work/left-before" "$left"; else rm -f "$left"; fi
	rm -rf "$work"
}
trap restore EXIT

# ---- what a plain `swift build -c release` leaves ----
printf 'print("not the renderer")\n' >"$work/plain.swift"
"$SWIFTC" -O "$work/plain.swift" -o "$work/plain" 2>"$work/swiftc.log"
plain_dynamic=$(readelf -d "$work/plain" 2>/dev/null)
check "a plain swiftc build needs libswiftCore.so and has a RUNPATH (what the packages must not pack)" \
	'grep -q "Shared library: \[libswiftCore.so\]" <<<"$plain_dynamic" && grep -qE "\((RPATH|RUNPATH)\)" <<<"$plain_dynamic"'
"$top/packaging/check-no-swift-runtime.sh" "$work/plain" 2>"$work/reject.txt"
reject_status=$?
check "check-no-swift-runtime.sh rejects it, naming libswiftCore.so and the RUNPATH" \
	'[ $reject_status -ne 0 ] && grep -q "libswiftCore.so" "$work/reject.txt" && grep -q "RUNPATH" "$work/reject.txt"'

mkdir -p "$(dirname "$left")"
if [ -e "$left" ] || [ -L "$left" ]; then mv "$left" "$work/left-before"; fi
cp "$work/plain" "$left"
# Newer than every source: a rule that still packed .build/release/commentbar would take it as it is.
touch "$left"
# Into a folder of its own (the packages make check built stay as they are for the other tests),
# the .deb in gzip: which binary it packs does not depend on xz, which took 27 s of CPU (lintian
# takes gzip, not an uncompressed one).
make -C "$top" --no-print-directory PACKAGING_DIR="$work/packages" DEB_COMPRESSION=gzip deb dist >"$work/make.log" 2>&1
make_status=$?
built_deb=$work/packages/$(basename "$deb") built_dist=$work/packages/$(basename "$dist")
check "make deb dist succeed with that binary at .build/release/commentbar" \
	'[ $make_status -eq 0 ] && [ -f "$built_deb" ] && [ -f "$built_dist" ]'
[ $make_status -eq 0 ] || tail -20 "$work/make.log"

mkdir -p "$work/deb" "$work/dist"
dpkg-deb -x "$built_deb" "$work/deb" 2>/dev/null
tar -xzf "$built_dist" -C "$work/dist" 2>/dev/null
for packed in "$work"/deb/usr/libexec/comment-bar/commentbar "$work"/dist/*/comment-bar/commentbar; do
	name=${packed#"$work/"}
	dynamic=$(readelf -d "$packed" 2>/dev/null)
	check "$name: no libswift*/libFoundation*/libdispatch NEEDED, no RPATH/RUNPATH" \
		'[ -n "$dynamic" ] && ! grep -qE "Shared library: \[(libswift|libFoundation|libdispatch)" <<<"$dynamic" &&
		 ! grep -qE "\((RPATH|RUNPATH)\)" <<<"$dynamic"'
	check "$name is the renderer (commentbar --version), not the file left in .build/release" \
		'[ "$("$packed" --version 2>/dev/null)" = "$(cat "$top/VERSION")" ]'
done
lintian --fail-on error,warning --tag-display-limit 0 "$built_deb" >"$work/lintian.txt" 2>&1
lintian_status=$?
check "lintian reports no error and no warning on that .deb" '[ $lintian_status -eq 0 ]'
[ $lintian_status -eq 0 ] || grep -E '^(E|W):' "$work/lintian.txt" | head -10
checks_verdict
