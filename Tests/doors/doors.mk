# SPDX-License-Identifier: GPL-2.0-or-later
# The doors to other tools (issue 39), end to end against the release renderer: Streamer.bot's and
# Cuebot's actions to a fake Streamer.bot (HTTP, WebSocket with and without a password, UDP), OneComme
# templates in Debian's headless chromium (chromium-driver, python3-selenium), HTML5コメジェネ's comment.xml.
#   make test-doors    all of them (Tests/doors/test_*.py); the templates' after node --check on every script
#   make test-doors-readers  comment.xml read by our doubles of HTML5コメジェネ and NiCommentGenerator
#                      (Tests/doors/readers) in headless chromium: a burst from two streams, all shown
#   make check-onecomme-scripts  only node --check on onesdk.js, the presets' and the test templates' scripts
#   make bench-doors   the renderer's CPU at 10 comments/s with the three doors off, then all on (figures only)
# DOORS_BIN=path/to/commentbar tests another build instead of the release renderer.
DOORS_BIN ?=
DOORS_APT_PACKAGES := chromium chromium-driver python3-selenium python3-websockets nodejs
APT_PACKAGES += $(DOORS_APT_PACKAGES)
DOORS_PYTHON = COMMENTBAR_BIN=$(abspath $(or $(DOORS_BIN),$(RENDERER))) COMMENTBAR_VUE_JS=$(abspath $(ONECOMME_VUE)) \
	$(TEST_PYTHON)

.PHONY: test-doors test-doors-actions test-doors-templates test-doors-xml test-doors-readers bench-doors \
	check-onecomme-scripts
ONECOMME_SCRIPTS := $(shell find Sources/CommentBarOneComme/Assets Tests/doors/templates -name '*.js')
READER_SCRIPTS := $(shell find Tests/doors/readers -name '*.js')
test-doors: test-doors-actions test-doors-templates test-doors-xml test-doors-readers
CHECK_STEPS += test-doors
test-doors.needs := renderer
test-doors.minutes := 1.5

test-doors-actions: $(if $(DOORS_BIN),,renderer)
	$(DOORS_PYTHON) Tests/doors/test_actions.py

# Our JavaScript is in files of their own: node parses it before any browser does.
check-onecomme-scripts:
	@for script in $(ONECOMME_SCRIPTS); do node --check $$script || exit 1; done
	@echo "node --check: $(ONECOMME_SCRIPTS) parse"

test-doors-templates: check-onecomme-scripts $(ONECOMME_VUE) $(if $(DOORS_BIN),,renderer)
	$(DOORS_PYTHON) Tests/doors/test_templates.py

test-doors-xml: $(if $(DOORS_BIN),,renderer)
	$(DOORS_PYTHON) Tests/doors/test_comment_xml.py

test-doors-readers: $(if $(DOORS_BIN),,renderer)
	@for script in $(READER_SCRIPTS); do node --check $$script || exit 1; done
	$(DOORS_PYTHON) Tests/doors/test_comment_xml_readers.py

# Figures only: nothing here asserts a speed.
bench-doors: $(ONECOMME_VUE) $(if $(DOORS_BIN),,renderer)
	$(DOORS_PYTHON) Tests/bench/doors_bench.py
