# SPDX-License-Identifier: GPL-2.0-or-later
# CommentBar: everyday verbs. `make help` lists them.
#   make demo     install what is missing, build, render the demo bar to bar.png
#   make check    install what is missing (deps), build once, run every test; a table of times at the end
#   make test     the tests only, one group after another (make test-GROUP runs one)
#   make deps     every package the build, the tests and the packages need (apt), the feeds tests' venv
#                 (pip), the speech tests' voice; nothing is installed later
#   make install  build the renderer and the plugin, install into OBS's user plugin folder
#   make bench    the side-by-side benchmarks (docs/benchmarks.md)
SHELL := /bin/bash
SWIFT ?= swift
# The one Swift build, release, in a scratch folder of its own: every module compiled once, with
# testing enabled, for the renderer and the Swift unit tests alike (they @testable-import the
# modules; XCTest exists only as a shared library, so this build links the runtime dynamically).
# --disable-local-rpath: no $$ORIGIN RUNPATH. No debug info (10-20 % of the compile; the packages
# strip it anyway; `swift build` gives a debug build for a debugger). A plain `swift build -c release`
# lands in .build. Every function in a section of its own (Swift's and C's): the link order file
# (linker/commentbar.order) can only move sections, and without this most of a module's code (its
# specializations, closures, witnesses) shares one .text section per object, so ordering 1 MiB of
# functions `serve` runs dragged 8.6 MiB of the binary with it.
# Two code generation threads per module (-num-threads): SwiftPM compiles a release module as one
# job, and for about 80 s of the renderer's build one module waits for the one before it
# (NIOHTTP2, then AsyncHTTPClient; the last of ours), leaving a core idle: a clean build took 418 s
# instead of 445 on two cores (one build each).
RELEASE_SCRATCH := .build-release
SWIFT_RELEASE := -c release -Xswiftc -enable-testing -debug-info-format none --disable-local-rpath \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xswiftc -num-threads -Xswiftc 2 --scratch-path $(RELEASE_SCRATCH)
# The renderer every test runs and every package packs: that build's objects linked again with the
# Swift runtime static (packaging/link-static.py): no Swift library to install, no RUNPATH.
RENDERER := $(RELEASE_SCRATCH)/static/commentbar
# The build plugins (Plugins/) and the locale files the renderer embeds (the control page's words) too.
SWIFT_SOURCES := $(shell find Sources Plugins CModules/CSysCalls CModules/CommentBarPoolABI CModules/CommentBarSettings CModules/CCairo CModules/CPangoCairo CModules/CGLib CModules/CSQLite CModules/CVorbisFile CModules/CommentBarVersion -type f) \
	Package.swift $(wildcard plugin/data/locale/*.ini)
# The one version: the renderer, the shim, the packages and the docs all take it from this file.
VERSION := $(shell cat VERSION)
# The test scripts' Python: Debian's (its python3-websockets, -pil, -xlib), the shared test
# support importable as `support` (Tests/support), no __pycache__ in the tree.
TEST_PYTHON := PYTHONPATH=$(abspath Tests) PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3
# A private X display (Xvfb on a free display number) for a command: $(XSERVER) -- COMMAND.
XSERVER := $(TEST_PYTHON) -m support.xserver

# Debian 12 packages the build and the tests need.
APT_PACKAGES := libcairo2-dev libpango1.0-dev libgdk-pixbuf-2.0-dev libsqlite3-dev libvorbis-dev libobs-dev obs-studio obs-plugins \
	xvfb xauth libx11-dev libgl1-mesa-dri fonts-noto-cjk fonts-noto-color-emoji fonts-dejavu-core pkg-config gcc make libjansson-dev \
	inspircd websocketd openssl python3 python3-venv \
	ffmpeg python3-pil python3-websockets webp-pixbuf-loader
# What the build needs, by pkg-config name (the renderer's, the shim's, the overlay helpers'); libobs
# unless OBS_CFLAGS is given (the Flatpak build names OBS's headers itself).
BUILD_PKG_CONFIG := cairo pangocairo gdk-pixbuf-2.0 glib-2.0 sqlite3 vorbisfile jansson $(if $(filter command line,$(origin OBS_CFLAGS)),,libobs)

.PHONY: all help deps apt-deps build-deps renderer demo test check check-build test-swift swift-tests
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

# Everything, once, so that no test installs anything: every .mk adds its packages to APT_PACKAGES
# (one apt-get for all) and its other steps (venv, voice, test user) to DEPS_STEPS (`deps` is at the end).
apt-deps:
	$(call apt_install,$(APT_PACKAGES))
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6 is needed: https://www.swift.org/install/linux/"; exit 1; }

# What building needs, checked before any compile: a missing one is named with `make deps`, not
# left to a compiler's "No such file". (The packages' tools: packaging-build-deps.)
build-deps:
	@packaging/check-build-deps.sh --for "$(or $(filter-out check-build,$(MAKECMDGOALS)),build)" \
		--commands "$(SWIFT) cc pkg-config" --pkg-config "$(sort $(BUILD_PKG_CONFIG) $(OVERLAY_X11_PKGS) $(OVERLAY_WAYLAND_PKGS))"

# The Swift packages, resolved and checked out before the build (network or SwiftPM's cache).
# Once per manifest (a stamp): a step that needs them later (packages' dependencies.json) would
# otherwise resolve again and wait for SwiftPM's lock while the Swift tests build.
DEPS_STEPS += swift-packages
PACKAGES_RESOLVED := $(RELEASE_SCRATCH)/packages-resolved.stamp
.PHONY: swift-packages
swift-packages: $(PACKAGES_RESOLVED)
$(PACKAGES_RESOLVED): Package.swift | apt-deps
	$(SWIFT) package resolve --scratch-path $(RELEASE_SCRATCH)
	@touch $@

# The link order file is an input SwiftPM does not track: the old binary is removed so it relinks.
# SwiftPM's binary is a file target of its own: after a `make swift-tests` that built it anew (it
# builds every target), the renderer is only linked again, with no second SwiftPM build (15 s even
# when it has nothing to do).
RELEASE_RENDERER := $(RELEASE_SCRATCH)/release/commentbar
renderer: $(RENDERER)
$(RELEASE_RENDERER): $(SWIFT_SOURCES) linker/commentbar.order | build-deps
	@rm -f $@
	$(SWIFT) build $(SWIFT_RELEASE) --product commentbar
$(RENDERER): $(RELEASE_RENDERER) packaging/link-static.py
	@rm -f $@
	packaging/link-static.py --manifest $(RELEASE_SCRATCH)/release.yaml --product commentbar --out $@

# With a display: OBS opens with a private profile and scene collection (.build-demo, never the
# user's own config) showing the bar over a test pattern. Without one: bar.png and a headless-OBS
# screenshot, obs-demo.png.
demo: deps renderer plugin
	$(RENDERER) render --service demo --stream demo --at 20 --out bar.png
	@echo "wrote bar.png"
	packaging/demo/obs-demo.sh $(PLUGIN_SO) $(RENDERER) .build-demo

# The Swift unit tests, in the release build: on the renderer's objects, only the test modules are
# compiled anew. A file target (the bundle is linked anew each time), so that `make test-swift`
# after it plans no second SwiftPM build. The test product only: `--build-tests` builds every
# product of every package too, swift-protobuf's protoc (twice, for the host's tools and the
# target: about 380 C++ files) and protoc-gen-swift, NIO's and swift-argument-parser's example
# and doc tools, none of which a test runs. The kill -9 test's child process (an executable
# target, Tests/MemoryCrashHelper) is built beside the bundle, where that test looks for it.
TEST_BUNDLE := $(RELEASE_SCRATCH)/release/CommentBarPackageTests.xctest
SWIFT_TEST_SOURCES := $(shell find Tests -name '*.swift')
swift-tests: $(TEST_BUNDLE)
$(TEST_BUNDLE): $(SWIFT_SOURCES) $(SWIFT_TEST_SOURCES) | build-deps
	@rm -f $@
	$(SWIFT) build $(SWIFT_RELEASE) --product commentbar-memory-crash-helper
	$(SWIFT) build $(SWIFT_RELEASE) --product CommentBarPackageTests
# The renderer's XCTests (about 55 s of a loaded machine), the frame loop's (40 s) and the others
# (55 s) in three processes side by side, then the swift-testing tests (Tests/support/swift-tests.sh).
SWIFT_TEST_SHARDS := '^CommentBarRenderTests\.' '^CommentBarServeTests\.'
test-swift: swift-tests
	$(TEST_PYTHON) Tests/support/declared_imports.py $(SWIFT)
	Tests/support/swift-tests.sh $(TEST_BUNDLE) build/test-swift $(SWIFT_TEST_SHARDS)

# Every group, one after another.
test: test-swift test-shim test-obs test-feeds test-packaging test-speech test-overlay test-control test-memory test-dock

# make check: deps, then every step the .mk files declare, side by side as far as each step's needs,
# the resources it holds or uses and the machine's cores allow (Tests/support/check_plan.py says how
# and why); logs in build/check/. `make check-plan` prints the plan and why. A step declares:
#   CHECK_STEPS += STEP       a make target make check runs
#   STEP.needs := A B         steps that must have passed first (what it runs was built there)
#   STEP.holds := R           held alone: swiftpm (SwiftPM's build lock on .build-release),
#                             obs-system (test-deb: dpkg puts the module in OBS's system folder, where
#                             every OBS would load it, and the renderer where the shim looks)
#   STEP.uses := R            shared, never while a step holds it: obs-system for every group that
#                             starts OBS or the shim
#   STEP.cores := all         a build: make -jN, N the machine's cores
#   STEP.minutes := M         about how long it took in a clean clone's make check on 2 cores
#                             (its table): the longest chain of minutes starts first (left out: 1)
CHECK_LOGS := build/check
CHECK_STEPS := renderer c-build check-build swift-tests test-swift test-check-plan
renderer.holds := swiftpm
renderer.cores := all
renderer.minutes := 9.5
c-build.cores := all
c-build.minutes := 2
check-build.needs := renderer c-build
check-build.minutes := 0.5
check-build.cores := all
swift-tests.needs := renderer
swift-tests.minutes := 3.5
swift-tests.holds := swiftpm
swift-tests.cores := all
test-swift.needs := swift-tests
test-swift.minutes := 1.25
test-check-plan.minutes := 0.1
check_step = --step '$(1);needs=$($(1).needs);holds=$($(1).holds);uses=$($(1).uses);cores=$($(1).cores);minutes=$($(1).minutes)'
CHECK_RUNNER = $(TEST_PYTHON) -m support.check --logdir $(CHECK_LOGS) $(foreach step,$(CHECK_STEPS),$(call check_step,$(step)))
.PHONY: check-plan
check:
	@t0=$$(date +%s); $(MAKE) --no-print-directory -j4 deps || exit; \
	$(CHECK_RUNNER) --before deps=$$(( $$(date +%s) - t0 ))
check-plan:
	@$(CHECK_RUNNER) --plan
# The plan itself: the declared steps, run through it with made-up times, keep what they declare.
.PHONY: test-check-plan
test-check-plan:
	$(TEST_PYTHON) -m unittest -v support.test_check_plan

include CModules/plugin/plugin.mk
include CModules/overlay/overlay.mk
include CModules/dock/dock.mk
include Tests/feeds/feeds.mk
include Tests/overlay/overlay.mk
include Tests/bench/bench.mk
include Tests/speech/speech.mk
include Tests/obs/obs.mk
include Tests/control/control.mk
include Tests/memory/memory.mk
include Tests/dock/dock.mk
# The doors to other tools (issue 39): Vue's file for OneComme templates (fetched by `make deps`, shipped
# by the packages), and their tests.
include packaging/onecomme-vue.mk
include Tests/doors/doors.mk
test: test-doors
# Each module's manifest.json for OBS 32's plugin manager (issue 50): after dock.mk, before packaging.mk.
include packaging/manifest.mk
include packaging/packaging.mk
# The checks that keep the modules loadable by OBS 29 to 33 (issue 50): after packaging.mk, whose packages they read.
include Tests/packaging/modules.mk

# After the .mk files, whose variables these prerequisites name.
deps: apt-deps $(DEPS_STEPS)
# What make check's test groups run, built once before them (the packages are a step of their own):
# c-build, what needs no renderer (so it is built beside the renderer), then the plugin and the
# shim, which take the services' list from the renderer.
.PHONY: c-build
c-build: overlay $(FAKE_RENDERER) $(OBS_HOST) dock $(DOCK_TEST_PROGRAMS)
check-build: renderer c-build plugin $(SHIM_PLUGIN) $(SHIM_HOST) $(SHIM_UNIT)
# Every compile waits for the dependency check.
$(PLUGIN_SO) $(OVERLAY_HELPERS) $(SHIM_PLUGIN) $(SHIM_HOST) $(SHIM_UNIT) $(FAKE_RENDERER) $(OBS_HOST): | build-deps
