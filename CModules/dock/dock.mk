# SPDX-License-Identifier: GPL-2.0-or-later
# The Comment Bar dock (issue 40): the OBS module comment-bar-dock, a small C loader with no Qt, and
# the dock itself (C++/Qt, a client of the control API) built once per Qt major: Qt 5 for OBS 29
# (Debian 12, Ubuntu 24.04's own package), Qt 6 for OBS 30+ (the PPA, Flatpak). The loader opens
# only the one matching the Qt OBS has loaded, from comment-bar-dock/ beside it.
#   make dock   build/dock/comment-bar-dock.so and build/dock/comment-bar-dock/comment-bar-dock-qt{5,6}.so
# DOCK_MAJORS: the Qt majors built (the Flatpak, whose SDK has only Qt 6, gives DOCK_MAJORS=6).
# From plugin.mk: OBS_CFLAGS, OBS_LIBS, VERSION_INCLUDE_DIR.
.PHONY: dock

DOCK_DIR := CModules/dock
DOCK_BUILD := build/dock
DOCK_MAJORS ?= 5 6
DOCK_LOADER := $(DOCK_BUILD)/comment-bar-dock.so
DOCK_LIBRARY = $(DOCK_BUILD)/comment-bar-dock/comment-bar-dock-qt$(1).so
DOCK_LIBRARIES := $(foreach major,$(DOCK_MAJORS),$(call DOCK_LIBRARY,$(major)))
# Its locale files, made from the plugin's (words.mk), installed as the module comment-bar-dock's data (locale/*.ini).
DOCK_DATA := $(DOCK_BUILD)/data
include $(DOCK_DIR)/words.mk
DOCK_APT_PACKAGES := qtbase5-dev qt6-base-dev g++
APT_PACKAGES += $(DOCK_APT_PACKAGES)
DOCK_QT_PKGS = Qt$(1)Widgets Qt$(1)Network
BUILD_PKG_CONFIG += $(foreach major,$(DOCK_MAJORS),$(call DOCK_QT_PKGS,$(major)))

# The panel and its parts know nothing of OBS (the Qt 6 widget test links them alone); the OBS
# side is the source directory and the two exported functions.
DOCK_CORE := comment chat-model chat-delegate control-client viewer-dialogs dock-panel private-file control-hello port-status \
	page-link-file dock-widgets boards audience-panel dock-settings
DOCK_OBS := obs-source-directory dock-entry
DOCK_HEADERS := $(wildcard $(DOCK_DIR)/src/*.h) $(DOCK_DIR)/dock-host.h
DOCK_CXX ?= c++
DOCK_CXXFLAGS := -std=c++17 -Wall -Wextra -Werror -O2 -g -fPIC -fvisibility=hidden -fvisibility-inlines-hidden
DOCK_CORE_OBJECTS = $(DOCK_CORE:%=$(DOCK_BUILD)/qt$(1)/%.o)
DOCK_LOADER_SOURCES := $(DOCK_DIR)/loader/dock-loader.c $(DOCK_DIR)/loader/qt-major.c

dock: $(DOCK_LOADER) $(DOCK_LIBRARIES)

$(DOCK_LOADER): $(DOCK_LOADER_SOURCES) $(DOCK_DIR)/loader/qt-major.h $(DOCK_DIR)/dock-host.h $(DOCK_DIR)/dock.mk | build-deps
	@mkdir -p $(@D)
	$(PLUGIN_CC) -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC -fvisibility=hidden -I$(VERSION_INCLUDE_DIR) $(OBS_CFLAGS) \
		-shared -o $@ $(DOCK_LOADER_SOURCES) $(OBS_LIBS) -ldl -Wl,-z,defs

# $(call dock_major_rules,MAJOR): the objects and the library of one Qt major.
define dock_major_rules
$(DOCK_BUILD)/qt$(1)/%.o: $(DOCK_DIR)/src/%.cpp $(DOCK_HEADERS) $(DOCK_DIR)/dock.mk | build-deps
	@mkdir -p $$(@D)
	$$(DOCK_CXX) $$(DOCK_CXXFLAGS) $$$$(pkg-config --cflags $(call DOCK_QT_PKGS,$(1))) $$(OBS_CFLAGS) -c -o $$@ $$<

$(call DOCK_LIBRARY,$(1)): $(call DOCK_CORE_OBJECTS,$(1)) $(DOCK_OBS:%=$(DOCK_BUILD)/qt$(1)/%.o)
	@mkdir -p $$(@D)
	$$(DOCK_CXX) -shared -o $$@ $$^ $$$$(pkg-config --libs $(call DOCK_QT_PKGS,$(1))) $$(OBS_LIBS) -lobs-frontend-api \
		-ldl -Wl,-z,defs -Wl,--as-needed
endef
$(foreach major,$(DOCK_MAJORS),$(eval $(call dock_major_rules,$(major))))

# The packages carry the loader, every library built and the locale files (packaging/packaging.mk
# passes them to the package scripts as DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA).
PACKAGE_DOCK_FILES := $(DOCK_LOADER) $(DOCK_LIBRARIES) $(DOCK_LOCALE_FILES)
PACKAGE_DOCK_ENV = DOCK_LOADER=$(DOCK_LOADER) DOCK_LIBRARIES="$(DOCK_LIBRARIES)" DOCK_DATA=$(DOCK_DATA)

# `make install` and `make uninstall` (plugin.mk, plugin/install.sh) take the dock along: a plugin folder of its
# own in each of OBS's user plugin folders, its Qt libraries in comment-bar-dock/ beside the module.
install: dock
