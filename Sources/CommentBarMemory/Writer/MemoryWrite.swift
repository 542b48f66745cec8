// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What the writer thread is told, in order.
enum MemoryWrite: Sendable {
    case openSession(token: UInt64, channel: ChannelRef, at: Double)
    case endSession(token: UInt64, at: Double)
    case message(MessageRecord)
    case delete(token: UInt64, messageID: String, at: Double)
    case deleteUser(token: UInt64, user: String, at: Double)
    case choices(ViewerKey, nickname: FieldChange<String>, colour: FieldChange<RGBColor>, voice: FieldChange<String>, hidden: Bool?)
    /// OBS started recording at this time: the open sessions' subtitles are timed to it.
    case recording(start: Double)
    /// The bar's filters, for the verdict kept with each row.
    case filters(ChatFilters)
    /// How much the log keeps (`LogUpkeep`).
    case limits(LogLimits)
    /// A change of a source's poll, queue or giveaway (issue 48).
    case board(BoardRecord)

    var isMessage: Bool {
        if case .message = self { return true }
        return false
    }

    /// The source whose whole queue this item writes, if it is one: a later one in the same
    /// batch makes it needless (`WriterWork`).
    var queueSource: String? {
        if case .board(.queue(let source, _)) = self { return source }
        return nil
    }
}
