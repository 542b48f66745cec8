// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What one chat message means to a feed whose chat belongs to one broadcast (OPENREC,
/// SHOWROOM): the platform's mapper decides, and `perform` does the same for every platform.
package enum BroadcastChatAction: Sendable, Equatable {
    case emit(FeedEvent)
    /// The broadcast is over.
    case ended
    /// A new broadcast began: its chat needs a new connection (a new key or movie).
    case restart
    /// A kind the platform sends that carries nothing for the bar (votes, visits, lists, …).
    case ignore
    /// A kind nobody has described: skipped with a log line.
    case unknown(String)

    /// The `ended` status's reason, the same on every platform.
    package static let endedReason = "配信終了 / broadcast ended"

    /// Emits or notes the message; for the end of the broadcast or a new one, how the
    /// connection ends (`ResolvedChatLoop` then asks the API again). Nil: read on.
    package func perform(emit: (FeedEvent) -> Void, problems: InputProblemLog) -> ResolvedChatLoop.SessionEnd? {
        switch self {
        case .emit(let event):
            emit(event)
            return nil
        case .ended:
            return .ended(Self.endedReason)
        case .restart:
            return .closed("配信開始 / a new broadcast started")
        case .ignore:
            return nil
        case .unknown(let reason):
            problems.note(reason)
            return nil
        }
    }
}
