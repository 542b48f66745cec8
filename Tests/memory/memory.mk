# SPDX-License-Identifier: GPL-2.0-or-later
# The viewer memory never stalls the bar (issue 37), without OBS: `commentbar serve` on a pool made
# as the shim makes it, a generated 200,000-row chat log, the control page's searches and viewer
# changes (also against a log another process holds locked). The memory's real-OBS test runs in
# test-real-obs (Tests/obs/obs.mk).
#   make test-memory   frame gaps and the heartbeat read from the pool (Tests/memory/memory_freeze_test.py)
# MEMORY_BIN=path/to/commentbar tests another build instead of the release renderer.
MEMORY_BIN ?=

.PHONY: test-memory

test-memory: $(if $(MEMORY_BIN),,renderer)
	COMMENTBAR_BIN=$(abspath $(or $(MEMORY_BIN),$(RENDERER))) $(TEST_PYTHON) Tests/memory/memory_freeze_test.py
CHECK_STEPS += test-memory
test-memory.needs := renderer
test-memory.minutes := 1.25
