// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The rows whose emotes are fetched: those the bar can show. The newest rows, and the pinned
/// one however old it is (its strip shows it, and a row pinned from the control page may have
/// come in a burst of more than fit, or had its pictures let go since).
enum EmoteRows {
    /// At most this many rows fit on a bar (50 lines of comments).
    static let newest = 50

    /// What the rows are: when it changes, they are asked for again.
    struct Key: Equatable {
        var linesRevision: UInt64
        var pinnedID: String?
    }

    static func key(of state: BarState) -> Key {
        Key(linesRevision: state.linesRevision, pinnedID: state.pinned?.line.id)
    }

    static func rows(of state: BarState) -> [ChatLine] {
        var rows = Array(state.lines.suffix(newest))
        if let pinned = state.pinned?.line { rows.append(pinned) }
        return rows
    }
}
