# SPDX-License-Identifier: GPL-2.0-or-later
# The checks that keep the modules loadable by OBS 29 to 33 (issue 50), each a step of make check and a
# part of make test-packaging:
#   make test-modules   the shim and the dock's loader link no Qt (readelf -d, ldd), have no ELF constructor
#                       beyond the toolchain's; no module links obs_frontend_add_dock (nm -D)
#   make test-manifest  each module's manifest.json has OBS 32's loader's fields, VERSION's version, and
#                       libobs reads it so
#   make test-layouts   the .deb, the tarball's install.sh, make install and the Flatpak extension hold every
#                       file in OBS 33's layout and the legacy one; libobs loads OBS 33's with the paths OBS
#                       33 gives it; the uninstallers leave nothing
# From plugin.mk, dock.mk, manifest.mk and packaging.mk (included before this file): the modules, the
# manifests and the packages.
.PHONY: test-modules test-manifest test-layouts

test-modules: $(PLUGIN_SO) $(DOCK_LOADER) $(DOCK_LIBRARIES)
	Tests/packaging/test-modules.sh $(PLUGIN_SO) $(DOCK_LOADER) $(DOCK_LIBRARIES)
CHECK_STEPS += test-modules
test-modules.needs := check-build
test-modules.minutes := 0.1

test-manifest: $(MODULE_MANIFESTS)
	$(TEST_PYTHON) Tests/packaging/test_manifest.py comment-bar=$(PLUGIN_MANIFEST) comment-bar-dock=$(DOCK_MANIFEST)
CHECK_STEPS += test-manifest
test-manifest.needs := check-build
test-manifest.minutes := 0.1

# Installs only into its own scratch folders (and unpacks the .deb there), loads the modules in libobs
# without OBS: beside any other step.
test-layouts: $(DEB) $(DIST) $(PACKAGE_INPUTS)
	ONECOMME_VUE=$(ONECOMME_VUE_BESIDE) $(PACKAGE_DOCK_ENV) $(XSERVER) -- Tests/packaging/test-layouts.sh $(DEB) $(DIST) \
		$(PACKAGE_PLUGIN_SO) $(PACKAGE_RENDERER) $(PACKAGE_LIBEXEC_EXTRA)
CHECK_STEPS += test-layouts
test-layouts.needs := packages
test-layouts.minutes := 0.25

test-packaging: test-modules test-manifest test-layouts
