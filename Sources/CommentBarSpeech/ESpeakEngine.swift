// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Glibc

/// eSpeak NG: Debian's `espeak-ng` program run as a child process (`ChildProcess`: no shell,
/// limited memory and CPU time, killed at its time limit), never loaded into the renderer, which
/// holds the network and the streamer's session: the text goes in on its stdin (`--stdin`, UTF-8,
/// no SSML) and a WAV comes out on its stdout (`--stdout`). At most `WAVFile.maxSeconds` of its
/// audio are read; it is stopped there.
struct ESpeakEngine: SpeechEngine {
    var name: String { "espeak" }
    var program = "/usr/bin/espeak-ng"
    /// A child that takes longer is killed.
    var timeLimit = Duration.seconds(20)
    /// It needs about 32 MiB of address space (its data is read, not mapped): 256 MiB is room
    /// and a bound; the CPU limit matches the time limit.
    static let limits = ChildProcess.Limits(addressSpaceBytes: 256 << 20, cpuSeconds: 20, openFiles: 64)
    /// espeak-ng writes 22,050 Hz mono.
    static let outputLimit = WAVFile.bytesFor(maxSecondsAt: 22050)
    private static let normalRate = 175

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio?
    {
        let text = inputBound.bounded(text)
        let voice = options.voice.isEmpty ? language.rawValue : options.voice
        guard Self.isVoiceName(voice) else { throw SpeechError("eSpeak NG has no voice \"\(voice.prefix(40))\"") }
        guard access(program, X_OK) == 0 else {
            throw SpeechError("eSpeak NG is not installed (espeak-ng: \(program))")
        }
        let wordsPerMinute = min(max(Self.normalRate * options.rate / 100, 80), 450)
        let arguments = [program, "--stdout", "--stdin", "-b", "1", "-v", voice, "-s", "\(wordsPerMinute)", "-a", "100"]
        let outcome: ChildProcess.Outcome
        do {
            outcome = try await ChildProcess.run(.init(arguments, limits: Self.limits), input: Array(text.utf8),
                                                 outputLimit: Self.outputLimit, timeLimit: timeLimit)
        } catch {
            throw SpeechError(error.description)
        }
        if outcome.timedOut { throw SpeechError("eSpeak NG took more than \(timeLimit.components.seconds) s: stopped") }
        // Cut at the longest item: what it said so far is read (it was stopped there).
        guard outcome.outputCut || outcome.termination == .exited(0) else {
            if outcome.lastErrorLine?.contains("voice does not exist") == true {
                throw SpeechError("eSpeak NG has no voice \"\(voice.prefix(40))\"")
            }
            let said = outcome.lastErrorLine.map { ": \($0)" } ?? ""
            throw SpeechError("eSpeak NG failed (\(outcome.termination))\(said)")
        }
        let audio: SpeechAudio
        do {
            audio = try WAVFile.decode(outcome.output, overlong: .cut)
        } catch {
            throw SpeechError(outcome.output.isEmpty ? "eSpeak NG made no sound for this text" : "eSpeak NG: \(error.description)")
        }
        guard !audio.samples.isEmpty else { throw SpeechError("eSpeak NG made no sound for this text") }
        return audio
    }

    /// eSpeak NG's voice variants (its `voices/!v` folder in Debian's espeak-ng-data), men's and
    /// women's alternating: `en+f3` is English in the variant f3.
    static let variants = ["m1", "f1", "m3", "f2", "m7", "f4", "m2", "f3", "m4", "f5", "m5", "m6"]

    func cast(_ options: VoiceOptions, pick: UInt32, language: SpeechLanguage) async -> VoiceOptions {
        var options = options
        let base = options.voice.isEmpty ? language.rawValue : options.voice
        // A variant the streamer gave is replaced, not stacked (`en+m3+f1` is no voice).
        let language = base.split(separator: "+", maxSplits: 1).first.map(String.init) ?? base
        options.voice = language + "+" + Self.choose(Self.variants, pick)
        return options
    }

    /// A voice name as eSpeak NG writes them (`en`, `en-us`, `ja`, `gmw/en-US`, `en+f3`): never an
    /// option nor a path out of its data folder (no `.`), at most 40 bytes (its own buffer's size).
    static func isVoiceName(_ voice: String) -> Bool {
        guard (1...40).contains(voice.utf8.count), !voice.hasPrefix("-") else { return false }
        return voice.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"),
                 UInt8(ascii: "/"):
                true
            default:
                false
            }
        }
    }
}
