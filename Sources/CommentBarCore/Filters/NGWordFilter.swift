// SPDX-License-Identifier: GPL-2.0-or-later
/// NG words: masked with `＊` (one per character) or the whole row hidden.
public enum NGMode: String, Sendable, Equatable, Codable, CaseIterable {
    case mask
    case hide
}

/// NG words in a row's text, its writer's display name and nickname and its gift's name, matched as
/// `TextFolding` sees text, so a disguised spelling (`ｱﾎ`, `𝐚𝐡𝐨`, `аhо` in Cyrillic, `a` with
/// a combining mark) is the word too.
struct NGWordFilter: Sendable, Equatable {
    let words: WordMatcher
    let mode: NGMode

    var isEmpty: Bool { words.isEmpty }

    /// The row as shown: NG words masked in its text, name, nickname and gift name, or nil when
    /// the row is to be hidden. `text`, `user`: the row's text and display name folded (the
    /// caller folds them once for every filter). A nickname is checked as it is now, against
    /// the words as they are now: a word added after a viewer took the nickname counts.
    func apply(to line: ChatLine, text: FoldedText, user folded: FoldedText) -> ChatLine? {
        guard !words.isEmpty else { return line }
        let textMatches = words.matches(in: text)
        let user = Self.mask(line.user, folded: folded, at: words.matches(in: folded))
        let giftName = line.kind.giftName.map(masked)
        let nickname = line.nickname.map(masked)
        guard !textMatches.isEmpty || user != line.user || giftName != line.kind.giftName || nickname != line.nickname
        else { return line }
        if mode == .hide { return nil }
        var shown = line
        shown.text = Self.mask(line.text, folded: text, at: textMatches)
        shown.nickname = nickname
        if user != line.user {
            // The row keeps its writer's identity (a timeout by name, the name's colour, speech's
            // queue) while the name shows masked.
            shown.login = line.login ?? line.user
            shown.user = user
        }
        if case .gift(_, let count) = line.kind, let giftName { shown.kind = .gift(name: giftName, count: count) }
        return shown
    }

    /// `text` with NG words masked (it is returned as is when it holds none).
    func masked(_ text: String) -> String {
        guard !words.isEmpty, !text.isEmpty else { return text }
        let folded = TextFolding.fold(text)
        return Self.mask(text, folded: folded, at: words.matches(in: folded))
    }

    func contains(_ text: String) -> Bool {
        !words.isEmpty && words.containsMatch(in: TextFolding.fold(text))
    }

    /// Every original character a matched unit came from becomes `＊`, but spaces (a word may hold
    /// one) and invisible characters (which have no unit): the mask covers the disguised run
    /// exactly, however many scalars its characters had (`ﾊﾞ` is one character, one `＊`).
    static func mask(_ text: String, folded: FoldedText, at matches: [Range<Int>]) -> String {
        guard !matches.isEmpty else { return text }
        var characters = Array(text)
        for range in matches {
            for unit in range where folded.units[unit] != " " {
                let index = folded.sources[unit]
                if characters.indices.contains(index) { characters[index] = "＊" }
            }
        }
        return String(characters)
    }
}

extension ChatLine.Kind {
    /// The gift's name, for a gift.
    var giftName: String? {
        if case .gift(let name, _) = self { return name }
        return nil
    }
}
