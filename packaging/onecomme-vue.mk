# SPDX-License-Identifier: GPL-2.0-or-later
# Vue 3's browser build for OneComme's templates (issue 39): fetched at build time from PyPI's
# nicegui 1.4.37 wheel with pip (packaging/fetch-vue.py, both checked by SHA-256), never a file of
# the repository; the packages ship it (the .deb: /usr/share/obs/obs-plugins/comment-bar/onecomme/,
# the tarball: data/onecomme/) and a build has it beside the renderer, where the renderer looks.
#   make onecomme-vue   build/onecomme/vue.min.js (part of `make deps`), and beside the renderer
# ONECOMME_WHEEL=PATH: the wheel already downloaded (the Flatpak's manifest has it as a source: no pip,
# no network, no apt there).
ONECOMME_VUE := build/onecomme/vue.min.js
ONECOMME_WHEEL ?=
ONECOMME_VUE_BESIDE := $(RELEASE_SCRATCH)/static/vue.min.js
APT_PACKAGES += python3-pip
DEPS_STEPS += onecomme-vue-file

.PHONY: onecomme-vue onecomme-vue-file
onecomme-vue-file: $(ONECOMME_VUE)
onecomme-vue: $(ONECOMME_VUE_BESIDE)

$(ONECOMME_VUE): packaging/fetch-vue.py | $(if $(ONECOMME_WHEEL),,apt-deps)
	/usr/bin/python3 packaging/fetch-vue.py --out $@ $(if $(ONECOMME_WHEEL),--wheel $(ONECOMME_WHEEL))

$(ONECOMME_VUE_BESIDE): $(ONECOMME_VUE) | renderer
	install -m 0644 $< $@

# `make install` puts it in the user plugin folder too (plugin/install.sh takes it from beside the renderer).
install: $(ONECOMME_VUE_BESIDE)
