#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Swift unit tests, already built: the XCTests in two processes side by side, then the
# swift-testing tests. One XCTest process runs its tests one after another, and most of their 100 s
# is waiting (deadlines, paced frames, engines that stall), not CPU. The XCTest classes whose names
# match SHARD (a grep -E pattern over Module.Class) in one process, every other XCTest class in a
# second (a new test target lands there without a change); they run the test bundle itself, as
# `swift test` does, since two `swift test` cannot share a build folder (its build database is
# locked). The swift-testing tests come after them, not beside: the memory's kill -9 test times its
# writer's commits against the wall clock ("loses at most the last second"), and beside both
# XCTest processes and make check's other lanes a clean clone of c2feeaa found its commits 1.5 s
# behind. They run from the same bundle, as `swift test` runs them on Linux (the bundle with
# `--testing-library swift-testing`): `swift test --skip-build --disable-xctest` took 24.5 s for
# the 141 tests the bundle runs in 11.2, SwiftPM planning a build it then skips. Each process's
# output whole, one after another; exits non-zero if any failed or listed no tests.
#   Tests/support/swift-tests.sh BUNDLE SHARD LOGDIR
set -uo pipefail
if [ $# != 3 ]; then
	echo "usage: Tests/support/swift-tests.sh BUNDLE SHARD LOGDIR" >&2
	exit 2
fi
bundle=$1 shard=$2 logs=$3
mkdir -p "$logs"
if [ ! -x "$bundle" ]; then
	echo "swift-tests.sh: no test bundle at $bundle (make swift-tests builds it)" >&2
	exit 1
fi
classes=$("$bundle" --list-tests | sed -n 's|^\([A-Za-z0-9_]*\.[A-Za-z0-9_]*\)/.*|\1|p' | sort -u)
first=$(grep -E "$shard" <<<"$classes" | paste -sd,)
rest=$(grep -vE "$shard" <<<"$classes" | paste -sd,)
if [ -z "$first" ] || [ -z "$rest" ]; then
	echo "swift-tests.sh: the bundle lists no XCTest class on one side of '$shard'" >&2
	exit 1
fi
"$bundle" "$first" >"$logs/xctest-shard.log" 2>&1 &
first_pid=$!
"$bundle" "$rest" >"$logs/xctest-others.log" 2>&1
rest_status=$?
wait $first_pid; first_status=$?
"$bundle" --testing-library swift-testing >"$logs/swift-testing.log" 2>&1
testing=$?
cat "$logs/xctest-shard.log" "$logs/xctest-others.log" "$logs/swift-testing.log"
echo "Swift tests: XCTest ($shard) exit $first_status, XCTest (the others) exit $rest_status, swift-testing exit $testing"
[ $first_status = 0 ] && [ $rest_status = 0 ] && [ $testing = 0 ]
