# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the shell tests: each check prints one line, and the last line is the count.
#   check "what is true" 'shell condition'     ok / FAIL, counted
#   checks_verdict                             prints "N passed, M failed"; fails if any failed
passed=0 failed=0
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }
checks_verdict() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
