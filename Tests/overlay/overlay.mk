# SPDX-License-Identifier: GPL-2.0-or-later
# The overlay's tests (issue 24): real X (Xvfb + openbox + xdotool) and real Wayland (sway
# headless + grim), driven through `commentbar overlay`, with the helpers of CModules/overlay;
# then real OBS, whose source settings move and close the overlay (obs-websocket).
#   make test-overlay   all three; screenshots and logs in build/overlay/test-*
# OVERLAY_RENDERER=path/to/commentbar tests another build instead of the release renderer.
OVERLAY_RENDERER ?= $(RENDERER)
OVERLAY_TEST_APT_PACKAGES := openbox xdotool x11-utils xvfb ffmpeg python3-xlib python3-pil sway grim \
	python3-gi gir1.2-gtk-3.0
APT_PACKAGES += $(OVERLAY_TEST_APT_PACKAGES)
DEPS_STEPS += overlay-test-user

.PHONY: test-overlay test-overlay-deps overlay-test-user test-overlay-display test-overlay-x11 \
	test-overlay-wayland test-overlay-obs
test-overlay: test-overlay-display test-overlay-obs
test-overlay-display: test-overlay-x11 test-overlay-wayland
CHECK_STEPS += test-overlay-display
test-overlay-display.needs := renderer c-build
test-overlay-display.minutes := 0.5

test-overlay-deps: overlay-deps
	$(call apt_install,$(OVERLAY_TEST_APT_PACKAGES))

# sway refuses root: the Wayland test runs it as this ordinary user, made by `make deps`.
overlay-test-user: | apt-deps
	$(TEST_PYTHON) -c 'from overlay.swaysession import ensure_user; ensure_user()'

test-overlay-x11: $(OVERLAY_HELPERS) $(OVERLAY_RENDERER)
	$(TEST_PYTHON) -m overlay.overlay_x11_test --renderer $(OVERLAY_RENDERER) --helpers $(OVERLAY_BUILD) \
		--work $(OVERLAY_BUILD)/test-x11

test-overlay-wayland: $(OVERLAY_HELPERS) $(OVERLAY_RENDERER)
	$(TEST_PYTHON) -m overlay.overlay_wayland_test --renderer $(OVERLAY_RENDERER) --helpers $(OVERLAY_BUILD) \
		--work $(OVERLAY_BUILD)/test-wayland

test-overlay-obs: $(OVERLAY_HELPERS) $(PLUGIN_SO) $(OVERLAY_RENDERER)
	$(TEST_PYTHON) -m overlay.overlay_obs_test --plugin $(PLUGIN_SO) --data plugin/data \
		--renderer $(OVERLAY_RENDERER) --helpers $(OVERLAY_BUILD)
