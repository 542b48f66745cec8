#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Names what a build needs and this machine lacks, before anything compiles: commands on $PATH
# and pkg-config packages. Silent and 0 when all are there; otherwise one message naming the
# missing ones and `make deps` (which installs them on Debian 12), and 1.
#   packaging/check-build-deps.sh --for "make install" [--commands "swift cc"] [--pkg-config "cairo libobs"]
set -uo pipefail
what=build commands= modules=
while [ $# -gt 0 ]; do
	case $1 in
		--for) what=$2; shift 2 ;;
		--commands) commands=$2; shift 2 ;;
		--pkg-config) modules=$2; shift 2 ;;
		*) echo "check-build-deps: unknown argument $1" >&2; exit 2 ;;
	esac
done
missing_commands=() missing_modules=()
for command in $commands; do
	command -v "$command" >/dev/null 2>&1 || missing_commands+=("$command")
done
if [ -n "$modules" ]; then
	if ! command -v pkg-config >/dev/null 2>&1; then
		[[ " ${missing_commands[*]} " == *" pkg-config "* ]] || missing_commands+=(pkg-config)
	else
		for module in $modules; do
			pkg-config --exists "$module" 2>/dev/null || missing_modules+=("$module")
		done
	fi
fi
[ ${#missing_commands[@]} -eq 0 ] && [ ${#missing_modules[@]} -eq 0 ] && exit 0
{
	echo "make ${what#make }: missing build dependencies; nothing was built."
	[ ${#missing_commands[@]} -eq 0 ] || echo "  commands not on \$PATH: ${missing_commands[*]}"
	[ ${#missing_modules[@]} -eq 0 ] || echo "  libraries pkg-config does not find: ${missing_modules[*]}"
	echo "  Run \`make deps\` (Debian 12: it installs every package the build needs), then this again."
	if [[ " ${missing_commands[*]} " == *" swift "* ]]; then
		echo "  Swift 6 itself: https://www.swift.org/install/linux/ (then put its usr/bin on \$PATH)."
	fi
} >&2
exit 1
