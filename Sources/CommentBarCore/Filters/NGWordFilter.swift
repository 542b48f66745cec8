// SPDX-License-Identifier: GPL-2.0-or-later
/// NG words: masked with `＊` (one per character) or the whole row hidden.
public enum NGMode: String, Sendable, Equatable, Codable, CaseIterable {
    case mask
    case hide
}

struct NGWordFilter: Sendable, Equatable {
    let words: WordMatcher
    let mode: NGMode

    /// The text with NG words masked, or nil when the row is to be hidden.
    func apply(_ text: String) -> String? {
        guard !words.isEmpty else { return text }
        let folded = TextFolding.fold(text)
        let found = words.matches(in: folded)
        guard !found.isEmpty else { return text }
        if mode == .hide { return nil }
        var characters = Array(text)
        for range in found {
            for index in range where characters[index] != " " && !folded[index].isEmpty { characters[index] = "＊" }
        }
        return String(characters)
    }
}
