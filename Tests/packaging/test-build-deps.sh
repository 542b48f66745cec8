#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make install, make deb and make dist check their build dependencies before compiling: with
# pkg-config finding no library (PKG_CONFIG_LIBDIR pointing at an empty folder), and with no
# pkg-config on $PATH at all, each stops at once with a message that names what is missing and
# `make deps`, and runs no compiler. Nothing is installed: XDG_CONFIG_HOME and HOME are a
# scratch folder, and the make never gets past the check.
#   Tests/packaging/test-build-deps.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
source "$here/../checks.sh"
work=$(mktemp -d /tmp/commentbar-build-deps.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/empty" "$work/home" "$work/bin"
# A $PATH with every command of this one but pkg-config.
IFS=: read -ra dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
	for tool in "$dir"/*; do
		name=$(basename "$tool")
		[ "$name" = pkg-config ] || [ -e "$work/bin/$name" ] || ln -s "$tool" "$work/bin/$name" 2>/dev/null
	done
done

run_make() { # OUT GOAL [VAR=VALUE...]: make GOAL in a scratch environment; its status
	local out=$1 goal=$2
	shift 2
	env HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" "$@" make -C "$top" --no-print-directory "$goal" \
		>"$out" 2>&1
}
compiled() { grep -qE '(^| )(swift build|cc |gcc |packaging/build-(deb|dist)\.sh)' "$1"; }

for goal in install deb dist; do
	run_make "$work/$goal-libs.txt" "$goal" PKG_CONFIG_LIBDIR="$work/empty" PKG_CONFIG_PATH=
	status=$?
	check "make $goal without the libraries stops, naming the missing pkg-config packages and make deps" \
		'[ $status -ne 0 ] && grep -q "libraries pkg-config does not find: .*libobs" "$work/$goal-libs.txt" &&
		 grep -q "gtk-layer-shell-0" "$work/$goal-libs.txt" && grep -q "make deps" "$work/$goal-libs.txt"'
	check "make $goal without the libraries compiles nothing" '! compiled "$work/$goal-libs.txt"'
	[ $status -ne 0 ] && ! compiled "$work/$goal-libs.txt" || head -20 "$work/$goal-libs.txt"

	run_make "$work/$goal-path.txt" "$goal" PATH="$work/bin"
	status=$?
	check "make $goal without pkg-config on \$PATH stops, naming pkg-config and make deps" \
		'[ $status -ne 0 ] && grep -q "commands not on \$PATH: .*pkg-config" "$work/$goal-path.txt" &&
		 grep -q "make deps" "$work/$goal-path.txt" && ! compiled "$work/$goal-path.txt"'
	[ $status -ne 0 ] || head -20 "$work/$goal-path.txt"
done
check "nothing was installed into the scratch home" '[ -z "$(find "$work/home" -mindepth 1 -print -quit)" ]'
checks_verdict
