// SPDX-License-Identifier: GPL-2.0-or-later
extension ChatFilters {
    /// Whether a name a viewer chose for themselves (a nickname written as `@name` in chat) is
    /// free of NG words, matched as the rows' text is (folded, invisible characters ignored).
    public func allowsName(_ name: String) -> Bool {
        ngWords.words.isEmpty || !ngWords.words.containsMatch(in: TextFolding.fold(name))
    }
}
