# SPDX-License-Identifier: GPL-2.0-or-later
# The shim in real libobs and in real OBS (Tests/obs; the shared helpers: Tests/support).
#   make test-obs       the shim in real libobs (obs_host) under Xvfb, then OBS's own state on the bar in real OBS
#   make test-real-obs  the real-OBS tests of test-obs, test-overlay and test-speech in one OBS (what make check runs)
.PHONY: test-obs test-obs-host test-obs-state test-real-obs

test-obs: test-obs-host test-obs-state

test-obs-host: $(PLUGIN_SO) $(OBS_HOST) $(SHIM_RENDERER)
	$(XSERVER) -- Tests/obs/run.sh $(OBS_HOST) $(PLUGIN_SO) $(SHIM_RENDERER) Tests/shim/fixtures

# Recording, streaming (to a loopback ffmpeg RTMP sink) and a mic's mute on the bar.
test-obs-state: $(PLUGIN_SO) $(SHIM_RENDERER)
	$(TEST_PYTHON) -m obs.obs_state_test --plugin $(PLUGIN_SO) --data plugin/data --renderer $(SHIM_RENDERER)

test-real-obs: $(PLUGIN_SO) $(RENDERER) $(OVERLAY_HELPERS)
	$(TEST_PYTHON) -m obs.shared_obs --plugin $(PLUGIN_SO) --data plugin/data --renderer $(RENDERER) \
		--helpers $(OVERLAY_BUILD)
