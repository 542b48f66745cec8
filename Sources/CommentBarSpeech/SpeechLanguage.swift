// SPDX-License-Identifier: GPL-2.0-or-later
/// The language a text is read in: Japanese when it has kana or kanji, English otherwise.
/// It picks the phrasing ("以下略" or "and more") and, with `auto`, the engine.
public enum SpeechLanguage: String, Sendable, Equatable {
    case japanese = "ja"
    case english = "en"

    public static func of(_ text: String) -> SpeechLanguage {
        text.unicodeScalars.contains(where: isJapanese) ? .japanese : .english
    }

    static func isJapanese(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F:
            return true
        default:
            return false
        }
    }
}
