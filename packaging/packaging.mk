# SPDX-License-Identifier: GPL-2.0-or-later
# Packages: the .deb and the tarball, the one version, and their tests (owned by the packaging work).
#   make deb             build/packaging/comment-bar_<VERSION>_<arch>.deb: installs without Swift
#   make dist            build/packaging/comment-bar-<VERSION>-linux-<arch>.tar.gz: install.sh into the user plugin folder
#   make test-packaging  the licence and SPDX lines, the version everywhere, the build-dependency check, the copyright
#                        list, lintian, dpkg -i/upgrade/-r, commentbar on $PATH, apt beside a PPA-like OBS, the
#                        tarball and the Flatpak layout in real OBS
#   make flatpak-sources packaging/flatpak/swiftpm-sources.json from the resolved packages (after Package.swift changes)
#   make spdx-headers    the SPDX-License-Identifier line into every source file that lacks it (after merges)
#   make version-header  CModules/CommentBarVersion/include/commentbar_version.h from VERSION
#   make bench-packaging package sizes and dpkg -i to first frame: docs/benchmarks-packaging.md
# From the including Makefile: SWIFT, VERSION, RENDERER (the one release build) and its scratch folder
# RELEASE_SCRATCH, apt_install, XSERVER; from plugin.mk: plugin's rule ($(PLUGIN_SO)).
.PHONY: deb dist packaging-deps packaging-build-deps test-packaging test-licence spdx-headers test-ppa-deb \
	test-hermetic test-flatpak flatpak-sources test-version test-build-deps test-copyright test-deb test-dist \
	test-packaging-sandboxed \
	version-header bench-packaging

PACKAGING_DIR := build/packaging
DEB_ARCH := $(shell dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null || echo amd64)
DEB := $(PACKAGING_DIR)/comment-bar_$(VERSION)_$(DEB_ARCH).deb
# The upgrade test's older package: the same files under a lower version (~ sorts first).
DEB_OLDER_VERSION := $(VERSION)~older
DEB_OLDER := $(PACKAGING_DIR)/older/comment-bar_$(DEB_OLDER_VERSION)_$(DEB_ARCH).deb
DIST := $(PACKAGING_DIR)/comment-bar-$(VERSION)-linux-$(DEB_ARCH).tar.gz
VERSION_HEADER := CModules/CommentBarVersion/include/commentbar_version.h
# Debian's tools for the package and its checks (dpkg-dev: dpkg-shlibdeps, dpkg-gencontrol;
# binutils: strip, readelf), the obs-websocket client of the screenshot check, and the Flatpak
# checks' validators (appstream: appstreamcli; flatpak-builder: --show-manifest).
PACKAGING_APT_PACKAGES := dpkg-dev binutils lintian xz-utils python3-websockets appstream flatpak-builder
APT_PACKAGES += $(PACKAGING_APT_PACKAGES)
DEB_INPUTS := packaging/build-deb.sh packaging/debian/control packaging/debian/changelog packaging/copyright \
	packaging/lintian-overrides $(wildcard plugin/data/locale/*.ini) VERSION

packaging-deps:
	$(call apt_install,$(PACKAGING_APT_PACKAGES))

# Checked in (a Swift build must not need make), rewritten only when VERSION says otherwise.
version-header:
	packaging/version-header.sh "$(VERSION)" >$(VERSION_HEADER).tmp
	@if cmp -s $(VERSION_HEADER).tmp $(VERSION_HEADER); then rm $(VERSION_HEADER).tmp; \
	else mv $(VERSION_HEADER).tmp $(VERSION_HEADER); echo "rewrote $(VERSION_HEADER)"; fi

# ---- the packages' own build ----
# Hermetic: the packages pack the Makefile's one release build ($(RENDERER): the static Swift
# runtime, Package.swift's link settings, in RELEASE_SCRATCH), never a binary another command left
# in .build/release (a plain `swift build -c release` there links libswiftCore.so with a RUNPATH
# into the toolchain), and the shim built against that renderer's service list ($(PLUGIN_SO)).
PACKAGE_RENDERER := $(RENDERER)
PACKAGE_PLUGIN_SO := $(PLUGIN_SO)
PACKAGE_BUILD_DIR := build/package
# What SwiftPM resolved for it (show-dependencies): the copyright and Flatpak tests compare against it.
DEPENDENCIES_JSON := $(PACKAGE_BUILD_DIR)/dependencies.json
# Further executables the packages install beside the renderer (the .deb: /usr/libexec/comment-bar/;
# the tarball: bin/64bit/; the Flatpak: libexec/comment-bar/): give each as a path to a built file
# and the make rule that builds it, e.g. `PACKAGE_LIBEXEC_EXTRA += build/overlay/commentbar-overlay`
# in a .mk the Makefile includes before this one (prerequisites are read as the rules are). They are checked like the renderer (no Swift library, no RUNPATH) and their libraries enter Depends.
PACKAGE_LIBEXEC_EXTRA ?=
# The dock (CModules/dock/dock.mk, included before this file): PACKAGE_DOCK_FILES are packed, PACKAGE_DOCK_ENV
# names them to the package scripts (DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA; unset: no dock). ONECOMME_VUE_BESIDE
# (packaging/onecomme-vue.mk): Vue 3 for OneComme's templates, named to them as ONECOMME_VUE.
# MODULE_MANIFESTS (packaging/manifest.mk): each module's manifest.json, packed with its data.
PACKAGE_INPUTS := $(PACKAGE_PLUGIN_SO) $(PACKAGE_RENDERER) $(PACKAGE_LIBEXEC_EXTRA) $(PACKAGE_DOCK_FILES) \
	packaging/check-no-swift-runtime.sh $(ONECOMME_VUE_BESIDE) $(MODULE_MANIFESTS)

# The packages' tools, checked before anything is built (build-deps: the compilers and libraries).
# Every package and what the packaging tests compare against (make check builds them in one step).
.PHONY: packages package-dependencies
packages: $(DEB) $(DEB_OLDER) $(DIST) $(DEPENDENCIES_JSON)
CHECK_STEPS += packages
packages.needs := check-build
packages.minutes := 2
packages.cores := all

packaging-build-deps:
	@packaging/check-build-deps.sh --for "$(or $(MAKECMDGOALS),deb)" \
		--commands "dpkg-deb dpkg-shlibdeps dpkg-gencontrol dpkg-parsechangelog strip readelf tar gzip xz"

deb: $(DEB)
$(DEB): $(PACKAGE_INPUTS) $(DEB_INPUTS) | packaging-build-deps build-deps
	ONECOMME_VUE=$(ONECOMME_VUE_BESIDE) $(PACKAGE_DOCK_ENV) packaging/build-deb.sh $(PACKAGE_PLUGIN_SO) $(PACKAGE_RENDERER) \
		$(PACKAGING_DIR) $(VERSION) $(PACKAGE_LIBEXEC_EXTRA)

$(DEB_OLDER): $(PACKAGE_INPUTS) $(DEB_INPUTS) | packaging-build-deps build-deps
	ONECOMME_VUE=$(ONECOMME_VUE_BESIDE) DEB_COMPRESSION=none $(PACKAGE_DOCK_ENV) packaging/build-deb.sh $(PACKAGE_PLUGIN_SO) \
		$(PACKAGE_RENDERER) $(PACKAGING_DIR)/older $(DEB_OLDER_VERSION) \
		$(PACKAGE_LIBEXEC_EXTRA)

dist: $(DIST)
$(DIST): $(PACKAGE_INPUTS) packaging/build-dist.sh packaging/dist/install.sh packaging/dist/uninstall.sh plugin/install.sh \
		packaging/dist/README packaging/copyright packaging/debian/changelog $(wildcard plugin/data/locale/*.ini) VERSION \
		| packaging-build-deps build-deps
	ONECOMME_VUE=$(ONECOMME_VUE_BESIDE) $(PACKAGE_DOCK_ENV) packaging/build-dist.sh $(PACKAGE_PLUGIN_SO) $(PACKAGE_RENDERER) \
		$(PACKAGING_DIR) $(PACKAGE_LIBEXEC_EXTRA)

# After merges that add source files: their SPDX line (idempotent).
spdx-headers:
	python3 packaging/spdx-headers.py --apply

test-licence:
	Tests/packaging/test-licence.sh

test-version: $(RENDERER) $(PLUGIN_SO)
	Tests/packaging/test-version.sh $(RENDERER) $(PLUGIN_SO)

# make install, deb and dist name what is missing (and make deps) before compiling anything.
test-build-deps:
	Tests/packaging/test-build-deps.sh

# The packed renderer's link, and its checkouts.
test-copyright: $(RENDERER) $(DEPENDENCIES_JSON)
	Tests/packaging/test-copyright.sh packaging/copyright $(RELEASE_SCRATCH)/release/commentbar.product/Objects.LinkFileList \
		$(abspath $(RELEASE_SCRATCH)/checkouts) $(DEPENDENCIES_JSON)

# dpkg -i changes the machine: this test installs, upgrades and removes the system package.
test-deb: $(DEB) $(DEB_OLDER) $(DIST)
	$(XSERVER) -- Tests/packaging/test-deb.sh $(DEB) $(DEB_OLDER) $(DIST) $(PACKAGING_DIR)/deb-results.json
CHECK_STEPS += test-deb
test-deb.needs := packages
test-deb.minutes := 1
test-deb.holds := obs-system

# apt-get install of the .deb beside a PPA-like obs-studio (libobs.so.0 inside, Conflicts: libobs0),
# in a throwaway root: apt must remove nothing.
test-ppa-deb: $(DEB)
	$(XSERVER) -- Tests/packaging/test-ppa-deb.sh $(DEB)

# The Flatpak extension: metainfo, manifest, and its layout in real OBS (no Flathub runtime here).
FLATPAK_DIR := packaging/flatpak
# The packages the manifest resolved, as they are checked out: a step of `make deps`, right after
# they are resolved (SwiftPM's lock is free then; in make check it would wait for the renderer's
# build and hold the Swift tests' back).
package-dependencies: $(DEPENDENCIES_JSON)
DEPS_STEPS += package-dependencies
$(DEPENDENCIES_JSON): Package.swift $(wildcard Package.resolved) | swift-packages
	@mkdir -p $(PACKAGE_BUILD_DIR)
	$(SWIFT) package --scratch-path $(RELEASE_SCRATCH) show-dependencies --format json >$@.tmp && mv $@.tmp $@

test-flatpak: $(PACKAGE_INPUTS) $(DEPENDENCIES_JSON)
	ONECOMME_VUE=$(ONECOMME_VUE_BESIDE) $(PACKAGE_DOCK_ENV) $(XSERVER) -- Tests/packaging/test-flatpak.sh $(PACKAGE_PLUGIN_SO) \
		$(PACKAGE_RENDERER) $(DEPENDENCIES_JSON) $(PACKAGE_LIBEXEC_EXTRA)

# What the Flatpak manifest runs inside OBS's SDK: the package build, installed into the
# extension's prefix (FLATPAK_PREFIX=$${FLATPAK_DEST}) in the layout Flatpak OBS loads.
FLATPAK_PREFIX ?= /app/plugins/CommentBar
.PHONY: flatpak-install
flatpak-install: $(PACKAGE_INPUTS)
	ONECOMME_VUE=$(ONECOMME_VUE_BESIDE) $(PACKAGE_DOCK_ENV) $(FLATPAK_DIR)/install-extension.sh $(FLATPAK_PREFIX) $(PACKAGE_PLUGIN_SO) $(PACKAGE_RENDERER) $(PACKAGE_LIBEXEC_EXTRA)

# After a change of Package.swift's packages: the manifest's SwiftPM sources anew.
flatpak-sources: $(DEPENDENCIES_JSON)
	python3 $(FLATPAK_DIR)/swiftpm-sources.py write $(DEPENDENCIES_JSON) >$(FLATPAK_DIR)/swiftpm-sources.json

# make deb / make dist pack the renderer they build, not the one a plain release build leaves.
test-hermetic:
	Tests/packaging/test-hermetic.sh $(DEB) $(DIST)

test-dist: $(DIST)
	$(PACKAGE_DOCK_ENV) $(XSERVER) -- Tests/packaging/test-dist.sh $(DIST) $(PACKAGE_PLUGIN_SO) $(PACKAGE_RENDERER) \
		$(PACKAGE_LIBEXEC_EXTRA)

test-packaging: test-packaging-sandboxed test-deb
# Every packaging test but test-deb: these change nothing outside their scratch folders (test-ppa-deb
# installs into a throwaway root), so they may run beside other groups.
test-packaging-sandboxed: test-licence test-version test-build-deps test-copyright test-ppa-deb test-dist test-hermetic \
	test-flatpak
# (test-dist looks whether the .deb is installed: never while test-deb changes that.)
CHECK_STEPS += test-packaging-sandboxed
test-packaging-sandboxed.needs := packages
test-packaging-sandboxed.minutes := 1.5
test-packaging-sandboxed.uses := obs-system

bench-packaging: test-deb
	python3 packaging/bench-section.py $(PACKAGING_DIR)/deb-results.json --out docs/benchmarks-packaging.md \
		--page docs/benchmarks.md
