// SPDX-License-Identifier: GPL-2.0-or-later
import CGLib

/// A text as the filters compare it: the folded text's characters ("units"), each with the
/// character of the original text it came from, so a match maps back to the characters to mask.
struct FoldedText: Sendable, Equatable {
    /// The folded characters, in order: what words are matched on. Never empty strings.
    var units: [String] = []
    /// For each unit, the index of the original character (in `Array(text)`) it came from. One
    /// original character can give several units (`ﬁ` gives `f`, `i`; `㍻` gives `平`, `成`) or
    /// none (an invisible one).
    var sources: [Int] = []

    var joined: String { units.joined() }
}

/// How the filters see text, so that a word cannot hide behind another spelling of itself:
/// - **NFKC** (compatibility forms as the plain letter): full-width `ＮＧ`, half-width kana
///   `ｱﾎ` and `ﾊﾞｶ` (its voiced mark composed: `バカ`), mathematical `𝐚𝐡𝐨`, circled `ⓐⓗⓞ`,
///   ligatures `ﬁ`;
/// - **case folding**: `Ng` is `ng`;
/// - **combining marks stripped** (`a` with a combining or precomposed accent is `a`), except
///   the kana voiced and semi-voiced marks, which make another letter (`バ` is not `ハ`, `ポ` is
///   not `ホ`: `アポロ` never matches `アホ`);
/// - **Greek and Cyrillic look-alikes** as the Latin letter (`ConfusableLetters`);
/// - **invisible characters** (default-ignorable code points: zero-width spaces, soft hyphens,
///   joiners, variation selectors; bidi controls) as nothing, so `b<ZWSP>ad<SHY>word` is the
///   word `badword`.
/// Kana stay kana (hiragana is not katakana) and ASCII characters are never taken for one another
/// (`0` is not `O`): a word matches what it matched before, and its disguises.
/// Normalization and case folding are GLib's (`GLibUnicode`). A text is folded once: ASCII
/// characters by themselves (lower case), characters folding leaves as they are
/// (`isFoldedAlready`: most kanji and kana) as they are, all the others together, in one GLib
/// call per step.
public enum TextFolding {
    static func fold(_ text: String) -> FoldedText {
        // ASCII characters' keys at once; nil: a character folded with the others below.
        var keys: [String?] = []
        var others: [String] = []
        for character in text {
            if character.isASCII {
                keys.append(character.lowercased())
            } else if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                      isFoldedAlready(scalar) {
                keys.append(String(character))
            } else {
                keys.append(nil)
                others.append(String(character))
            }
        }
        var folded = foldedKeys(others).makeIterator()
        var result = FoldedText()
        result.units.reserveCapacity(keys.count)
        result.sources.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() {
            guard let key = key ?? folded.next(), !key.isEmpty else { continue }
            if key.unicodeScalars.count == 1 {
                result.units.append(key)
                result.sources.append(index)
            } else {
                for unit in key {
                    result.units.append(String(unit))
                    result.sources.append(index)
                }
            }
        }
        return result
    }

    /// The text as the filters compare it, and as a poll compares a vote with its options.
    public static func foldedString(_ text: String) -> String {
        fold(text).joined
    }

    /// A character that shows nothing of its own: skipped when words are compared.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || TextSanitizer.isBidiControl(scalar)
    }

    /// A character that folding leaves as it is, known without folding it: one scalar with no
    /// decomposition (canonical or compatibility; asked of GLib, no allocation), that case folding
    /// leaves alone, neither dropped nor a look-alike (`testCharactersFoldedAlreadyFoldToThemselves`
    /// checks every such character of planes 0 to 3 against `foldedLines`). Most kanji and kana are: ordinary Japanese
    /// text costs no normalization. (NFKD, the marks, the look-alikes and case folding then leave
    /// it, and NFKC composes nothing out of one scalar without decomposition: `foldedLines` would
    /// give the character itself.)
    static func isFoldedAlready(_ scalar: Unicode.Scalar) -> Bool {
        var decomposed: gunichar = 0
        guard g_unichar_fully_decompose(scalar.value, 1, &decomposed, 1) == 1, decomposed == scalar.value else {
            return false
        }
        // GLib folds case as Unicode's CaseFolding.txt says where it has an entry and as its lower
        // case elsewhere (Cherokee capitals, which Unicode folds to themselves, GLib lowers): the
        // character is left as it is only when both leave it.
        return !scalar.properties.changesWhenCaseFolded && g_unichar_tolower(scalar.value) == scalar.value
            && !isDropped(scalar) && ConfusableLetters.latin(scalar) == nil
    }

    /// The kana voiced and semi-voiced sound marks (U+3099, U+309A), the combining marks kept.
    static func isKanaSoundMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x3099 || scalar.value == 0x309A
    }

    /// Dropped from the folded text: invisible characters and combining marks but the kana ones.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII is neither (and most of what normalization gives): no property look-up for it.
        if scalar.isASCII { return false }
        if isInvisible(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return !isKanaSoundMark(scalar)
        default: return false
        }
    }

    /// Each character's folded form, normalized together: the characters joined by line feeds,
    /// which no normalization composes with, decomposes into or reorders across, and which no
    /// non-ASCII character holds (a line feed is always a character of its own).
    private static func foldedKeys(_ characters: [String]) -> [String] {
        guard !characters.isEmpty else { return [] }
        let keys = foldedLines(characters.joined(separator: "\n"))
        if keys.count == characters.count { return keys }
        // Not expected; if it ever happens, each character alone still folds right.
        return characters.map { foldedLines($0).joined() }
    }

    /// NFKD, marks and invisible characters out, look-alikes as Latin letters, case folding, then
    /// NFKC (the kana marks compose again: `ハ` + U+3099 is `バ`), split at line feeds.
    static func foldedLines(_ text: String) -> [String] {
        let decomposed = GLibUnicode.normalized(text, G_NORMALIZE_NFKD)
        var plain = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars where !isDropped(scalar) {
            plain.append(ConfusableLetters.latin(scalar) ?? scalar)
        }
        let folded = GLibUnicode.normalized(GLibUnicode.caseFolded(String(plain)), G_NORMALIZE_NFKC)
        // Case folding can bring a mark of its own (`İ` folds to `i` and a dot above).
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if scalar == "\n" {
                lines.append(String(line))
                line = String.UnicodeScalarView()
            } else if !isDropped(scalar) {
                line.append(scalar)
            }
        }
        lines.append(String(line))
        return lines
    }
}
