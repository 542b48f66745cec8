// SPDX-License-Identifier: GPL-2.0-or-later
/// What may reach an engine: the sentence without controls, with at most `maxMarksPerBase`
/// combining marks on one base character, and cut at a character boundary so that its size,
/// counted as that engine expands it, stays within its budget. Every engine applies its own
/// bound to the text it is handed, so no viewer's text reaches one unbounded.
public struct SpeechInputBound: Sendable, Equatable {
    /// How an engine grows the bytes it is given.
    public enum Expansion: Sendable, Equatable {
        /// As sent: UTF-8.
        case utf8
        /// Open JTalk 1.11's `text2mecab`: printable ASCII becomes 3-byte full-width characters,
        /// ASCII controls vanish, everything else is copied (half-width kana are counted as 3
        /// bytes, never fewer than they become).
        case openJTalk
    }

    public var maxBytes: Int
    public var expansion: Expansion

    /// Combining marks kept on one base character for speech (a Zalgo flood reads as nothing,
    /// and multiplies what an engine is handed).
    public static let maxMarksPerBase = 2

    /// open_jtalk copies the expanded sentence into `char buff[1024]` (MAXBUFLEN) unchecked: 900
    /// bytes leaves a margin of 124.
    public static let openJTalk = SpeechInputBound(maxBytes: 900, expansion: .openJTalk)
    /// eSpeak NG, VOICEVOX (3 bytes of URL per byte) and 棒読みちゃん: `speech_max_chars` (1,000 at
    /// most) of any script, and the name, fit.
    public static let plain = SpeechInputBound(maxBytes: 4096, expansion: .utf8)

    public init(maxBytes: Int, expansion: Expansion) {
        self.maxBytes = maxBytes
        self.expansion = expansion
    }

    /// The bytes one scalar becomes in the engine.
    public func size(of scalar: Unicode.Scalar) -> Int {
        switch expansion {
        case .utf8:
            return UTF8.width(scalar)
        case .openJTalk:
            if scalar.value < 0x20 || scalar.value == 0x7F { return 0 }
            return scalar.isASCII ? 3 : UTF8.width(scalar)
        }
    }

    public func size(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + size(of: $1) }
    }

    /// `text` as the engine may have it.
    public func bounded(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var used = 0
        var marks = 0
        for character in text {
            var kept: [Unicode.Scalar] = []
            for scalar in character.unicodeScalars where !Self.isControl(scalar) {
                if Self.isCombiningMark(scalar) {
                    marks += 1
                    if marks > Self.maxMarksPerBase { continue }
                } else {
                    marks = 0
                }
                kept.append(scalar)
            }
            let cost = kept.reduce(0) { $0 + size(of: $1) }
            guard used + cost <= maxBytes else { break }
            used += cost
            out.append(contentsOf: kept)
        }
        return String(out)
    }

    /// C0 and C1 controls and DEL: a newline would end Open JTalk's line, a NUL any C string.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
