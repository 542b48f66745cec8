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
            let folded = TextFolding.fold(word).filter { !$0.isEmpty }.prefix(Self.maxWordCharacters)
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

    /// The character ranges (indexes into `folded`) where a word matches, longest at each start.
    /// Invisible characters (an empty key) inside a word are stepped over: they cannot hide it.
    func matches(in folded: [String]) -> [Range<Int>] {
        guard !isEmpty else { return [] }
        var found: [Range<Int>] = []
        var start = 0
        while start < folded.count {
            if folded[start].isEmpty {
                start += 1
                continue
            }
            var node = 0
            var longest: Int?
            var index = start
            while index < folded.count {
                if folded[index].isEmpty {
                    index += 1
                    continue
                }
                guard let next = nodes[node].children[folded[index]] else { break }
                node = next
                index += 1
                if nodes[node].isWordEnd { longest = index }
            }
            if let end = longest {
                found.append(start..<end)
                start = end
            } else {
                start += 1
            }
        }
        return found
    }

    func containsMatch(in folded: [String]) -> Bool {
        !matches(in: folded).isEmpty
    }
}
