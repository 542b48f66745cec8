#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One version everywhere: VERSION feeds the C header, `commentbar --version`, the shim's
# log line, the Debian changelog and every package name the docs show.
#   Tests/packaging/test-version.sh RENDERER PLUGIN_SO
set -uo pipefail
renderer=$1 so=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
version=$(cat "$top/VERSION")
source "$(dirname "$0")/../checks.sh"

check "VERSION ($version) is one line, a version" '[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] && [ "$(wc -l <"$top/VERSION")" = 1 ]'
check "commentbar_version.h is what VERSION gives (make version-header)" \
	'"$top/packaging/version-header.sh" "$version" | cmp -s - "$top/CModules/CommentBarVersion/include/commentbar_version.h"'
shown=$("$renderer" --version 2>&1)
check "commentbar --version prints $version (got: $shown)" '[ "$shown" = "$version" ]'
# Into a variable first: grep -q stopping early would fail strings (SIGPIPE) under pipefail.
so_strings=$(strings -a "$so")
check "the shim carries $version for its log line at load" \
	'grep -qx "$version" <<<"$so_strings" && grep -q "comment-bar %s loaded from %s (%s)" <<<"$so_strings"'
changelog=$(dpkg-parsechangelog -l"$top/packaging/debian/changelog" -SVersion)
check "packaging/debian/changelog's newest entry is $version (got: $changelog)" '[ "$changelog" = "$version" ]'
# Every package file name the docs show: comment-bar_X_amd64.deb, comment-bar-X-linux-amd64.tar.gz.
mentions=$(cd "$top" && grep -ohE 'comment-bar(_|-)[0-9][0-9A-Za-z.~+]*(_amd64\.deb|-linux-amd64\.tar\.gz)' README.md docs/*.md | sort -u)
stale=$(grep -vE "^comment-bar(_${version//./\\.}_amd64\.deb|-${version//./\\.}-linux-amd64\.tar\.gz)\$" <<<"$mentions")
check "README.md shows the .deb of $version" 'grep -q "comment-bar_${version}_amd64.deb" "$top/README.md"'
check "the docs show no package of another version${stale:+ (stale: $(echo $stale))}" '[ -z "$stale" ]'
checks_verdict
