# SPDX-License-Identifier: GPL-2.0-or-later
# The dock's words: the module comment-bar-dock reads its own data folder's locale files (OBS gives
# each module its own), made here from the plugin's (plugin/data/locale/<lang>.ini, the one file per
# language a translator edits): their Dock.* lines, keys kept as the dock looks them up. A line is a
# whole entry (OBS's text lookup never reads a value past the end of its line), so the lines are
# taken as they are, escapes and all. Included by dock.mk (DOCK_DATA is where they go).
#   DOCK_LOCALE_FILES   the made files, $(DOCK_DATA)/locale/<lang>.ini, one per plugin locale file
PLUGIN_LOCALE_DIR := plugin/data/locale
DOCK_LOCALE_FILES := $(patsubst $(PLUGIN_LOCALE_DIR)/%,$(DOCK_DATA)/locale/%,$(wildcard $(PLUGIN_LOCALE_DIR)/*.ini))

dock: $(DOCK_LOCALE_FILES)

$(DOCK_DATA)/locale/%.ini: $(PLUGIN_LOCALE_DIR)/%.ini $(DOCK_DIR)/words.mk
	@mkdir -p $(@D)
	sed -n '/^Dock\./p' $< > $@.tmp
	mv $@.tmp $@
