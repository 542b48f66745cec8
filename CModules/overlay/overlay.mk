# SPDX-License-Identifier: GPL-2.0-or-later
# The overlay helpers (issue 24): small programs the renderer starts when a bar's `overlay`
# setting is on, fed from the frame pool; their libraries never load into the renderer.
#   make overlay   build/overlay/commentbar-overlay-x11 and build/overlay/commentbar-overlay-wayland
OVERLAY_DIR := CModules/overlay
OVERLAY_BUILD := build/overlay
OVERLAY_X11 := $(OVERLAY_BUILD)/commentbar-overlay-x11
OVERLAY_WAYLAND := $(OVERLAY_BUILD)/commentbar-overlay-wayland
OVERLAY_HELPERS := $(OVERLAY_X11) $(OVERLAY_WAYLAND)
# The packages (.deb, tarball, Flatpak) install the helpers beside the renderer.
PACKAGE_LIBEXEC_EXTRA += $(OVERLAY_HELPERS)
OVERLAY_COMMON := $(addprefix $(OVERLAY_DIR)/,overlay-pool.c overlay-input.c overlay-place.c overlay-frame.c) \
	CModules/CommentBarPoolABI/pool_abi.c
OVERLAY_HEADERS := $(wildcard $(OVERLAY_DIR)/*.h) CModules/CommentBarPoolABI/include/commentbar_pool.h
OVERLAY_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -ICModules/CommentBarPoolABI/include
# Debian 12: libxcb1-dev libxcb-shape0-dev libxcb-xfixes0-dev libxcb-randr0-dev libxcb-icccm4-dev
# libxcb-ewmh-dev libcairo2-dev libjansson-dev; libgtk-3-dev libgtk-layer-shell-dev for Wayland.
OVERLAY_APT_PACKAGES := libxcb1-dev libxcb-shape0-dev libxcb-xfixes0-dev libxcb-randr0-dev libxcb-icccm4-dev \
	libxcb-ewmh-dev libjansson-dev libgtk-3-dev libgtk-layer-shell-dev
# `make deps` installs them with the rest: `make all` and `make install` build the helpers.
APT_PACKAGES += $(OVERLAY_APT_PACKAGES)
OVERLAY_X11_PKGS := xcb xcb-shape xcb-xfixes xcb-randr xcb-icccm xcb-ewmh cairo cairo-xcb jansson
OVERLAY_WAYLAND_PKGS := gtk+-3.0 gtk-layer-shell-0 cairo jansson

.PHONY: overlay overlay-deps
overlay: $(OVERLAY_HELPERS)

overlay-deps:
	$(call apt_install,$(OVERLAY_APT_PACKAGES))

$(OVERLAY_X11): $(OVERLAY_DIR)/overlay-x11.c $(OVERLAY_COMMON) $(OVERLAY_HEADERS) $(OVERLAY_DIR)/overlay.mk
	@mkdir -p $(OVERLAY_BUILD)
	$(CC) $(OVERLAY_CFLAGS) $$(pkg-config --cflags $(OVERLAY_X11_PKGS)) -o $@ $(OVERLAY_DIR)/overlay-x11.c \
		$(OVERLAY_COMMON) $$(pkg-config --libs $(OVERLAY_X11_PKGS))

$(OVERLAY_WAYLAND): $(OVERLAY_DIR)/overlay-wayland.c $(OVERLAY_COMMON) $(OVERLAY_HEADERS) $(OVERLAY_DIR)/overlay.mk
	@mkdir -p $(OVERLAY_BUILD)
	$(CC) $(OVERLAY_CFLAGS) $$(pkg-config --cflags $(OVERLAY_WAYLAND_PKGS)) -o $@ $(OVERLAY_DIR)/overlay-wayland.c \
		$(OVERLAY_COMMON) $$(pkg-config --libs $(OVERLAY_WAYLAND_PKGS))
