# SPDX-License-Identifier: GPL-2.0-or-later
# The dock's tests (issue 40).
#   make test-dock         the loader's Qt look, the Qt 6 panel offscreen against a fake control server,
#                          then the Qt 5 dock in real OBS 29 under Xvfb (relay, bar, OCR of the dock)
#   make test-dock-widget  only the Qt 6 panel offscreen (and build/dock/test/audience-*.png, its Audience part at 300 px)
#   make test-dock-token   the dock's client sends its token only to the renderer (squatters, status file)
#   make test-dock-obs     only the dock in real OBS 29
#   make bench-dock        OBS's CPU with the dock following 10 comments/s, hidden, and without the dock
#   make dock-screenshot   docs/images/dock-in-obs.png, the user guide's picture of the dock in OBS
# From CModules/dock/dock.mk: the dock's files and objects; from plugin.mk: the plugin and the renderer.
.PHONY: test-dock test-dock-loader test-dock-widget test-dock-token test-dock-obs bench-dock bench-dock-build dock-screenshot

# tesseract reads the dock's text off the screen (the real-OBS test and the screenshot's check).
DOCK_TEST_APT_PACKAGES := tesseract-ocr xdotool python3-xlib python3-pil
APT_PACKAGES += $(DOCK_TEST_APT_PACKAGES)
DOCK_TEST_BUILD := build/dock/test
DOCK_WIDGET_TEST := $(DOCK_TEST_BUILD)/dock_widget_test
DOCK_QT_MAJOR_TEST := $(DOCK_TEST_BUILD)/qt_major_test
DOCK_CLIENT_PROBE := $(DOCK_TEST_BUILD)/dock_client_probe
# Built by check-build with the rest (the Makefile).
DOCK_TEST_PROGRAMS := $(DOCK_WIDGET_TEST) $(DOCK_QT_MAJOR_TEST) $(DOCK_CLIENT_PROBE)
DOCK_PANEL_BENCH := $(DOCK_TEST_BUILD)/dock_panel_bench
DOCK_OBS_ARGS = --plugin $(PLUGIN_SO) --data plugin/data --renderer $(RENDERER) --dock-loader $(DOCK_LOADER) \
	--dock-libraries $(DOCK_BUILD)/comment-bar-dock --dock-data $(DOCK_DATA)

$(DOCK_WIDGET_TEST): Tests/dock/dock_widget_test.cpp $(call DOCK_CORE_OBJECTS,6) $(DOCK_HEADERS) Tests/dock/dock.mk
	@mkdir -p $(@D)
	$(DOCK_CXX) -std=c++17 -Wall -Wextra -Werror -O1 -g -fPIC -I$(DOCK_DIR)/src \
		$$(pkg-config --cflags Qt6Widgets Qt6Network Qt6Test) $(OBS_CFLAGS) -o $@ $< $(call DOCK_CORE_OBJECTS,6) \
		$$(pkg-config --libs Qt6Widgets Qt6Network Qt6Test) $(OBS_LIBS)

$(DOCK_CLIENT_PROBE): Tests/dock/dock_client_probe.cpp $(call DOCK_CORE_OBJECTS,6) $(DOCK_HEADERS) Tests/dock/dock.mk
	@mkdir -p $(@D)
	$(DOCK_CXX) -std=c++17 -Wall -Wextra -Werror -O1 -g -fPIC -I$(DOCK_DIR)/src $$(pkg-config --cflags Qt6Widgets Qt6Network) \
		-o $@ $< $(call DOCK_CORE_OBJECTS,6) $$(pkg-config --libs Qt6Widgets Qt6Network)

$(DOCK_PANEL_BENCH): Tests/dock/dock_panel_bench.cpp $(call DOCK_CORE_OBJECTS,6) $(DOCK_HEADERS) Tests/dock/dock.mk
	@mkdir -p $(@D)
	$(DOCK_CXX) -std=c++17 -Wall -Wextra -Werror -O2 -g -fPIC -I$(DOCK_DIR)/src $$(pkg-config --cflags Qt6Widgets Qt6Network) \
		-o $@ $< $(call DOCK_CORE_OBJECTS,6) $$(pkg-config --libs Qt6Widgets Qt6Network)

$(DOCK_QT_MAJOR_TEST): Tests/dock/qt_major_test.c $(DOCK_DIR)/loader/qt-major.c $(DOCK_DIR)/loader/qt-major.h Tests/dock/dock.mk
	@mkdir -p $(@D)
	$(PLUGIN_CC) -std=c11 -Wall -Wextra -Werror -O1 -g -I$(DOCK_DIR)/loader -o $@ $< $(DOCK_DIR)/loader/qt-major.c -ldl

test-dock: test-dock-loader test-dock-widget test-dock-token test-dock-obs
CHECK_STEPS += test-dock
test-dock.needs := check-build
test-dock.minutes := 2
test-dock.uses := obs-system

test-dock-loader: $(DOCK_QT_MAJOR_TEST)
	$(TEST_PYTHON) Tests/dock/test_qt_major.py $(DOCK_QT_MAJOR_TEST)

test-dock-widget: $(DOCK_WIDGET_TEST)
	$(TEST_PYTHON) Tests/dock/test_dock_widget.py --binary $(DOCK_WIDGET_TEST) --locale-dir $(PLUGIN_LOCALE_DIR) \
		--screenshots $(DOCK_TEST_BUILD)

test-dock-token: $(DOCK_CLIENT_PROBE)
	$(TEST_PYTHON) Tests/dock/test_dock_token.py --probe $(DOCK_CLIENT_PROBE)

test-dock-obs: dock $(PLUGIN_SO) $(RENDERER)
	$(TEST_PYTHON) -m dock.obs_dock_test $(DOCK_OBS_ARGS)

# What `make bench` and bench-dock need built (make bench runs Tests/bench/dock_cpu.py too).
bench-dock-build: dock $(DOCK_PANEL_BENCH) $(PLUGIN_SO) $(RENDERER)

# DOCK_PANEL_BENCH_BEFORE=path: dock_panel_bench built from an earlier commit, measured beside this one.
bench-dock: bench-dock-build
	$(TEST_PYTHON) Tests/bench/dock_cpu.py $(DOCK_OBS_ARGS) --panel-bench $(DOCK_PANEL_BENCH) --page docs/benchmarks.md \
		$(if $(DOCK_PANEL_BENCH_BEFORE),--panel-bench-before $(DOCK_PANEL_BENCH_BEFORE))

dock-screenshot: dock $(PLUGIN_SO) $(RENDERER)
	$(TEST_PYTHON) -m dock.obs_dock_test $(DOCK_OBS_ARGS) --screenshot docs/images/dock-in-obs.png
