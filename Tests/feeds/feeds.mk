# Live-feed tests against real servers on loopback (owned by the feeds work).
.PHONY: test-feeds
test-feeds:
