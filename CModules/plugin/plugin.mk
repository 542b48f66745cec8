# SPDX-License-Identifier: GPL-2.0-or-later
# The OBS shim: built, tested and installed here (owned by the plugin work).
#   make plugin       build/comment-bar.so
#   make test-shim    the shim's unit tests, then the shim in a stub host, under ASan+UBSan, against the real renderer
#   make bench-shim   frame hand-off latency and upload cost
#   make smoke-install  the installed bundle in the real OBS binary (throwaway config)
#   make install      renderer + plugin + overlay helpers + dock into OBS's user plugin folders (OBS 33's and 29-32's)
# From the including Makefile: RENDERER, the release `commentbar` (and its rule).
# SHIM_RENDERER (the renderer the tests run) and SERVICES_RENDERER (the one whose
# registry gives the service list) are RENDERER unless given: give them, not
# RENDERER, to use another binary, so the rule for RENDERER does not apply to it.
.PHONY: plugin test-shim test-shim-unit bench-shim smoke-install install uninstall

PLUGIN_DIR := CModules/plugin
SETTINGS_DIR := CModules/CommentBarSettings
# The pool's header writer and check, shared with the renderer, the overlay helpers and the tests.
POOL_ABI_DIR := CModules/CommentBarPoolABI
GENERATED_DIR := build/generated
# The service list, from the renderer's registry: the shim keeps no copy of it.
SERVICES_HEADER := $(GENERATED_DIR)/commentbar_services.h
PLUGIN_SOURCES := $(addprefix $(PLUGIN_DIR)/,plugin-main.c module-origin.c comment-bar-source.c settings-line.c \
	source-properties.c source-secrets.c source-commands.c renderer-input.c renderer-supervisor.c \
	renderer-run.c child-process.c stdin-queue.c stderr-log.c log-limiter.c pool-watch.c \
	shim-threads.c safe-text.c frame-pool.c on-air.c mic-watch.c mic-meter.c bar-live-state.c speech-ring.c speech-audio.c \
	$(addprefix properties/,stream.c filters.c size.c look.c bar.c speech.c overlay.c memory.c control.c doors.c)) \
	$(SETTINGS_DIR)/commentbar_settings.c $(POOL_ABI_DIR)/pool_abi.c
# The version header (from VERSION) names the release in the log line at load.
VERSION_INCLUDE_DIR := CModules/CommentBarVersion/include
PLUGIN_INCLUDES := -I$(POOL_ABI_DIR)/include -I$(SETTINGS_DIR)/include -I$(GENERATED_DIR) -I$(VERSION_INCLUDE_DIR)
PLUGIN_HEADERS := $(wildcard $(PLUGIN_DIR)/*.h $(PLUGIN_DIR)/properties/*.h) $(POOL_ABI_DIR)/include/commentbar_pool.h \
	$(SETTINGS_DIR)/include/commentbar_settings.h $(SERVICES_HEADER) $(VERSION_INCLUDE_DIR)/commentbar_version.h
PLUGIN_SO := build/comment-bar.so
OBS_CFLAGS = $(shell pkg-config --cflags libobs)
OBS_LIBS = $(shell pkg-config --libs libobs)
CAIRO_CFLAGS = $(shell pkg-config --cflags cairo)
CAIRO_LIBS = $(shell pkg-config --libs cairo)
# The fake renderer parses its stdin lines with jansson (Debian: libjansson-dev).
JANSSON_CFLAGS = $(shell pkg-config --cflags jansson)
JANSSON_LIBS = $(shell pkg-config --libs jansson)
PLUGIN_CC ?= cc
PLUGIN_WARNINGS := -std=c11 -Wall -Wextra -Werror
PLUGIN_CFLAGS := $(PLUGIN_WARNINGS) -fPIC -fvisibility=hidden $(PLUGIN_INCLUDES)
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

SERVICES_RENDERER ?= $(RENDERER)
# Rewritten only when the renderer's list changed, so the plugin is not rebuilt for nothing.
$(SERVICES_HEADER): $(SERVICES_RENDERER) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(GENERATED_DIR)
	$(SERVICES_RENDERER) services --c-header >$@.tmp || { rm -f $@.tmp; exit 1; }
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

plugin: $(PLUGIN_SO)
$(PLUGIN_SO): $(PLUGIN_SOURCES) $(PLUGIN_HEADERS) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p build
	$(PLUGIN_CC) $(PLUGIN_CFLAGS) -O2 -g $(OBS_CFLAGS) -shared -o $@ $(PLUGIN_SOURCES) $(OBS_LIBS) -lpthread -lm -Wl,-z,defs

# ---- the stub host (Tests/shim) ----
# The plugin is rebuilt with sanitizers. The stub host links the real libobs for
# its pure data parts (obs_data, obs_properties, bmalloc) and defines, with
# -rdynamic, the libobs functions that need a running OBS (graphics, source
# registration, blog): the executable's definitions come first in symbol lookup,
# so they interpose the real ones for the dlopened plugin.
SHIM_RENDERER ?= $(RENDERER)
SHIM_BUILD := build/shim
SHIM_PLUGIN := $(SHIM_BUILD)/comment-bar.so
SHIM_HOST := $(SHIM_BUILD)/stub_host
SHIM_UNIT := $(SHIM_BUILD)/unit_tests
FAKE_RENDERER := $(SHIM_BUILD)/fake_renderer
# Checks and their count, shared by the stub host and the unit tests.
SHIM_CHECK := Tests/shim/check.c
SHIM_TEST_HEADERS := $(wildcard Tests/shim/*.h Tests/shim/host/*.h Tests/shim/unit/*.h)
# stubs.c interposes libobs; harness.c drives the source; the rest are tests by area.
STUB_HOST_SOURCES := $(wildcard Tests/shim/host/*.c) $(SHIM_CHECK) $(SETTINGS_DIR)/commentbar_settings.c
STUB_HOST_FLAGS := -rdynamic -ITests/shim -I$(PLUGIN_DIR) $(PLUGIN_INCLUDES) $(OBS_CFLAGS) $(CAIRO_CFLAGS)
STUB_HOST_LIBS := $(OBS_LIBS) $(CAIRO_LIBS) -ldl -lpthread -lm
# The unit tests link the shim's libobs-free parts directly (stderr-log's blog is theirs), and the
# overlay helper's pool reader, to refuse hostile headers the way the shim's ABI check does.
SHIM_UNIT_SOURCES := $(wildcard Tests/shim/unit/*.c) $(SHIM_CHECK) $(addprefix $(PLUGIN_DIR)/,stdin-queue.c \
	log-limiter.c safe-text.c stderr-log.c speech-ring.c frame-pool.c) \
	$(SETTINGS_DIR)/commentbar_settings.c \
	$(POOL_ABI_DIR)/pool_abi.c CModules/overlay/overlay-pool.c

$(SHIM_PLUGIN): $(PLUGIN_SOURCES) $(PLUGIN_HEADERS) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_CFLAGS) -O1 -g $(SANITIZE) $(OBS_CFLAGS) -shared -o $@ $(PLUGIN_SOURCES) $(OBS_LIBS) -lpthread -lm

$(SHIM_HOST): $(STUB_HOST_SOURCES) $(SHIM_TEST_HEADERS) $(PLUGIN_HEADERS) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O1 -g $(SANITIZE) $(STUB_HOST_FLAGS) -o $@ $(STUB_HOST_SOURCES) $(STUB_HOST_LIBS)

$(SHIM_UNIT): $(SHIM_UNIT_SOURCES) $(SHIM_TEST_HEADERS) $(PLUGIN_HEADERS) CModules/overlay/overlay-pool.h $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O1 -g $(SANITIZE) -ITests/shim -I$(PLUGIN_DIR) -ICModules/overlay $(OBS_CFLAGS) \
		-o $@ -I$(SETTINGS_DIR)/include -I$(POOL_ABI_DIR)/include $(SHIM_UNIT_SOURCES) -lpthread

$(FAKE_RENDERER): Tests/shim/fake_renderer.c $(POOL_ABI_DIR)/pool_abi.c $(POOL_ABI_DIR)/include/commentbar_pool.h \
		$(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O2 -g -I$(POOL_ABI_DIR)/include $(JANSSON_CFLAGS) -o $@ \
		Tests/shim/fake_renderer.c $(POOL_ABI_DIR)/pool_abi.c $(JANSSON_LIBS) -lpthread

SHIM_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_odr_violation=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Small rooms (issue 47): no shim file over 400 lines, and the properties' table of groups with its
# helpers at most 200 (a new feature's properties are a file of properties/, not lines there).
SHIM_MAX_LINES := 400
PROPERTIES_MAX_LINES := 200
test-shim-unit: $(SHIM_UNIT)
	@awk -v max=$(SHIM_MAX_LINES) 'FNR == 1 && NR > 1 && n > max { print last ": " n " lines (at most " max ")"; bad = 1 } \
		{ n = FNR; last = FILENAME } END { if (n > max) { print last ": " n " lines (at most " max ")"; bad = 1 }; exit bad }' \
		$(PLUGIN_DIR)/*.c $(PLUGIN_DIR)/*.h $(PLUGIN_DIR)/properties/*.c $(PLUGIN_DIR)/properties/*.h
	@test $$(wc -l < $(PLUGIN_DIR)/source-properties.c) -le $(PROPERTIES_MAX_LINES) || \
		{ echo "$(PLUGIN_DIR)/source-properties.c: over $(PROPERTIES_MAX_LINES) lines: put a group's properties in properties/"; exit 1; }
	$(SHIM_ENV) $(SHIM_UNIT)

test-shim: test-shim-unit $(SHIM_PLUGIN) $(SHIM_HOST) $(FAKE_RENDERER) $(SHIM_RENDERER)
	$(SHIM_ENV) $(SHIM_HOST) --plugin $(SHIM_PLUGIN) --renderer $(SHIM_RENDERER) \
		--fake $(FAKE_RENDERER) --fixtures Tests/shim/fixtures --work build/shim/work
CHECK_STEPS += test-shim
test-shim.needs := check-build
test-shim.minutes := 0.75
test-shim.uses := obs-system

# The benchmark runs the release plugin in a stub host without sanitizers.
BENCH_HOST := $(SHIM_BUILD)/stub_host_bench
$(BENCH_HOST): $(STUB_HOST_SOURCES) $(SHIM_TEST_HEADERS) $(PLUGIN_HEADERS) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O2 -g $(STUB_HOST_FLAGS) -o $@ $(STUB_HOST_SOURCES) $(STUB_HOST_LIBS)

bench-shim: $(PLUGIN_SO) $(BENCH_HOST) $(FAKE_RENDERER) $(OBS_HOST)
	$(BENCH_HOST) --bench --plugin $(PLUGIN_SO) --fake $(FAKE_RENDERER) --work build/shim/work
	$(XSERVER) -- Tests/obs/run.sh --bench-upload $(OBS_HOST)

# ---- the real-libobs host (Tests/obs) ----
OBS_HOST := build/obs/obs_host
$(OBS_HOST): Tests/obs/obs_host.c $(PLUGIN_DIR)/plugin.mk
	@mkdir -p build/obs
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O1 -g $(OBS_CFLAGS) $(CAIRO_CFLAGS) -o $@ Tests/obs/obs_host.c \
		$(OBS_LIBS) $(CAIRO_LIBS) -lX11 -lpthread -lm

# test-obs (the shim in real libobs, then in real OBS): Tests/obs/obs.mk.

# ---- install into OBS's user plugin folders ----
# OBS 33's layout and the legacy one OBS 29-32 read (plugin/install.sh says which is which); the overlay
# helpers (CModules/overlay) go beside the renderer, where it looks for them; the dock (dock.mk) along.
install: renderer plugin overlay
	$(PACKAGE_DOCK_ENV) plugin/install.sh install $(PLUGIN_SO) $(RENDERER) plugin/data $(OVERLAY_HELPERS)

uninstall:
	plugin/install.sh uninstall

# plugin/install.sh also fills OBS 33's user folder under XDG_DATA_HOME: a build folder, never the user's own.
SMOKE_DATA_HOME := build/smoke/data
smoke-install: $(PLUGIN_SO) $(SHIM_RENDERER)
	rm -rf $(SMOKE_DATA_HOME)
	XDG_DATA_HOME=$(abspath $(SMOKE_DATA_HOME)) $(XSERVER) -- Tests/smoke/smoke-test.sh $(PLUGIN_SO) $(SHIM_RENDERER)
