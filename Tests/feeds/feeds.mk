# SPDX-License-Identifier: GPL-2.0-or-later
# Live-feed tests against real servers on loopback (owned by the feeds work).
#   make test-feeds   InspIRCd, websocketd and a Twitch-like TLS WebSocket server on 127.0.0.1,
#                     driven through `commentbar tail` (pytest in a venv under .build-feeds-venv)
#   make bench-feeds  only the 1,000 messages/s benchmark, with its figures
# FEEDS_BIN=path/to/commentbar tests another build instead of the release renderer.
# FEEDS_PYTEST_ARGS: more pytest arguments (e.g. -k kick, --durations=20).
# FEEDS_WORKERS: pytest processes side by side (pytest-xdist). The tests mostly wait for the
# renderer's own timers (a channel checked once a minute, polls, back-offs), not for a CPU: 6
# workers took 96 s where 4 took 113 (the longest test alone is 60 s).
FEEDS_VENV := .build-feeds-venv
FEEDS_BIN ?=
FEEDS_PYTEST_ARGS ?=
FEEDS_WORKERS ?= 6
FEEDS_PYTEST = COMMENTBAR_BIN=$(abspath $(or $(FEEDS_BIN),$(RENDERER))) PYTHONDONTWRITEBYTECODE=1 \
	PYTHONPATH=$(abspath Tests) $(FEEDS_VENV)/bin/python -m pytest -p no:cacheprovider -v -rfE $(FEEDS_PYTEST_ARGS)

.PHONY: test-feeds bench-feeds feeds-venv feeds-venv-present
DEPS_STEPS += feeds-venv

# pytest, websockets and protobuf from PyPI, into a venv the tests own (gitignored): `make deps`.
feeds-venv: $(FEEDS_VENV)/.installed
$(FEEDS_VENV)/.installed: Tests/feeds/requirements.txt | apt-deps
	python3 -m venv $(FEEDS_VENV)
	$(FEEDS_VENV)/bin/pip install -q -r Tests/feeds/requirements.txt
	@touch $@

# The tests install nothing: without the venv they stop and say so.
feeds-venv-present:
	@[ -e $(FEEDS_VENV)/.installed ] || { echo "test-feeds: no $(FEEDS_VENV) (pytest, websockets): run make deps"; exit 1; }

# The benchmark prints figures and asserts nothing about speed: it runs only in bench-feeds.
test-feeds: $(if $(FEEDS_BIN),,renderer) feeds-venv-present
	$(FEEDS_PYTEST) -n $(FEEDS_WORKERS) Tests/feeds --ignore=Tests/feeds/test_benchmark.py
CHECK_STEPS += test-feeds
test-feeds.needs := renderer
test-feeds.minutes := 2

bench-feeds: $(if $(FEEDS_BIN),,renderer) feeds-venv-present
	$(FEEDS_PYTEST) -s Tests/feeds/test_benchmark.py
