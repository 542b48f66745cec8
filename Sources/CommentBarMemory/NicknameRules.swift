// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Whether a viewer may take the nickname they wrote in chat, on the feed path: no NG word, and
/// not a name they could pass for someone else by — the channel's own (its id, the address the
/// bar was given), another viewer's display name or login on the channel (the streamer and the
/// moderators are viewers of it once they wrote), compared as `ChatFilters.nameKey` folds names
/// (`ok＠Alice`, `ＴｈｅＳｔｒｅａｍｅｒ` and `thestreamer` are one name). Their own name is theirs.
enum NicknameRules {
    /// `reserved`: the channel's other names (the address it was opened by). `reader`: the log,
    /// for viewers not seen in this run; nil (it cannot be read now): refused, being unchecked.
    static func allows(_ nickname: String, for key: ViewerKey, reserved: [String], filters: ChatFilters,
                       book: ViewerBook, committed: UInt64, reader: ChatReader?) -> Bool {
        guard filters.allowsName(nickname) else { return false }
        let wanted = ChatFilters.nameKey(nickname)
        guard !wanted.isEmpty, !([key.channel.channel] + reserved).contains(where: { ChatFilters.nameKey($0) == wanted }),
              !book.someoneElse(on: key.channel, isNamed: wanted, not: key, committed: committed), let reader else {
            return false
        }
        return (try? reader.someoneElse(on: key.channel, isNamed: wanted, not: key.user)) == false
    }
}
