# SPDX-License-Identifier: GPL-2.0-or-later
# Side-by-side benchmarks in real OBS (owned by the benchmark work).
#   make bench        builds, runs every measure in one headless OBS (and the dock's, Tests/bench/dock_cpu.py), writes docs/benchmarks.md
#                     (the last run's results.json and soak.json move to .build-bench-run/previous/: the before column)
#   make bench-speech  only the speech rows' JSON (Tests/speech/speech.mk); `make bench` also writes them
#   make bench-overlay  only the overlay's rows (renderer CPU/memory overlay on vs off, latency)
#   make bench-page   rewrites docs/benchmarks.md from the last run's results
#   make bench-rss    the renderer's memory without OBS: peak RSS, PSS, USS and where the pages are
#   make bench-flow   the comment flow alone: renderer CPU at 10 comments/s paced vs not, an idle bar's frames
#   make bench-looks  the looks (issue 38): enter/fade/ticker frames, the ticker's and the default theme's renderer
#                     CPU, OBS's added CPU for box-outline at 480x900 beside a still image
#   make bench-profile  where the renderer's time goes at 10 comments/s (perf record), by part of a comment's path
#   make bench-audience  a poll's votes: 10,000 in a second from 5,000 viewers on three streams, a vote's CPU cost
#   make link-order   regenerates linker/commentbar.order (the renderer's hot functions) with callgrind
# Raw results and logs: .build-bench-run/ (results.json, obs-last.log, run-*/).
.PHONY: bench bench-profile bench-audience bench-overlay bench-deps bench-page bench-stage bench-rss bench-soak bench-flow bench-looks link-order

# Beyond the Makefile's APT_PACKAGES: the Chromium peer, the plot and screenshot decoding, WebSocket
# (obs-websocket control, the bar's feed, Chromium's DevTools); perf for the renderer's profile.
BENCH_APT_PACKAGES := chromium python3-matplotlib python3-numpy python3-websockets linux-perf
# Debian's python3, whatever python3 is first on PATH: matplotlib, numpy and websockets come from APT;
# the shared test support (Tests/support) importable (the Makefile's TEST_PYTHON).
BENCH_PYTHON := $(TEST_PYTHON)
BENCH_RUN := .build-bench-run
BENCH_ARGS ?=
# When make started (parse time): the page reports how long the whole `make bench` took, builds included.
BENCH_T0 := $(shell date +%s)
# The renderer to measure; by default the Makefile's release build (built here if needed).
BENCH_RENDERER ?= $(RENDERER)

bench-deps:
	$(call apt_install,$(BENCH_APT_PACKAGES))

# The freshly built plugin, staged by run_bench.py (support.obs.stage_plugin) in $(BENCH_RUN), with the
# renderer named by COMMENTBAR_RENDERER; OBS's config is isolated in $(BENCH_RUN)/home.
bench-stage: plugin $(if $(filter $(RENDERER),$(BENCH_RENDERER)),renderer)
	@rm -rf $(BENCH_RUN)/home
	@mkdir -p $(BENCH_RUN)/home

bench: deps bench-deps speech-deps bench-stage overlay bench-dock-build
	@if [ -f $(BENCH_RUN)/results.json ]; then rm -rf $(BENCH_RUN)/previous; mkdir -p $(BENCH_RUN)/previous; \
		mv $(BENCH_RUN)/results.json $(BENCH_RUN)/previous/; \
		if [ -f $(BENCH_RUN)/soak.json ]; then mv $(BENCH_RUN)/soak.json $(BENCH_RUN)/previous/; fi; \
		if [ -f $(BENCH_RUN)/looks.json ]; then mv $(BENCH_RUN)/looks.json $(BENCH_RUN)/previous/; fi; fi
	@rm -rf $(BENCH_RUN)/run-* $(BENCH_RUN)/results.json
	@mkdir -p $(BENCH_RUN)/previous && cp docs/benchmarks.md $(BENCH_RUN)/previous/benchmarks.md
	COMMENTBAR_RENDERER=$(abspath $(BENCH_RENDERER)) $(BENCH_PYTHON) Tests/bench/run_bench.py --out $(BENCH_RUN) \
		--home $(BENCH_RUN)/home --renderer $(BENCH_RENDERER) \
		--plugin $(PLUGIN_SO) --data plugin/data \
		--command "make bench$(if $(filter-out $(RENDERER),$(BENCH_RENDERER)), BENCH_RENDERER=$(BENCH_RENDERER))$(if $(BENCH_ARGS), BENCH_ARGS='$(BENCH_ARGS)')" \
		$(BENCH_ARGS); \
	rc=$$?; \
	$(BENCH_PYTHON) Tests/bench/soak.py --renderer $(BENCH_RENDERER) --json-out $(BENCH_RUN)/soak.json || rc=1; \
	$(BENCH_PYTHON) Tests/bench/report.py $(BENCH_RUN)/results.json --out docs/benchmarks.md --images docs/images \
		--soak $(BENCH_RUN)/soak.json --before $(BENCH_RUN)/previous --make-started $(BENCH_T0) || rc=1; \
	$(BENCH_PYTHON) Tests/bench/overlay_bench.py --renderer $(BENCH_RENDERER) --helpers $(OVERLAY_BUILD) \
		--json $(BENCH_RUN)/overlay.json --page docs/benchmarks.md || rc=1; \
	$(BENCH_PYTHON) -m speech.obs_speech_test --plugin $(PLUGIN_SO) --data plugin/data \
		--renderer $(abspath $(BENCH_RENDERER)) --bench $(BENCH_RUN)/speech.json || rc=1; \
	$(BENCH_PYTHON) Tests/bench/speech_page.py $(BENCH_RUN)/speech.json --renderer $(BENCH_RENDERER) \
		--page docs/benchmarks.md || rc=1; \
	$(BENCH_PYTHON) Tests/bench/looks_bench.py --renderer $(BENCH_RENDERER) --plugin $(PLUGIN_SO) --data plugin/data \
		--json $(BENCH_RUN)/looks.json --before $(BENCH_RUN)/previous/looks.json --page docs/benchmarks.md || rc=1; \
	$(BENCH_PYTHON) Tests/bench/dock_cpu.py $(DOCK_OBS_ARGS) --panel-bench $(DOCK_PANEL_BENCH) \
		--page docs/benchmarks.md || rc=1; \
	BENCH_PREVIOUS_PAGE=$(BENCH_RUN)/previous/benchmarks.md \
		$(BENCH_PYTHON) Tests/bench/doors_bench.py --renderer $(BENCH_RENDERER) --page docs/benchmarks.md || rc=1; \
	BENCH_PREVIOUS_PAGE=$(BENCH_RUN)/previous/benchmarks.md \
		$(BENCH_PYTHON) Tests/bench/profile_bench.py --renderer $(BENCH_RENDERER) --page docs/benchmarks.md || rc=1; \
	BENCH_PREVIOUS_PAGE=$(BENCH_RUN)/previous/benchmarks.md \
		$(BENCH_PYTHON) Tests/bench/audience_bench.py --renderer $(BENCH_RENDERER) --page docs/benchmarks.md || rc=1; \
	exit $$rc

# Where the renderer's time goes at 10 comments/s (issue 49): perf's profile, by part of a comment's path.
bench-profile: bench-deps $(if $(filter $(RENDERER),$(BENCH_RENDERER)),renderer)
	$(BENCH_PYTHON) Tests/bench/profile_bench.py --renderer $(BENCH_RENDERER) --page docs/benchmarks.md

# A poll's votes (issue 48): a vote's CPU cost, exact counts and the frames' pace under 10,000 votes a second.
bench-audience: bench-deps $(if $(filter $(RENDERER),$(BENCH_RENDERER)),renderer)
	$(BENCH_PYTHON) Tests/bench/audience_bench.py --renderer $(BENCH_RENDERER) --page docs/benchmarks.md

# Only the overlay's rows (issue 24): renderer CPU and memory with the overlay on vs off, latency.
bench-overlay: bench-deps overlay-deps overlay $(if $(filter $(RENDERER),$(BENCH_RENDERER)),renderer)
	$(BENCH_PYTHON) Tests/bench/overlay_bench.py --renderer $(BENCH_RENDERER) --helpers $(OVERLAY_BUILD) \
		--json $(BENCH_RUN)/overlay.json --page docs/benchmarks.md

bench-page:
	$(BENCH_PYTHON) Tests/bench/report.py $(BENCH_RUN)/results.json --out docs/benchmarks.md --images docs/images \
		--soak $(BENCH_RUN)/soak.json --before $(BENCH_RUN)/previous

# A long stream's memory alone (100,000 comments at 1,000/s, about 2 minutes): prints figures.
bench-soak: bench-deps renderer
	$(BENCH_PYTHON) Tests/bench/soak.py --renderer $(RENDERER) --json-out $(BENCH_RUN)/soak.json

# The renderer's memory without OBS (a memfd pool made as the shim makes it, a loopback WebSocket
# chat at 10 comments/s): peak RSS, PSS, USS and where the resident pages are. Prints figures only.
bench-rss: bench-deps renderer
	$(BENCH_PYTHON) Tests/bench/renderer_rss.py --renderer $(RENDERER) --seconds 30 --shm-copy
	$(BENCH_PYTHON) Tests/bench/renderer_rss.py --renderer $(RENDERER) --seconds 120 --shm-copy --text kanji

# The looks (issue 38; also part of `make bench`): frame costs, renderer CPU without OBS, OBS's added CPU. The
# before column: BENCH_LOOKS_BEFORE=JSON (a run of another renderer's, BENCH_RENDERER=… make bench-looks).
BENCH_LOOKS_BEFORE ?= $(BENCH_RUN)/previous/looks.json
bench-looks: bench-deps plugin $(if $(filter $(RENDERER),$(BENCH_RENDERER)),renderer)
	@mkdir -p $(BENCH_RUN)
	$(BENCH_PYTHON) Tests/bench/looks_bench.py --renderer $(BENCH_RENDERER) --plugin $(PLUGIN_SO) --data plugin/data \
		--json $(BENCH_RUN)/looks.json --before $(BENCH_LOOKS_BEFORE) --page docs/benchmarks.md

# The comment flow without OBS (also part of `make bench`): prints figures only.
bench-flow: bench-deps renderer
	$(BENCH_PYTHON) Tests/bench/flow_cpu.py --renderer $(RENDERER)

# Regenerates linker/commentbar.order from a callgrind run of `serve` (valgrind reads no DWARF 5:
# the binary is profiled without its debug sections), dumped once 20 s into the chat: what ran
# before (callgrind.out.1) is start-up, what ran after (callgrind.out) the steady state, placed
# first. Then `make renderer` links with it.
link-order: bench-deps renderer
	@mkdir -p $(BENCH_RUN)
	strip --strip-debug -o $(BENCH_RUN)/commentbar-nodebug $(RENDERER)
	rm -f $(BENCH_RUN)/callgrind.out*
	$(BENCH_PYTHON) Tests/bench/renderer_rss.py --renderer $(BENCH_RUN)/commentbar-nodebug --seconds 60 \
		--wrap 'valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file=$(BENCH_RUN)/callgrind.out' \
		--mark 'callgrind_control --dump=start-up {pid}' --mark-after 20
	python3 linker/order_from_callgrind.py $(abspath $(BENCH_RUN)/commentbar-nodebug) \
		$(BENCH_RUN)/callgrind.out $(BENCH_RUN)/callgrind.out.1 >linker/commentbar.order
