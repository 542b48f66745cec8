// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What a moderator's action does to the log (a deleted message, a ban), and the viewers' name
/// keys a nickname taken in chat is checked against (`NicknameRules`).
extension ChatStore {
    /// A name's key, folded once and kept (at most a few thousand names).
    func nameKey(_ name: String) -> String {
        if let known = nameKeys[name] { return known }
        if nameKeys.count >= 4096 { nameKeys.removeAll(keepingCapacity: true) }
        let key = ChatFilters.nameKey(name)
        nameKeys[name] = key
        return key
    }

    /// Keys for the viewers written before the log had them (a log of an older CommentBar).
    func fillNameKeys() throws(SQLiteError) {
        let missing = try statement("SELECT id, name, login FROM viewers WHERE name_key IS NULL")
            .rows { ($0.int(0), $0.text(1) ?? "", $0.text(2)) }
        guard !missing.isEmpty else { return }
        try connection.transaction { () throws(SQLiteError) in
            for (id, name, login) in missing {
                try statement("UPDATE viewers SET name_key = ?2, login_key = ?3 WHERE id = ?1")
                    .run([.int(id), .text(nameKey(name)), .optional(login.map(nameKey))])
            }
        }
    }

    /// A moderator deleted one message: its text goes, the row stays marked deleted, and a
    /// nickname it set is undone. Returns the viewers whose nickname was undone.
    func deleteMessage(_ messageID: String, in session: OpenSession, at time: Double) throws(SQLiteError) -> [ViewerKey] {
        let matching = "channel_id = ?1 AND message_id = ?2 AND time >= ?3 AND deleted = 0"
        let values: [SQLiteValue] = [.int(session.channelID), .text(messageID), .real(time - Self.moderationReach)]
        let undone = try undoNicknames(of: matching, values, on: session.channel)
        try statement("UPDATE messages SET text = NULL, deleted = 1 WHERE \(matching)").run(values)
        return undone
    }

    /// A ban or timeout: the user's recent messages lose their text, and the nicknames they set
    /// are undone. Returns the viewers whose nickname was undone.
    func deleteMessages(ofUser user: String, in session: OpenSession, at time: Double) throws(SQLiteError) -> [ViewerKey] {
        let matching = "viewer = (SELECT id FROM viewers WHERE channel_id = ?1 AND user = ?2) AND time >= ?3 AND deleted = 0"
        let values: [SQLiteValue] = [.int(session.channelID), .text(ViewerKey.userKey(user)), .real(time - Self.moderationReach)]
        let undone = try undoNicknames(of: matching, values, on: session.channel)
        try statement("UPDATE messages SET text = NULL, deleted = 1 WHERE \(matching)").run(values)
        return undone
    }

    /// Puts back, newest row first, the nickname each row `matching` replaced, where its viewer
    /// still has the one the row set. `matching`: one of this type's own conditions.
    private func undoNicknames(of matching: String, _ values: [SQLiteValue], on channel: ChannelRef) throws(SQLiteError)
        -> [ViewerKey] {
        let rows = try statement("""
            SELECT m.viewer, v.user, m.nickname_set, m.nickname_before FROM messages m JOIN viewers v ON v.id = m.viewer
            WHERE m.id IN (SELECT id FROM messages WHERE \(matching)) AND m.nickname_set IS NOT NULL ORDER BY m.id DESC
            """).rows(values) { ($0.int(0), $0.text(1) ?? "", $0.text(2), $0.text(3)) }
        var undone: [ViewerKey] = []
        for (viewer, user, set, before) in rows {
            let changed = try statement("UPDATE viewers SET nickname = ?2 WHERE id = ?1 AND nickname IS ?3")
                .run([.int(viewer), .optional(before), .optional(set)])
            if changed > 0 { undone.append(ViewerKey(channel: channel, user: user)) }
        }
        return undone
    }
}
