# SPDX-License-Identifier: GPL-2.0-or-later
# The overlay's tests (issue 24): real X (Xvfb + openbox + xdotool) and real Wayland (sway
# headless + grim), driven through `commentbar overlay`, with the helpers of CModules/overlay;
# then real OBS, whose source settings move and close the overlay (obs-websocket).
#   make test-overlay   all three; screenshots and logs in build/overlay/test-*
# OVERLAY_RENDERER=path/to/commentbar tests another build instead of the release renderer.
OVERLAY_RENDERER ?= $(RENDERER)
OVERLAY_TEST_APT_PACKAGES := openbox xdotool x11-utils xvfb ffmpeg python3-xlib python3-pil sway grim \
	python3-gi gir1.2-gtk-3.0

.PHONY: test-overlay test-overlay-deps test-overlay-x11 test-overlay-wayland test-overlay-obs
test-overlay: test-overlay-x11 test-overlay-wayland test-overlay-obs

test-overlay-deps: overlay-deps
	$(call apt_install,$(OVERLAY_TEST_APT_PACKAGES))

test-overlay-x11: test-overlay-deps $(OVERLAY_HELPERS) $(OVERLAY_RENDERER)
	/usr/bin/python3 Tests/overlay/overlay_x11_test.py --renderer $(OVERLAY_RENDERER) --helpers $(OVERLAY_BUILD) \
		--work $(OVERLAY_BUILD)/test-x11

test-overlay-wayland: test-overlay-deps $(OVERLAY_HELPERS) $(OVERLAY_RENDERER)
	/usr/bin/python3 Tests/overlay/overlay_wayland_test.py --renderer $(OVERLAY_RENDERER) --helpers $(OVERLAY_BUILD) \
		--work $(OVERLAY_BUILD)/test-wayland

test-overlay-obs: test-overlay-deps $(OVERLAY_HELPERS) $(PLUGIN_SO) $(OVERLAY_RENDERER)
	/usr/bin/python3 Tests/overlay/overlay_obs_test.py --plugin $(PLUGIN_SO) --data plugin/data \
		--renderer $(OVERLAY_RENDERER) --helpers $(OVERLAY_BUILD)
