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

    var isMessage: Bool {
        if case .message = self { return true }
        return false
    }
}
