// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Whose voice reads a row (`speech_voices`): `one` voice for every row (the source's
/// `speech_voice`), a voice `per_viewer` (stable: the same viewer in the same voice on every
/// stream and every day, as their name keeps its colour) or `per_platform`. A viewer's own voice
/// (the viewer memory's, set from the control page or `commentbar viewers set --voice`) wins
/// over both.
public enum VoiceCast: String, Sendable, Equatable, CaseIterable {
    case one
    case perViewer = "per_viewer"
    case perPlatform = "per_platform"

    /// Which of the engine's voices a row gets (nil: the source's own voice).
    public func pick(for line: ChatLine) -> UInt32? {
        switch self {
        case .one: nil
        case .perViewer: Self.stableHash((line.login ?? line.user).lowercased())
        case .perPlatform: line.platform.map(Self.stableHash)
        }
    }

    /// FNV-1a: the same number for the same text on every run (Swift's `Hasher` is seeded per process).
    static func stableHash(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}

/// The voice a queued reading asks for: the viewer's own, or the `pick`-th of the engine's voices
/// (`SpeechEngine.cast`), or (both nil) the source's.
public struct RequestedVoice: Sendable, Equatable {
    public var own: String?
    public var pick: UInt32?

    public init(own: String? = nil, pick: UInt32? = nil) {
        self.own = own
        self.pick = pick
    }

    /// `options` (the source's voice, rate and volume) with this voice in it.
    func options(_ options: VoiceOptions, engine: any SpeechEngine, language: SpeechLanguage) async -> VoiceOptions {
        var options = options
        if let own, !own.isEmpty {
            options.voice = own
            return options
        }
        guard let pick else { return options }
        return await engine.cast(options, pick: pick, language: language)
    }
}
