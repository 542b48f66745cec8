# SPDX-License-Identifier: GPL-2.0-or-later
# Reading the chat aloud (issue 20; owned by the speech work).
#   make test-speech   `commentbar speak` with eSpeak NG, Open JTalk and loopback VOICEVOX/棒読みちゃん
#                      fakes, then speech in real OBS (a recording's audio decoded with ffmpeg)
#   make bench-speech  the same OBS run with figures: first audio sample, CPU at 2 comments/s, memory;
#                      writes its section of docs/benchmarks.md (`make bench` does too)
# The Swift unit tests of the rules and the queue run in test-swift (CommentBarSpeechTests).
# SPEECH_BIN=path/to/commentbar tests another build instead of the release renderer.
.PHONY: test-speech bench-speech speech-deps

# libespeak-ng is opened with dlopen by the renderer; Open JTalk runs as a child process with its
# dictionary; pip fetches the test voice (pyopenjtalk 0.4.1's Mei, CC BY 3.0) into .build-speech.
SPEECH_APT_PACKAGES := libespeak-ng-dev espeak-ng-data open-jtalk open-jtalk-mecab-naist-jdic python3-pip ffmpeg
SPEECH_BIN ?=
SPEECH_RENDERER = $(abspath $(or $(SPEECH_BIN),$(RENDERER)))
SPEECH_CACHE := .build-speech

speech-deps:
	$(call apt_install,$(SPEECH_APT_PACKAGES))

test-speech: speech-deps $(if $(SPEECH_BIN),,renderer) $(PLUGIN_SO)
	COMMENTBAR_BIN=$(SPEECH_RENDERER) SPEECH_CACHE=$(SPEECH_CACHE) PYTHONDONTWRITEBYTECODE=1 \
		/usr/bin/python3 -m unittest -v Tests/speech/test_speak.py
	PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 Tests/speech/obs_speech_test.py --plugin $(PLUGIN_SO) \
		--data plugin/data --renderer $(SPEECH_RENDERER)

bench-speech: speech-deps $(if $(SPEECH_BIN),,renderer) $(PLUGIN_SO)
	@mkdir -p $(SPEECH_CACHE)
	PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 Tests/speech/obs_speech_test.py --plugin $(PLUGIN_SO) \
		--data plugin/data --renderer $(SPEECH_RENDERER) --bench $(SPEECH_CACHE)/bench.json
	/usr/bin/python3 Tests/bench/speech_page.py $(SPEECH_CACHE)/bench.json --renderer $(SPEECH_RENDERER) \
		--page docs/benchmarks.md
