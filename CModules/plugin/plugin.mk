# The OBS shim: built, tested and installed here (owned by the plugin work).
#   make plugin       build/comment-bar.so
#   make test-shim    the shim in a stub host under ASan+UBSan, against the real renderer
#   make test-obs     the shim in real libobs under Xvfb
#   make bench-shim   frame hand-off latency and upload cost
#   make smoke-install  the installed bundle in the real OBS binary (throwaway config)
#   make install      renderer + plugin into OBS's user plugin folder
.PHONY: plugin test-shim test-obs bench-shim smoke-install install uninstall

PLUGIN_DIR := CModules/plugin
PLUGIN_SOURCES := $(PLUGIN_DIR)/plugin-main.c $(PLUGIN_DIR)/comment-bar-source.c \
	$(PLUGIN_DIR)/renderer-supervisor.c $(PLUGIN_DIR)/frame-pool.c
PLUGIN_HEADERS := $(wildcard $(PLUGIN_DIR)/*.h) CModules/CommentBarPoolABI/include/commentbar_pool.h
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
PLUGIN_CFLAGS := $(PLUGIN_WARNINGS) -fPIC -fvisibility=hidden -ICModules/CommentBarPoolABI/include
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

plugin: $(PLUGIN_SO)
$(PLUGIN_SO): $(PLUGIN_SOURCES) $(PLUGIN_HEADERS) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p build
	$(PLUGIN_CC) $(PLUGIN_CFLAGS) -O2 -g $(OBS_CFLAGS) -shared -o $@ $(PLUGIN_SOURCES) $(OBS_LIBS) -lpthread -Wl,-z,defs

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
FAKE_RENDERER := $(SHIM_BUILD)/fake_renderer

$(SHIM_PLUGIN): $(PLUGIN_SOURCES) $(PLUGIN_HEADERS) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_CFLAGS) -O1 -g $(SANITIZE) $(OBS_CFLAGS) -shared -o $@ $(PLUGIN_SOURCES) $(OBS_LIBS) -lpthread

$(SHIM_HOST): Tests/shim/stub_host.c $(PLUGIN_HEADERS) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O1 -g $(SANITIZE) -rdynamic -I$(PLUGIN_DIR) -ICModules/CommentBarPoolABI/include \
		$(OBS_CFLAGS) $(CAIRO_CFLAGS) -o $@ Tests/shim/stub_host.c $(OBS_LIBS) $(CAIRO_LIBS) -ldl -lpthread -lm

$(FAKE_RENDERER): Tests/shim/fake_renderer.c CModules/CommentBarPoolABI/include/commentbar_pool.h $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O2 -g -ICModules/CommentBarPoolABI/include $(JANSSON_CFLAGS) -o $@ \
		Tests/shim/fake_renderer.c $(JANSSON_LIBS) -lpthread

SHIM_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_odr_violation=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

test-shim: $(SHIM_PLUGIN) $(SHIM_HOST) $(FAKE_RENDERER) $(SHIM_RENDERER)
	$(SHIM_ENV) $(SHIM_HOST) --plugin $(SHIM_PLUGIN) --renderer $(SHIM_RENDERER) \
		--fake $(FAKE_RENDERER) --fixtures Tests/shim/fixtures --work build/shim/work

# The benchmark runs the release plugin in a stub host without sanitizers.
BENCH_HOST := $(SHIM_BUILD)/stub_host_bench
$(BENCH_HOST): Tests/shim/stub_host.c $(PLUGIN_HEADERS) $(PLUGIN_DIR)/plugin.mk
	@mkdir -p $(SHIM_BUILD)
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O2 -g -rdynamic -I$(PLUGIN_DIR) -ICModules/CommentBarPoolABI/include \
		$(OBS_CFLAGS) $(CAIRO_CFLAGS) -o $@ Tests/shim/stub_host.c $(OBS_LIBS) $(CAIRO_LIBS) -ldl -lpthread -lm

bench-shim: $(PLUGIN_SO) $(BENCH_HOST) $(FAKE_RENDERER) $(OBS_HOST)
	$(BENCH_HOST) --bench --plugin $(PLUGIN_SO) --fake $(FAKE_RENDERER) --work build/shim/work
	Tests/obs/run.sh --bench-upload $(OBS_HOST)

# ---- the real-libobs host (Tests/obs) ----
OBS_HOST := build/obs/obs_host
$(OBS_HOST): Tests/obs/obs_host.c $(PLUGIN_DIR)/plugin.mk
	@mkdir -p build/obs
	$(PLUGIN_CC) $(PLUGIN_WARNINGS) -O1 -g $(OBS_CFLAGS) $(CAIRO_CFLAGS) -o $@ Tests/obs/obs_host.c \
		$(OBS_LIBS) $(CAIRO_LIBS) -lX11 -lpthread -lm

test-obs: $(PLUGIN_SO) $(OBS_HOST) $(SHIM_RENDERER)
	Tests/obs/run.sh $(OBS_HOST) $(PLUGIN_SO) $(SHIM_RENDERER) Tests/shim/fixtures

# ---- install into OBS's user plugin folder ----
install: renderer plugin
	plugin/install.sh install $(PLUGIN_SO) $(RENDERER) plugin/data

uninstall:
	plugin/install.sh uninstall

smoke-install: $(PLUGIN_SO) $(SHIM_RENDERER)
	plugin/smoke-test.sh $(PLUGIN_SO) $(SHIM_RENDERER)
