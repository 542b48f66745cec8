# SPDX-License-Identifier: GPL-2.0-or-later
# Reading the chat aloud (issue 20; owned by the speech work).
#   make test-speech   `commentbar speak` with eSpeak NG, Open JTalk and loopback VOICEVOX/棒読みちゃん
#                      fakes (test-speak), then speech in real OBS (a recording's audio decoded with ffmpeg)
#   make bench-speech  the same OBS run with figures: first audio sample, CPU at 2 comments/s, memory;
#                      writes its section of docs/benchmarks.md (`make bench` does too)
# The Swift unit tests of the rules and the queue run in test-swift (CommentBarSpeechTests).
# SPEECH_BIN=path/to/commentbar tests another build instead of the release renderer.
.PHONY: test-speech test-speak test-speech-obs bench-speech speech-deps speech-voice

# eSpeak NG and Open JTalk run as child processes (the `espeak-ng` and `open_jtalk` commands);
# `make deps` fetches the test voice (pyopenjtalk 0.4.1's Mei, CC BY 3.0) with pip into .build-speech.
SPEECH_APT_PACKAGES := espeak-ng espeak-ng-data open-jtalk open-jtalk-mecab-naist-jdic python3-pip ffmpeg
APT_PACKAGES += $(SPEECH_APT_PACKAGES)
DEPS_STEPS += speech-voice
SPEECH_BIN ?=
SPEECH_RENDERER = $(abspath $(or $(SPEECH_BIN),$(RENDERER)))
SPEECH_CACHE := .build-speech
SPEECH_VOICE := $(SPEECH_CACHE)/mei_normal.htsvoice

speech-deps:
	$(call apt_install,$(SPEECH_APT_PACKAGES))

speech-voice: $(SPEECH_VOICE)
$(SPEECH_VOICE): | apt-deps
	$(TEST_PYTHON) -m speech.voice $(SPEECH_CACHE)

test-speech: test-speak test-speech-obs

test-speak: $(if $(SPEECH_BIN),,renderer)
	COMMENTBAR_BIN=$(SPEECH_RENDERER) SPEECH_CACHE=$(SPEECH_CACHE) $(TEST_PYTHON) -m unittest -v speech.test_speak
CHECK_STEPS += test-speak
test-speak.needs := renderer
test-speak.minutes := 0.25

test-speech-obs: $(if $(SPEECH_BIN),,renderer) $(PLUGIN_SO)
	$(TEST_PYTHON) -m speech.obs_speech_test --plugin $(PLUGIN_SO) --data plugin/data --renderer $(SPEECH_RENDERER)

bench-speech: speech-deps $(if $(SPEECH_BIN),,renderer) $(PLUGIN_SO)
	@mkdir -p $(SPEECH_CACHE)
	$(TEST_PYTHON) -m speech.obs_speech_test --plugin $(PLUGIN_SO) \
		--data plugin/data --renderer $(SPEECH_RENDERER) --bench $(SPEECH_CACHE)/bench.json
	$(TEST_PYTHON) Tests/bench/speech_page.py $(SPEECH_CACHE)/bench.json --renderer $(SPEECH_RENDERER) \
		--page docs/benchmarks.md
