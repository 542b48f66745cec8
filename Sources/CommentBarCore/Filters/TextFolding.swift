// SPDX-License-Identifier: GPL-2.0-or-later
/// Text as the filters compare it: case-insensitive and width-insensitive, so that
/// `ＮＧ`, `Ng` and `ng` are the same word. One folded key per character, so a match
/// maps back to the characters to mask. Invisible characters (default-ignorable code points:
/// zero-width spaces, soft hyphens, joiners, bidi controls, variation selectors) fold to
/// nothing, so `b<ZWSP>ad<SHY>word` is the word `badword`; such a character's key is "".
enum TextFolding {
    /// Lower case, with full-width ASCII (U+FF01…U+FF5E) and the ideographic space as their
    /// ASCII forms.
    static func fold(_ character: Character) -> String {
        var out = String.UnicodeScalarView()
        for scalar in character.unicodeScalars where !isInvisible(scalar) {
            switch scalar.value {
            case 0xFF01...0xFF5E: out.append(Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar)
            case 0x3000: out.append(" ")
            default: out.append(scalar)
            }
        }
        return String(out).lowercased()
    }

    /// A character that shows nothing of its own: skipped when words are compared.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || TextSanitizer.isBidiControl(scalar)
    }

    static func fold(_ text: String) -> [String] {
        text.map(fold)
    }

    static func foldedString(_ text: String) -> String {
        fold(text).joined()
    }
}
