# SPDX-License-Identifier: GPL-2.0-or-later
# CommentBar: everyday verbs. `make help` lists them.
#   make demo     install what is missing, build, render the demo bar to bar.png
#   make check    install what is missing, then run every test
#   make install  build the renderer and the plugin, install into OBS's user plugin folder
#   make bench    the side-by-side benchmarks (docs/benchmarks.md)
SHELL := /bin/bash
SWIFT ?= swift
RELEASE_DIR := .build/release
RENDERER := $(RELEASE_DIR)/commentbar
SWIFT_SOURCES := $(shell find Sources CModules/overlay/sys CModules/CommentBarPoolABI CModules/CommentBarSettings CModules/CCairo CModules/CPangoCairo CModules/CGLib CModules/CSQLite CModules/CVorbisFile CModules/CommentBarVersion -type f) Package.swift
# The one version: the renderer, the shim, the packages and the docs all take it from this file.
VERSION := $(shell cat VERSION)

# Debian 12 packages the build and the tests need.
APT_PACKAGES := libcairo2-dev libpango1.0-dev libgdk-pixbuf-2.0-dev libsqlite3-dev libvorbis-dev libobs-dev obs-studio obs-plugins \
	xvfb xauth libx11-dev libgl1-mesa-dri fonts-noto-cjk fonts-noto-color-emoji pkg-config gcc make libjansson-dev \
	inspircd websocketd openssl python3 python3-venv \
	ffmpeg python3-pil python3-websockets webp-pixbuf-loader

.PHONY: all help deps renderer demo test check test-swift
all: renderer plugin overlay

help:
	@sed -n 's/^#   //p' $(MAKEFILE_LIST)

# $(call apt_install,PACKAGES): installs those of PACKAGES that are missing; sudo when not root.
define apt_install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(APT_PACKAGES))
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6 is needed: https://www.swift.org/install/linux/"; exit 1; }

# The renderer links the Swift runtime statically, so OBS machines need no Swift toolchain.
# --disable-local-rpath: SwiftPM would add RUNPATH $$ORIGIN, which a static runtime does not need
# (and a package must not carry).
renderer: $(RENDERER)
# The link order file is an input SwiftPM does not track: the old binary is removed so it relinks.
$(RENDERER): $(SWIFT_SOURCES) linker/commentbar.order
	@rm -f $@
	$(SWIFT) build -c release --product commentbar --static-swift-stdlib --disable-local-rpath
	@touch $@

# With a display: OBS opens with a private profile and scene collection (.build-demo, never the
# user's own config) showing the bar over a test pattern. Without one: bar.png and a headless-OBS
# screenshot, obs-demo.png.
demo: deps renderer plugin
	$(RENDERER) render --service demo --stream demo --at 20 --out bar.png
	@echo "wrote bar.png"
	packaging/demo/obs-demo.sh $(PLUGIN_SO) $(RENDERER) .build-demo

test-swift:
	$(SWIFT) test

test: test-swift test-shim test-obs test-feeds test-packaging test-speech test-overlay
check: deps packaging-deps
	$(MAKE) test

include CModules/plugin/plugin.mk
include CModules/overlay/overlay.mk
include Tests/feeds/feeds.mk
include Tests/overlay/overlay.mk
include Tests/bench/bench.mk
include Tests/speech/speech.mk
include packaging/packaging.mk
