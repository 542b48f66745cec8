// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarSpeech
import Glibc

/// `commentbar speak`: what the bar would read aloud for one comment, through the same filters,
/// rules and engines, written as a WAV (or handed to 棒読みちゃん, which speaks it itself).
/// For trying voices and for the tests.
struct Speak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speak TEXT as the bar would read it (same rules and engines) into a WAV file.")

    @Option(help: "The comment's text.") var text: String
    @Option(help: "auto, espeak, openjtalk, voicevox or bouyomichan.") var engine: String = "auto"
    @Option(help: "eSpeak NG voice name, Open JTalk .htsvoice file, VOICEVOX speaker id or 棒読みちゃん voice number.")
    var voice: String = ""
    @Option(help: "HOST:PORT of the VOICEVOX engine or 棒読みちゃん (the only address contacted).")
    var server: String = ""
    @Option(help: "The commenter's name (read when --names is on).") var name: String = ""
    @Flag(inversion: .prefixedNo, help: "Read the commenter's name first.") var names = false
    @Option(help: "Characters read at most, then \"以下略\" / \"and more\".") var maxChars: Int?
    @Option(help: "Speed, percent of normal (\(Self.rangeText("speech_rate"))).") var rate: Int?
    @Option(help: "Volume, percent (\(Self.rangeText("speech_volume"))).") var volume: Int?
    @Option(name: .customLong("ng-word"), help: "An NG word (masked, never read); repeatable.") var ngWords: [String] = []
    @Option(name: .customLong("hidden-user"), help: "A hidden user (never read); repeatable.") var hiddenUsers: [String] = []
    @Option(help: "Where to write the WAV (not needed for bouyomichan).") var out: String?

    /// "50 to 300", from the settings table's row.
    static func rangeText(_ key: String) -> String {
        let range = SettingsSchema.range(key)
        return "\(range.lowerBound) to \(range.upperBound)"
    }

    func run() async throws {
        var settings = SpeechSettings()
        guard let chosen = SpeechSettings.Engine(rawValue: engine) else {
            throw ValidationError("--engine must be one of \(SpeechSettings.Engine.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        settings.engine = chosen
        settings.voice = voice
        settings.server = server
        settings.readNames = names
        if let maxChars { settings.maxCharacters = SettingsSchema.clamp(maxChars, "speech_max_chars") }
        if let rate { settings.rate = SettingsSchema.clamp(rate, "speech_rate") }
        if let volume { settings.volume = SettingsSchema.clamp(volume, "speech_volume") }
        guard chosen == .bouyomichan || out != nil else { throw ValidationError("--out FILE.wav is needed") }

        // The bar's own filters first: what they hide or mask is never read.
        var state = BarState()
        state.filters = ChatFilters(hideBots: false, hideCommands: false, ngWords: ngWords, hiddenUsers: hiddenUsers,
                                    highlightPaid: false, highlightFirstMessages: false)
        state.apply(.comment(ChatLine(id: "speak", user: name, text: text)))
        guard let row = state.lines.last, let sentence = ReadingRules(settings).sentence(for: row) else {
            throw CLIError("nothing to read: the comment is hidden or has nothing readable")
        }
        let language = SpeechLanguage.of(sentence)
        let options = VoiceOptions(voice: settings.voice, rate: settings.rate, volume: settings.volume)
        let spoken: SpeechAudio?
        do {
            spoken = try await SpeechEngines.make(settings).speak(sentence, language: language, options: options)
        } catch {
            throw CLIError(error.description)
        }
        guard let spoken else {
            print("sent to 棒読みちゃん: \(sentence)")
            return
        }
        guard let out else { return }
        var audio = spoken
        let gain = Float(settings.volume) / 100
        if gain != 1 { audio.samples = audio.samples.map { $0 * gain } }
        let bytes = WAVFile.encode(audio)
        guard let file = fopen(out, "wb") else { throw CLIError("cannot write \(out): \(String(cString: strerror(errno)))") }
        let written = fwrite(bytes, 1, bytes.count, file)
        guard fclose(file) == 0, written == bytes.count else { throw CLIError("cannot write \(out)") }
        print("\(out): \(secondsText(audio.seconds)) s at \(audio.sampleRate) Hz: \(sentence)")
    }
}

/// Seconds with two decimals, without Foundation's formatter.
private func secondsText(_ seconds: Double) -> String {
    let hundredths = Int((seconds * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
