#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fails when a binary about to be packed needs the Swift toolchain at run time: a NEEDED
# libswift*, libFoundation* or libdispatch/libBlocksRuntime (a build without
# --static-swift-stdlib), or any RPATH/RUNPATH (SwiftPM's $ORIGIN, or a path into the
# toolchain). Users' machines have no Swift; a package must not carry a RUNPATH.
#   packaging/check-no-swift-runtime.sh BINARY...
set -euo pipefail
status=0
for bin in "$@"; do
	dynamic=$(readelf -d "$bin") || { echo "check-no-swift-runtime: $bin: not an ELF file readelf can read" >&2; exit 1; }
	swift_libs=$(grep -oE 'Shared library: \[(libswift|libFoundation|libdispatch|libBlocksRuntime)[^]]*\]' <<<"$dynamic" |
		sed 's/Shared library: //' | tr '\n' ' ' || true)
	paths=$(grep -E '\((RPATH|RUNPATH)\)' <<<"$dynamic" | sed 's/.*: //' | tr '\n' ' ' || true)
	if [ -n "$swift_libs" ]; then
		echo "check-no-swift-runtime: $bin needs the Swift runtime as shared libraries: $swift_libs" >&2
		echo "  (build it with --static-swift-stdlib: make deb / make dist do, in .build-package)" >&2
		status=1
	fi
	if [ -n "$paths" ]; then
		echo "check-no-swift-runtime: $bin has an RPATH/RUNPATH: $paths" >&2
		echo "  (build it with --disable-local-rpath)" >&2
		status=1
	fi
done
exit $status
