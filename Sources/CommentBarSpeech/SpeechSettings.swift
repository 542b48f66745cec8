// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// The source's speech settings (the `speech*` rows of the settings table, and the first-time
/// sound's, which plays through speech's queue), decoded from the
/// same `{"settings":{…}}` object as the bar's (`StdinMessage`). Defaults and ranges are read
/// from the table (`SettingsSchema`), so the shim and the renderer agree.
public struct SpeechSettings: Sendable, Equatable, Decodable {
    public enum Engine: String, Sendable, Equatable, CaseIterable {
        case auto, espeak, openjtalk, voicevox, bouyomichan
    }

    public var enabled = SettingsSchema.bool("speech")
    public var engine = Engine(rawValue: SettingsSchema.string("speech_engine")) ?? .auto
    /// eSpeak NG: a voice name (`en`, `ja`); Open JTalk: an .htsvoice file; VOICEVOX: a speaker id;
    /// 棒読みちゃん: a voice number (0: its own setting).
    public var voice = SettingsSchema.string("speech_voice")
    /// One voice for everyone, one per viewer or one per platform (`VoiceCast`).
    public var voices = VoiceCast(rawValue: SettingsSchema.string("speech_voices")) ?? .one
    /// `host:port` the user typed: the only address speech ever contacts.
    public var server = SettingsSchema.string("speech_server")
    public var readNames = SettingsSchema.bool("speech_names")
    public var maxCharacters = SettingsSchema.int("speech_max_chars")
    /// Percent of the engine's normal speed.
    public var rate = SettingsSchema.int("speech_rate")
    /// Percent.
    public var volume = SettingsSchema.int("speech_volume")
    /// Seconds: an item that would start later than this after it arrived is dropped.
    public var maxDelay = SettingsSchema.int("speech_max_delay")
    /// The first-time sound (issue 29): `off`, `chime` or a file's path (`FirstTimeSound`). It
    /// plays through the same queue and audio ring as speech, with speech on or off.
    public var firstTimeSound = SettingsSchema.string("first_time_sound")

    public init() {}

    enum CodingKeys: String, CodingKey {
        case enabled = "speech"
        case engine = "speech_engine"
        case voice = "speech_voice"
        case voices = "speech_voices"
        case server = "speech_server"
        case readNames = "speech_names"
        case maxCharacters = "speech_max_chars"
        case rate = "speech_rate"
        case volume = "speech_volume"
        case maxDelay = "speech_max_delay"
        case firstTimeSound = "first_time_sound"
    }

    /// Missing or mistyped keys keep their defaults; numbers are clamped to the table's ranges.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) -> T {
            ((try? c.decodeIfPresent(T.self, forKey: key)) ?? nil) ?? fallback
        }
        let defaults = SpeechSettings()
        enabled = value(.enabled, defaults.enabled)
        engine = Engine(rawValue: value(.engine, defaults.engine.rawValue)) ?? .auto
        voice = String(value(.voice, defaults.voice).prefix(4096))
        voices = VoiceCast(rawValue: value(.voices, defaults.voices.rawValue)) ?? defaults.voices
        server = String(value(.server, defaults.server).prefix(300))
        readNames = value(.readNames, defaults.readNames)
        maxCharacters = SettingsSchema.clamp(value(.maxCharacters, defaults.maxCharacters), "speech_max_chars")
        rate = SettingsSchema.clamp(value(.rate, defaults.rate), "speech_rate")
        volume = SettingsSchema.clamp(value(.volume, defaults.volume), "speech_volume")
        maxDelay = SettingsSchema.clamp(value(.maxDelay, defaults.maxDelay), "speech_max_delay")
        firstTimeSound = String(value(.firstTimeSound, defaults.firstTimeSound).prefix(4096))
    }
}

/// `{"speech":{"skip":N,"paused":B}}`: the source's hotkeys, from the shim. `skip` counts the
/// presses since the source was made, so a repeated line is never a second skip. Missing or
/// mistyped fields keep their defaults.
public struct SpeechControl: Sendable, Equatable, Decodable {
    public var skip: Int = 0
    public var paused: Bool = false

    public init(skip: Int = 0, paused: Bool = false) {
        self.skip = skip
        self.paused = paused
    }

    enum CodingKeys: String, CodingKey {
        case skip, paused
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        skip = ((try? c.decodeIfPresent(Int.self, forKey: .skip)) ?? nil) ?? 0
        paused = ((try? c.decodeIfPresent(Bool.self, forKey: .paused)) ?? nil) ?? false
    }
}
