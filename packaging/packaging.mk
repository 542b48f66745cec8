# SPDX-License-Identifier: GPL-2.0-or-later
# Packages: the .deb and the tarball, the one version, and their tests (owned by the packaging work).
#   make deb             build/packaging/comment-bar_<VERSION>_<arch>.deb: installs without Swift
#   make dist            build/packaging/comment-bar-<VERSION>-linux-<arch>.tar.gz: install.sh into the user plugin folder
#   make test-packaging  the licence and SPDX lines, the version everywhere, the copyright list, lintian, dpkg -i/upgrade/-r and the tarball in real OBS
#   make spdx-headers    the SPDX-License-Identifier line into every source file that lacks it (after merges)
#   make version-header  CModules/CommentBarVersion/include/commentbar_version.h from VERSION
#   make bench-packaging package sizes and dpkg -i to first frame: docs/benchmarks-packaging.md
# From the including Makefile: VERSION, RENDERER, apt_install; from plugin.mk: PLUGIN_SO.
.PHONY: deb dist packaging-deps test-packaging test-licence spdx-headers test-version test-copyright test-deb test-dist version-header \
	bench-packaging

PACKAGING_DIR := build/packaging
DEB_ARCH := $(shell dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null || echo amd64)
DEB := $(PACKAGING_DIR)/comment-bar_$(VERSION)_$(DEB_ARCH).deb
# The upgrade test's older package: the same files under a lower version (~ sorts first).
DEB_OLDER_VERSION := $(VERSION)~older
DEB_OLDER := $(PACKAGING_DIR)/older/comment-bar_$(DEB_OLDER_VERSION)_$(DEB_ARCH).deb
DIST := $(PACKAGING_DIR)/comment-bar-$(VERSION)-linux-$(DEB_ARCH).tar.gz
VERSION_HEADER := CModules/CommentBarVersion/include/commentbar_version.h
# Debian's tools for the package and its checks (dpkg-dev: dpkg-shlibdeps, dpkg-gencontrol;
# binutils: strip, readelf), and the obs-websocket client of the screenshot check.
PACKAGING_APT_PACKAGES := dpkg-dev binutils lintian xz-utils python3-websockets
DEB_INPUTS := packaging/build-deb.sh packaging/debian/control packaging/debian/changelog packaging/copyright \
	packaging/lintian-overrides $(wildcard plugin/data/locale/*.ini) VERSION

packaging-deps:
	$(call apt_install,$(PACKAGING_APT_PACKAGES))

# Checked in (a Swift build must not need make), rewritten only when VERSION says otherwise.
version-header:
	packaging/version-header.sh "$(VERSION)" >$(VERSION_HEADER).tmp
	@if cmp -s $(VERSION_HEADER).tmp $(VERSION_HEADER); then rm $(VERSION_HEADER).tmp; \
	else mv $(VERSION_HEADER).tmp $(VERSION_HEADER); echo "rewrote $(VERSION_HEADER)"; fi

deb: $(DEB)
$(DEB): $(PLUGIN_SO) $(RENDERER) $(DEB_INPUTS)
	packaging/build-deb.sh $(PLUGIN_SO) $(RENDERER) $(PACKAGING_DIR)

$(DEB_OLDER): $(PLUGIN_SO) $(RENDERER) $(DEB_INPUTS)
	packaging/build-deb.sh $(PLUGIN_SO) $(RENDERER) $(PACKAGING_DIR)/older $(DEB_OLDER_VERSION)

dist: $(DIST)
$(DIST): $(PLUGIN_SO) $(RENDERER) packaging/build-dist.sh packaging/dist/install.sh packaging/dist/uninstall.sh \
		packaging/dist/README packaging/copyright packaging/debian/changelog $(wildcard plugin/data/locale/*.ini) VERSION
	packaging/build-dist.sh $(PLUGIN_SO) $(RENDERER) $(PACKAGING_DIR)

spdx-headers:
	python3 packaging/spdx-headers.py --apply

test-licence:
	Tests/packaging/test-licence.sh

test-version: $(RENDERER) $(PLUGIN_SO)
	Tests/packaging/test-version.sh $(RENDERER) $(PLUGIN_SO)

test-copyright: $(RENDERER)
	Tests/packaging/test-copyright.sh packaging/copyright $(RELEASE_DIR)/commentbar.product/Objects.LinkFileList $(abspath .build/checkouts)

# dpkg -i changes the machine: this test installs, upgrades and removes the system package.
test-deb: $(DEB) $(DEB_OLDER) $(DIST)
	Tests/packaging/test-deb.sh $(DEB) $(DEB_OLDER) $(DIST) $(PACKAGING_DIR)/deb-results.json

test-dist: $(DIST)
	Tests/packaging/test-dist.sh $(DIST) $(PLUGIN_SO) $(RENDERER)

test-packaging: test-licence test-version test-copyright test-deb test-dist

bench-packaging: test-deb
	python3 packaging/bench-section.py $(PACKAGING_DIR)/deb-results.json --out docs/benchmarks-packaging.md \
		--page docs/benchmarks.md
