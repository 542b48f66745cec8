// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// コテハン, the NCV convention: a comment ending in `@name` or `＠name` (1–16 characters) sets
/// the writer's nickname on the channel.
enum ChatNickname {
    static let maxCharacters = 16

    /// The nickname a comment sets, if any. A trailing ASCII `@account` after a space (or as the
    /// whole comment) is how Twitch, Kick and YouTube chats mention someone (`gg @streamer`), so
    /// it is read as a mention, not a nickname; `＠` and `@` right after the text, or before a
    /// name that is not account-like (`@たろう`), set one.
    static func find(in text: String) -> String? {
        let trimmed = Substring(text).trimmingTrailingWhitespace()
        guard let at = trimmed.lastIndex(where: { $0 == "@" || $0 == "＠" }) else { return nil }
        let name = trimmed[trimmed.index(after: at)...]
        guard (1...maxCharacters).contains(name.count), !name.contains(where: \.isWhitespace) else { return nil }
        if trimmed[at] == "@" {
            let followsSpace = at == trimmed.startIndex || trimmed[trimmed.index(before: at)].isWhitespace
            let accountLike = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            if followsSpace && accountLike { return nil }
        }
        return String(name)
    }
}

private extension Substring {
    func trimmingTrailingWhitespace() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[startIndex..<end]
    }
}
