// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// How an event the flow released becomes the bar's: applied to the state, with the row it added
/// as the bar shows it (filtered, NG words masked), and deletions naming rows as the bar does.
enum RowMapping {
    /// Applies one event (now due) to the bar; what the parts hear of it: the event, and the row
    /// it added as the bar shows it (nil for anything filtered out).
    static func apply(_ event: FeedEvent, from origin: BarState.Origin,
                      to state: inout BarState) -> (FeedEvent, ChatLine?) {
        let revision = state.linesRevision
        state.apply(event, from: origin)
        let added = state.linesRevision != revision ? newRow(of: event, origin, in: state) : nil
        return (rowEvent(event, origin), added)
    }

    /// Deletions name rows as the bar does: a stream's own ids are tagged when there are several.
    static func rowEvent(_ event: FeedEvent, _ origin: BarState.Origin) -> FeedEvent {
        if case .delete(let id) = event { return .delete(id: RowID(id, from: origin).text) }
        return event
    }

    /// The row a comment or gift added, as the bar shows it (filtered, NG words masked).
    static func newRow(of event: FeedEvent, _ origin: BarState.Origin, in state: BarState) -> ChatLine? {
        guard let last = state.lines.last else { return nil }
        switch event {
        case .comment(let line), .gift(let line): return matches(last, line, origin)
        default: return nil
        }
    }

    private static func matches(_ row: ChatLine, _ line: ChatLine, _ origin: BarState.Origin) -> ChatLine? {
        row.id == RowID(line.id, from: origin).text ? row : nil
    }
}
