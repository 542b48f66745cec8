# SPDX-License-Identifier: GPL-2.0-or-later
# The control page (issue 30) in a real browser: Debian's chromium headless through chromium-driver
# and python3-selenium, against the renderer reading a WebSocket relay on loopback.
#   make test-control        the page's script read by node (--check), then the browser test
#                            (Tests/control/test_control_page.py) and the poll commands and events
#                            (Tests/control/test_control_participation.py), the boards surviving a renderer
#                            killed mid-poll (Tests/control/test_control_boards_restart.py) and
#                            /api/comments?wait= (Tests/control/test_control_wait.py)
#   make check-control-page  only node --check on the page's script (Sources/CommentBarControl/Assets)
#   make test-control-token  the token stays with its renderer: squatters, the port's status file, the
#                            page's link file, a spent code (Tests/control/test_control_token.py)
#   make bench-control       the control server's CPU at 10 comments/s, off and with one page open
# CONTROL_BIN=path/to/commentbar tests another build instead of the release renderer.
# Debian's own Python: it has selenium, websockets and PIL from apt (a python3 on PATH may not).
CONTROL_BIN ?=
CONTROL_APT_PACKAGES := chromium chromium-driver python3-selenium python3-websockets python3-pil nodejs
APT_PACKAGES += $(CONTROL_APT_PACKAGES)
CONTROL_PYTHON = COMMENTBAR_BIN=$(abspath $(or $(CONTROL_BIN),$(RENDERER))) $(TEST_PYTHON)
CONTROL_PAGE_SCRIPTS := $(wildcard Sources/CommentBarControl/Assets/*.js)

.PHONY: test-control check-control-page test-control-token bench-control

# The page's JavaScript is a file of its own: node parses it before any browser does.
check-control-page:
	@for script in $(CONTROL_PAGE_SCRIPTS); do node --check $$script || exit 1; done
	@echo "node --check: $(CONTROL_PAGE_SCRIPTS) parse"

test-control: check-control-page test-control-token $(if $(CONTROL_BIN),,renderer)
	$(CONTROL_PYTHON) Tests/control/test_control_page.py
	$(CONTROL_PYTHON) Tests/control/test_control_participation.py
	$(CONTROL_PYTHON) Tests/control/test_control_wait.py
	$(CONTROL_PYTHON) Tests/control/test_control_boards_restart.py
CHECK_STEPS += test-control
test-control.needs := renderer
test-control.minutes := 1.5

test-control-token: $(if $(CONTROL_BIN),,renderer)
	$(CONTROL_PYTHON) Tests/control/test_control_token.py

# Figures only: nothing here asserts a speed.
bench-control: $(if $(CONTROL_BIN),,renderer)
	$(CONTROL_PYTHON) Tests/control/bench_control.py
