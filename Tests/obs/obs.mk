# SPDX-License-Identifier: GPL-2.0-or-later
# The shim in real libobs and in real OBS (Tests/obs; the shared helpers: Tests/support).
#   make test-obs       the shim in real libobs (obs_host) under Xvfb, then OBS's own state on the bar in real OBS
#   make test-real-obs  the real-OBS tests of test-obs, test-overlay and test-speech, the viewer memory's, the
#                       secrets', the control page's and the looks' real-OBS tests, in one OBS (make check
#                       runs the speech test in a second OBS beside it: test-real-obs-speech, -others)
.PHONY: test-obs test-obs-host test-obs-state test-real-obs

test-obs: test-obs-host test-obs-state

test-obs-host: $(PLUGIN_SO) $(OBS_HOST) $(SHIM_RENDERER)
	$(XSERVER) -- Tests/obs/run.sh $(OBS_HOST) $(PLUGIN_SO) $(SHIM_RENDERER) Tests/shim/fixtures
CHECK_STEPS += test-obs-host
test-obs-host.needs := check-build
test-obs-host.minutes := 0.25
test-obs-host.uses := obs-system

# Recording, streaming (to a loopback ffmpeg RTMP sink) and a mic's mute on the bar.
test-obs-state: $(PLUGIN_SO) $(SHIM_RENDERER)
	$(TEST_PYTHON) -m obs.obs_state_test --plugin $(PLUGIN_SO) --data plugin/data --renderer $(SHIM_RENDERER)

REAL_OBS := $(TEST_PYTHON) -m obs.shared_obs --plugin $(PLUGIN_SO) --data plugin/data --renderer $(RENDERER) \
	--helpers $(OVERLAY_BUILD)
test-real-obs: $(PLUGIN_SO) $(RENDERER) $(OVERLAY_HELPERS)
	$(REAL_OBS)
# make check's halves of test-real-obs, each in an OBS of its own, side by side: the speech test
# (a minute and a half, most of it the silences and pauses it records) and the others.
.PHONY: test-real-obs-speech test-real-obs-others
test-real-obs-speech: $(PLUGIN_SO) $(RENDERER) $(OVERLAY_HELPERS)
	$(REAL_OBS) speech.obs_speech_test
test-real-obs-others: $(PLUGIN_SO) $(RENDERER) $(OVERLAY_HELPERS)
	$(REAL_OBS) --without speech.obs_speech_test
CHECK_STEPS += test-real-obs-speech test-real-obs-others
test-real-obs-speech.needs := check-build
test-real-obs-speech.minutes := 1.5
test-real-obs-speech.uses := obs-system
test-real-obs-others.needs := check-build
test-real-obs-others.minutes := 2
test-real-obs-others.uses := obs-system
