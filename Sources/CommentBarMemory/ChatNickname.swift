// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// コテハン, the NCV convention: a comment ending in `@name` or `＠name` sets the writer's
/// nickname on the channel. A nickname is kept as `sanitized` gives it, whoever sets it (chat,
/// the control page, `commentbar viewers set`).
enum ChatNickname {
    /// At most this many Unicode scalars, after sanitizing (a grapheme can hold hundreds).
    static let maxScalars = 16

    /// The nickname a comment sets, if any, sanitized. A trailing ASCII `@account` after a space
    /// (or as the whole comment) is how Twitch, Kick and YouTube chats mention someone
    /// (`gg @streamer`), so it is read as a mention, not a nickname; `＠` and `@` right after the
    /// text, or before a name that is not account-like (`@たろう`), set one.
    static func find(in text: String) -> String? {
        let trimmed = Substring(text).trimmingTrailingWhitespace()
        guard let at = trimmed.lastIndex(where: { $0 == "@" || $0 == "＠" }) else { return nil }
        let name = trimmed[trimmed.index(after: at)...]
        // Invisible characters are taken out below: a name may be longer before that, not much.
        guard !name.isEmpty, name.unicodeScalars.count <= maxScalars * 4, !name.contains(where: \.isWhitespace) else {
            return nil
        }
        if trimmed[at] == "@" {
            let followsSpace = at == trimmed.startIndex || trimmed[trimmed.index(before: at)].isWhitespace
            let accountLike = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            if followsSpace && accountLike { return nil }
        }
        return sanitized(String(name))
    }

    /// The nickname as it is stored and shown, or nil when none is left of it: control and bidi
    /// characters out (the marks RLM, LRM and ALM too: a name must not reorder the row around
    /// it), white space trimmed, at most `maxScalars` scalars (more: refused, not cut), and at
    /// least one visible character (a zero-width space or Hangul fillers alone draw a blank name).
    static func sanitized(_ name: String) -> String? {
        let unmarked = String(String.UnicodeScalarView(name.unicodeScalars.filter { !TextSanitizer.isBidiControl($0) }))
        let cleaned = TextSanitizer.clean(unmarked, limit: maxScalars * 4).trimmingWhitespace(andNewlines: true)
        guard (1...maxScalars).contains(cleaned.unicodeScalars.count), cleaned.unicodeScalars.contains(where: isVisible)
        else { return nil }
        return cleaned
    }

    /// A nickname the streamer chose (the control page, `viewers set`), sanitized as one from
    /// chat; thrown out with the reason when nothing of it is left.
    static func change(_ change: FieldChange<String>) throws(ChatMemoryError) -> FieldChange<String> {
        guard case .set(let name) = change else { return change }
        guard let kept = sanitized(name) else {
            throw ChatMemoryError("a nickname has 1 to \(maxScalars) characters, at least one of them visible "
                                  + "(no control or direction characters)")
        }
        return .set(kept)
    }

    /// Characters that draw nothing though they are not white space nor default-ignorable in
    /// every Unicode version: the Hangul fillers, the blank Braille pattern, the Mongolian vowel
    /// separator.
    private static let blanks: Set<UInt32> = [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x180E]

    /// A character that shows a glyph of its own (a mark alone leans on nothing).
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint || blanks.contains(scalar.value) {
            return false
        }
        switch properties.generalCategory {
        case .control, .format, .surrogate, .unassigned, .nonspacingMark, .enclosingMark, .spacingMark,
             .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }
}

private extension Substring {
    func trimmingTrailingWhitespace() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[startIndex..<end]
    }
}
