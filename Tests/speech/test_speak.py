# SPDX-License-Identifier: GPL-2.0-or-later
"""`commentbar speak`: valid WAV from each built-in engine for Japanese and English, longer text
longer audio, and exactly the text the reading rules give reaching the VOICEVOX and 棒読みちゃん
fakes (NG words and hidden users never do). COMMENTBAR_BIN names the renderer;
SPEECH_CACHE the folder for the test voice."""
import json
import os
import subprocess
import unittest
import wave

from speech import fakes, voice

BIN = os.environ.get("COMMENTBAR_BIN", ".build-release/static/commentbar")
CACHE = os.environ.get("SPEECH_CACHE", ".build-speech")
WORK = os.path.join(CACHE, "work")


def speak(*args, timeout=60):
    return subprocess.run([BIN, "speak", *args], capture_output=True, text=True, timeout=timeout)


def wav_seconds(path):
    with wave.open(path, "rb") as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1, (w.getsampwidth(), w.getnchannels())
        frames = w.readframes(w.getnframes())
        loud = max(abs(int.from_bytes(frames[i:i + 2], "little", signed=True)) for i in range(0, len(frames), 2))
        assert loud > 1000, f"{path} is silent (peak {loud})"
        return w.getnframes() / w.getframerate()


class BuiltInEngines(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(WORK, exist_ok=True)
        cls.voice = voice.mei_voice(CACHE)

    def run_engine(self, engine, text, name, extra=()):
        out = os.path.join(WORK, f"{engine}-{name}.wav")
        if os.path.exists(out):
            os.unlink(out)
        result = speak("--engine", engine, "--text", text, "--out", out, *extra)
        self.assertEqual(result.returncode, 0, result.stderr)
        return wav_seconds(out)

    def test_espeak_english_and_japanese(self):
        short = self.run_engine("espeak", "Hello there", "en-short")
        long = self.run_engine("espeak", "Hello there, this is a much longer comment that goes on for a while", "en-long")
        self.assertGreater(short, 0.3)
        self.assertGreater(long, short * 2)
        self.assertGreater(self.run_engine("espeak", "こんにちは", "ja"), 0.3)

    def test_openjtalk_japanese_and_english(self):
        extra = ("--voice", self.voice)
        short = self.run_engine("openjtalk", "こんにちは", "ja-short", extra)
        long = self.run_engine("openjtalk", "こんにちは、今日はとても良い天気ですね。配信を楽しんでいます", "ja-long", extra)
        self.assertGreater(short, 0.3)
        self.assertGreater(long, short * 2)
        self.assertGreater(self.run_engine("openjtalk", "Hello", "en", extra), 0.2)

    def test_auto_picks_open_jtalk_for_japanese_when_a_voice_is_set(self):
        self.assertGreater(self.run_engine("auto", "こんにちは", "auto-ja", ("--voice", self.voice)), 0.3)
        self.assertGreater(self.run_engine("auto", "hello", "auto-en", ("--voice", self.voice)), 0.2)

    def test_a_missing_or_bad_voice_is_one_clear_line(self):
        missing = speak("--engine", "openjtalk", "--voice", "/nonexistent.htsvoice", "--text", "あ",
                        "--out", os.path.join(WORK, "x.wav"))
        self.assertNotEqual(missing.returncode, 0)
        self.assertIn("voice file not found", missing.stderr)
        bad = os.path.join(WORK, "bad.htsvoice")
        with open(bad, "w") as f:
            f.write("not a voice\n")
        result = speak("--engine", "openjtalk", "--voice", bad, "--text", "あ", "--out", os.path.join(WORK, "x.wav"))
        self.assertIn("not an HTS voice file", result.stderr)
        unknown = speak("--engine", "espeak", "--voice", "zzzz", "--text", "a", "--out", os.path.join(WORK, "x.wav"))
        self.assertIn("no voice", unknown.stderr)

    def test_ten_thousand_characters_are_cut(self):
        seconds = self.run_engine("espeak", "a" * 10_000, "huge", ("--max-chars", "20"))
        self.assertLess(seconds, 15)


class Servers(unittest.TestCase):
    def test_voicevox_gets_exactly_the_rules_text(self):
        fake = fakes.Voicevox().start()
        try:
            out = os.path.join(WORK, "voicevox.wav")
            result = speak("--engine", "voicevox", "--server", fake.address, "--voice", "3", "--names",
                           "--name", "花子", "--ng-word", "ばか", "--out", out,
                           "--text", "ばかだな面白いwwwww https://example.com/x Kappa")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(fake.texts, ["花子さん、だな面白い わら URL Kappa"])
            paths = [(path, query["speaker"][0]) for path, query, _ in fake.requests]
            self.assertEqual(paths, [("/audio_query", "3"), ("/synthesis", "3")])
            self.assertGreater(wav_seconds(out), 0.3)
            hidden = speak("--engine", "voicevox", "--server", fake.address, "--name", "troll", "--hidden-user", "troll",
                           "--text", "hello", "--out", out)
            self.assertNotEqual(hidden.returncode, 0)
            self.assertEqual(len(fake.texts), 1, "a hidden user's comment never reaches the engine")
        finally:
            fake.stop()

    def test_voicevox_speaks_at_the_rate_and_gets_its_query_back(self):
        fake = fakes.Voicevox().start()
        try:
            result = speak("--engine", "voicevox", "--server", fake.address, "--rate", "150", "--text", "はやい",
                           "--out", os.path.join(WORK, "fast.wav"))
            self.assertEqual(result.returncode, 0, result.stderr)
            (_, _, none), (_, _, body) = fake.requests
            self.assertEqual(none, b"", "audio_query has no body")
            query = json.loads(body)
            self.assertEqual(query["speedScale"], 1.5)
            self.assertEqual(query["outputSamplingRate"], 24000)
            self.assertIs(type(query["outputSamplingRate"]), int, "integers stay integers")
            self.assertEqual((query["kana"], query["pitchScale"], query["outputStereo"]), ("はやい", 0.0, False))
            fake.requests.clear()
            self.assertEqual(speak("--engine", "voicevox", "--server", fake.address, "--rate", "300", "--text", "x",
                                   "--out", os.path.join(WORK, "fast.wav")).returncode, 0)
            self.assertEqual(json.loads(fake.requests[1][2])["speedScale"], 2.0, "VOICEVOX's own ceiling")
        finally:
            fake.stop()

    def test_bouyomichan_gets_the_talk_command(self):
        fake = fakes.BouyomiChan().start()
        try:
            result = speak("--engine", "bouyomichan", "--server", fake.address, "--ng-word", "NG",
                           "--text", "これはNGです草草草")
            self.assertEqual(result.returncode, 0, result.stderr)
            for _ in range(50):
                if fake.texts:
                    break
                subprocess.run(["sleep", "0.1"])
            self.assertEqual(fake.texts, ["これは です わら"])
            command, speed, tone, volume, voice_id, encoding, length, total = fake.requests[0]
            self.assertEqual((command, speed, tone, volume, voice_id, encoding), (1, -1, -1, -1, 0, 0))
            self.assertEqual(total, 15 + length)
        finally:
            fake.stop()

    def test_a_server_that_closes_or_is_down_is_one_clear_line(self):
        fake = fakes.Voicevox().start()
        fake.mode = "close"
        try:
            result = speak("--engine", "voicevox", "--server", fake.address, "--text", "hi",
                           "--out", os.path.join(WORK, "x.wav"))
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("VOICEVOX", result.stderr)
        finally:
            fake.stop()
        down = speak("--engine", "bouyomichan", "--server", fake.address, "--text", "hi")
        self.assertNotEqual(down.returncode, 0)
        self.assertIn("棒読みちゃん", down.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
