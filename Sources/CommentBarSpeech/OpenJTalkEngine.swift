// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Glibc

/// Open JTalk: Debian's `open_jtalk` run as a child process (`ChildProcess`: no shell, limited
/// memory and CPU time, killed at its time limit) with the naist-jdic dictionary and the HTS
/// voice file `speech_voice`; the text goes in on its stdin and the WAV comes out on its stdout.
struct OpenJTalkEngine: SpeechEngine {
    var name: String { "openjtalk" }
    var program = "/usr/bin/open_jtalk"
    var dictionary = "/var/lib/mecab/dic/open-jtalk/naist-jdic"
    /// A child that takes longer is killed (its longest sentence takes about 1 s here).
    var timeLimit = Duration.seconds(20)
    /// Its address space holds the dictionary (about 100 MB, mapped) and the voice: 512 MiB is
    /// room for both and a bound; the CPU limit matches the time limit.
    static let limits = ChildProcess.Limits(addressSpaceBytes: 512 << 20, cpuSeconds: 20, openFiles: 64)
    /// Voices are 48 kHz at most (Mei: 48 kHz): `WAVFile.maxSeconds` of it.
    static let outputLimit = WAVFile.bytesFor(maxSecondsAt: 48000)
    /// Its sentence buffer is 1,024 bytes after full-width expansion (`SpeechInputBound.openJTalk`).
    var inputBound: SpeechInputBound { .openJTalk }

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio?
    {
        try checkVoice(options.voice)
        guard access(program, X_OK) == 0 else {
            throw SpeechError("Open JTalk is not installed (open-jtalk: \(program))")
        }
        guard access(dictionary, R_OK) == 0 else {
            throw SpeechError("Open JTalk's dictionary is missing (open-jtalk-mecab-naist-jdic: \(dictionary))")
        }
        return try await run(inputBound.bounded(text), options)
    }

    /// Open JTalk has the one voice file it is given: a viewer's or a platform's voice is that
    /// voice moved by a few half-tones (`-fm`), far enough apart to tell, near enough to stay natural.
    static let halfToneSteps = [0, 3, -3, 5, -2, 2, -5, 4]

    func cast(_ options: VoiceOptions, pick: UInt32, language: SpeechLanguage) async -> VoiceOptions {
        var options = options
        options.halfTones = Self.choose(Self.halfToneSteps, pick)
        return options
    }

    /// An HTS voice is a regular file that starts with its `[GLOBAL]` section.
    func checkVoice(_ path: String) throws(SpeechError) {
        guard !path.isEmpty else { throw SpeechError("Open JTalk needs a voice: choose an .htsvoice file") }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SpeechError("voice file not found: \(path.suffix(120))")
        }
        guard let file = fopen(path, "rb") else { throw SpeechError("voice file cannot be read: \(path.suffix(120))") }
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 8)
        let count = fread(&head, 1, head.count, file)
        guard count == 8, String(decoding: head, as: UTF8.self) == "[GLOBAL]" else {
            throw SpeechError("not an HTS voice file: \(path.suffix(120))")
        }
    }

    private func run(_ text: String, _ options: VoiceOptions) async throws(SpeechError) -> SpeechAudio {
        // A voice path that starts with "-" would read as an option (open_jtalk scans argv for "-x", "-m").
        let voice = options.voice.hasPrefix("-") ? "./" + options.voice : options.voice
        let speed = String(Double(options.rate) / 100)
        // The WAV comes back on its stdout (it writes it in one go, no seeking): no temporary file.
        let arguments = [program, "-x", dictionary, "-m", voice, "-r", speed, "-fm", String(options.halfTones),
                         "-ow", "/dev/stdout"]
        let outcome: ChildProcess.Outcome
        do {
            // It reads one line of text from its stdin, given only once its limits are set.
            outcome = try await ChildProcess.run(.init(arguments, limits: Self.limits), input: Array(text.utf8) + [0x0A],
                                                 outputLimit: Self.outputLimit, timeLimit: timeLimit)
        } catch {
            throw SpeechError(error.description)
        }
        if outcome.timedOut { throw SpeechError("Open JTalk took more than \(timeLimit.components.seconds) s: stopped") }
        // Cut at the longest item: what it said so far is read (it was stopped there).
        guard outcome.outputCut || outcome.termination == .exited(0) else {
            let said = outcome.lastErrorLine.map { ": \($0)" } ?? ""
            throw SpeechError("Open JTalk failed (\(outcome.termination)) with voice \(options.voice.suffix(80))\(said)")
        }
        do {
            return try WAVFile.decode(outcome.output, overlong: .cut)
        } catch {
            throw SpeechError("Open JTalk: \(error.description)")
        }
    }
}
