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
            // Bidi embeddings, overrides and isolates are dropped: a name or a message must not
            // reorder the text after it (`nameflip<RLO>` reversed the message), nor show an NG
            // word reversed (`<RLO>drowdab`). The renderer isolates names and messages itself.
            if isBidiEmbeddingOrIsolate(scalar) { continue }
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

    /// The explicit bidi formatting characters (U+202A…U+202E, U+2066…U+2069): dropped from text.
    public static func isBidiEmbeddingOrIsolate(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Every bidi control, the marks (U+061C, U+200E, U+200F) too: escaped in log lines.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        isBidiEmbeddingOrIsolate(scalar) || scalar.value == 0x061C || scalar.value == 0x200E || scalar.value == 0x200F
    }

    /// `text` for a terminal or a log line: C0 and C1 controls, DEL and bidi controls written as
    /// visible escapes, so no feed text can move the cursor, recolour the terminal or reorder the
    /// line. `json`: the escapes are JSON's `\uXXXX`, so an encoded JSON line stays the same JSON.
    public static func escapedForTerminal(_ text: String, json: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F..<0xA0).contains(value) || value == 0x2028 || value == 0x2029
                || isBidiControl(scalar) {
                let hex = String(value, radix: 16)
                let escape = json ? "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex : "\\u{\(hex)}"
                out.append(contentsOf: escape.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A status message's longest form on the bar (a feed's or relay's `status` text).
    public static let maxStatusScalars = 120

    /// A status message as the header shows it: sanitized like chat text, one line (line
    /// breaks become spaces), at most `maxStatusScalars`, so a relay's 1 MB, 40-line status
    /// can neither paint over the rows nor cost more than a short one.
    public static func statusLine(_ text: String) -> String {
        // Only a bounded prefix is read: the rest of a huge message is never looked at.
        let head = String(text.unicodeScalars.prefix(maxStatusScalars * 4))
        let flattened = String(String.UnicodeScalarView(head.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator
                ? " " : scalar
        }))
        let cleaned = clean(flattened, limit: maxStatusScalars)
        let cut = head.unicodeScalars.count < text.unicodeScalars.prefix(maxStatusScalars * 4 + 1).count
        return cut && !cleaned.hasSuffix("…") ? cleaned + "…" : cleaned
    }

    /// Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD.
    public static func decodeLossy<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension FeedStatus {
    /// The same state with its text made a safe status line (`TextSanitizer.statusLine`).
    public var sanitized: FeedStatus {
        switch self {
        case .reconnecting(let text): return .reconnecting(reason: TextSanitizer.statusLine(text))
        case .error(let text): return .error(message: TextSanitizer.statusLine(text))
        case .waiting(let text): return .waiting(reason: TextSanitizer.statusLine(text))
        case .ended(let text): return .ended(reason: TextSanitizer.statusLine(text))
        case .connecting, .live, .paused: return self
        }
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
