// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// VOICEVOX's `/audio_query` answer, kept whole so `/synthesis` gets every field the engine
/// sent back, with only `speedScale` set from `speech_rate`. The engine's own JSON through
/// Foundation's coders: nothing of it is parsed by hand.
struct VoicevoxAudioQuery {
    /// VOICEVOX's accepted speeds (its editor's slider): half to double.
    static let speedRange = 0.5...2.0
    private var fields: [String: AnyJSON]

    init(_ bytes: [UInt8]) throws(SpeechError) {
        do {
            fields = try JSONDecoder().decode([String: AnyJSON].self, from: Data(bytes))
        } catch {
            throw SpeechError("VOICEVOX /audio_query did not answer a JSON object")
        }
    }

    /// `rate`: percent of the engine's normal speed (`speech_rate`).
    mutating func setRate(percent rate: Int) {
        fields["speedScale"] = .double(min(max(Double(rate) / 100, Self.speedRange.lowerBound),
                                           Self.speedRange.upperBound))
    }

    var speedScale: Double? {
        if case .double(let value) = fields["speedScale"] { return value }
        if case .integer(let value) = fields["speedScale"] { return Double(value) }
        return nil
    }

    func encoded() throws(SpeechError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(fields))
        } catch {
            throw SpeechError("VOICEVOX: the audio query could not be sent back (\(error))")
        }
    }
}
