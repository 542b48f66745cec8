# SPDX-License-Identifier: GPL-2.0-or-later
# manifest.json in each module's data folder (issue 50): what OBS 32's plugin manager shows of the
# module (its loader's fields: obs-studio libobs/obs-module.c, obs_module_load_metadata), made by
# packaging/manifest.py from VERSION, the en-US locale file and README.md's words. The packages, the
# Flatpak extension and `make install` carry both; the real-OBS tests load plugin/data with it.
#   MODULE_MANIFESTS   plugin/data/manifest.json (comment-bar) and $(DOCK_DATA)/manifest.json (comment-bar-dock)
# Included after dock.mk (DOCK_DATA) and before packaging.mk (PACKAGE_INPUTS names them).
MANIFEST_TOOL := packaging/manifest.py
MANIFEST_WORDS := $(MANIFEST_TOOL) packaging/manifest.mk VERSION README.md plugin/data/locale/en-US.ini
PLUGIN_MANIFEST := plugin/data/manifest.json
DOCK_MANIFEST := $(DOCK_DATA)/manifest.json
MODULE_MANIFESTS := $(PLUGIN_MANIFEST) $(DOCK_MANIFEST)

$(PLUGIN_MANIFEST): $(MANIFEST_WORDS)
	python3 $(MANIFEST_TOOL) comment-bar --out $@
$(DOCK_MANIFEST): $(MANIFEST_WORDS)
	python3 $(MANIFEST_TOOL) comment-bar-dock --out $@

# Built with their modules (make plugin, make dock: what make check's builds run), and before plugin/install.sh
# takes plugin/data (make smoke-install).
plugin: $(PLUGIN_MANIFEST)
dock: $(DOCK_MANIFEST)
smoke-install: $(PLUGIN_MANIFEST)
