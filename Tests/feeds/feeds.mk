# SPDX-License-Identifier: GPL-2.0-or-later
# Live-feed tests against real servers on loopback (owned by the feeds work).
#   make test-feeds   InspIRCd, websocketd and a Twitch-like TLS WebSocket server on 127.0.0.1,
#                     driven through `commentbar tail` (pytest in a venv under .build-feeds-venv)
#   make bench-feeds  only the 1,000 messages/s benchmark, with its figures
# FEEDS_BIN=path/to/commentbar tests another build instead of the release renderer.
FEEDS_VENV := .build-feeds-venv
FEEDS_BIN ?=
FEEDS_PYTEST_ARGS ?=
FEEDS_PYTEST = COMMENTBAR_BIN=$(abspath $(or $(FEEDS_BIN),$(RENDERER))) PYTHONDONTWRITEBYTECODE=1 \
	$(FEEDS_VENV)/bin/python -m pytest -p no:cacheprovider -v -rfE $(FEEDS_PYTEST_ARGS)

.PHONY: test-feeds bench-feeds

# pytest and websockets from PyPI, into a venv the tests own (gitignored).
$(FEEDS_VENV)/.installed: Tests/feeds/requirements.txt
	python3 -m venv $(FEEDS_VENV)
	$(FEEDS_VENV)/bin/pip install -q -r Tests/feeds/requirements.txt
	@touch $@

# The benchmark prints figures and asserts nothing about speed: it runs only in bench-feeds.
test-feeds: $(if $(FEEDS_BIN),,renderer) $(FEEDS_VENV)/.installed
	$(FEEDS_PYTEST) Tests/feeds --ignore=Tests/feeds/test_benchmark.py

bench-feeds: $(if $(FEEDS_BIN),,renderer) $(FEEDS_VENV)/.installed
	$(FEEDS_PYTEST) -s Tests/feeds/test_benchmark.py
