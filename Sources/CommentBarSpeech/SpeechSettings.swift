// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSettings
import FoundationEssentials

/// The source's speech settings (the `speech*` rows of the settings table), taken from the
/// same `{"settings":{…}}` line the bar's settings come in. Defaults and ranges come from
/// the table, so the shim and the renderer agree.
public struct SpeechSettings: Sendable, Equatable, Decodable {
    public enum Engine: String, Sendable, Equatable, CaseIterable {
        case auto, espeak, openjtalk, voicevox, bouyomichan
    }

    public var enabled = Self.bool("speech")
    public var engine = Engine(rawValue: Self.string("speech_engine")) ?? .auto
    /// eSpeak NG: a voice name (`en`, `ja`); Open JTalk: an .htsvoice file; VOICEVOX: a speaker id;
    /// 棒読みちゃん: a voice number (0: its own setting).
    public var voice = Self.string("speech_voice")
    /// `host:port` the user typed: the only address speech ever contacts.
    public var server = Self.string("speech_server")
    public var readNames = Self.bool("speech_names")
    public var maxCharacters = Self.int("speech_max_chars")
    /// Percent of the engine's normal speed.
    public var rate = Self.int("speech_rate")
    /// Percent.
    public var volume = Self.int("speech_volume")
    /// Seconds: an item that would start later than this after it arrived is dropped.
    public var maxDelay = Self.int("speech_max_delay")

    public init() {}

    enum CodingKeys: String, CodingKey {
        case enabled = "speech"
        case engine = "speech_engine"
        case voice = "speech_voice"
        case server = "speech_server"
        case readNames = "speech_names"
        case maxCharacters = "speech_max_chars"
        case rate = "speech_rate"
        case volume = "speech_volume"
        case maxDelay = "speech_max_delay"
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
        server = String(value(.server, defaults.server).prefix(300))
        readNames = value(.readNames, defaults.readNames)
        maxCharacters = Self.clamp(value(.maxCharacters, defaults.maxCharacters), "speech_max_chars")
        rate = Self.clamp(value(.rate, defaults.rate), "speech_rate")
        volume = Self.clamp(value(.volume, defaults.volume), "speech_volume")
        maxDelay = Self.clamp(value(.maxDelay, defaults.maxDelay), "speech_max_delay")
    }

    /// The speech settings of one stdin line, if it is a `{"settings":{…}}` line.
    public static func fromCommandLine(_ line: String) -> SpeechSettings? {
        struct Line: Decodable { var settings: SpeechSettings? }
        return (try? JSONDecoder().decode(Line.self, from: Data(line.utf8)))?.settings
    }

    static func string(_ key: String) -> String {
        guard let row = cb_setting_find(key), let text = row.pointee.default_string else { return "" }
        return String(cString: text)
    }

    static func int(_ key: String) -> Int { Int(cb_setting_find(key)?.pointee.default_number ?? 0) }
    static func bool(_ key: String) -> Bool { int(key) != 0 }

    public static func clamp(_ value: Int, _ key: String) -> Int {
        guard let row = cb_setting_find(key) else { return value }
        return Int(cb_setting_clamp(row, Int64(value)))
    }
}

/// `{"speech":{"skip":N,"paused":B}}`: the source's hotkeys, from the shim. `skip` counts the
/// presses since the source was made, so a repeated line is never a second skip.
public struct SpeechControl: Sendable, Equatable, Decodable {
    public var skip: Int = 0
    public var paused: Bool = false

    public init(skip: Int = 0, paused: Bool = false) {
        self.skip = skip
        self.paused = paused
    }

    public static func fromCommandLine(_ line: String) -> SpeechControl? {
        struct Line: Decodable { var speech: SpeechControl? }
        return (try? JSONDecoder().decode(Line.self, from: Data(line.utf8)))?.speech
    }
}
