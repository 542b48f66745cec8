// SPDX-License-Identifier: GPL-2.0-or-later
extension ChatFilters {
    /// Whether a name a viewer chose for themselves (a nickname written as `@name` in chat) is
    /// free of NG words, matched as the rows' text is (folded, invisible characters ignored).
    public func allowsName(_ name: String) -> Bool {
        ngWords.words.isEmpty || !ngWords.words.containsMatch(in: TextFolding.fold(name))
    }

    /// A name as names are compared when one may pass for another (a nickname taken in chat
    /// against the channel's and the other viewers' names): folded as NG words fold text (NFKC,
    /// case, look-alike letters, marks and invisible characters), without spaces, so `ＴｈｅＳｔｒｅａｍｅｒ`,
    /// `thestreamer` and `The Streamer` are one name.
    public static func nameKey(_ name: String) -> String {
        TextFolding.fold(name).units.filter { !$0.allSatisfy(\.isWhitespace) }.joined()
    }
}
