#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Swift unit tests, already built: the XCTests in several processes side by side, then the
# swift-testing tests. One XCTest process runs its tests one after another, and most of their 100 s
# is waiting (deadlines, paced frames, engines that stall), not CPU. The XCTest classes whose names
# match each SHARD (a grep -E pattern over Module.Class, not matched by an earlier one) in a process
# of their own, every other XCTest class in one more (a new test target lands there without a
# change); they run the test bundle itself, as `swift test` does, since two `swift test` cannot
# share a build folder (its build database is locked). The swift-testing tests come after them, not
# beside: the memory's kill -9 test times its writer's commits against the wall clock ("loses at
# most the last second"), and beside the XCTest processes and make check's other steps a clean
# clone of c2feeaa found its commits 1.5 s behind. They run from the same bundle, as `swift test`
# runs them on Linux (the bundle with `--testing-library swift-testing`): `swift test --skip-build
# --disable-xctest` took 24.5 s for the 141 tests the bundle runs in 11.2, SwiftPM planning a build
# it then skips. Each process's output whole, one after another; exits non-zero if any failed or
# listed no tests.
#   Tests/support/swift-tests.sh BUNDLE LOGDIR SHARD...
set -uo pipefail
if [ $# -lt 3 ]; then
	echo "usage: Tests/support/swift-tests.sh BUNDLE LOGDIR SHARD..." >&2
	exit 2
fi
bundle=$1 logs=$2
shift 2
mkdir -p "$logs"
if [ ! -x "$bundle" ]; then
	echo "swift-tests.sh: no test bundle at $bundle (make swift-tests builds it)" >&2
	exit 1
fi
classes=$("$bundle" --list-tests | sed -n 's|^\([A-Za-z0-9_]*\.[A-Za-z0-9_]*\)/.*|\1|p' | sort -u)
lists=() names=()
for shard in "$@"; do
	list=$(grep -E "$shard" <<<"$classes" | paste -sd,)
	if [ -z "$list" ]; then
		echo "swift-tests.sh: the bundle lists no XCTest class matching '$shard'" >&2
		exit 1
	fi
	lists+=("$list") names+=("$shard")
	classes=$(grep -vE "$shard" <<<"$classes")
done
if [ -z "$classes" ]; then
	echo "swift-tests.sh: the bundle lists no XCTest class outside the shards" >&2
	exit 1
fi
lists+=("$(paste -sd, <<<"$classes")") names+=("the others")
pids=()
for i in "${!lists[@]}"; do
	"$bundle" "${lists[$i]}" >"$logs/xctest-$i.log" 2>&1 &
	pids+=($!)
done
failed=0 said=""
for i in "${!pids[@]}"; do
	wait "${pids[$i]}"; status=$?
	said+="XCTest (${names[$i]}) exit $status, "
	[ $status = 0 ] || failed=1
done
"$bundle" --testing-library swift-testing >"$logs/swift-testing.log" 2>&1
testing=$?
for i in "${!lists[@]}"; do cat "$logs/xctest-$i.log"; done
cat "$logs/swift-testing.log"
echo "Swift tests: ${said}swift-testing exit $testing"
[ $failed = 0 ] && [ $testing = 0 ]
