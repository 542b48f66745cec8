// SPDX-License-Identifier: GPL-2.0-or-later
/// Makes untrusted chat text safe and bounded to lay out: control characters
/// become spaces or are dropped, and text is cut at a number of Unicode scalars
/// with an ellipsis, so that a 100 KB message or a flood of combining marks
/// costs the renderer a bounded amount of time.
public enum TextSanitizer {
    public static let maxTextScalars = 500
    public static let maxNameScalars = 64
    public static let maxIDScalars = 128
    /// Combining marks allowed on one base character (Zalgo floods are cut).
    public static let maxCombiningRun = 8

    public static func clean(_ text: String, limit: Int) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        var combiningRun = 0
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            if count >= limit {
                out.append("…")
                break
            }
            let value = scalar.value
            // C0/C1 controls and DEL: whitespace controls become one space, the rest are dropped.
            if value < 0x20 || (value >= 0x7F && value < 0xA0) {
                if (value == 0x09 || value == 0x0A || value == 0x0D) && !lastWasSpace && !out.isEmpty {
                    out.append(" ")
                    count += 1
                    lastWasSpace = true
                }
                continue
            }
            // Bidi embedding and isolate controls are kept: Pango handles them, and
            // unbalanced ones end at the end of the paragraph.
            if scalar.properties.generalCategory == .nonspacingMark
                || scalar.properties.generalCategory == .enclosingMark {
                combiningRun += 1
                if combiningRun > maxCombiningRun { continue }
            } else {
                combiningRun = 0
            }
            lastWasSpace = scalar == " "
            out.append(scalar)
            count += 1
        }
        var result = String(out)
        while result.last == " " { result.removeLast() }
        return result
    }

    /// Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD.
    public static func decodeLossy<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// The text without leading and trailing white space, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` (Zs and tab) or, with `andNewlines`,
    /// `.whitespacesAndNewlines` (Z*, U+000A-U+000D, U+0085); FoundationEssentials has
    /// neither, and full Foundation would link ICU's 34 MB of data into the renderer.
    public func trimmingWhitespace(andNewlines: Bool = false) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            if scalar == "\t" { return true }
            switch scalar.properties.generalCategory {
            case .spaceSeparator: return true
            case .lineSeparator, .paragraphSeparator: return andNewlines
            default: return andNewlines && ((0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85)
            }
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
