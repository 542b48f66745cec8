// SPDX-License-Identifier: GPL-2.0-or-later
/// Mono PCM, samples in -1...1.
public struct SpeechAudio: Sendable, Equatable {
    public var samples: [Float]
    public var sampleRate: Int

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public var seconds: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }
}

/// Why an item was not spoken: one line for the bar's status and the OBS log.
public struct SpeechError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// How the voice is set for every engine: rate and volume are percent of normal.
public struct VoiceOptions: Sendable, Equatable {
    public var voice: String
    public var rate: Int
    public var volume: Int
    /// Pitch moved by this many half-tones (Open JTalk's one voice file, cast as several).
    public var halfTones: Int

    public init(voice: String = "", rate: Int = 100, volume: Int = 100, halfTones: Int = 0) {
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.halfTones = halfTones
    }
}

/// A text-to-speech engine. `speak` returns the audio to play, or nil when the engine
/// plays it itself (棒読みちゃん). It is called off the frame loop, one item at a time, and
/// hands on only `inputBound.bounded(text)`.
public protocol SpeechEngine: Sendable {
    var name: String { get }
    /// What of a text this engine may be handed, in its own bytes.
    var inputBound: SpeechInputBound { get }
    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError) -> SpeechAudio?
    /// A voice per viewer or per platform (`VoiceCast`): `options` with the source's voice made
    /// the `pick`-th (modulo their number) of the distinct voices this engine has beside it. The
    /// same pick gives the same voice while the settings stay.
    func cast(_ options: VoiceOptions, pick: UInt32, language: SpeechLanguage) async -> VoiceOptions
}

extension SpeechEngine {
    public var inputBound: SpeechInputBound { .plain }
    /// An engine with one voice only reads everyone in it.
    public func cast(_ options: VoiceOptions, pick: UInt32, language: SpeechLanguage) async -> VoiceOptions { options }

    /// The `pick`-th of `choices` (never empty).
    static func choose<T>(_ choices: [T], _ pick: UInt32) -> T { choices[Int(pick % UInt32(choices.count))] }
}

/// The engines `speech_engine` names. Nothing is started or connected until an item is spoken.
public enum SpeechEngines {
    public static func make(_ settings: SpeechSettings) -> any SpeechEngine {
        switch settings.engine {
        case .espeak: return ESpeakEngine()
        case .openjtalk: return OpenJTalkEngine()
        case .voicevox: return VoicevoxEngine(server: settings.server)
        case .bouyomichan: return BouyomiChanEngine(server: settings.server)
        case .auto: return AutoEngine()
        }
    }
}

/// Open JTalk for Japanese when a voice file is set, eSpeak NG for everything else.
struct AutoEngine: SpeechEngine {
    var name: String { "auto" }

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio?
    {
        if language == .japanese, options.voice.hasSuffix(".htsvoice") {
            return try await OpenJTalkEngine().speak(text, language: language, options: options)
        }
        var espeak = options
        if espeak.voice.hasSuffix(".htsvoice") { espeak.voice = "" }
        return try await ESpeakEngine().speak(text, language: language, options: espeak)
    }

    func cast(_ options: VoiceOptions, pick: UInt32, language: SpeechLanguage) async -> VoiceOptions {
        if language == .japanese, options.voice.hasSuffix(".htsvoice") {
            return await OpenJTalkEngine().cast(options, pick: pick, language: language)
        }
        var espeak = options
        if espeak.voice.hasSuffix(".htsvoice") { espeak.voice = "" }
        return await ESpeakEngine().cast(espeak, pick: pick, language: language)
    }
}
