// SPDX-License-Identifier: GPL-2.0-or-later

/// A viewer's own voice, as the streamer gives it (the control page's `"voice"`, `viewers set
/// --voice`): an engine's voice name (`en+f3`), a VOICEVOX speaker id, a 棒読みちゃん number or an
/// Open JTalk voice file. Which of them the engine takes is the engine's to check, as it checks
/// `speech_voice`; kept here is only what any of them can be: one line of text, not too long.
enum ViewerVoice {
    /// A path to a voice file fits; a page of text does not.
    static let maxScalars = 256

    /// The voice to keep, or thrown out with the reason.
    static func change(_ change: FieldChange<String>) throws(ChatMemoryError) -> FieldChange<String> {
        if case .set(let voice) = change, let problem = problem(voice) { throw ChatMemoryError(problem) }
        return change
    }

    /// Why `voice` cannot be kept (nil: it can).
    static func problem(_ voice: String) -> String? {
        if voice.isEmpty || voice.unicodeScalars.count > maxScalars {
            return "a voice has 1 to \(maxScalars) characters"
        }
        let breaksLine: (Unicode.Scalar) -> Bool = {
            $0.properties.generalCategory == .control || $0.value == 0x2028 || $0.value == 0x2029
        }
        if voice.unicodeScalars.contains(where: breaksLine) {
            return "a voice is one line of text (no control characters)"
        }
        return nil
    }
}
