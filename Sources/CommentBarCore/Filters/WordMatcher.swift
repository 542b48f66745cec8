// SPDX-License-Identifier: GPL-2.0-or-later
/// Finds any of many words in a text, literally (a word that looks like a pattern is
/// just characters): a trie of folded characters, walked from each position, so the
/// cost grows with the text and the matched depth, not with the number of words
/// (10,000 NG words cost about what 10 do).
struct WordMatcher: Sendable, Equatable {
    private struct Node: Sendable, Equatable {
        var children: [String: Int] = [:]
        var isWordEnd = false
    }

    private var nodes = [Node()]
    private(set) var wordCount = 0

    /// At most this many words and characters per word are kept (a pasted dictionary stays bounded).
    static let maxWords = 20_000
    static let maxWordCharacters = 100

    init(words: [String]) {
        for word in words.prefix(Self.maxWords) {
            // A word is folded as the text is (`TextFolding`), once, here.
            let folded = TextFolding.fold(word).units.prefix(Self.maxWordCharacters)
            guard !folded.isEmpty, !folded.allSatisfy({ $0 == " " }) else { continue }
            var node = 0
            for key in folded {
                if let next = nodes[node].children[key] {
                    node = next
                } else {
                    nodes.append(Node())
                    nodes[node].children[key] = nodes.count - 1
                    node = nodes.count - 1
                }
            }
            if !nodes[node].isWordEnd { wordCount += 1 }
            nodes[node].isWordEnd = true
        }
    }

    var isEmpty: Bool { wordCount == 0 }

    /// The unit ranges (indexes into `folded.units`) where a word matches, longest at each start.
    /// Invisible characters have no unit: they cannot split a word.
    func matches(in folded: FoldedText) -> [Range<Int>] {
        matches(in: folded, firstOnly: false)
    }

    func containsMatch(in folded: FoldedText) -> Bool {
        !matches(in: folded, firstOnly: true).isEmpty
    }

    private func matches(in folded: FoldedText, firstOnly: Bool) -> [Range<Int>] {
        guard !isEmpty else { return [] }
        let units = folded.units
        var found: [Range<Int>] = []
        var start = 0
        while start < units.count {
            var node = 0
            var longest: Int?
            var index = start
            while index < units.count, let next = nodes[node].children[units[index]] {
                node = next
                index += 1
                if nodes[node].isWordEnd { longest = index }
            }
            if let end = longest {
                found.append(start..<end)
                if firstOnly { break }
                start = end
            } else {
                start += 1
            }
        }
        return found
    }
}
